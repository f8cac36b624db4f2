"""Golden tests for the compiler's diagnostics.

Each folder tests/diagnostics/<case>/ is a tiny spec folder (game.yaml, maybe more *.yaml files and a
scenarios/ folder) that triggers one diagnostic, or a few, and `expected.txt`, the exact output of
`compiler.diagnostics.render_all` over the diagnostics that `compile_spec` returns (already sorted),
followed by one newline (an empty file when there is no diagnostic). The spec is compiled from the
repository root with a relative path, so messages read `tests/diagnostics/<case>/game.yaml:3:5: ...`.

A case is named after the code it shows (`unknown-name`, or `unknown-name-<variant>` for more
cases of one code); every code of compiler.errorcodes.ALL must appear in some expected.txt, and in
the table of codes in docs/dsl.md.

To accept new output after a deliberate change to a message or a position, regenerate the files,
then read every changed expected.txt (the caret must sit under the offending text) before committing:

    RULEWRIGHT_UPDATE=1 .venv/bin/python -m pytest tests/test_diagnostics.py

KNOWN_PROBLEMS lists cases whose expected.txt records output that is known to be wrong (a caret in the
wrong place, a missing diagnostic). When a compiler fix changes such output, check the new output,
regenerate, and delete the entry.
"""

from __future__ import annotations

import ast
import os
import re
import traceback
from pathlib import Path

import pytest

from compiler import errorcodes
from compiler.diagnostics import render_all
from compiler.driver import Result, compile_spec

REPO_ROOT = Path(__file__).resolve().parent.parent  # the folder that contains tests/
CASES_REL = Path("tests") / "diagnostics"
CASES_DIR = REPO_ROOT / CASES_REL
UPDATE = os.environ.get("RULEWRIGHT_UPDATE") == "1"
CODES = [c.code for c in errorcodes.ALL]

CASES = sorted(p.name for p in CASES_DIR.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))

# Cases not named after a single code.
EXTRA_CASES = {
    "two-errors-in-dsl",
    "errors-in-several-files",
    "errors-after-a-misspelt-key",
    "errors-in-spec-and-scenario",
}

# case -> what is wrong with the output its expected.txt records (see the module docstring).
KNOWN_PROBLEMS: dict[str, str] = {}


def _compile(case: str, monkeypatch: pytest.MonkeyPatch) -> Result:
    monkeypatch.chdir(REPO_ROOT)
    return compile_spec(CASES_REL / case)


def _golden(rendered: str) -> str:
    return rendered + "\n" if rendered else ""


def _expected(case: str) -> str:
    path = CASES_DIR / case / "expected.txt"
    return path.read_text(encoding="utf-8") if path.exists() else ""


def _code_of(case: str) -> str | None:
    """The code a case is named after: the longest code that is the name or a prefix of it."""
    named = [c for c in CODES if case == c or case.startswith(c + "-")]
    return max(named, key=len) if named else None


