"""Schema: the loader's key tables and docs/dsl.md -> a JSON Schema for each kind of spec file.

Editors that speak JSON Schema (the YAML language server of VS Code, Neovim and others) use them
to complete keys, validate a file as it is typed, and show each key's meaning on hover. The keys,
which of them are required and the words a value is one of come from load.py and load_board.py,
the tuples the loader itself checks; each key's description comes from the key tables and the
first paragraphs of docs/dsl.md's sections. So the schemas are derived, never copied by hand.

The schemas are committed files under compiler/schemas/ (package data: an installed compiler
reads no docs), written by `python -m compiler.schema` (`make schemas`) in a checkout;
tests/test_schema.py checks that they are fresh.
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compiler import load, load_board
from compiler.limits import MAX_BOARD_SIZE, MAX_COPIES, MAX_GRID_RADIUS, MAX_NUMBER, MAX_STEP_BUDGET
from compiler.resolve import GAME_NAME_RE, NAME_RE

Schema = dict[str, Any]

DRAFT = "http://json-schema.org/draft-07/schema#"  # what YAML language servers read best
SCHEMA_DIR = Path(__file__).parent / "schemas"
DSL_DOC = Path(__file__).parent.parent / "docs" / "dsl.md"  # in a checkout only
# each kind of spec file: its schema's file name, and which files of a spec folder it is for
KINDS = ("rules", "board", "scenario")
GLOBS = {
    "rules": "specs/*/*.yaml",  # but board.yaml
    "board": "specs/*/board.yaml",
    "scenario": "specs/*/scenarios/*.yaml",
}
REFRESH = "python -m compiler.schema"  # the command that writes the committed schemas again


def file_name(kind: str) -> str:
    return f"{kind}.schema.json"


# ---- descriptions, from docs/dsl.md ------------------------------------------------------------


@dataclass
class Section:
    """One `###` section of the reference: its first paragraph and its key tables."""

    first: str = ""
    tables: list[dict[str, str]] = field(default_factory=list)  # key -> meaning, per table


_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_STRONG = re.compile(r"\*\*([^*]+)\*\*")
_EMPHASIS = re.compile(r"(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])")
_KEY = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)`")


def plain(text: str) -> str:
    """Markdown as plain text: links as their words, no emphasis marks (code spans kept)."""
    parts = re.split(r"(`[^`]*`)", " ".join(text.split()))
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 0:  # outside a code span
            part = _EMPHASIS.sub(r"\1", _STRONG.sub(r"\1", _LINK.sub(r"\1", part)))
        out.append(part)
    return "".join(out).strip()


def read_sections(text: str) -> dict[str, Section]:
    """The `###` sections of a Markdown page by heading, each with its first prose paragraph and
    the rows of its tables whose first cell names keys (`key`, or `min`, `max`)."""
    sections: dict[str, Section] = {}
    current: Section | None = None
    paragraph: list[str] = []
    table: dict[str, str] | None = None
    fenced = False

    def end_paragraph() -> None:
        if current is not None and paragraph and not current.first:
            current.first = plain(" ".join(paragraph))
        paragraph.clear()

    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            end_paragraph()
            continue
        if fenced:
            continue
        if line.startswith("#"):
            end_paragraph()
            table = None
            heading = line.lstrip("#").strip()
            current = sections.setdefault(heading, Section()) if line.startswith("### ") else None
            continue
        if current is None:
            continue
        if line.startswith("|"):
            end_paragraph()
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if table is None:
                table = {}
                current.tables.append(table)
            if len(cells) >= 2 and not set(cells[0]) <= set("-: "):
                for key in _KEY.findall(cells[0]):
                    table.setdefault(key, plain(cells[1]))
            continue
        table = None
        if line.strip():
            paragraph.append(line)
        else:
            end_paragraph()
    end_paragraph()
    return sections


class Docs:
    """Descriptions of the keys of the spec's mappings, from the reference's sections."""

    def __init__(self, text: str) -> None:
        self.sections = read_sections(text)
        self.missing: list[str] = []  # keys given no description, as `where.key`

    def about(self, heading: str) -> str:
        """A section's first paragraph, without a last sentence that only leads into a table."""
        text = self.sections[heading].first if heading in self.sections else ""
        if text.endswith(":"):
            cut = text.rfind(". ")
            text = text[: cut + 1] if cut > 0 else text[:-1] + "."
        return text

    def keys(self, heading: str, keys: Iterable[str]) -> dict[str, str]:
        """The meaning of each of `keys` from the tables of a section: the table that names most of
        them first (a section may have several tables, with some keys in more than one)."""
        wanted = list(keys)
        tables = self.sections[heading].tables if heading in self.sections else []
        ranked = sorted(tables, key=lambda t: -len(set(wanted) & set(t)))  # stable: first wins ties
        out: dict[str, str] = {}
        for key in wanted:
            found = next((t[key] for t in ranked if key in t), None)
            if found is not None:
                out[key] = found
        return out


