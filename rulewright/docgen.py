"""The reference pages written from the code: docs/cli.md from the argument parser of
rulewright/cli.py, docs/api.md from the runtime's source (its exported names, their signatures and
docstrings).

    python -m rulewright.docgen            # write both (also: make docs)
    python -m rulewright.docgen --check    # exit 1 if a committed page differs (tests/test_docgen.py)

Both pages are the same on every machine: the CLI page lays out usage lines itself (no terminal
width), and the API page reads the runtime's source with `ast` (nothing is imported, so neither
OpenSpiel nor PettingZoo need be installed to write it).
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
REFRESH = "python -m rulewright.docgen"  # also `make docs`
USAGE_WIDTH = 100


def _header(source: str) -> str:
    return f"<!-- written by `{REFRESH}` from {source}: edit that, not this page -->\n"


# ---- the CLI reference ---------------------------------------------------------------------------


def _metavar(action: argparse.Action) -> str:
    if action.metavar is not None:
        return str(action.metavar)
    if action.choices is not None:
        return "{" + ",".join(str(c) for c in action.choices) + "}"
    return action.dest.upper() if action.option_strings else action.dest


def _arguments(action: argparse.Action) -> str:
    """What follows an option (or stands for a positional), as argparse writes it."""
    m = _metavar(action)
    match action.nargs:
        case None:
            return m
        case "?":
            return f"[{m}]"
        case "*":
            return f"[{m} ...]"
        case "+":
            return f"{m} [{m} ...]"
        case argparse.REMAINDER:
            return "..."
        case argparse.PARSER:
            return f"{m} ..."
        case int(n):
            return " ".join([m] * n)
    raise ValueError(f"nargs {action.nargs!r} of {action.dest} has no layout here")


def _shown(action: argparse.Action) -> bool:
    return action.help != argparse.SUPPRESS


def _usage_part(action: argparse.Action) -> str:
    if not action.option_strings:
        return _arguments(action)
    args = _arguments(action) if action.nargs != 0 else ""
    return f"{action.option_strings[0]} {args}".rstrip()


def _usage(parser: argparse.ArgumentParser) -> str:
    """`usage: PROG [options] POSITIONALS`, wrapped at USAGE_WIDTH between whole parts."""
    grouped = {id(a): g for g in parser._mutually_exclusive_groups for a in g._group_actions}
    parts: list[str] = []
    done: set[int] = set()
    for action in [a for a in parser._actions if a.option_strings and _shown(a)]:
        group = grouped.get(id(action))
        if group is None:
            part = _usage_part(action)
            parts.append(part if action.required else f"[{part}]")
        elif id(group) not in done:
            done.add(id(group))
            inner = " | ".join(_usage_part(a) for a in group._group_actions if _shown(a))
            parts.append(f"({inner})" if group.required else f"[{inner}]")
    parts += [_usage_part(a) for a in parser._actions if not a.option_strings and _shown(a)]
    head = f"usage: {parser.prog} "
    lines = [head]
    for part in parts:
        if len(lines[-1]) + len(part) > USAGE_WIDTH and lines[-1].strip() != head.strip():
            lines.append(" " * len(head))
        lines[-1] += part + " "
    return "\n".join(line.rstrip() for line in lines)


def _help(action: argparse.Action, prog: str) -> str:
    text = action.help or ""
    if "%" in text:  # argparse's own expansion: %(default)s, %(prog)s, %%
        params = dict(vars(action), prog=prog)
        if params.get("choices") is not None:
            params["choices"] = ", ".join(str(c) for c in params["choices"])
        text = text % params
    return text


def _inline(text: str) -> str:
    """Help text as Markdown: code spans kept, everything else free of Markdown's own marks."""
    pieces = re.split(r"(`[^`]*`)", text)
    return "".join(p if p.startswith("`") else re.sub(r"([*\\|<>])", r"\\\1", p) for p in pieces)


