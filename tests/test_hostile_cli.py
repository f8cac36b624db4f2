"""The hostile-input corpus: CLI arguments, paths and logs (tests/hostile/README.md).

Every case runs `rulewright` in this process and checks its exit code, a specific message (never
the catch-all "internal error") and that no traceback was printed. ARG_CASES are command lines,
LOG_CASES damaged logs given to `replay`; the tests after them need set-up of their own (Ctrl-C,
end of input, a write that fails after the game, a stale build). Small games and -n 1 keep the
module fast.
"""

from __future__ import annotations

import builtins
import io
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rulewright import cli
from rulewright.commands import demo
from rulewright.gamelog import SEED_LIMIT
from tests.conftest import ROOT

GAMES = ", ".join(sorted(p.name for p in (ROOT / "specs").iterdir() if (p / "game.yaml").is_file()))


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str

    @property
    def text(self) -> str:
        return self.out + self.err


def rulewright(capsys: pytest.CaptureFixture[str], *argv: str) -> Run:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return Run(code, captured.out, captured.err)


def sound(run: Run, code: int, expect: str) -> None:
    """The exit code, the specific message, and none of what must never show: a traceback, or a
    character that acts on a terminal (an escape sequence, a CR, a bidi override; an LF only
    between lines), whatever the input held (runtime/text.py)."""
    assert run.code == code, run.text
    assert expect in run.text, run.text
    assert "Traceback" not in run.text, run.text
    assert "internal error" not in run.text, run.text
    assert "\r" not in run.text and all(line.isprintable() for line in run.text.split("\n")), ascii(run.text)
    if code == cli.EXIT_USAGE:  # a usage error is one line on stderr, prefixed by the command
        lines = run.err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("rulewright"), run.err


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


# ---- command lines ----------------------------------------------------------------------------
# {tmp} is an empty folder, {file} a YAML file that is not a scenario.

