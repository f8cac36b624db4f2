"""The JSON Schemas of the spec files (compiler/schema.py, `rulewright schema`): every bundled spec
file validates, a wrong key is refused, every key is described, the committed files are fresh."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from compiler import load, schema
from compiler.driver import compile_spec
from rulewright.cli import main
from tests.conftest import ROOT

_BASE: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C reader: ~900 files in well under a second


class Yaml12Loader(_BASE):  # type: ignore[misc]
    """YAML as editors' language servers read it (YAML 1.2): only true and false are booleans, so
    a trigger's `on:` stays the key "on" (YAML 1.1 would make it True)."""


Yaml12Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in _BASE.yaml_implicit_resolvers.items()
}
Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def read(text: str) -> object:
    return yaml.load(text, Loader=Yaml12Loader)  # noqa: S506 (a safe loader)


@pytest.fixture(scope="module")
def validators() -> dict[str, jsonschema.Draft7Validator]:
    out = {}
    for kind in schema.KINDS:
        data = json.loads((schema.SCHEMA_DIR / schema.file_name(kind)).read_text(encoding="utf-8"))
        jsonschema.Draft7Validator.check_schema(data)
        out[kind] = jsonschema.Draft7Validator(data)
    return out


def kind_of(path: Path) -> str:
    if path.parent.name == "scenarios":
        return "scenario"
    return "board" if path.name == load.BOARD_FILE else "rules"


def errors(validator: jsonschema.Draft7Validator, data: object) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(data)]


def test_every_bundled_spec_file_validates(validators: dict[str, jsonschema.Draft7Validator]) -> None:
    files = sorted((ROOT / "specs").glob("*/*.yaml")) + sorted((ROOT / "specs").glob("*/scenarios/*.yaml"))
    kinds = {kind_of(f) for f in files}
    assert len(files) > 200 and kinds == set(schema.KINDS)
    bad = {}
    for f in files:
        found = errors(validators[kind_of(f)], read(f.read_text(encoding="utf-8")))
        if found:
            bad[str(f.relative_to(ROOT))] = found[:3]
    assert not bad, bad


# a wrong file of each kind, and what the schema says of it
WRONG = [
    ("rules", "zones: {deck: {off: card}}", "'off' was unexpected"),  # and `of` is missing
    ("rules", "zones: {deck: {off: card}}", "'of' is a required property"),
    ("rules", "phasse: [{name: main}]", "'phasse' was unexpected"),
    ("rules", "zones: {deck: {of: card, visibility: secret}}", "'secret' is not one of"),
    ("rules", "state: {bid: {type: int, per: player, visibility: others}}", "'others' is not one of"),
    ("rules", "board: {size: [800, 600]}", "'board' was unexpected"),  # board.yaml's alone
    ("rules", "phases: [{name: a, steps: [{name: b, repaet: 2}]}]", "'repaet' was unexpected"),
    ("rules", "results: {returns: 'score[p]', kind: zero}", "'zero' is not one of"),
    ("rules", "state: {'my score': int}", "'my score' does not match"),  # not a plain name
    ("rules", "phases: [{name: 2nd round}]", "'2nd round' does not match"),
    ("scenario", "name: x\nactions: []\nexpect_eror: boom", "'expect_eror' was unexpected"),
    ("scenario", "name: x\nsteps: [{actions: [a], expect_winer: red}]", "'expect_winer' was unexpected"),
    ("scenario", "actions: []", "'name' is a required property"),
    ("board", "board: {size: [800, 600], colours: {}}", "'colours' was unexpected"),
    (
        "board",
        "board: {size: [800, 600], places: [{of: card, at: {}, hex: {q: x, r: y}}]}",
        "valid under each",
    ),
    (
        "board",
        "board: {size: [800, 600], tracks: [{name: VP, value: v, min: 0, max: 5, style: zig}]}",
        "zig",
    ),
]


@pytest.mark.parametrize(("kind", "text", "expected"), WRONG)
def test_a_wrong_key_or_word_is_refused(
    validators: dict[str, jsonschema.Draft7Validator], kind: str, text: str, expected: str
) -> None:
    found = errors(validators[kind], read(text))
    assert any(expected in e for e in found), found


BASE = """
game: g
players: {names: [a, b]}
types: {card: {fields: {}}}
components: {card: [{id: c1}]}
phases: [{name: main, do: 'end game draw "over"'}]
"""