# ---- the kinds of value ------------------------------------------------------------------------

# Values as the loader reads them: a text is any single YAML value (`title: 1987` is the text
# "1987"; `yes` is the name "yes"), code may be a literal (`repeat: 2`, `check: true`).
SCALAR: Schema = {"type": ["string", "number", "boolean"]}
# a name in code: a letter or `_`, then letters, digits or `_` (`true` is a name to the loader)
NAME: Schema = {"type": ["string", "boolean"], "pattern": f"^(?:{NAME_RE.pattern})$"}
TEXT: Schema = {"type": ["string", "number", "boolean", "null"]}
EXPRESSION: Schema = {"type": ["string", "integer", "boolean"]}
STATEMENTS: Schema = {"type": "string"}
TYPE: Schema = {"type": "string"}
INT: Schema = {"type": "integer"}
BOOL: Schema = {"type": "boolean"}
ANY: Schema = {}
CODE_NOTE = {
    id(EXPRESSION): "Code: an expression of the rules language (docs/dsl.md, section 4).",
    id(STATEMENTS): "Code: statements of the rules language (docs/dsl.md, section 5).",
    id(TYPE): "A type (docs/dsl.md, section 3).",
}


def one_of(words: Iterable[str]) -> Schema:
    return {"type": "string", "enum": list(words)}


def list_of(item: Schema) -> Schema:
    return {"type": "array", "items": item}


def names_of(value: Schema) -> Schema:
    """A mapping of declarations: each key a plain name (resolve's `bad-name` otherwise)."""
    return {**map_of(value), "propertyNames": {"pattern": NAME["pattern"]}}


def map_of(value: Schema) -> Schema:
    return {"type": "object", "additionalProperties": value}


def pair(low: int = 0, high: int = MAX_BOARD_SIZE) -> Schema:
    number = {"type": "integer", "minimum": low, "maximum": high}
    return {"type": "array", "items": number, "minItems": 2, "maxItems": 2}


PER: Schema = {"type": ["string", "array"], "items": TYPE}  # a type, or a list of them


def short_or_long(long: Schema, short: Schema) -> Schema:
    """An entry written in a short form (`name: TYPE`, `name: [a, b]`) or as the mapping `long`:
    one schema, not an anyOf, so that a wrong key is reported as itself (the object's keywords
    apply to objects only)."""
    return {**short, **long, "type": [short["type"], "object"]}


PARAMS: Schema = names_of(TYPE)


def note(value: Schema, description: str) -> Schema:
    """`value` (a fresh copy) with a description: the docs' words, and what kind of code it is."""
    out = copy.deepcopy(value)
    # "(of `markers`)": which mapping a row of a shared table is about, said here by the schema
    text = re.sub(r"^\(of [^)]*\)\s*", "", description)
    if text and text[-1] not in ".:!?":
        text += "."
    text = " ".join(x for x in (text, CODE_NOTE.get(id(value))) if x)
    if text:
        out["description"] = text[0].upper() + text[1:]
    return out


