"""Errata impact (`rulewright diff`): a rules change is traced to the playthroughs it moves.

Uses Iron Curtain's stored playthroughs and a copy of its spec with one edit: erratum 1 of
docs/errata.md taken back (Vietnam's event gives 2 ideology again instead of 1).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from compiler.driver import compile_spec
from rulewright.impact import analyse, coverage_tracer, describe, playthrough_files, rerecord
from rulewright.spec_loader import load_spec
from tests.conftest import ROOT

SPEC = ROOT / "specs" / "iron_curtain"
PLAYTHROUGHS = ROOT / "tests" / "playthroughs" / "iron_curtain"
VIETNAM = 'event: "gain(p, 1)"\n\n    # Africa'  # Vietnam's event, the last card of Asia
pytestmark = pytest.mark.skipif(not SPEC.is_dir(), reason="needs specs/iron_curtain")


def edited(tmp: Path, old: str, new: str) -> Path:
    spec = tmp / "specs" / "iron_curtain"
    shutil.copytree(SPEC, spec)
    cards = spec / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    assert text.count(old) == 1
    cards.write_text(text.replace(old, new), encoding="utf-8")
    return spec


def impact_of(spec: Path, folder: Path = PLAYTHROUGHS) -> tuple[str, object]:
    ir = compile_spec(spec, render=False).game
    assert ir is not None
    impact = analyse(load_spec(spec), ir, folder, tracer=coverage_tracer)
    return describe(impact), impact


def test_an_erratum_is_traced_to_the_card_that_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # spans name specs/iron_curtain/..., as in the repository
    spec = edited(tmp_path, VIETNAM, VIETNAM.replace("gain(p, 1)", "gain(p, 2)"))
    text, impact = impact_of(Path("specs/iron_curtain"))
    assert "changed  card 'Vietnam' event" in text
    summary = text.splitlines()[-1]
    assert "1 spec entry changed" in summary and "of 20 playthroughs diverge" in summary
    assert summary.endswith("card 'Vietnam' event")
    assert "USSR gains 2 ideology" in text
    assert "  same      seed_1 " in text  # a game where Vietnam's event never ran

    out = tmp_path / "playthroughs"
    shutil.copytree(PLAYTHROUGHS, out)
    rerecord(load_spec(spec), compile_spec(spec, render=False).game, out)
    again, _ = impact_of(Path("specs/iron_curtain"), out)
    assert again.splitlines()[-1] == "0 spec entries changed; all 20 playthroughs replay as recorded"
    assert len(playthrough_files(out)) == 20


def test_layout_and_comment_edits_change_no_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    edited(tmp_path, VIETNAM, VIETNAM.replace('"gain(p, 1)"', '"gain( p,1 )"   # same rule, other layout'))
    text, _ = impact_of(Path("specs/iron_curtain"))
    assert text.splitlines()[-1] == "0 spec entries changed; all 20 playthroughs replay as recorded"


def test_the_newcomers_erratum_names_the_field_it_changed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The errata workflow in a workspace of one's own: record, edit one card's data, build the
    game, diff. The build kept the engine it replaced, so diff names the field and both values;
    without it, diff says so and what to do."""
    from rulewright.cli import main
    from rulewright.previous import kept_folder

    def run(*argv: str) -> tuple[int, str]:
        code = main(list(argv))
        out = capsys.readouterr()
        return code, out.out + out.err

    shutil.copytree(ROOT / "specs" / "goofspiel", tmp_path / "specs" / "goofspiel")
    monkeypatch.chdir(tmp_path)
    assert run("build", "goofspiel")[0] == 0
    assert run("playthrough", "goofspiel", "--seed", "1")[0] == 0
    cards = tmp_path / "specs" / "goofspiel" / "cards.yaml"
    old = "{id: spade_7, name: 7 of Spades, suit: spades, number: 7}"
    cards.write_text(
        cards.read_text(encoding="utf-8").replace(old, old.replace("7}", "1}")), encoding="utf-8"
    )
    code, out = run("diff", "goofspiel")
    assert code == 2 and "run `rulewright build goofspiel` first" in out
    code, out = run("build", "--check")
    assert code == 1 and "these files would change (run `rulewright build goofspiel`)" in out
    assert run("build", "goofspiel")[0] == 0

    code, out = run("diff", "goofspiel")
    assert code == 1, out
    assert "DIVERGES  seed_1 at step 4 (South > Ace of Hearts): the log differs" in out
    assert "      state after step 4: won[North]: recorded [5 of Diamonds], now []" in out
    assert "1 more field(s) differ: discard" in out

    shutil.rmtree(kept_folder(tmp_path / "generated", "goofspiel"))
    code, out = run("diff", "goofspiel")
    assert code == 1 and "state after" not in out
    assert "is not kept, so no changed field of the state is named" in out
    assert "`rulewright build goofspiel`" in out


def test_the_kept_engines_are_bounded_and_only_trusted_ones_are_kept(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`build` keeps a replaced engine only when this user's build wrote it, and keeps MAX_KEPT
    of them in all. (Fake engines: only their header and the trust record matter here.)"""
    from rulewright import previous
    from runtime.trust import record_build

    monkeypatch.setattr(previous, "MAX_KEPT", 2)
    header = "# @generated by rulewright 0.1.0 from x.yaml (sha256:{}) -- DO NOT EDIT\n"
    outputs = []
    for i in range(4):
        out = tmp_path / f"ws{i}" / "generated"
        (out / "g").mkdir(parents=True)
        files = {"g/__init__.py": "", "g/engine.py": header.format(f"{i:016x}")}
        for name, text in files.items():
            (out / name).write_text(text, encoding="utf-8")
        if i:  # the first was not written by this user's build: not kept
            record_build(out, {name: text.encode() for name, text in files.items()})
        kept = previous.keep(out, "g", "f" * 64, None, "GAMES = ('g',)\n")
        assert kept == (i > 0)
        outputs.append(out)

    def is_kept(out: Path) -> bool:
        return (previous.kept_folder(out, "g", create=True) / "g" / "engine.py").is_file()

    assert [is_kept(out) for out in outputs] == [False, False, True, True]
    assert not previous.keep(outputs[3], "g", "3".zfill(16) + "0" * 48, None, "")  # same spec: no copy
    assert previous.keep(outputs[3], "../g", "f" * 64, None, "") is False  # never outside the cache
