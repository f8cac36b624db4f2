"""Built cases of the loader (tests/hostile/README.md): spec folders a committed folder cannot
hold, or should not (FIFOs, devices, symbolic links, bytes that are not text, huge files)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from compiler.messages import IS_A_LINK
from tests.hostile.case import Case

# what a case plants where only a followed link could reach it: the output must not show it
SECRET = "hostile-secret-9f2c41"
GAME = 'game: t\nplayers: {names: [a, b]}\nphases:\n  - name: main\n    do: "end game draw"\n'
MB = 1024 * 1024


def _spec(extra: str = "") -> Callable[[Path], None]:
    """A valid game.yaml plus `extra` YAML."""

    def build(folder: Path) -> None:
        (folder / "game.yaml").write_text(GAME + extra, encoding="utf-8")

    return build


def _with(name: str, write: Callable[[Path], None]) -> Callable[[Path], None]:
    """A valid game.yaml, and `write(folder / name)` makes one more entry."""

    def build(folder: Path) -> None:
        (folder / "game.yaml").write_text(GAME, encoding="utf-8")
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        write(path)

    return build


def _bytes(data: bytes) -> Callable[[Path], None]:
    return lambda path: path.write_bytes(data)


def _link(target: str) -> Callable[[Path], None]:
    return lambda path: path.symlink_to(target)


def _outside(name: str, text: str) -> Callable[[Path], None]:
    """A link to a file `name` holding `text`, written beside the spec folder (outside it)."""

    def write(path: Path) -> None:
        target = _beside(path) / name
        target.write_text(text, encoding="utf-8")
        path.symlink_to(target)

    return write


def _outside_folder(name: str, text: str) -> Callable[[Path], None]:
    """A link to a folder beside the spec folder, holding a file `name` with `text`."""

    def write(path: Path) -> None:
        target = _beside(path) / "folder"
        target.mkdir()
        (target / name).write_text(text, encoding="utf-8")
        path.symlink_to(target, target_is_directory=True)

    return write


def _beside(path: Path) -> Path:
    """A new folder beside the spec folder that holds `path`."""
    spec = next(p for p in path.parents if (p / "game.yaml").exists())
    out = spec.parent / f"{spec.name}-outside"
    out.mkdir(exist_ok=True)
    return out


def _linked_game(target: str) -> Callable[[Path], None]:
    return lambda folder: (folder / "game.yaml").symlink_to(target)


def _inside_link(folder: Path) -> None:
    """Even a link to a file of the folder itself is refused: what is read is what is there."""
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "notes.txt").write_text(f"constantz: {{{SECRET}: 1}}\n", encoding="utf-8")
    (folder / "x.yaml").symlink_to("notes.txt")


def _loop(folder: Path) -> None:
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "a.yaml").symlink_to("b.yaml")
    (folder / "b.yaml").symlink_to("a.yaml")


def _sparse(size: int) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        with path.open("wb") as f:
            f.truncate(size)

    return write


def _big_spec(folder: Path) -> None:
    """Nine files just under the bound of one file, together over the bound of a spec."""
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    line = "# " + "x" * 1000 + "\n"
    for i in range(9):
        (folder / f"part{i}.yaml").write_text(line * (MB // len(line) - 1), encoding="utf-8")


def _many_files(folder: Path) -> None:
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    for i in range(2000):
        (folder / f"empty{i:04}.yaml").write_text("# nothing here\n", encoding="utf-8")


def _names_ending(name: str) -> Callable[[Path], None]:
    """A file whose name holds characters a terminal would act on, with an error in it."""

    def build(folder: Path) -> None:
        (folder / "game.yaml").write_text(GAME, encoding="utf-8")
        (folder / name).write_text("constantz: {}\n", encoding="utf-8")

    return build


def _non_utf8_name(folder: Path) -> None:
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    with open(os.path.join(os.fsencode(folder), b"caf\xe9.yaml"), "wb") as f:
        f.write(b"constantz: {}\n")


def _two_enums(count: int) -> Callable[[Path], None]:
    """A state variable indexed by two enums of `count` values each (in files of their own)."""

    def build(folder: Path) -> None:
        (folder / "game.yaml").write_text(
            GAME + "state:\n  x: {type: int, per: [row, col]}\n", encoding="utf-8"
        )
        for name in ("row", "col"):
            values = ", ".join(f"{name}{i}" for i in range(count))
            (folder / f"enum_{name}.yaml").write_text(f"enums:\n  {name}: [{values}]\n", encoding="utf-8")

    return build


def _chain_of_functions(count: int) -> Callable[[Path], None]:
    """`count` functions returning lists, each calling the next: the pass that follows where a
    list comes from recursed through all of them and overflowed Python's stack."""

    def build(folder: Path) -> None:
        functions = "".join(
            f'  f{i}: {{params: {{k: int}}, returns: "list[int]", body: "{f"f{i + 1}(k)" if i < count - 1 else "[k]"}"}}\n'
            for i in range(count)
        )
        (folder / "game.yaml").write_text(
            "game: t\nplayers: {names: [a, b]}\nstate:\n  n: int\nfunctions:\n"
            + functions
            + 'phases:\n  - name: main\n    do: "let xs = f0(n)\\nn = len(xs)"\n',
            encoding="utf-8",
        )

    return build


