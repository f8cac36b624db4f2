"""No spec text can become code: every string of a spec reaches generated Python only as data.

A corpus of injection payloads goes through every kind of spec string that reaches generated code
(title, version, labels, docs, prompts, log texts, end-of-game reasons, invariant reasons, scenario
names and docs, file names). For each, `compile_spec` either gives located diagnostics, or emits
modules whose syntax tree holds the payload's marker only inside string constants.
"""

from __future__ import annotations

import ast
import copy
import json
import shutil
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest

from compiler.driver import compile_spec
from rulewright.spec_loader import import_package
from runtime.game import Game

FEATURES = Path(__file__).resolve().parent / "specs" / "features"
MARK = "PWNED"

PAYLOADS = [
    f'"""\n{MARK}()\n"""',
    f"'''\n{MARK}()\n'''",
    f"\n{MARK}()\n",
    f"\r{MARK}()\r",
    f"x\r\n{MARK}()  # ",
    f'x" + {MARK}() + "',
    f"x' + {MARK}() + '",
    f'\\"; {MARK}(); "',
    f"\\\\\n{MARK}()",
    f"\\N{{{MARK}}}",
    f"\\x{MARK}",
    f"\\u{MARK}",
    f"\x00{MARK}()",
    f"\x0c\n{MARK}()",
    f"\u2028{MARK}()\u2029",
    f"\x85{MARK}()",
    f"\ud800{MARK}",
    f"%(x)s {{0}} {{{MARK}}} {MARK}",
    f"{{{{{MARK}}}}} {{% {MARK} %}}",
    f"# {MARK}",
    f'"""; import os; os.system("{MARK}"); """',
    f"\t\t{MARK}",
]

Spec = dict[str, str]  # file name -> its text


def _yaml(text: str) -> str:
    """`text` as a YAML double-quoted scalar (JSON's escapes are YAML's)."""
    return json.dumps(text)


def _dsl(text: str) -> str:
    """`text` as a DSL string literal (the DSL's escapes: backslash, quote, brace, newline)."""
    out = text.replace("\\", "\\\\").replace('"', '\\"').replace("{", "\\{").replace("\n", "\\n")
    return '"' + out + '"'


def _swap(file: str, old: str, new: Callable[[str], str]) -> Callable[[Spec, str], None]:
    """A field: the text `old` of `file` becomes `new(payload)`."""

    def put(spec: Spec, payload: str) -> None:
        assert old in spec[file], old
        spec[file] = spec[file].replace(old, new(payload), 1)

    return put


# Plain YAML strings (never rejected), then strings inside DSL code (a payload may not parse there).
YAML_FIELDS: dict[str, Callable[[Spec, str], None]] = {
    "title": _swap("game", "title: Gemfire", lambda p: f"title: {_yaml(p)}"),
    "version": _swap("game", "version: 1", lambda p: f"version: {_yaml(p)}"),
    "player_labels": _swap(
        "game",
        "names: [red, blue, green, yellow]",
        lambda p: f"names: [red, blue, green, yellow]\n  labels: [{_yaml(p)}, b, c, d]",
    ),
    "option_doc": _swap("game", "doc: how many players sit down", lambda p: f"doc: {_yaml(p)}"),
    "state_doc": _swap("game", 'doc: "bounded: every change is clamped"', lambda p: f"doc: {_yaml(p)}"),
    "zone_doc": _swap(
        "game", 'doc: "the secret bid, face down until revealed"', lambda p: f"doc: {_yaml(p)}"
    ),
    "modifier_doc": _swap(
        "game", "doc: the bid winner scores double until the end of the round", lambda p: f"doc: {_yaml(p)}"
    ),
    "procedure_doc": _swap(
        "game",
        "doc: score n (doubled for the bid winner), then announce it (triggers may stop to ask)",
        lambda p: f"doc: {_yaml(p)}",
    ),
    "invariant_why": _swap("game", "why: every gem is somewhere", lambda p: f"why: {_yaml(p)}"),
    "entity_name": _swap("cards", "name: Amber", lambda p: f"name: {_yaml(p)}"),
    "entity_text": _swap(
        "cards",
        'text: "Roll two dice: 7 or more scores the total minus 5, otherwise the heat rises by the total."',
        lambda p: f"text: {_yaml(p)}",
    ),
}
DSL_FIELDS: dict[str, Callable[[Spec, str], None]] = {
    "log_text": _swap("game", 'log "{p} has no gem to play"', lambda p: f"log {_dsl(p)}"),
    "log_interpolated": _swap("game", 'log "{p} drops the shield"', lambda p: 'log "{p} ' + _dsl(p)[1:]),
    "prompt": _swap("game", '"gem to play"', _dsl),
    "ask_prompt": _swap("game", '"take a random gem from this player?"', _dsl),
    "reason": _swap("game", '"a shared highest score"', _dsl),
}