@pytest.mark.parametrize("case", CASES)
def test_golden(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    got = _golden(render_all(_compile(case, monkeypatch).diagnostics))
    path = CASES_DIR / case / "expected.txt"
    if UPDATE:
        if not path.exists() or path.read_text(encoding="utf-8") != got:
            path.write_text(got, encoding="utf-8")
        return
    assert path.exists(), f"{path} is missing; create it with RULEWRIGHT_UPDATE=1 (then read it)"
    note = ""
    if case in KNOWN_PROBLEMS:
        note = (
            f"\nexpected.txt records a known problem: {KNOWN_PROBLEMS[case]}.\nIf the new output is the "
            "fix, regenerate with RULEWRIGHT_UPDATE=1 and delete the KNOWN_PROBLEMS entry."
        )
    assert got == path.read_text(encoding="utf-8"), f"diagnostics of {case} changed{note}"


@pytest.mark.parametrize("case", CASES)
def test_compile_spec_returns_normally(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        result = _compile(case, monkeypatch)
    except Exception:  # any exception is the failure this test reports
        pytest.fail(f"compile_spec raised on tests/diagnostics/{case}:\n{traceback.format_exc()}")
    assert all(d.code in CODES for d in result.diagnostics)


def test_codes_are_unique_and_all_listed() -> None:
    """ALL holds every ErrorCode constant of compiler/errorcodes.py, once, each with its own name."""
    constants = [v for v in vars(errorcodes).values() if isinstance(v, errorcodes.ErrorCode)]
    assert sorted(constants, key=str) == sorted(errorcodes.ALL, key=str)
    assert len(set(CODES)) == len(CODES)
    assert all(str(c) == c.code and c.meaning for c in errorcodes.ALL)


def test_every_code_is_in_the_docs() -> None:
    """docs/dsl.md lists the codes in one table, a row each (`| `code` | meaning |`), in ALL's order."""
    docs = (REPO_ROOT / "docs" / "dsl.md").read_text(encoding="utf-8")
    table = docs[docs.index("The codes (`compiler/errorcodes.py`") :].split("\n\n")[1]
    assert re.findall(r"^\| `([a-z-]+)` \|", table, re.M) == CODES


def test_every_code_has_a_case() -> None:
    shown = "\n".join(_expected(case) for case in CASES)
    missing = [code for code in CODES if f"[{code}]" not in shown]
    assert not missing, f"no tests/diagnostics/*/expected.txt shows these codes: {missing}"


@pytest.mark.parametrize("case", CASES)
def test_case_shows_its_code(case: str) -> None:
    """A case is named after a code, and (unless it records a known problem) shows that code."""
    if case in EXTRA_CASES:
        return
    code = _code_of(case)
    assert code is not None, (
        f"case '{case}' is not named after a code of errorcodes.ALL (nor listed in EXTRA_CASES)"
    )
    if case not in KNOWN_PROBLEMS:
        assert f"[{code}]" in _expected(case), f"case '{case}' does not show [{code}]"


def test_a_warning_alone_does_not_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    result = _compile("missing-event", monkeypatch)
    assert [d.severity for d in result.diagnostics] == ["warning"]
    assert result.ok


def _under_caret(file: str, line: int, col: int, end_col: int) -> str:
    text = (REPO_ROOT / file).read_text(encoding="utf-8").splitlines()[line - 1]
    return text[col - 1 : end_col - 1]


def test_two_errors_in_dsl_point_into_the_dsl(monkeypatch: pytest.MonkeyPatch) -> None:
    """Guards the golden file against a careless regeneration: both errors, located in the DSL text."""
    diags = _compile("two-errors-in-dsl", monkeypatch).diagnostics
    assert [d.code for d in diags] == ["unknown-name", "type-mismatch"]
    first, second = diags
    assert first.message.endswith("did you mean 'vietnam'?")
    for d in diags:
        assert d.span.file == "tests/diagnostics/two-errors-in-dsl/game.yaml"
        assert d.span.line == d.span.end_line
    assert _under_caret(first.span.file, first.span.line, first.span.col, first.span.end_col) == "vietnan"
    assert (
        _under_caret(second.span.file, second.span.line, second.span.col, second.span.end_col)
        == "thailand == 1"
    )
    rendered = _expected("two-errors-in-dsl")
    assert (
        len(re.findall(r"^tests/diagnostics/two-errors-in-dsl/game\.yaml:\d+:\d+: error: ", rendered, re.M))
        == 2
    )
    assert len(re.findall(r"^ +\^~*$", rendered, re.M)) == 2


def test_errors_in_several_files_are_reported_together(monkeypatch: pytest.MonkeyPatch) -> None:
    """Guards the staged diagnostics: a file that does not parse hides no error of the others,
    and the call to the procedure it declares is not reported as unknown."""
    diags = _compile("errors-in-several-files", monkeypatch).diagnostics
    files = {Path(d.span.file).name: d.code for d in diags}
    assert files == {
        "broken.yaml": "yaml-syntax",
        "cards.yaml": "unknown-field",
        "functions.yaml": "missing-key",
        "game.yaml": "type-mismatch",
    }
    assert len(diags) == 4


def test_a_pass_that_trips_on_a_repaired_ir_leaves_the_load_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    """The driver's last guard: resolve and check run on IR that load repaired, and should one of
    them raise there, the load errors are reported alone; on a spec that loaded clean, it raises."""
    import compiler.driver

    def trip(*args: object) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr(compiler.driver, "check", trip)
    diags = _compile("unknown-key", monkeypatch).diagnostics
    assert [d.code for d in diags] == ["unknown-key"]
    with pytest.raises(KeyError):
        _compile("missing-event", monkeypatch)


_MESSAGES_ELSEWHERE: set[str] = set()  # modules allowed to spell out a diagnostic's words: none


def _literal_text(node: ast.expr) -> bool:
    """Whether an argument spells out its words: a string, an f-string, or a sum holding one."""
    if isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return True
    return isinstance(node, ast.BinOp) and (_literal_text(node.left) or _literal_text(node.right))


def test_every_message_comes_from_messages_py() -> None:
    """A diagnostic's message and notes are taken from compiler/messages.py, never spelt out where
    it is reported: `sink.error(code, span, message, *notes)` and the exceptions that carry one."""
    carriers = {"SourceError", "Refused", "ComposerError"}
    spelt_out = []
    for path in sorted((REPO_ROOT / "compiler").rglob("*.py")):
        rel = path.relative_to(REPO_ROOT).as_posix()
        if rel in _MESSAGES_ELSEWHERE or path.name == "messages.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            reports = (
                isinstance(func, ast.Attribute) and func.attr in ("error", "warning") and len(node.args) >= 3
            )
            carries = isinstance(func, ast.Name) and func.id in carriers
            words = node.args[2:] if reports else node.args if carries else []
            if any(_literal_text(a) for a in words):
                spelt_out.append(f"{rel}:{node.lineno}")
    assert not spelt_out, f"diagnostic text written outside compiler/messages.py: {spelt_out}"