def _chain_of_fields(count: int) -> Callable[[Path], None]:
    """A component's `count` expression fields, each calling the next, and a board that shows the
    first: the pass that finds what a board reads recursed through all of them."""

    def build(folder: Path) -> None:
        fields = "".join(f"      g{i}: {{type: int, params: {{k: int}}}}\n" for i in range(count))
        row = ", ".join(f'g{i}: "{f"c.g{i + 1}(k)" if i < count - 1 else "k"}"' for i in range(count))
        (folder / "game.yaml").write_text(
            "game: t\nplayers: {names: [a, b]}\ntypes:\n  thing:\n    fields:\n"
            + fields
            + "components:\n  thing:\n    - {id: c, "
            + row
            + '}\nphases:\n  - name: main\n    do: "end game draw"\n',
            encoding="utf-8",
        )
        (folder / "board.yaml").write_text(
            'board:\n  size: [400, 300]\n  counters:\n    - {name: X, value: "c.g0(1)"}\n', encoding="utf-8"
        )

    return build


def _deep_blocks(levels: int) -> str:
    return (
        "constants:\n  x:\n"
        + "".join("  " * (i + 2) + f"k{i}:\n" for i in range(levels))
        + "  " * (levels + 2)
        + "1\n"
    )


CASES = [
    # files that are not files
    Case("load-fifo-spec-file", _with("x.yaml", lambda p: os.mkfifo(p)), "x.yaml:1:1: error: this is a FIFO"),
    Case(
        "load-fifo-scenario",
        _with("scenarios/s.yaml", lambda p: os.mkfifo(p)),
        "scenarios/s.yaml:1:1: error: this is a FIFO (a named pipe), not a file [unreadable-file]",
    ),
    Case(
        "load-folder-named-yaml",
        _with("x.yaml", lambda p: p.mkdir()),
        "x.yaml:1:1: error: this is a folder, not a file",
    ),
    Case(
        "load-folder-named-yaml-in-scenarios",
        _with("scenarios/s.yaml", lambda p: p.mkdir()),
        "scenarios/s.yaml:1:1: error: this is a folder, not a file [unreadable-file]",
    ),
    Case(
        "load-scenarios-is-a-file",
        _with("scenarios", lambda p: p.write_text("name: x\n")),
        "'scenarios' here is not a folder, so no scenario was read [unreadable-file]",
    ),
    # symbolic links: never followed, whatever they point at (source.py)
    Case(
        "load-symlink-to-proc-self-environ",
        _with("x.yaml", _link("/proc/self/environ")),
        f"x.yaml:1:1: error: {IS_A_LINK} [unreadable-file]",
        isolate=True,  # /proc/self/environ shows the environment a process started with
        absent=SECRET,
        env=(("RULEWRIGHT_HOSTILE_SECRET", SECRET),),
    ),
    Case(
        "load-game-yaml-links-to-proc-self-environ",
        _linked_game("/proc/self/environ"),
        f"game.yaml:1:1: error: {IS_A_LINK} [unreadable-file]",
        isolate=True,
        absent=SECRET,
        env=(("RULEWRIGHT_HOSTILE_SECRET", SECRET),),
    ),
    Case(
        "load-symlink-to-a-file-outside",
        _with("x.yaml", _outside("secret.yaml", f"constantz: {{{SECRET}: 1}}\n")),
        f"x.yaml:1:1: error: {IS_A_LINK} [unreadable-file]",
        absent=SECRET,
    ),
    Case(
        "load-symlink-to-a-file-inside",
        _inside_link,
        f"x.yaml:1:1: error: {IS_A_LINK} [unreadable-file]",
        absent=SECRET,
    ),
    Case(
        "load-board-yaml-links-outside",
        _with("board.yaml", _outside("board.yaml", f"board: {{size: [{SECRET}]}}\n")),
        f"board.yaml:1:1: error: {IS_A_LINK} [unreadable-file]",
        absent=SECRET,
    ),
    Case(
        "load-scenario-links-outside",
        _with("scenarios/s.yaml", _outside("s.yaml", f"name: s\n{SECRET}: 1\n")),
        f"scenarios/s.yaml:1:1: error: {IS_A_LINK} [unreadable-file]",
        absent=SECRET,
    ),
    Case(
        "load-scenarios-folder-links-outside",
        _with("scenarios", _outside_folder("s.yaml", f"name: s\n{SECRET}: 1\n")),
        "scenarios:1:1: error: 'scenarios' here is a symbolic link, which is not followed, so no "
        "scenario was read: a spec's files must be inside its folder [unreadable-file]",
        absent=SECRET,
    ),
    Case(
        "load-symlink-loop",
        _loop,
        f"a.yaml:1:1: error: {IS_A_LINK} [unreadable-file]",
    ),
    Case("load-symlink-to-itself", _with("self.yaml", _link("self.yaml")), IS_A_LINK),
    Case("load-broken-symlink", _with("gone.yaml", _link("nowhere/gone.yaml")), IS_A_LINK),
    Case("load-dev-zero-as-spec-file", _with("x.yaml", _link("/dev/zero")), IS_A_LINK),
    Case(
        "load-dev-urandom-as-scenario",
        _with("scenarios/s.yaml", _link("/dev/urandom")),
        f"scenarios/s.yaml:1:1: error: {IS_A_LINK} [unreadable-file]",
    ),
    Case(
        "load-scenarios-symlink-loop",
        _with("scenarios", _link("scenarios")),
        "'scenarios' here is a symbolic link, which is not followed",
    ),
    # bytes that are not text
    Case(
        "load-latin1-bytes",
        _with("more.yaml", _bytes(b"constants:\n  caf\xe9: 1\n")),
        "more.yaml:2:6: error: this file is not UTF-8 text: the byte 0xe9 here is not UTF-8 [not-text]",
    ),
    Case(
        "load-utf16-file",
        _with("more.yaml", _bytes("constants: {x: 1}\n".encode("utf-16"))),
        "more.yaml:1:1: error: this file is not UTF-8 text: the byte 0xff here is not UTF-8 [not-text]",
    ),
    Case(
        "load-latin1-scenario",
        _with("scenarios/s.yaml", _bytes(b"name: caf\xe9\nactions: []\n")),
        "scenarios/s.yaml:1:10: error: this file is not UTF-8 text",
    ),
    Case(
        "load-nul-byte",
        _with("more.yaml", _bytes(b"constants:\n  x: 1\x00\n")),
        "more.yaml:2:7: error: this file holds a NUL byte here; spec files are plain text [not-text]",
    ),
    Case(
        "load-escape-character",
        _with("more.yaml", _bytes(b"constants:\n  x: \x1b[2J1\n")),
        "more.yaml:2:6: error: this file holds the control character U+001B here",
    ),
    Case(
        "load-nul-byte-scenario",
        _with("scenarios/s.yaml", _bytes(b"name: s\x00\nactions: []\n")),
        "scenarios/s.yaml:1:8: error: this file holds a NUL byte here",
    ),
    Case(
        "load-terminal-escape-in-file-name",
        _names_ending("\x1b[31mred.yaml"),
        "\\x1b[31mred.yaml:1:1: error: unknown top-level key 'constantz'",
    ),
    Case(
        "load-line-break-in-file-name",
        _names_ending("x\nfake.yaml:1:1: error: forged.yaml"),
        "x\\nfake.yaml:1:1: error: forged.yaml:1:1: error: unknown top-level key 'constantz'",
    ),
    Case(
        "load-non-utf8-file-name",
        _non_utf8_name,
        "caf\\udce9.yaml:1:1: error: unknown top-level key 'constantz'",
    ),
    # sizes
    Case(
        "load-file-over-1-mb",
        _with("big.yaml", lambda p: p.write_text("# " + "x" * (MB + 10) + "\n")),
        "big.yaml:1:1: error: this file holds 1,048,589 bytes; the limit is 1,048,576 [limit-exceeded]",
    ),
    Case(
        "load-sparse-file-of-8-gb",
        _with("big.yaml", _sparse(8 * 1024 * MB)),
        "big.yaml:1:1: error: this file holds 8,589,934,592 bytes; the limit is 1,048,576 [limit-exceeded]",
    ),
    Case(
        "load-huge-scenario",
        _with("scenarios/big.yaml", _sparse(2 * MB)),
        "scenarios/big.yaml:1:1: error: this file holds 2,097,152 bytes",
    ),
    Case(
        "load-spec-over-8-mb",
        _big_spec,
        "with this file the spec's files hold more than 8,388,608 bytes [limit-exceeded]",
    ),
    Case("load-2000-files", _many_files, ": ok"),
    Case(
        "load-state-of-50000-by-50000",  # checked clean, then ran out of memory in play
        _two_enums(50_000),
        "game.yaml:7:3: error: state variable 'x' has 2,500,100,001 entries (50,001 x 50,001); "
        "at most 1,000,000 [limit-exceeded]",
    ),
    # nesting
    Case(
        "bound-600-functions-each-calling-the-next",
        _chain_of_functions(600),
        "game.yaml:205:57: error: function 'f0' nests calls 600 levels deep "
        "(f0 -> f1 -> f2 -> ... -> f199 -> f200); this call goes past 200 [limit-exceeded]",
    ),
    Case(
        "bound-300-expression-fields-each-calling-the-next",  # the board's hidden-information check
        _chain_of_fields(300),
        "error: expression field 'g0' nests calls 300 levels deep (.g0 -> .g1 -> .g2 -> ... -> .g199 "
        "-> .g200); this call goes past 200 [limit-exceeded]",
    ),
    Case(
        "load-50000-brackets",
        _spec("constants:\n  x: " + "[" * 50_000 + "]" * 50_000 + "\n"),
        "game.yaml:7:104: error: lists and mappings nest more than 100 levels deep here [limit-exceeded]",
        isolate=True,  # 50,000 levels crashed libyaml's composer
    ),
    Case(
        "load-5000-brackets",
        _spec("constants:\n  x: " + "{a: " * 5000 + "1" + "}" * 5000 + "\n"),
        "lists and mappings nest more than 100 levels deep here [limit-exceeded]",
    ),
    Case(
        "load-5000-dashes",
        _spec("constants:\n  x:\n    " + "- " * 5000 + "1\n"),
        "lists and mappings nest more than 100 levels deep here [limit-exceeded]",
    ),
    Case(
        "load-300-indented-levels",
        _spec(_deep_blocks(300)),
        "nest more than 100 levels deep here [limit-exceeded]",
    ),
    Case(
        "load-90-indented-levels",
        _spec(_deep_blocks(90)),
        "a constant is an integer or true/false [wrong-value-type]",
    ),
    Case(
        "load-5000-nested-parentheses",  # parentheses alone add no level to the parse tree
        _spec('state: {n: int}\nsetup: "n = ' + "(" * 5000 + "1" + ")" * 5000 + '"\n'),
        ": ok",
    ),
    Case(
        "load-20000-characters-of-parentheses",
        _spec('state: {n: int}\nsetup: "n = ' + "(" * 10_000 + "1" + ")" * 10_000 + '"\n'),
        "this code has 20,005 characters; the limit is 20,000 [limit-exceeded]",
    ),
    Case(
        "load-500-chained-fields",
        _spec(
            'types: {card: {fields: {next: card}}}\ncomponents: {card: [{id: c, next: c}]}\nsetup: "let x = c'
            + ".next" * 500
            + '"\n'
        ),
        "this code nests more than 100 levels deep (operators, brackets and blocks) [limit-exceeded]",
    ),
]
