"""The `rulewright` command: the table of its commands, the parser made from it, and main, which
maps how a command ended to an exit code (EXIT_*).

Each command is a module of rulewright/commands/, which adds its own arguments and runs it (see
rulewright/commands/__init__.py); the table names it, and it is imported only when its command is
parsed or run. Each command works in a workspace (rulewright/workspace.py): the specs it checks
and builds, and the output folder its engines are written to and loaded from, before the bundled
games.

No input ends in a traceback: a bad argument, path, game name or log is a one-line message on
stderr, `rulewright COMMAND: ...`, and an exit code (EXIT_*). Output files and folders are
checked before any game is played, so a typo in `--log` never costs a game.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, Protocol, cast

from compiler import __version__
from rulewright.commands.exits import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_SIGNALLED,
    EXIT_SPEC,
    EXIT_USAGE,
    CommandFailed,
    UsageError,
)
from runtime.errors import RuleError
from runtime.text import clipped, escaped, escaped_lines

if TYPE_CHECKING:
    from rulewright.parallel import WorkerDied

DEBUG_ENV = "RULEWRIGHT_DEBUG"  # set to 1 for the traceback of an internal error

# what other code imports from here (the exit codes are defined with the errors that end a
# command, in rulewright/commands/exits.py)
__all__ = [
    "COMMANDS",
    "DEBUG_ENV",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_SIGNALLED",
    "EXIT_SPEC",
    "EXIT_USAGE",
    "main",
    "parser",
]


class ArgumentError(Exception):
    """argparse's complaint about the command line, raised instead of exiting."""

    def __init__(self, prog: str, message: str) -> None:
        super().__init__(message)
        self.prog = prog


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line, `rulewright COMMAND: ...`, and main() decides the exit."""

    def error(self, message: str) -> NoReturn:
        raise ArgumentError(self.prog, f"{message} (see `{self.prog} --help`)")


class CommandModule(Protocol):
    """A module of rulewright/commands/: the command's own arguments, and the command itself."""

    def arguments(self, sp: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


@dataclass(frozen=True)
class Command:
    """One subcommand: its name, its help, and its module, rulewright/commands/NAME.py, which adds
    its own arguments and runs it."""

    name: str
    help: str
    epilog: str | None = None  # laid out as written (line breaks kept)

    def load(self) -> CommandModule:
        """The command's module, imported now: only the command being parsed or run is."""
        return cast(CommandModule, importlib.import_module(f"rulewright.commands.{self.name}"))

    def run(self, args: argparse.Namespace) -> int:
        return self.load().run(args)

    def subparser(self, sub: argparse._SubParsersAction[CommandParser]) -> CommandParser:
        sp = sub.add_parser(
            self.name,
            help=self.help,
            description=self.help,
            epilog=self.epilog,
            formatter_class=argparse.RawDescriptionHelpFormatter if self.epilog else argparse.HelpFormatter,
            command=self,
        )
        sp.set_defaults(fn=self.run)
        # also after the command; SUPPRESS keeps the subcommand from resetting a global --workspace
        sp.add_argument("--workspace", metavar="DIR", default=argparse.SUPPRESS, help=WORKSPACE_HELP)
        return sp


class CommandParser(ArgumentParser):
    """A command's parser, to which its module adds the command's own arguments when they are first
    needed: to parse them, or to print the command's help. `rulewright check` so imports no other
    command's module (nor the engine, the agents or the worker pool their arguments name)."""

    def __init__(self, *args: Any, command: Command, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.command = command
        self.complete = False

    def completed(self) -> CommandParser:
        """This parser, with the command's own arguments (added the first time)."""
        if not self.complete:
            self.complete = True
            self.command.load().arguments(self)
        return self

    # the ways argparse comes to a subcommand's arguments: to parse them, or to print its usage or help
    def parse_known_args(self, *args: Any, **kwargs: Any) -> Any:
        self.completed()
        return super().parse_known_args(*args, **kwargs)

    def format_usage(self) -> str:
        self.completed()
        return super().format_usage()

    def format_help(self) -> str:
        self.completed()
        return super().format_help()


WORKSPACE_HELP = (
    "the workspace folder (default: the nearest folder up from here with a rulewright.toml, "
    "else this one if it has specs/)"
)


def parser(*, complete: bool = False) -> argparse.ArgumentParser:
    """The command line: global options, then one subcommand of COMMANDS with its own arguments,
    added when that command is parsed (with `complete`, every command's now: docs/cli.md)."""
    p = ArgumentParser(
        prog="rulewright",
        description="Board-game rules as data, compiled to engines.",
        epilog="exit codes: 0 ok; 1 a spec, rule or check failed; 2 bad input (an argument, path, game "
        "or log; also a game abandoned at a human's decision: the end of input, or q); 70 an internal error (set "
        f"{DEBUG_ENV}=1 for its traceback); 130 interrupted by Ctrl-C; 128+N a worker process (-j) killed by "
        "signal N (137: SIGKILL, out of memory?)",
    )
    p.add_argument("--version", action="version", version=f"rulewright {__version__}")
    p.add_argument("--workspace", metavar="DIR", help=WORKSPACE_HELP)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=CommandParser)
    for command in COMMANDS:
        sp = command.subparser(sub)
        if complete:
            sp.completed()
    return p


# in the order `rulewright --help` lists them
COMMANDS: tuple[Command, ...] = (
    Command(
        "init",
        "make a folder a workspace: a rulewright.toml and an empty specs/",
        epilog="A workspace is where your games live: `rulewright` run in it (or below it) checks and\n"
        "builds its specs/ and writes the engines into its own output folder (generated/), never\n"
        "into the installed package. See `rulewright docs workspace`.",
    ),
    Command(
        "docs",
        "the docs, here in the terminal: list the pages, print one, or say where they are",
        epilog="examples:\n"
        "  rulewright docs                       every page, with its title\n"
        "  rulewright docs tutorial | less       one page (Markdown)\n"
        "  rulewright docs --path                the folder of the pages and their images\n"
        '  cp -r "$(rulewright docs --specs)/kuhn_poker" specs/   an example spec to start from',
    ),
    Command("check", "check specs and print located diagnostics (exit 1 on errors)"),
    Command(
        "build",
        "compile the workspace's specs into its output folder (generated/)",
    ),
    Command(
        "games",
        "list the games: the workspace's, then the bundled ones, with their options",
    ),
    Command(
        "schema",
        "the JSON Schemas of the spec files, for YAML editors: where they are, and editor settings",
        epilog="examples:\n"
        "  rulewright schema                  where the installed schemas are, and the settings\n"
        "  rulewright schema --out .vscode    a copy of them in your workspace, and the settings\n"
        "\n"
        "An editor with the YAML language server (VS Code's YAML extension, Neovim's yamlls) then\n"
        "completes and checks the keys of every spec file, each key's meaning shown on hover.\n"
        "See `rulewright docs editor`.",
    ),
    Command(
        "draw",
        "draw a state of a game: its board as an SVG or PNG picture, or the terminal view",
        epilog="Examples:\n"
        "  rulewright draw GAME --steps 120 --out board.png                 # everything, face up\n"
        "  rulewright draw GAME --steps 30 --as PLAYER                      # one player's view, as text\n"
        "  rulewright draw --log game.json --steps 40 --as PLAYER --out s.svg  # a logged game's step 40\n"
        "How a game is drawn is declared in its spec's board.yaml (docs/dsl.md).",
    ),
    Command(
        "play",
        "play one game in the terminal",
        epilog="A human player answers with an option's number or its text; `?` at the prompt lists the\n"
        "keys (v: the whole view, l: the whole log, q: quit). Before each decision they see what\n"
        "changed in their view since their last one, and the log since then.\n"
        "\n"
        "exit 0: the game ended; 1: a rule error; 2: a bad argument, or the game abandoned at a\n"
        "human's decision, by `q` or by the end of input (Ctrl-D); 130: Ctrl-C. A game stopped by\n"
        "Ctrl-C, Ctrl-D or `q` keeps its log, marked unfinished: in --log FILE, or, with a human\n"
        "player and no --log, in a new file rulewright-GAME-seedN-unfinished.json here.\n"
        "`rulewright replay` re-runs it to where it stopped.",
    ),
    Command(
        "replay",
        "re-run a logged game and verify its recorded final state",
        epilog="exit 0: the final state matches (also for an unfinished game's log, which replay says it\n"
        "is); 1: the replay diverges or ends elsewhere; 2: the log is damaged or not a log.",
    ),
    Command("simulate", "play many games: win rates, mean length, speed"),
    Command(
        "scenarios",
        "run the designers' scenario files",
        epilog="examples:\n"
        "  rulewright scenarios                             every game's own scenarios\n"
        "  rulewright scenarios GAME                        one game's (or a spec folder's)\n"
        "  rulewright scenarios --game GAME my_case.yaml    one case file, while writing it\n"
        "  rulewright scenarios --game GAME cases/          a folder of cases kept elsewhere\n"
        "\n"
        "A compiled game runs the scenarios compiled into it. If a file under specs/GAME/ changed\n"
        "since the last build, they are stale: scenarios refuses to run them (exit 2) and asks for\n"
        "`rulewright build`. A spec folder given as a path is compiled afresh.",
    ),
    Command(
        "verify",
        "let Hypothesis play; check invariants and the engine contract; shrink and save a failure",
    ),
    Command(
        "playthrough",
        "record golden playthroughs under tests/playthroughs/GAME/ of the workspace",
    ),
    Command(
        "diff",
        "after a spec change and a build: where each stored playthrough diverges, what changed in the state, and why",
        epilog="examples:\n"
        "  rulewright build GAME && rulewright diff GAME   the impact of an edit of GAME's spec\n"
        "  rulewright diff GAME --update                   then record the playthroughs on the new rules\n"
        "\n"
        "`rulewright build GAME` keeps the engine it replaces in your cache; diff replays the\n"
        "playthroughs on it too and names the first field of the state that differs, with its value\n"
        "in the recorded game and now. See docs/errata.md.",
    ),
    Command(
        "bench",
        "games/s, decisions/s, clone and JSON cost, check and build time; --against another revision",
        epilog="examples:\n"
        "  rulewright bench GAME                              one game's figures, CPU and wall\n"
        "  rulewright bench --against main --seconds 3        every game, this tree (A) against main (B)\n"
        "  rulewright bench kuhn_poker --cfr python_kuhn_poker  a CFR iteration, ours against OpenSpiel's\n"
        "  rulewright bench twilight_struggle --native --versus ./ts_random  our native engine against another program\n"
        "\n"
        "With --against, A and B alternate round by round, each round in a fresh process, and the\n"
        "table gives each figure's median for A and B and the per-round ratios (median, min-max).\n"
        "Run from a rulewright checkout, B is REF's own runtime, engines and check; in any other\n"
        "workspace, B is REF's specs built by this rulewright. See docs/performance.md.",
    ),
    Command(
        "serve",
        "play every game in the browser: a lobby, live matches with friends, bots and hot-seat",
        epilog="examples:\n"
        "  rulewright serve                        then open http://127.0.0.1:8000/ and make a match\n"
        "  rulewright serve --port 0 --data DIR    any free port; matches kept in DIR/matches.sqlite3\n"
        "\n"
        "Every match is stored as it is played: a server stopped (even killed) and started again with\n"
        "the same --data resumes every match. See docs/serve.md.",
    ),
    Command(
        "lsp",
        "the language server for editors (over stdio): diagnostics as you type, hover, go to definition",
        epilog="examples:\n"
        "  rulewright lsp                          started by the editor, which talks to it on stdin/stdout\n"
        "\n"
        "It checks the spec folder of each YAML file the editor opens, with the unsaved buffers, and\n"
        "answers hover, definition, references, completion and document symbols. Setup for VS Code\n"
        "and Neovim: `rulewright docs editor` (docs/editor.md).",
    ),
    Command("demo", "play one seeded game of every compiled game and show how it ended"),
)


def _worker_died() -> type[WorkerDied]:
    """The error of a worker process killed from outside; imported when an error reaches main
    unmatched, so that a command without workers never imports the pool."""
    from rulewright.parallel import WorkerDied

    return WorkerDied


def _tolerant_output() -> None:
    """Print what cannot be encoded (a lone surrogate from a spec or an argument) as escapes
    rather than fail on it."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) == "strict":
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    _tolerant_output()
    try:
        args = parser().parse_args(argv)
        args.argv = list(sys.argv[1:] if argv is None else argv)
    except ArgumentError as exc:  # (argparse repeats an unknown argument as typed: escaped here)
        print(escaped(f"{exc.prog}: {exc}"), file=sys.stderr)
        return EXIT_USAGE
    command = f"rulewright {args.command}"
    # An error's message may quote a path, an argument, a log's or a spec's text: each line of
    # it is escaped, whatever the code that raised it did (runtime/text.py).
    try:
        code = int(args.fn(args))
    except UsageError as exc:
        print(f"{command}: {escaped_lines(str(exc))}", file=sys.stderr)
        code = EXIT_USAGE
    except CommandFailed as exc:
        print(f"{command}: {escaped_lines(str(exc))}", file=sys.stderr)
        code = EXIT_SPEC
    except RuleError as exc:
        print(f"{command}: rule error at run time: {escaped_lines(str(exc))}", file=sys.stderr)
        code = EXIT_SPEC
    except KeyboardInterrupt:
        print(f"\n{command}: interrupted (Ctrl-C)", file=sys.stderr)
        code = EXIT_INTERRUPTED
    except _worker_died() as exc:  # killed from outside (out of memory, kill -9): said as it is
        print(f"{command}: {exc}", file=sys.stderr)
        code = EXIT_SIGNALLED + exc.signal if exc.signal is not None else EXIT_INTERNAL
    except BrokenPipeError:
        code = EXIT_OK
    except Exception as exc:  # a bug of ours: say so in one line, the traceback on request
        if os.environ.get(DEBUG_ENV) == "1":
            raise
        first = (str(exc).splitlines() or [""])[0]
        print(
            f"{command}: internal error: {type(exc).__name__}: {clipped(first, 200)}; please report it "
            f"(set {DEBUG_ENV}=1 to see the traceback)",
            file=sys.stderr,
        )
        code = EXIT_INTERNAL
    # ValueError: stdout already closed, as the language server's transport does on `exit`
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
    return code