class Builder:
    """Builds the schemas' objects, each from the loader's tuple of keys and a section's docs."""

    def __init__(self, docs: Docs) -> None:
        self.docs = docs

    def mapping(
        self,
        where: str,
        heading: str,
        allowed: tuple[str, ...],
        required: tuple[str, ...],
        values: dict[str, Schema],
        *,
        closed: bool = True,
        about: str = "",
    ) -> Schema:
        """An object whose keys are exactly the loader's `allowed` (every one given a value schema
        here, so that a key the loader learns cannot be left out), `required` among them."""
        if set(values) != set(allowed):
            raise ValueError(
                f"{where}: the schema's keys {sorted(values)} are not the loader's {sorted(allowed)}"
            )
        meanings = self.docs.keys(heading, allowed)
        properties = {}
        for key in allowed:
            if key not in meanings:
                self.docs.missing.append(f"{where}.{key}")
            properties[key] = note(values[key], meanings.get(key, ""))
        out: Schema = {"type": "object"}
        if about:
            out["description"] = about
        out["properties"] = properties
        if required:
            out["required"] = list(required)
        if closed:
            out["additionalProperties"] = False
        return out

    # -- rules files --

    def rules(self) -> Schema:
        L = load
        m = self.mapping
        a = self.docs.about
        header = "game, title, version, players, actions"
        players = m("players", header, L.PLAYERS_KEYS, L.PLAYERS_REQUIRED, {
            "names": list_of(NAME),
            "labels": list_of(SCALAR),
            "count": {"type": ["integer", "string"]},
        })  # fmt: skip
        actions = m("actions", header, L.ACTIONS_KEYS, (), {
            "max_number": {"type": "integer", "minimum": 0, "maximum": MAX_NUMBER},
        })  # fmt: skip
        limits = m("limits", header, L.LIMITS_KEYS, (), {
            "steps": {"type": "integer", "minimum": 1, "maximum": MAX_STEP_BUDGET},
        })  # fmt: skip
        results = m("results", "results", L.RESULTS_KEYS, L.RESULTS_REQUIRED, {
            "returns": EXPRESSION, "min": INT, "max": INT, "kind": one_of(L.RESULT_KINDS), "sum": INT,
        })  # fmt: skip
        consts = "options, constants, enums"
        option = m("options.NAME", consts, L.OPTION_KEYS, L.OPTION_REQUIRED, {
            "type": TYPE, "default": SCALAR, "choices": list_of(SCALAR), "doc": TEXT,
        })  # fmt: skip
        enum_long = m("enums.NAME", consts, L.ENUM_KEYS, L.ENUM_REQUIRED, {
            "values": list_of(NAME), "labels": list_of(SCALAR), "doc": TEXT,
        })  # fmt: skip
        types = "types and components"
        field_long = m("types.NAME.fields.NAME", types, L.FIELD_KEYS, L.FIELD_REQUIRED, {
            "type": TYPE, "params": PARAMS, "code": BOOL, "optional": BOOL, "doc": TEXT,
        })  # fmt: skip
        entity_type = m("types.NAME", types, L.TYPE_KEYS, (), {
            "fields": names_of(short_or_long(field_long, TYPE)),
            "doc": TEXT,
        })  # fmt: skip
        row = m("components.TYPE[]", types, L.COMPONENT_KEYS, L.COMPONENT_REQUIRED, {
            "id": NAME, "name": SCALAR, "copies": {"type": "integer", "minimum": 1, "maximum": MAX_COPIES},
        }, closed=False, about="A component: its id, name and copies, and a value for each field of its type.")  # fmt: skip
        state_long = m("state.NAME", "state", L.STATE_KEYS, L.STATE_REQUIRED, {
            "type": TYPE, "per": PER, "initial": ANY, "min": INT, "max": INT,
            "visibility": one_of(L.VARIABLE_VISIBILITIES), "doc": TEXT,
        })  # fmt: skip
        zone = m("zones.NAME", "zones", L.ZONE_KEYS, L.ZONE_REQUIRED, {
            "of": TYPE, "per": PER, "kind": one_of(L.ZONE_KINDS), "visibility": one_of(L.ZONE_VISIBILITIES),
            "radius": {"type": "integer", "minimum": 1, "maximum": MAX_GRID_RADIUS}, "doc": TEXT,
        })  # fmt: skip
        function = m("functions.NAME", "functions", L.FUNCTION_KEYS, L.FUNCTION_REQUIRED, {
            "params": PARAMS, "returns": TYPE, "body": EXPRESSION, "cached": BOOL, "doc": TEXT,
        })  # fmt: skip
        instead = m("procedures.NAME.instead[]", "procedures", L.INSTEAD_KEYS, L.INSTEAD_REQUIRED, {
            "if": EXPRESSION, "do": STATEMENTS, "doc": TEXT,
        })  # fmt: skip
        procedure = m("procedures.NAME", "procedures", L.PROCEDURE_KEYS, L.PROCEDURE_REQUIRED, {
            "params": PARAMS, "returns": TYPE, "do": STATEMENTS, "doc": TEXT, "instead": list_of(instead),
        })  # fmt: skip
        signature = m("events.NAME", "events and modifiers", L.SIGNATURE_KEYS, (), {
            "params": PARAMS, "doc": TEXT,
        })  # fmt: skip
        signature["type"] = ["object", "null"]  # a bare `name:` has no parameters
        window = m("windows.NAME", "Response windows", L.WINDOW_KEYS, L.WINDOW_REQUIRED, {
            "params": PARAMS, "doc": TEXT, "to": {"type": "string"}, "who": EXPRESSION,
            "with": EXPRESSION, "until": one_of(L.WINDOW_UNTIL), "does": STATEMENTS,
            "declined": STATEMENTS, "otherwise": STATEMENTS, "opens": STATEMENTS,
            "disclosure": one_of(L.WINDOW_DISCLOSURES),
        })  # fmt: skip
        trigger = m("triggers[]", "triggers", L.TRIGGER_KEYS, L.TRIGGER_REQUIRED, {
            "name": NAME, "on": {"type": "string"}, "if": EXPRESSION, "do": STATEMENTS, "doc": TEXT,
        })  # fmt: skip
        invariant = m("invariants[]", "invariants", L.INVARIANT_KEYS, L.INVARIANT_REQUIRED, {
            "name": NAME, "check": EXPRESSION, "why": TEXT,
        })  # fmt: skip
        phase = m("phases[]", "phases", L.PHASE_KEYS, L.PHASE_REQUIRED, {
            "name": NAME, "do": STATEMENTS, "steps": list_of({"$ref": "#/definitions/phase"}),
            "repeat": EXPRESSION, "while": EXPRESSION, "counter": NAME, "doc": TEXT,
        })  # fmt: skip
        sections: dict[str, tuple[str, Schema]] = {
            "game": (header, {"type": "string", "pattern": f"^(?:{GAME_NAME_RE.pattern})$"}),
            "title": (header, TEXT),
            "version": (header, TEXT),
            "players": (header, players),
            "actions": (header, actions),
            "limits": (header, limits),
            "setup": ("setup", STATEMENTS),
            "evaluation": ("evaluation", EXPRESSION),
            "results": ("results", results),
            "options": (consts, names_of(option)),
            "constants": (consts, names_of({"type": ["integer", "boolean"]})),
            "enums": (consts, names_of(short_or_long(enum_long, list_of(NAME)))),
            "types": (types, names_of(entity_type)),
            "components": (types, map_of(list_of(row))),
            "state": ("state", names_of(short_or_long(state_long, TYPE))),
            "zones": ("zones", names_of(zone)),
            "functions": ("functions", names_of(function)),
            "procedures": ("procedures", names_of(procedure)),
            "events": ("events and modifiers", names_of(signature)),
            "modifiers": ("events and modifiers", names_of(signature)),
            "windows": ("windows", names_of(window)),
            "triggers": ("triggers", list_of(trigger)),
            "invariants": ("invariants", list_of(invariant)),
            "phases": ("phases", list_of({"$ref": "#/definitions/phase"})),
        }
        if set(sections) != set(load.TOP_KEYS):
            raise ValueError(f"the schema's sections are not the loader's TOP_KEYS: {sorted(sections)}")
        properties = {}
        for key in load.TOP_KEYS:
            heading, value = sections[key]
            row_text = self.docs.keys(heading, [key]).get(key) or a(heading)
            if not row_text:
                self.docs.missing.append(key)
            properties[key] = note(value, row_text)
        return {
            "$schema": DRAFT,
            "title": "Rulewright rules file",
            "description": "A YAML file of a Rulewright spec folder (every *.yaml but board.yaml): some "
            "of the game's sections, which may be split over several files (docs/dsl.md).",
            "type": "object",
            "properties": properties,
            "additionalProperties": False,
            "definitions": {"phase": phase},
        }

    # -- board.yaml --

    def board(self) -> Schema:
        B = load_board
        m = self.mapping
        heading = "The board (board.yaml)"
        layouts = {
            kind: m(f"board.places[].{kind}", heading, B.LAYOUT_KEYS[kind], B.LAYOUT_REQUIRED[kind], {
                **{k: EXPRESSION for k in B.LAYOUT_REQUIRED[kind] if kind != "cells"},
                **({"zone": SCALAR} if kind == "cells" else {}),
                "origin": pair(),
            })
            for kind in B.LAYOUT_REQUIRED
        }  # fmt: skip
        markers = m("board.places[].markers", heading, B.MARKER_KEYS, B.MARKER_REQUIRED, {
            "value": EXPRESSION, "solid": EXPRESSION,
        })  # fmt: skip
        place = m("board.places[]", heading, B.PLACE_KEYS, B.PLACE_REQUIRED, {
            "of": TYPE, "name": TEXT, "shape": one_of(B.SHAPES), "size": pair(4), "at": map_of(pair()),
            **layouts, "where": EXPRESSION, "group": EXPRESSION, "label": EXPRESSION,
            "show": map_of(EXPRESSION), "owner": EXPRESSION, "marked": EXPRESSION, "mark": TEXT,
            "links": EXPRESSION, "markers": markers,
        })  # fmt: skip
        # exactly one layout (the loader's one_layout)
        place["oneOf"] = [{"required": [k]} for k in B.LAYOUTS]
        track = m("board.tracks[]", heading, B.TRACK_KEYS, B.TRACK_REQUIRED, {
            "name": SCALAR, "value": EXPRESSION, "min": INT, "max": INT, "each": one_of(B.EACH),
            "style": one_of(B.TRACK_STYLES), "from": pair(), "to": pair(),
        })  # fmt: skip
        counter = m("board.counters[]", heading, B.COUNTER_KEYS, B.COUNTER_REQUIRED, {
            "name": SCALAR, "value": EXPRESSION, "each": one_of(B.EACH),
        })  # fmt: skip
        cards = m("board.cards.TYPE", heading, B.CARD_KEYS, (), {"value": EXPRESSION, "text": EXPRESSION})
        color = {"type": "string", "pattern": f"^(?:{B.COLOR.pattern})$"}
        board = m("board", heading, B.BOARD_KEYS, B.BOARD_REQUIRED, {
            "size": pair(100), "colors": map_of(color), "labels": map_of(pair()),
            "places": list_of(place), "tracks": list_of(track), "counters": list_of(counter),
            "zones": list_of(SCALAR), "cards": map_of(cards),
            "names": map_of({"type": "string", "minLength": 1, "maxLength": B.MAX_NAME}),
        }, about=self.docs.about(heading))  # fmt: skip
        return {
            "$schema": DRAFT,
            "title": "Rulewright board.yaml",
            "description": "How a game is drawn: the `board` section alone (docs/dsl.md, The board).",
            "type": "object",
            "properties": {"board": board},
            "required": ["board"],
            "additionalProperties": False,
        }

    # -- scenario files --

    def scenario(self) -> Schema:
        L = load
        heading = "scenarios"
        expect: dict[str, Schema] = {
            "expect": list_of(EXPRESSION),
            "expect_error": TEXT,
            "expect_log": list_of(SCALAR),
            "expect_no_log": list_of(SCALAR),
            "expect_legal": list_of(SCALAR),
            "expect_to_act": SCALAR,
            "expect_prompt": TEXT,
            "expect_winner": SCALAR,
            "expect_winners": list_of(SCALAR),
            "expect_seen": map_of(list_of(SCALAR)),
            "expect_unseen": map_of(list_of(SCALAR)),
            "expect_invariants": list_of(SCALAR),
        }
        actions = list_of(SCALAR)
        step = self.mapping("steps[]", heading, L.STEP_KEYS, (), {"doc": TEXT, "actions": actions, **expect})
        top = self.mapping("scenario", heading, L.SCENARIO_KEYS, L.SCENARIO_REQUIRED, {
            "name": TEXT, "doc": TEXT, "seed": INT, "options": map_of(SCALAR), "setup": STATEMENTS,
            "dice": list_of(INT), "shuffles": list_of(list_of(SCALAR)), "draws": list_of(list_of(SCALAR)),
            "picks": list_of(SCALAR), "skip": list_of(SCALAR), "start_at": SCALAR, "actions": actions,
            "steps": list_of(step), **expect,
        })  # fmt: skip
        return {
            "$schema": DRAFT,
            "title": "Rulewright scenario file",
            "description": self.docs.about(heading),
            **{k: v for k, v in top.items() if k != "description"},
        }