def _argument_lines(parser: argparse.ArgumentParser) -> Iterator[str]:
    positionals = [a for a in parser._actions if not a.option_strings and _shown(a)]
    optionals = [a for a in parser._actions if a.option_strings and _shown(a)]
    subparsers = [a for a in positionals if isinstance(a, argparse._SubParsersAction)]
    positionals = [a for a in positionals if a not in subparsers]
    if positionals:
        yield "Arguments:\n"
        for a in positionals:
            yield f"- `{_metavar(a)}`: {_inline(_help(a, parser.prog))}"
        yield ""
    if optionals:
        yield "Options:\n"
        for a in optionals:
            args = f" {_arguments(a)}" if a.nargs != 0 else ""
            names = ", ".join(f"`{o}`" for o in a.option_strings[:-1])
            last = f"`{a.option_strings[-1]}{args}`"
            yield f"- {names + ', ' if names else ''}{last}: {_inline(_help(a, parser.prog))}"
        yield ""


def _anchor(title: str) -> str:
    """GitHub's anchor for a heading: lower case, spaces as dashes, punctuation dropped."""
    return re.sub(r"[^a-z0-9 _-]", "", title.lower()).replace(" ", "-")


def _section(parser: argparse.ArgumentParser, title: str, description: str | None) -> Iterator[str]:
    yield f"## {title}\n"
    if description:
        yield f"{_inline(description)}\n"
    yield f"```text\n{_usage(parser)}\n```\n"
    yield from _argument_lines(parser)
    if parser.epilog:
        if parser.formatter_class is argparse.RawDescriptionHelpFormatter:
            yield f"```text\n{parser.epilog.rstrip()}\n```\n"
        else:
            yield f"{_inline(parser.epilog)}\n"