def _write(folder: Path, spec: Spec) -> None:
    shutil.copytree(FEATURES, folder)
    for name, text in spec.items():
        (folder / f"{name}.yaml").write_text(text, encoding="utf-8", errors="surrogatepass")


def _base() -> Spec:
    return {name: (FEATURES / f"{name}.yaml").read_text(encoding="utf-8") for name in ("game", "cards")}


BASE = _base()

IDENTIFIER_NODES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def assert_only_in_strings(source: str, where: str) -> None:
    """The marker may sit in string constants; never in a name, an attribute, a call or an import."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant):
            continue
        names: list[str] = []
        if isinstance(node, ast.Name):
            names.append(node.id)
        elif isinstance(node, ast.Attribute):
            names.append(node.attr)
        elif isinstance(node, IDENTIFIER_NODES):
            names.append(node.name)
        elif isinstance(node, ast.arg):
            names.append(node.arg)
        elif isinstance(node, ast.keyword) and node.arg:
            names.append(node.arg)
        elif isinstance(node, ast.alias):
            names.append(node.name)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
        for n in names:
            assert MARK not in n, f"{where}: the payload became code: {ast.unparse(node)[:200]}"
    # the only statements at module level are the template's: no payload added one
    for stmt in tree.body:
        assert not isinstance(stmt, ast.Expr) or isinstance(stmt.value, ast.Constant), (
            f"{where}: an expression statement at module level: {ast.unparse(stmt)[:200]}"
        )


def _check(folder: Path, where: str) -> bool:
    """True when the spec compiled (and its modules passed), False for located diagnostics."""
    result = compile_spec(folder)
    if not result.ok:
        for d in result.diagnostics:
            assert d.span.line >= 1 and d.span.col >= 1 and d.span.file, d
        return False
    assert result.files, where
    for name, text in result.files.items():
        assert_only_in_strings(text, f"{where}: {name}")
        compile(text, name, "exec")
    module = import_package(result.files, result.name)  # it loads, and a game starts
    Game(module.State, module.scenarios.SCENARIOS).new_initial_state(seed=1)
    return True


@pytest.mark.parametrize("payload", PAYLOADS, ids=range(len(PAYLOADS)))
@pytest.mark.parametrize("fields", ["yaml", "dsl"])
def test_payload_in_every_field_stays_data(fields: str, payload: str, tmp_path: Path) -> None:
    spec = copy.deepcopy(BASE)
    for put in (YAML_FIELDS if fields == "yaml" else DSL_FIELDS).values():
        put(spec, payload)
    folder = tmp_path / "spec"
    _write(folder, spec)
    if fields == "yaml":
        safe = payload.replace("/", "_").replace("\x00", "_").replace("\ud800", "_")
        try:
            (folder / "cards.yaml").rename(folder / f"cards{safe}.yaml")
        except (OSError, ValueError):
            pass  # the file system refuses this name
    compiled = _check(folder, f"{fields} fields <- {payload!r}")
    # plain YAML strings take any text but control characters and lone surrogates (not-text)
    refused = any(ch not in "\t\n" and unicodedata.category(ch) in ("Cc", "Cs") for ch in payload)
    assert compiled or fields == "dsl" or refused, "plain YAML strings take any showable text"


@pytest.mark.parametrize("payload", PAYLOADS, ids=range(len(PAYLOADS)))
def test_payload_in_a_scenario_stays_data(payload: str, tmp_path: Path) -> None:
    folder = tmp_path / "spec"
    _write(folder, copy.deepcopy(BASE))
    scen = folder / "scenarios"
    for f in scen.glob("*.yaml"):
        f.unlink()
    case = {
        "name": "x",
        "doc": payload,
        "seed": 1,
        "steps": [{"doc": payload, "expect_log": [payload], "expect_prompt": payload}],
    }
    (scen / "payload.yaml").write_text(json.dumps(case), encoding="utf-8")
    _check(folder, f"scenario <- {payload!r}")