def test_the_checker_refuses_them_too(tmp_path: Path) -> None:
    """What the schema refuses, `rulewright check` does: it is no stricter than the loader."""
    folder = tmp_path / "g"
    (folder / "scenarios").mkdir(parents=True)
    (folder / "game.yaml").write_text(BASE, encoding="utf-8")
    assert compile_spec(folder, render=False).ok
    where = {"rules": "more.yaml", "board": "board.yaml", "scenario": "scenarios/case.yaml"}
    for kind, text, _ in WRONG:
        (folder / where[kind]).write_text(text, encoding="utf-8")
        assert not compile_spec(folder, render=False).ok, text
        (folder / where[kind]).unlink()


def _properties(node: object, where: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every property of a schema, as `path.key` and its schema."""
    if isinstance(node, dict):
        for key, value in node.get("properties", {}).items():
            yield f"{where}.{key}", value
        for key, value in node.items():
            yield from _properties(value, f"{where}.{key}" if key != "properties" else where)
    elif isinstance(node, list):
        for item in node:
            yield from _properties(item, where)


def test_the_keys_are_the_loaders_and_every_one_is_described() -> None:
    schemas, missing = schema.build(schema.DSL_DOC.read_text(encoding="utf-8"))
    assert missing == []  # a key the loader takes that docs/dsl.md does not describe: add its row
    rules = schemas["rules"]
    assert list(rules["properties"]) == list(load.TOP_KEYS) and rules["additionalProperties"] is False
    zone = rules["properties"]["zones"]["additionalProperties"]
    assert list(zone["properties"]) == list(load.ZONE_KEYS) and zone["required"] == list(load.ZONE_REQUIRED)
    assert zone["properties"]["visibility"]["enum"] == list(load.ZONE_VISIBILITIES)
    assert list(schemas["scenario"]["properties"]) == list(load.SCENARIO_KEYS)
    undescribed = [
        path for s in schemas.values() for path, prop in _properties(s) if not prop.get("description")
    ]
    assert undescribed == []
    # code is said to be code, and the docs' markup is gone
    assert "expression" in rules["properties"]["evaluation"]["description"]
    assert "](" not in json.dumps(schemas) and "**" not in json.dumps(schemas)


def test_markdown_as_plain_text() -> None:
    text = "see [the docs](dsl.md#x) for **this** and *that*:\n`a * b` and `*c*`"
    assert schema.plain(text) == "see the docs for this and that: `a * b` and `*c*`"


def test_the_committed_schemas_are_fresh() -> None:
    stale = schema.stale(schema.DSL_DOC.read_text(encoding="utf-8"))
    assert not stale, f"compiler/schemas/ is stale ({', '.join(stale)}): run `{schema.REFRESH}`"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


def test_schema_command_says_where_and_what_to_tell_an_editor(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "schema")
    assert code == 0
    for kind in schema.KINDS:
        assert str((schema.SCHEMA_DIR / schema.file_name(kind)).absolute()) in out
    assert '"yaml.schemas"' in out and '"!specs/*/board.yaml"' in out
    assert "# yaml-language-server: $schema=" in out
    with pytest.raises(SystemExit) as exc:
        main(["schema", "--help"])
    assert exc.value.code == 0 and "rulewright schema --out" in capsys.readouterr().out


def test_schema_out_copies_the_three_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "made" / "here"
    code, out = run(capsys, "schema", "--out", str(folder))
    assert code == 0, out
    assert sorted(p.name for p in folder.iterdir()) == sorted(schema.file_name(k) for k in schema.KINDS)
    for kind in schema.KINDS:
        copy = folder / schema.file_name(kind)
        assert copy.read_bytes() == (schema.SCHEMA_DIR / schema.file_name(kind)).read_bytes()
        assert json.dumps(str(copy.absolute())) in out  # the settings name the copies
    code, out = run(capsys, "schema", "--out", str(folder))  # again: the copies are written over
    assert code == 0, out


def test_schema_out_refuses_a_file_and_writes_through_no_link(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "file").write_text("mine")
    code, out = run(capsys, "schema", "--out", str(tmp_path / "file"))
    assert code == 2 and "is not a folder" in out and (tmp_path / "file").read_text() == "mine"
    code, out = run(capsys, "schema", "--out", "")
    assert code == 2 and "empty" in out
    folder = tmp_path / "out"
    folder.mkdir()
    outside = tmp_path / "outside.json"
    outside.write_text("mine")
    os.symlink(outside, folder / schema.file_name("board"))
    code, out = run(capsys, "schema", "--out", str(folder))
    assert code == 2 and "is not a plain file" in out and outside.read_text() == "mine"
    assert sorted(p.name for p in folder.iterdir()) == [schema.file_name("board")]  # none written