def cli_reference(parser: argparse.ArgumentParser) -> str:
    """docs/cli.md: every command of `parser`, in its order, with its usage, arguments and examples."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {c.dest: c.help or "" for c in sub._choices_actions}
    commands: dict[str, argparse.ArgumentParser] = sub.choices
    out = [
        "# Command-line reference\n",
        _header("the argument parser of rulewright/cli.py"),
        "Every `rulewright` command, with its arguments and options as `rulewright COMMAND --help` "
        "gives them. The README's [command line section](../README.md#the-command-line-when-something-goes-wrong) "
        "says what happens when something goes wrong; [troubleshooting.md](troubleshooting.md) what to "
        "do about it.\n",
        f"- [{parser.prog}](#{_anchor(parser.prog)}): the options before the command, and the exit codes",
    ]
    for name in commands:
        title = f"{parser.prog} {name}"
        out.append(f"- [{title}](#{_anchor(title)}): {_inline(helps.get(name, ''))}")
    out.append("")
    out += _section(parser, parser.prog, parser.description)
    for name, sp in commands.items():
        out += _section(sp, f"{parser.prog} {name}", sp.description)
    return "\n".join(out).rstrip() + "\n"


# ---- the Python API reference --------------------------------------------------------------------


@dataclass(frozen=True)
class Group:
    """A section of the API page: a module and the names of it listed there, in this order. For a
    class, `members` lists the methods shown (None: every public one defined in its body)."""

    title: str
    module: str
    names: tuple[str, ...]
    intro: str
    members: dict[str, tuple[str, ...]] | None = None


# GameState's API for its users; the methods after these in runtime/engine.py are what compiled
# engines call (moving cards, asking for decisions), not an API of their own.
STATE_API = (
    "current_player", "legal_actions", "action_to_string", "string_to_action", "apply_action",
    "simultaneous", "legal_actions_of", "apply_joint", "is_terminal", "is_chance_node",
    "chance_outcomes", "chance_label", "returns", "winners", "ranking", "log_entries", "log",
    "player_log", "history", "prompt", "player_id", "clone", "to_json", "observation",
    "window_status", "observation_string",
)  # fmt: skip

GROUPS = (
    Group(
        "Games and states",
        "runtime",
        ("load_game", "available_games", "Game", "GameState", "State", "TERMINAL"),
        "`import runtime`: load a compiled game by name and play it through its states.",
        {"GameState": STATE_API},
    ),
    Group(
        "Errors",
        "runtime",
        ("IllegalActionError", "RuleError", "UnknownGameError"),
        "What the runtime raises; each leaves the state as it was before the call.",
    ),
    Group(
        "What compiled engines import",
        "runtime",
        ("exported",),
        "Not for your code: the one list of runtime names a generated module may import.",
    ),
    Group(
        "Agents",
        "runtime.agents",
        ("Agent", "make_agent", "AGENTS", "RandomAgent", "GreedyAgent", "FirstAgent"),
        "The bots of `rulewright play --agents` and `simulate --agents`, for your own loops too. "
        "Each agent has the one method of `Agent`, `choose(state)`.",
        {"RandomAgent": (), "GreedyAgent": (), "FirstAgent": ()},
    ),
    Group(
        "Saved states and search",
        "runtime.saved",
        ("load_state",),
        "A state saved by `GameState.to_json`, read back and checked as untrusted input.",
    ),
    Group(
        "Saved states and search",
        "runtime.contract",
        ("determinize",),
        "For search over what a player cannot see (ISMCTS, the MCTS bot).",
    ),
    Group(
        "Viewing",
        "runtime.view",
        ("describe", "view_lines", "card_text"),
        "A state as text, as one player sees it ([viewing.md](viewing.md)).",
    ),
    Group(
        "OpenSpiel",
        "runtime.adapters.openspiel",
        ("register", "register_all", "from_engine", "RulewrightGame", "RulewrightState", "MCTSAgent"),
        "Needs `pip install 'rulewright[rl]'`. Importing the module registers every compiled game "
        "as `rulewright_<game>` ([adapters.md](adapters.md)). The game and state classes have "
        "OpenSpiel's `pyspiel.Game` and `pyspiel.State` API.",
        {"RulewrightGame": (), "RulewrightState": ()},
    ),
    Group(
        "PettingZoo",
        "runtime.adapters.pettingzoo",
        ("env", "parallel_env", "raw_env", "RulewrightEnv", "RulewrightParallelEnv"),
        "Needs `pip install 'rulewright[rl]'` ([adapters.md](adapters.md)). The environments have "
        "PettingZoo's `AECEnv` and `ParallelEnv` API.",
        {"RulewrightEnv": (), "RulewrightParallelEnv": ()},
    ),
)


def _source(module: str) -> Path:
    path = ROOT.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def _parsed(module: str, cache: dict[str, ast.Module]) -> ast.Module:
    if module not in cache:
        cache[module] = ast.parse(_source(module).read_text(encoding="utf-8"))
    return cache[module]


def _comment(module: str, node: ast.stmt) -> str | None:
    """What documents a constant without a docstring: the comment ending its line, else the block
    of comment lines right above it."""
    lines = _source(module).read_text(encoding="utf-8").splitlines()
    last = lines[(node.end_lineno or node.lineno) - 1]
    if "  # " in last:
        return last.split("  # ", 1)[1].strip()
    above: list[str] = []
    i = node.lineno - 2
    while i >= 0 and lines[i].lstrip().startswith("#"):
        above.insert(0, lines[i].lstrip()[1:].strip())
        i -= 1
    return " ".join(above) or None


@dataclass(frozen=True)
class Found:
    """Where a name is defined: its module, its node, and the docstring under an assignment."""

    module: str
    node: ast.stmt
    doc: str | None


def _find(module: str, name: str, cache: dict[str, ast.Module]) -> Found:
    """The definition of `name` as `module` has it, following `from runtime.x import name` (also
    under `if TYPE_CHECKING:`, where runtime/__init__.py names what it imports when asked for)."""
    body: list[ast.stmt] = []
    for node in _parsed(module, cache).body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            body.extend(node.body)
        else:
            body.append(node)
    for i, node in enumerate(body):
        match node:
            case ast.FunctionDef(name=n) | ast.ClassDef(name=n) if n == name:
                return Found(module, node, ast.get_docstring(node))
            case ast.Assign(targets=[ast.Name(id=n)]) | ast.AnnAssign(target=ast.Name(id=n)) if n == name:
                after = body[i + 1] if i + 1 < len(body) else None
                if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
                    return Found(module, node, str(after.value.value))
                said = _comment(module, node)
                if said:  # a comment, said as a sentence
                    said = said[0].upper() + said[1:] + ("" if said.endswith(".") else ".")
                return Found(module, node, said)
            case ast.ImportFrom(module=str(source), names=names) if source.startswith("runtime"):
                for alias in names:
                    if (alias.asname or alias.name) == name:
                        return _find(source, alias.name, cache)
    raise LookupError(f"{module} defines no {name}")


def _parameters(args: ast.arguments, drop_self: bool = False) -> str:
    """A def's parameters as PEP 8 writes them (`x: int = 0`; ast.unparse writes `x: int=0`)."""

    def one(a: ast.arg, default: ast.expr | None) -> str:
        text = a.arg + (f": {ast.unparse(a.annotation)}" if a.annotation is not None else "")
        if default is not None:
            text += f" = {ast.unparse(default)}" if a.annotation is not None else f"={ast.unparse(default)}"
        return text

    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    parts = [one(a, d) for a, d in zip(positional, defaults, strict=True)]
    if args.posonlyargs:
        parts.insert(len(args.posonlyargs), "/")
    if args.vararg is not None:
        parts.append("*" + one(args.vararg, None))
    elif args.kwonlyargs:
        parts.append("*")
    parts += [one(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)]
    if args.kwarg is not None:
        parts.append("**" + one(args.kwarg, None))
    if drop_self and parts and parts[0] in ("self", "cls"):
        parts = parts[1:]
    return ", ".join(parts)