def build(docs_text: str) -> tuple[dict[str, Schema], list[str]]:
    """The three schemas by kind, from the reference's text; and the keys it describes nowhere."""
    docs = Docs(docs_text)
    builder = Builder(docs)
    schemas = {"rules": builder.rules(), "board": builder.board(), "scenario": builder.scenario()}
    return schemas, docs.missing


def dumps(schema: Schema) -> str:
    """A schema as its committed file holds it."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def stale(docs_text: str, folder: Path = SCHEMA_DIR) -> list[str]:
    """The schema files of `folder` that differ from what the reference gives (or are missing)."""
    schemas, _ = build(docs_text)
    out = []
    for kind, schema in schemas.items():
        path = folder / file_name(kind)
        try:
            current = path.read_text(encoding="utf-8")
        except OSError:
            current = None
        if current != dumps(schema):
            out.append(path.name)
    return out


def editor_settings(paths: dict[str, Path]) -> str:
    """What to tell an editor, for the schema files at `paths` (by kind): VS Code's `yaml.schemas`
    setting, and the modeline a file may start with instead (docs/editor.md)."""
    lines = ["{", '  "yaml.schemas": {']
    for i, kind in enumerate(KINDS):
        globs: object = [GLOBS[kind], "!" + GLOBS["board"]] if kind == "rules" else GLOBS[kind]
        comma = "," if i < len(KINDS) - 1 else ""
        lines.append(f"    {json.dumps(str(paths[kind]))}: {json.dumps(globs)}{comma}")
    lines += ["  }", "}"]
    return (
        "VS Code, with the YAML extension (.vscode/settings.json):\n"
        + "\n".join(lines)
        + "\n\nOr, in any editor with the YAML language server, a file's first line names its schema:\n"
        + f"# yaml-language-server: $schema={paths['rules']}\n"
        + "\nNeovim and the rest: `rulewright docs editor`.\n"
    )


def main(argv: list[str] | None = None) -> int:
    """Write the committed schemas from docs/dsl.md (a checkout's), or with --check say if stale."""
    p = argparse.ArgumentParser(prog=REFRESH, description=main.__doc__)
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 if a schema is stale")
    args = p.parse_args(argv)
    try:
        text = DSL_DOC.read_text(encoding="utf-8")
    except OSError as exc:
        print(f"{REFRESH}: cannot read {DSL_DOC} ({exc.strerror}): run it from a checkout", file=sys.stderr)
        return 2
    if args.check:
        names = stale(text)
        if names:
            print(f"{SCHEMA_DIR}: stale: {', '.join(names)} (run `{REFRESH}`)")
            return 1
        print(f"{SCHEMA_DIR}: up to date")
        return 0
    schemas, missing = build(text)
    SCHEMA_DIR.mkdir(exist_ok=True)
    for kind, schema in schemas.items():
        (SCHEMA_DIR / file_name(kind)).write_text(dumps(schema), encoding="utf-8")
    print(f"wrote {', '.join(file_name(k) for k in schemas)} to {SCHEMA_DIR}")
    if missing:
        print(f"keys without a description in {DSL_DOC.name}: {', '.join(missing)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