ARG_CASES: list[tuple[str, list[str], int, str]] = [
    (
        "n-zero",
        ["simulate", "iron_curtain", "-n", "0"],
        2,
        "argument -n: expected a whole number of at least 1, not '0'",
    ),
    ("n-negative", ["simulate", "iron_curtain", "-n", "-5"], 2, "at least 1, not '-5'"),
    ("n-word", ["simulate", "iron_curtain", "-n", "many"], 2, "expected a whole number, not 'many'"),
    ("n-huge", ["simulate", "iron_curtain", "-n", "9" * 40], 2, "is far too large"),
    ("n-superscript", ["simulate", "iron_curtain", "-n", "²"], 2, "expected a whole number, not '²'"),
    ("seed-negative", ["simulate", "iron_curtain", "--seed", "-1"], 2, "a seed is a whole number from 0 to"),
    (
        "seed-2-63",
        ["play", "iron_curtain", "--seed", str(SEED_LIMIT)],
        2,
        "a seed is a whole number from 0 to",
    ),
    (
        "seeds-overflow",
        ["simulate", "iron_curtain", "--seed", str(SEED_LIMIT - 1), "-n", "2"],
        2,
        "go past the largest",
    ),
    (
        "seconds-nan",
        ["bench", "iron_curtain", "--seconds", "nan"],
        2,
        "a number of seconds above 0, not 'nan'",
    ),
    (
        "seconds-inf",
        ["bench", "iron_curtain", "--seconds", "inf"],
        2,
        "a number of seconds above 0, not 'inf'",
    ),
    ("seconds-negative", ["bench", "iron_curtain", "--seconds", "-1"], 2, "above 0, not '-1'"),
    ("seconds-zero", ["bench", "iron_curtain", "--seconds", "0"], 2, "above 0, not '0'"),
    ("seconds-word", ["bench", "iron_curtain", "--seconds", "soon"], 2, "a number of seconds, not 'soon'"),
    ("rounds-zero", ["bench", "iron_curtain", "--against", "HEAD", "--rounds", "0"], 2, "argument --rounds"),
    (
        "against-an-option",
        ["bench", "iron_curtain", "--against=--output=/tmp/rulewright-x"],
        2,
        "--against '--output=/tmp/rulewright-x': a revision does not start with '-'",
    ),
    ("against-no-commit", ["bench", "iron_curtain", "--against", "no-such-rev"], 2, "no such commit in"),
    ("against-a-file", ["bench", "iron_curtain", "--against", "HEAD:README.md"], 2, "no such commit in"),
    ("against-nul", ["bench", "iron_curtain", "--against", "HEAD\x00"], 2, "not a revision name"),
    ("against-long", ["bench", "iron_curtain", "--against", "x" * 100_000], 2, "not a revision name"),
    (
        "against-a-path",
        ["bench", "./specs/iron_curtain", "--against", "HEAD"],
        2,
        "--against compares the workspace's games by name",
    ),
    ("examples-negative", ["verify", "iron_curtain", "--examples", "-1"], 2, "argument --examples: expected"),
    ("examples-zero", ["verify", "iron_curtain", "--examples", "0"], 2, "at least 1, not '0'"),
    ("max-steps-zero", ["verify", "iron_curtain", "--max-steps", "0"], 2, "argument --max-steps"),
    (
        "prefer-bad-regex",
        ["verify", "iron_curtain", "--prefer", "("],
        2,
        "--prefer '(' is not a regular expression",
    ),
    ("strategy-empty", ["verify", "iron_curtain", "--strategy", ","], 2, "unknown strategy ''"),
    ("strategy-prefer-alone", ["verify", "iron_curtain", "--strategy", "prefer"], 2, "needs a pattern"),
    ("tail-negative", ["demo", "--tail", "-1"], 2, "argument --tail: expected a whole number of at least 0"),
    ("max-bytes-zero", ["replay", "x.json", "--max-bytes", "0"], 2, "argument --max-bytes"),
    (
        "game-dotdot",
        ["play", "../../no-such-rulewright-folder"],
        2,
        "'../../no-such-rulewright-folder' is neither a compiled game nor a spec folder",
    ),
    ("game-init", ["play", "__init__"], 2, f"unknown game '__init__'; the games are: {GAMES}"),
    ("game-empty", ["play", ""], 2, "no game named (an empty name)"),
    ("game-typo", ["simulate", "iron_curtan", "-n", "1"], 2, "did you mean 'iron_curtain'?"),
    ("game-long", ["play", "x" * 100_000], 2, "unknown game 'xxxxxxxx"),
    ("game-long-path", ["play", "a/" + "b" * 10_000], 2, "is neither a compiled game nor a spec folder"),
    ("game-nul", ["play", "iron\x00curtain"], 2, "unknown game 'iron\\x00curtain'"),
    ("game-unicode", ["play", "ïron_cürtain"], 2, "did you mean 'iron_curtain'?"),
    ("game-generated", ["simulate", "generated", "-n", "1"], 2, "unknown game 'generated'"),
    ("bench-empty-game", ["bench", ""], 2, "no game named (an empty name)"),
    ("playthrough-path", ["playthrough", "../.."], 2, "unknown game '../..'"),
    ("diff-init", ["diff", "__init__"], 2, "unknown game '__init__'"),
    ("scenarios-unknown", ["scenarios", "nosuch"], 2, "unknown game 'nosuch'"),
    ("check-empty", ["check", ""], 2, "an empty name is neither a spec folder nor a game"),
    (
        "option-no-equals",
        ["simulate", "iron_curtain", "-n", "1", "-o", "x"],
        2,
        "-o takes KEY=VALUE, not 'x'",
    ),
    ("option-no-key", ["simulate", "iron_curtain", "-n", "1", "-o", "=1"], 2, "-o takes KEY=VALUE, not '=1'"),
    (
        "option-unknown",
        ["simulate", "iron_curtain", "-n", "1", "-o", "nosuch=1"],
        2,
        "has no option 'nosuch'",
    ),
    (
        "option-choice",
        ["play", "guerra_fronteriza", "-q", "-o", "operation=99"],
        2,
        "option 'operation' must be one of [2, 3, 4], not 99",
    ),
    (
        "option-bool",
        ["play", "channel_tunnel", "-q", "-o", "agenda=maybe"],
        2,
        "is true or false, not 'maybe'",
    ),
    (
        "option-long-key",
        ["simulate", "iron_curtain", "-n", "1", "-o", "k" * 10_000 + "=1"],
        2,
        "not an option setting",
    ),
    (
        "option-long-value",
        ["play", "guerra_fronteriza", "-o", "operation=" + "9" * 5000],
        2,
        "not an option setting",
    ),
    ("agents-long", ["play", "iron_curtain", "--agents", "x" * 10_000], 2, "unknown agent 'xxxxx"),
    ("agents-empty", ["play", "iron_curtain", "--agents", ""], 2, "unknown agent ''"),
    ("agents-superscript", ["play", "iron_curtain", "--agents", "mcts:²"], 2, "unknown agent 'mcts:²'"),
    (
        "agents-budget",
        ["simulate", "iron_curtain", "-n", "1", "--agents", "random:3"],
        2,
        "unknown agent 'random:3'",
    ),
    ("playthrough-agents", ["playthrough", "iron_curtain", "--agents", "bogus"], 2, "unknown agent 'bogus'"),
    (
        "log-missing-folder",
        ["play", "iron_curtain", "-q", "--log", "{tmp}/no/x.json"],
        2,
        "cannot write there",
    ),
    ("log-folder", ["play", "iron_curtain", "-q", "--log", "{tmp}"], 2, "is a folder; name a file"),
    ("log-empty", ["play", "iron_curtain", "-q", "--log", ""], 2, "--log: the file name is empty"),
    ("log-proc", ["play", "iron_curtain", "-q", "--log", "/proc/x"], 2, "--log /proc/x: cannot write there"),
    (
        "coverage-json-proc",
        ["simulate", "iron_curtain", "-n", "1", "--coverage-json", "/proc/x"],
        2,
        "--coverage-json /proc/x: cannot write there",
    ),
    (
        "coverage-json-folder",
        ["simulate", "iron_curtain", "-n", "1", "--coverage-json", "{tmp}"],
        2,
        "is a folder; name a file",
    ),
    (
        "verify-coverage-json",
        ["verify", "iron_curtain", "--coverage-json", "{tmp}/no/GAME.json"],
        2,
        "/no/iron_curtain.json: cannot write there",
    ),
    ("verify-out-file", ["verify", "iron_curtain", "--out", "{file}"], 2, "is not a folder"),
    ("playthrough-out-file", ["playthrough", "iron_curtain", "--out", "{file}/sub"], 2, "is not a folder"),
    ("diff-empty-dir", ["diff", "iron_curtain", "--dir", "{tmp}"], 2, "no playthroughs in"),
    ("scenarios-yaml-file", ["scenarios", "{tmp}/case.yaml"], 2, "name the game they test"),
    ("scenarios-two-names", ["scenarios", "iron_curtain", "channel_tunnel"], 2, "name the game they test"),
    (
        "cases-missing",
        ["scenarios", "--game", "iron_curtain", "{tmp}/no.yaml"],
        2,
        "no such case file or folder",
    ),
    ("cases-empty-folder", ["scenarios", "--game", "iron_curtain", "{tmp}"], 2, "no case files (*.yaml) in"),
    ("cases-unknown-game", ["scenarios", "--game", "nosuch", "{file}"], 2, "no spec folder for 'nosuch'"),
    (
        "cases-of-another-game",
        ["scenarios", "--game", "iron_curtain", "specs/channel_tunnel/scenarios"],
        1,
        "[unknown-name]",
    ),
    ("cases-not-a-scenario", ["scenarios", "--game", "iron_curtain", "{file}"], 1, "[unknown-key]"),
    ("unknown-flag", ["play", "iron_curtain", "--nosuch"], 2, "unrecognized arguments: --nosuch"),
    # text that would act on a terminal, in an argument: shown escaped
    (
        "game-escapes",
        ["play", "\x1b]0;pwned\x07\r\nrulewright: forged"],
        2,
        "unknown game '\\x1b]0;pwned\\x07\\r\\nrulewright: forged'",
    ),
    ("game-bidi", ["draw", "iron\u202eniatruc"], 2, "unknown game 'iron\\u202eniatruc'"),
    ("flag-escapes", ["play", "iron_curtain", "--\x1b[2J\n"], 2, "unrecognized arguments: --\\x1b[2J\\n"),
    (
        "option-key-escapes",
        ["simulate", "iron_curtain", "-n", "1", "-o", "\x1b[2J\u202e\n=1"],
        2,
        "-o '\\x1b[2J\\u202e\\n=1': not an option setting",
    ),
    (
        "agents-escapes",
        ["play", "iron_curtain", "--agents", "\x1b[31mhuman"],
        2,
        "unknown agent '\\x1b[31mhuman'",
    ),
    ("log-path-escapes", ["replay", "{tmp}/\x1b[2J\nx.json"], 2, "\\x1b[2J\\nx.json: no such file"),
    ("no-command", [], 2, "the following arguments are required: COMMAND"),
]