def _signature(node: ast.FunctionDef) -> str:
    returns = f" -> {ast.unparse(node.returns)}" if node.returns is not None else ""
    return f"{node.name}({_parameters(node.args)}){returns}"


def _doc_block(doc: str | None, where: str, indent: str = "") -> str:
    """A docstring as Markdown paragraphs (each on one line; after the first, indented by
    `indent`, to stay in a list item)."""
    if not doc:
        raise LookupError(f"{where} has no docstring: write one")
    paragraphs = [_inline(" ".join(p.split())) for p in doc.split("\n\n") if p.strip()]
    return f"\n\n{indent}".join(paragraphs)


def _methods(cls: ast.ClassDef, wanted: Sequence[str] | None) -> list[ast.FunctionDef]:
    defined = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}
    if wanted is None:
        return [f for name, f in defined.items() if not name.startswith("_")]
    missing = [w for w in wanted if w not in defined]
    if missing:
        raise LookupError(f"{cls.name} has no {', '.join(missing)}")
    return [defined[w] for w in wanted]


def _entry(group: Group, name: str, cache: dict[str, ast.Module]) -> Iterator[str]:
    found = _find(group.module, name, cache)
    where = f"{found.module}.{name}"
    node = found.node
    if isinstance(node, ast.FunctionDef):
        yield f"### `{group.module}.{_signature(node)}`\n"
        yield _doc_block(found.doc, where) + "\n"
    elif isinstance(node, ast.ClassDef):
        bases = ", ".join(ast.unparse(b) for b in node.bases)
        yield f"### `class {group.module}.{name}{f'({bases})' if bases else ''}`\n"
        yield _doc_block(found.doc, where) + "\n"
        init = next((n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
        if init is not None:
            yield f"Constructor: `{name}({_parameters(init.args, drop_self=True)})`\n"
        methods = _methods(node, (group.members or {}).get(name))
        for method in methods:
            prop = any(ast.unparse(d) == "property" for d in method.decorator_list)
            head = f"`{method.name}`" if prop else f"`{_signature(method)}`"
            kind = " (property)" if prop else ""
            doc = ast.get_docstring(method)
            yield f"- {head}{kind}: {_doc_block(doc, f'{where}.{method.name}', indent='  ')}"
        if methods:
            yield ""
    else:
        assert isinstance(node, ast.Assign | ast.AnnAssign)
        value = node.value
        text = ast.unparse(value) if value is not None else "..."
        if isinstance(value, ast.Name):  # an alias
            yield f"### `{group.module}.{name}`\n"
            yield f"The same as `{text}`. " + _doc_block(found.doc, where) + "\n"
            return
        yield f"### `{group.module}.{name}`\n"
        shown = text if len(text) <= 300 else text[:300] + " ..."
        yield f"```python\n{name} = {shown}\n```\n"
        yield _doc_block(found.doc, where) + "\n"


def api_reference() -> str:
    """docs/api.md: the runtime's public names, grouped, each with its signature and docstring."""
    cache: dict[str, ast.Module] = {}
    package = _parsed("runtime", cache)
    exported = _all_of(package)
    listed = {n for g in GROUPS if g.module == "runtime" for n in g.names}
    if set(exported) != listed:
        raise LookupError(
            f"runtime.__all__ and the groups of rulewright/docgen.py differ: {sorted(set(exported) ^ listed)}"
        )
    titles = list(dict.fromkeys(g.title for g in GROUPS))
    out = [
        "# Python API reference\n",
        _header("the runtime's source (runtime/__init__.py's `__all__` and the modules below)"),
        "The runtime is what a compiled game needs to run and what your code uses to play it; it "
        "imports nothing from the compiler. `import runtime` gives the names of its `__all__`; the "
        "agents, views and adapters are modules of their own. How games, states and decisions work: "
        "[architecture.md](architecture.md); the OpenSpiel and PettingZoo adapters at length: "
        "[adapters.md](adapters.md).\n",
        "```python\n"
        "import runtime\n"
        'game = runtime.load_game("kuhn_poker")\n'
        "state = game.new_initial_state(seed=1)\n"
        "while not state.is_terminal():\n"
        "    state.apply_action(state.legal_actions()[0])\n"
        "print(state.returns())\n"
        "```\n",
    ]
    out += [f"- [{t}](#{_anchor(t)})" for t in titles]
    out.append("")
    for title in titles:
        out.append(f"## {title}\n")
        for group in (g for g in GROUPS if g.title == title):
            out.append(f"From `{group.module}`. {group.intro}\n")
            for name in group.names:
                out += _entry(group, name, cache)
    return "\n".join(out).rstrip() + "\n"


def _all_of(module: ast.Module) -> list[str]:
    for node in module.body:
        if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["__all__"]:
            value = ast.literal_eval(node.value)
            return [str(v) for v in value]
    raise LookupError("runtime/__init__.py has no __all__")


# ---- writing and checking ------------------------------------------------------------------------


def pages() -> dict[Path, str]:
    """Each reference page and its text, as the code says it should be."""
    from unittest import mock

    from rulewright import parallel
    from rulewright.cli import parser

    # `-j`'s help says how many cores this machine has: not on a page every machine writes alike
    with mock.patch.object(parallel, "usable_cores", return_value="as many as there are"):
        cli = cli_reference(parser(complete=True))
    return {DOCS / "cli.md": cli, DOCS / "api.md": api_reference()}


def stale() -> list[Path]:
    """The committed pages that differ from what the code says."""
    return [
        path
        for path, text in pages().items()
        if not path.is_file() or path.read_text(encoding="utf-8") != text
    ]


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m rulewright.docgen", description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 if a page is stale")
    args = p.parse_args(argv)
    if not DOCS.is_dir():
        print(f"docgen: no docs/ folder at {ROOT} (run it in a checkout)", file=sys.stderr)
        return 2
    if args.check:
        old = stale()
        for path in old:
            print(f"{path.relative_to(ROOT)} is stale: run `{REFRESH}` (or make docs)", file=sys.stderr)
        return 1 if old else 0
    for path, text in pages().items():
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