@pytest.mark.parametrize(
    ("argv", "code", "expect"), [c[1:] for c in ARG_CASES], ids=[c[0] for c in ARG_CASES]
)
def test_command_line(
    argv: list[str], code: int, expect: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    empty, file = tmp_path / "empty", tmp_path / "file.yaml"
    empty.mkdir()
    file.write_text("foo: 1\n", encoding="utf-8")
    args = [a.replace("{tmp}", str(empty)).replace("{file}", str(file)) for a in argv]
    sound(rulewright(capsys, *args), code, expect)


# ---- damaged logs -----------------------------------------------------------------------------
# Each damage turns a real log (its parsed JSON and its text) into the bytes of the file to replay.

Damage = Callable[[dict[str, Any], str], bytes]


def edited(**fields: Any) -> Damage:
    return lambda data, _: json.dumps({**data, **fields}).encode()


def without(field: str) -> Damage:
    return lambda data, _: json.dumps({k: v for k, v in data.items() if k != field}).encode()


def actions_of(other: str) -> Damage:
    """The log's header with another game's actions."""
    return lambda data, _: json.dumps({**data, **_other_actions(other)}).encode()


def _other_actions(log: str) -> dict[str, Any]:
    data = json.loads(_LOGS[log])
    return {"actions": data["actions"], "action_ids": data["action_ids"]}


def swapped_label(i: int, label: object) -> Damage:
    def damage(data: dict[str, Any], _: str) -> bytes:
        actions = list(data["actions"])
        actions[i] = label
        return json.dumps({**data, "actions": actions}).encode()

    return damage


def cut_actions(keep: int, ids_too: bool) -> Damage:
    def damage(data: dict[str, Any], _: str) -> bytes:
        out = {**data, "actions": data["actions"][:keep]}
        if ids_too:
            out["action_ids"] = data["action_ids"][:keep]
        return json.dumps(out).encode()

    return damage


def one_more_action(data: dict[str, Any], _: str) -> bytes:
    return json.dumps(
        {**data, "actions": [*data["actions"], "pass"], "action_ids": [*data["action_ids"], 0]}
    ).encode()


def flipped_id(data: dict[str, Any], _: str) -> bytes:
    ids = list(data["action_ids"])
    ids[0] += 1
    return json.dumps({**data, "action_ids": ids}).encode()


def sorted_fields(then: Damage | None = None) -> Damage:
    """The fields in the alphabet's order (as a tool may rewrite a log): actions before game and
    seed, so the log is read in two passes."""

    def damage(data: dict[str, Any], text: str) -> bytes:
        out = json.loads(then(data, text)) if then else data
        return json.dumps(out, sort_keys=True).encode()

    return damage


def escaped_labels(data: dict[str, Any], _: str) -> bytes:
    """Every action label written with \\u escapes, as a JSON writer may."""
    labels = ["".join(f"\\u{ord(c):04x}" for c in label) for label in data["actions"]]
    head = json.dumps({k: v for k, v in data.items() if k != "actions"})[:-1]
    return (head + ', "actions": [' + ", ".join(f'"{label}"' for label in labels) + "]}").encode()


LOG_CASES: list[tuple[str, Damage, int, str]] = [
    ("empty", lambda d, t: b"", 2, "the file is empty"),
    ("blank", lambda d, t: b"  \n\n ", 2, "the file is empty"),
    ("not-json", lambda d, t: b"hello, world\n", 2, ":1:1: not a JSON log (Expecting value)"),
    ("binary", lambda d, t: b"\x89PNG\r\n\x1a\n\x00\xff\xfe", 2, "byte 0x89 is not UTF-8 text"),
    (
        "latin-1",
        lambda d, t: t.replace('"USSR"', '"URSS \xe9t\xe9"').encode("latin-1"),
        2,
        "is not UTF-8 text",
    ),
    ("nul-bytes", lambda d, t: t.encode() + b"\x00\x00", 2, "not a JSON log (Extra data)"),
    ("cut-in-half", lambda d, t: t[: len(t) // 2].encode(), 2, "not a JSON log"),
    ("cut-at-10", lambda d, t: t[:10].encode(), 2, ":2:9: not a JSON log"),
    ("cut-before-brace", lambda d, t: t.rstrip()[:-1].encode(), 2, "not a JSON log"),
    (
        "json-list",
        lambda d, t: b"[1, 2, 3]",
        2,
        "not a rulewright log (a JSON object with game, seed and actions), but a JSON list",
    ),
    ("json-string", lambda d, t: b'"iron_curtain"', 2, "but a JSON string"),
    ("deep-nesting", lambda d, t: b"[" * 100_000 + b"]" * 100_000, 2, "its JSON is nested too deeply"),
    (
        "seed-5000-digits",
        lambda d, t: t.replace('"seed": 4', '"seed": ' + "7" * 5000).encode(),
        2,
        "not a log: Exceeds the limit",
    ),
    (
        "seed-infinite",
        lambda d, t: t.replace('"seed": 4', '"seed": 1e400').encode(),
        2,
        "field 'seed' must be an integer from 0 to",
    ),
    (
        "seed-string",
        edited(seed="4"),
        2,
        "field 'seed' must be an integer from 0 to 9223372036854775807, not \"4\"",
    ),
    (
        "seed-float",
        edited(seed=4.5),
        2,
        "field 'seed' must be an integer from 0 to 9223372036854775807, not 4.5",
    ),
    ("seed-bool", edited(seed=True), 2, "not true"),
    ("seed-null", edited(seed=None), 2, "not null"),
    ("seed-negative", edited(seed=-1), 2, "not -1"),
    ("seed-2-64", edited(seed=2**64), 2, "not 18446744073709551616"),
    ("no-game", without("game"), 2, "no field 'game'; is this a log written by `rulewright play --log`?"),
    ("no-seed", without("seed"), 2, "no field 'seed'"),
    ("no-actions", without("actions"), 2, "no field 'actions'"),
    ("no-digest", without("final_state_sha256"), 2, "no field 'final_state_sha256'"),
    ("game-number", edited(game=3), 2, "field 'game' must be a game's name, not 3"),
    ("game-unknown", edited(game="nosuch"), 2, "field 'game': unknown game 'nosuch'; the games are:"),
    ("game-path", edited(game="../../etc"), 2, "field 'game': unknown game '../../etc'"),
    ("game-init", edited(game="__init__"), 2, "field 'game': unknown game '__init__'"),
    ("game-typo", edited(game="iron-curtain"), 2, "did you mean 'iron_curtain'?"),
    ("options-list", edited(options=[]), 2, "field 'options' must be an object of option values, not []"),
    (
        "options-unknown",
        edited(options={"nosuch": 1}),
        2,
        "field 'options': iron_curtain has no option 'nosuch'",
    ),
    (
        "options-text",
        edited(options={"x": "yes, please"}),
        2,
        "field 'options.x' must be an integer, true/false or a value's name",
    ),
    ("actions-text", edited(actions="USSR"), 2, "field 'actions' must be a list of action labels"),
    ("action-number", swapped_label(3, 7), 2, "field 'actions[3]' must be an action label (a text), not 7"),
    ("action-unknown", swapped_label(5, "Play the Moon"), 1, "replay diverges at"),
    (
        "wrong-game",
        actions_of("channel_tunnel"),
        1,
        "actions[0] (decision 1, 'yellow'): no legal action 'yellow'",
    ),
    (
        "cut-actions-only",
        cut_actions(40, ids_too=False),
        2,
        "field 'action_ids' has 84 entries but 'actions' has 40",
    ),
    ("cut-unmarked", cut_actions(40, ids_too=True), 1, "yet the log does not say it is unfinished"),
    ("one-action-too-many", one_more_action, 1, "the game is already over"),
    ("ids-text", edited(action_ids="1,2"), 2, "field 'action_ids' must be a list of integers"),
    ("id-flipped", flipped_id, 1, "action_ids[0] is"),
    (
        "digest-wrong",
        edited(final_state_sha256="0" * 16),
        1,
        "the final state differs from field 'final_state_sha256'",
    ),
    ("digest-number", edited(final_state_sha256=123), 2, "field 'final_state_sha256' must be a text"),
    ("spec-digest-number", edited(spec_digest=5), 2, "field 'spec_digest' must be a text"),
    ("unfinished-number", edited(unfinished=3), 2, "field 'unfinished' must be a text"),
    (
        "spec-changed",
        edited(spec_digest="0" * 64),
        0,
        "note: the spec has changed since this log was recorded",
    ),
    ("byte-order-mark", lambda d, t: b"\xef\xbb\xbf" + t.encode(), 0, "final state matches"),
    # the fields in another order than `play --log` writes them: read in two passes, same checks
    ("fields-sorted", sorted_fields(), 0, "final state matches"),
    ("sorted-action-unknown", sorted_fields(swapped_label(5, "Play the Moon")), 1, "replay diverges at"),
    (
        "sorted-action-number",
        sorted_fields(swapped_label(3, 7)),
        2,
        "field 'actions[3]' must be an action label",
    ),
    ("sorted-id-flipped", sorted_fields(flipped_id), 1, "action_ids[0] is"),
    ("sorted-no-game", sorted_fields(without("game")), 2, "no field 'game'"),
    ("labels-escaped", escaped_labels, 0, "final state matches"),
    ("ids-null", edited(action_ids=None), 0, "final state matches"),
    (
        "seed-twice",
        lambda d, t: t.replace('"seed": 4', '"seed": 4, "seed": 5').encode(),
        2,
        "field 'seed' appears twice",
    ),
    (
        "actions-twice",
        lambda d, t: t.replace('"result"', '"actions": [], "result"').encode(),
        2,
        "field 'actions' appears twice",
    ),
    (
        "label-long",
        swapped_label(5, "x" * 2**21),
        2,
        "field 'actions[5]' is longer than 1,048,576 characters",
    ),
    (
        "garbage-after-actions",
        lambda d, t: t.replace('"result"', '"result" "x"').encode(),
        2,
        "not a JSON log (Expecting ':' delimiter)",
    ),
    # text that would act on a terminal (retitle it, clear it, forge a line): shown escaped
    (
        "unfinished-terminal-title",
        edited(unfinished="\x1b]0;pwned\x07\x1b[2J"),
        0,
        "replayed 84 actions of an unfinished game (\\x1b]0;pwned\\x07\\x1b[2J); state matches",
    ),
    (
        "unfinished-forged-line",
        edited(unfinished="line\r\nrulewright: forged"),
        0,
        "an unfinished game (line\\r\\nrulewright: forged); state matches",
    ),
    (
        "unfinished-bidi",
        edited(unfinished="stopped \u202edecnerefer\u2066 \u2069 \x9b2J"),
        0,
        "(stopped \\u202edecnerefer\\u2066 \\u2069 \\x9b2J)",
    ),
    (
        "action-escapes",
        swapped_label(5, "\x1b[2J\r\nrulewright: forged \u202e"),
        1,
        "(decision 6, '\\x1b[2J\\r\\nrulewright: forged \\u202e'): no legal action "
        "'\\x1b[2J\\r\\nrulewright: forged \\u202e' (US, card to play)",
    ),
    (
        "option-key-escapes",
        edited(options={"\x1b[31m\r\nrulewright: forged": 1}),
        2,
        "field 'options': iron_curtain has no option '\\x1b[31m\\r\\nrulewright: forged'",
    ),
    (
        "option-value-key-escapes",
        edited(options={"\x1b[31m\nrulewright: forged": "yes, please"}),
        2,
        "field 'options.\\x1b[31m\\nrulewright: forged' must be an integer, true/false or a value's name",
    ),
    ("game-escapes", edited(game="\x1b]0;pwned\x07\u202e"), 2, "unknown game '\\x1b]0;pwned\\x07\\u202e'"),
]

_LOGS: dict[str, str] = {}  # game -> the text of a real log, written once


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    folder = tmp_path_factory.mktemp("logs")
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        for game in ("iron_curtain", "channel_tunnel"):
            path = folder / f"{game}.json"
            with _quiet():
                assert cli.main(["play", game, "-q", "--seed", "4", "--log", str(path)]) == 0
            _LOGS[game] = path.read_text(encoding="utf-8")
    finally:
        os.chdir(cwd)
    yield _LOGS


class _quiet:
    def __enter__(self) -> None:
        self.saved = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = io.StringIO()

    def __exit__(self, *exc: object) -> None:
        sys.stdout, sys.stderr = self.saved


@pytest.mark.parametrize(
    ("damage", "code", "expect"), [c[1:] for c in LOG_CASES], ids=[c[0] for c in LOG_CASES]
)
def test_damaged_log(
    damage: Damage,
    code: int,
    expect: str,
    logs: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    text = logs["iron_curtain"]
    path = tmp_path / "damaged.json"
    path.write_bytes(damage(json.loads(text), text))
    run = rulewright(capsys, "replay", str(path))
    sound(run, code, expect)
    if code:
        assert str(path) in run.err  # the message names the log


def test_a_replay_page_of_a_log_with_escapes(
    logs: dict[str, str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The terminal sees the unfinished field escaped; the page, which escapes by its own means
    (rulewright/replay_html.py), is written and holds no raw markup or escape sequence of it."""
    path, page = tmp_path / "game.json", tmp_path / "game.html"
    why = "\x1b]0;pwned\x07</script><b>x\u202e"
    path.write_text(json.dumps({**json.loads(logs["iron_curtain"]), "unfinished": why}), encoding="utf-8")
    run = rulewright(capsys, "replay", str(path), "--html", str(page), "--html-steps", "3")
    sound(run, 0, "unfinished game (\\x1b]0;pwned\\x07</script><b>x\\u202e)")
    assert "replay page written to" in run.out
    html = page.read_text(encoding="utf-8")
    assert "\x1b" not in html and "</script><b>" not in html


@pytest.mark.parametrize(
    ("where", "expect"),
    [
        ("{tmp}/missing.json", "missing.json: no such file"),
        ("{tmp}", ": is a folder, not a log file"),
        ("{tmp}/fifo", "fifo: not a regular file (a device, a pipe or a socket)"),
        ("/dev/zero", "/dev/zero: not a regular file"),
        ("{tmp}/big.json", "more than a log may hold (100; `replay --max-bytes N` raises it)"),
    ],
    ids=["missing", "folder", "fifo", "dev-zero", "too-big"],
)
def test_log_that_is_no_file(
    where: str, expect: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    os.mkfifo(tmp_path / "fifo")  # reading it would block forever
    (tmp_path / "big.json").write_text("{}" + " " * 200, encoding="utf-8")
    run = rulewright(capsys, "replay", where.replace("{tmp}", str(tmp_path)), "--max-bytes", "100")
    sound(run, 2, expect)


BIG_LOG_BYTES = 30 * 2**20
MEASURED = (  # runs its arguments, then prints the largest resident size of that child, in KiB
    "import resource, subprocess, sys; subprocess.run(sys.argv[1:], capture_output=True); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def big_log(data: dict[str, Any], path: Path, sort: bool) -> None:
    """A log of BIG_LOG_BYTES: a real header, then actions that diverge at the sixth and go on
    and on; action_ids as many."""
    head = {k: v for k, v in data.items() if k not in ("actions", "action_ids", "log")}
    labels = [*data["actions"][:5], "Play the Moon", *data["actions"][6:]]
    block = ",\n".join(json.dumps(label) for label in labels)
    ids = ",\n".join(str(a) for a in data["action_ids"])
    repeat = BIG_LOG_BYTES // (len(block) + len(ids) + 4)
    lists = {
        "actions": "[\n" + ",\n".join([block] * repeat) + "\n]",
        "action_ids": "[\n" + ",\n".join([ids] * repeat) + "\n]",
    }
    members = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in head.items()]
    members += [f"{json.dumps(k)}: {v}" for k, v in lists.items()]
    path.write_text("{\n" + ",\n".join(sorted(members) if sort else members) + "\n}\n", encoding="utf-8")


def peak_kib(*argv: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", MEASURED, sys.executable, "-m", "rulewright", *argv],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return int(done.stdout)


@pytest.mark.parametrize("sort", [False, True], ids=["as-written", "fields-sorted"])
def test_big_log_diverges_in_bounded_memory(
    sort: bool, logs: dict[str, str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A 30 MB log whose sixth action diverges: replay says so at once when the fields come in
    the order `play --log` writes (after one cheap pass over the file otherwise), and its memory
    does not grow with the file: at most a third of the file's size above a small log's replay
    (reading the whole file as one JSON value took over five times its size)."""
    small, big = tmp_path / "small.json", tmp_path / "big.json"
    small.write_text(logs["iron_curtain"], encoding="utf-8")
    big_log(json.loads(logs["iron_curtain"]), big, sort)
    size = big.stat().st_size
    assert size > BIG_LOG_BYTES * 0.9
    start = time.perf_counter()
    run = rulewright(capsys, "replay", str(big))
    seconds = time.perf_counter() - start
    sound(run, 1, f"replay diverges at {big}: actions[5] (decision 6, 'Play the Moon'): no legal action")
    if not sort:
        assert seconds < 5, seconds  # the rest of the file is never read
    growth = peak_kib("replay", str(big)) - peak_kib("replay", str(small))
    assert growth * 1024 < size / 3, (growth, size)


def test_log_to_a_fifo_without_reader(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")  # writing would block until someone reads
    sound(
        rulewright(capsys, "play", "iron_curtain", "-q", "--log", str(tmp_path / "fifo")),
        2,
        "cannot write there",
    )


# ---- stopping a game: Ctrl-C, the end of input, a rule error ----------------------------------


def scripted_input(monkeypatch: pytest.MonkeyPatch, answers: list[str], then: BaseException) -> None:
    feed = iter(answers)

    def fake_input(prompt: str = "") -> str:
        for answer in feed:
            return answer
        raise then

    monkeypatch.setattr(builtins, "input", fake_input)


def test_ctrl_c_keeps_an_unfinished_log_that_replays(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    scripted_input(monkeypatch, ["1", "1", "1"], KeyboardInterrupt())
    log = tmp_path / "game.json"
    run = rulewright(capsys, "play", "iron_curtain", "--agents", "human,random", "--log", str(log))
    sound(run, cli.EXIT_INTERRUPTED, "interrupted (Ctrl-C) after")
    assert f"the unfinished game's log is in {log}" in run.err
    data = json.loads(log.read_text(encoding="utf-8"))
    assert data["unfinished"] == "interrupted (Ctrl-C)" and data["actions"]
    run = rulewright(capsys, "replay", str(log))
    sound(run, 0, f"replayed {len(data['actions'])} actions of an unfinished game (interrupted (Ctrl-C))")
    data.pop("unfinished")
    log.write_text(json.dumps(data), encoding="utf-8")
    sound(rulewright(capsys, "replay", str(log)), 1, "the game had not ended")


def test_end_of_input_keeps_the_log_here_without_log_option(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\n"))  # a script that runs out: EOFError
    run = rulewright(capsys, "play", "iron_curtain", "--agents", "human,random", "--seed", "2")
    sound(run, cli.EXIT_USAGE, "input ended (Ctrl-D or the end of piped input) after")
    (kept,) = tmp_path.glob("rulewright-iron_curtain-seed2-unfinished*.json")
    assert str(kept.name) in run.err
    sound(rulewright(capsys, "replay", str(kept)), 0, "of an unfinished game (input ended")


def test_ctrl_c_without_human_or_log_says_nothing_was_kept(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from runtime.agents import RandomAgent

    def interrupted(self: RandomAgent, state: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(RandomAgent, "choose", interrupted)
    run = rulewright(capsys, "play", "iron_curtain", "-q")
    sound(run, cli.EXIT_INTERRUPTED, "no log kept (--log FILE keeps one)")


def test_ctrl_c_in_simulate(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from runtime.agents import RandomAgent

    def interrupted(self: RandomAgent, state: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(RandomAgent, "choose", interrupted)
    sound(
        rulewright(capsys, "simulate", "iron_curtain", "-n", "3"),
        cli.EXIT_INTERRUPTED,
        "interrupted (Ctrl-C)",
    )


def test_rule_error_in_play_keeps_the_log_up_to_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from runtime.engine import RuleError
    from runtime.game import load_game

    state_cls = load_game("iron_curtain").state_cls
    real = state_cls.apply_action
    calls = 0

    def failing(self: Any, action: int) -> None:
        nonlocal calls
        calls += 1
        if calls == 10:
            raise RuleError("planted: a rule that fails")
        real(self, action)

    monkeypatch.setattr(state_cls, "apply_action", failing)
    log = tmp_path / "game.json"
    run = rulewright(capsys, "play", "iron_curtain", "-q", "--log", str(log))
    assert run.code == cli.EXIT_SPEC and "rule error at run time: planted: a rule that fails" in run.err
    data = json.loads(log.read_text(encoding="utf-8"))
    assert data["unfinished"] == "rule error: planted: a rule that fails" and len(data["actions"]) == 9


def test_a_log_that_cannot_be_written_after_the_game_is_kept_elsewhere(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    log = tmp_path / "game.json"
    real = Path.write_text

    def full_disk(self: Path, *args: Any, **kwargs: Any) -> int:
        if self == log:
            raise OSError(28, "No space left on device")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full_disk)
    monkeypatch.setattr(
        "tempfile.mkstemp",
        lambda prefix, suffix: (
            os.open(tmp_path / "spare.json", os.O_CREAT | os.O_WRONLY),
            str(tmp_path / "spare.json"),
        ),
    )
    run = rulewright(capsys, "play", "iron_curtain", "-q", "--log", str(log))
    sound(run, 2, f"cannot write the log to {log} (No space left on device); it was written to")
    assert "Result:" in run.out
    assert json.loads((tmp_path / "spare.json").read_text(encoding="utf-8"))["game"] == "iron_curtain"


# ---- stale builds, damaged playthroughs, our own bugs -----------------------------------------


def test_scenarios_refuse_a_stale_build(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    shutil.copytree(ROOT / "specs" / "iron_curtain", tmp_path / "specs" / "iron_curtain")
    monkeypatch.chdir(tmp_path)  # a checkout whose specs/ differs from the compiled engine
    case = next((tmp_path / "specs" / "iron_curtain" / "scenarios").glob("*.yaml"))
    case.write_text(case.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    run = rulewright(capsys, "scenarios", "iron_curtain")
    sound(run, 2, "generated/iron_curtain is stale (")
    assert "changed since the last build): run `rulewright build iron_curtain`" in run.err


def test_diff_with_damaged_playthroughs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert rulewright(capsys, "playthrough", "iron_curtain", "--out", str(tmp_path)).code == 0
    trace = tmp_path / "seed_1.txt"
    trace.write_text(trace.read_text(encoding="utf-8").replace("options {}", "options [1]"), encoding="utf-8")
    sound(
        rulewright(capsys, "diff", "iron_curtain", "--dir", str(tmp_path)),
        2,
        "seed_1.txt:6: bad header line: options '[1]' are not an object",
    )
    trace.write_text(
        trace.read_text(encoding="utf-8").replace("agents random", "agents human"), encoding="utf-8"
    )
    sound(rulewright(capsys, "diff", "iron_curtain", "--dir", str(tmp_path)), 2, "agents cannot be 'human'")
    trace.unlink()
    (tmp_path / "seed_1.txt").write_bytes(b"\xff\xfe")
    sound(rulewright(capsys, "diff", "iron_curtain", "--dir", str(tmp_path)), 2, "seed_1.txt: cannot read it")
    trace.unlink()
    assert rulewright(capsys, "playthrough", "iron_curtain", "--out", str(tmp_path)).code == 0
    (tmp_path / "rules.json").write_text('{"entries": {"a": [1]}}', encoding="utf-8")
    sound(
        rulewright(capsys, "diff", "iron_curtain", "--dir", str(tmp_path)), 2, "rules.json: not a rules file"
    )


def test_an_internal_error_is_one_line_with_the_debug_hint(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(args: object) -> int:
        raise ZeroDivisionError("division by zero")

    # the command table names the command's module, whose `run` is looked up when the command runs
    monkeypatch.setattr(demo, "run", broken)
    monkeypatch.delenv(cli.DEBUG_ENV, raising=False)
    run = rulewright(capsys, "demo")
    assert run.code == cli.EXIT_INTERNAL and "Traceback" not in run.err
    assert run.err.strip() == (
        "rulewright demo: internal error: ZeroDivisionError: division by zero; please report it "
        "(set RULEWRIGHT_DEBUG=1 to see the traceback)"
    )
    monkeypatch.setenv(cli.DEBUG_ENV, "1")
    with pytest.raises(ZeroDivisionError):
        cli.main(["demo"])


STANDALONE = (
    test_log_to_a_fifo_without_reader,
    test_ctrl_c_keeps_an_unfinished_log_that_replays,
    test_end_of_input_keeps_the_log_here_without_log_option,
    test_ctrl_c_without_human_or_log_says_nothing_was_kept,
    test_ctrl_c_in_simulate,
    test_rule_error_in_play_keeps_the_log_up_to_it,
    test_a_log_that_cannot_be_written_after_the_game_is_kept_elsewhere,
    test_scenarios_refuse_a_stale_build,
    test_diff_with_damaged_playthroughs,
    test_an_internal_error_is_one_line_with_the_debug_hint,
)
LOG_FILE_CASES = 5  # the parameters of test_log_that_is_no_file

CASE_COUNT = len(ARG_CASES) + len(LOG_CASES) + LOG_FILE_CASES + len(STANDALONE)


def test_end_of_input_in_simulate_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\n"))  # a human seat whose script runs out
    run = rulewright(capsys, "simulate", "iron_curtain", "-n", "2", "--agents", "human,random")
    sound(run, cli.EXIT_USAGE, "input ended (Ctrl-D or the end of piped input) at a human player's decision")
