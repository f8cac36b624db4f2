"""Balance charts (`simulate --plot`, `--vary`) and rule-coverage charts (`--coverage-plot`):
each file is written, the same games give the same bytes, bad input is a usage error, and a run
that draws nothing imports no plotting code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from rulewright import balance
from rulewright.cli import main
from tests.conftest import ROOT

CHARTS = ("win_rates", "game_length", "scores")


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


def written(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_simulate_writes_every_chart_the_same_each_time(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    first, again = tmp_path / "a" / "charts", tmp_path / "b"
    argv = ["simulate", "iron_curtain", "-n", "6", "-j", "1"]
    code, out = run(capsys, *argv, "--plot", str(first))
    assert code == 0 and f"charts written to {first}" in out
    files = written(first)
    assert sorted(files) == sorted(f"{c}.{fmt}" for c in CHARTS for fmt in ("png", "svg"))
    for name, data in files.items():
        assert data.startswith(b"\x89PNG" if name.endswith(".png") else b"<?xml"), name
        if name.endswith(".svg"):
            assert b"dc:date" not in data and b"Matplotlib v" not in data
    # the same games, in two workers: the same bytes (no date, no random id, counts merged exactly)
    assert run(capsys, *argv[:-1], "2", "--plot", str(again))[0] == 0
    assert written(again) == files


def test_plot_changes_neither_the_games_nor_their_coverage(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The numbers are sampled with coverage paused: the counts are those of play alone."""
    argv = ["simulate", "iron_curtain", "-n", "4", "-j", "1"]
    code, plain = run(capsys, *argv, "--coverage-json", str(tmp_path / "plain.json"))
    assert code == 0
    drawn = tmp_path / "coverage.png"
    code, plotted = run(
        capsys,
        *argv,
        "--coverage-json",
        str(tmp_path / "plot.json"),
        "--plot",
        str(tmp_path / "charts"),
        "--coverage-plot",
        str(drawn),
    )
    assert code == 0 and drawn.read_bytes().startswith(b"\x89PNG")
    assert "rule points ran" not in plotted  # --coverage-plot draws; only --coverage prints the report

    def results(text: str) -> list[str]:
        return [line for line in text.splitlines() if "wins" in line or "mean length" in line]

    assert results(plain) == results(plotted)
    coverage = [json.loads((tmp_path / f).read_text(encoding="utf-8")) for f in ("plain.json", "plot.json")]
    assert coverage[0] == coverage[1]


def test_vary_plays_each_setting_and_compares_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out = run(
        capsys,
        "simulate",
        "guerra_fronteriza",
        "-n",
        "2",
        "-j",
        "1",
        "--vary",
        "operation=2,4",
        "--plot",
        str(tmp_path),
    )
    assert code == 0, out
    assert "(operation=2): 2 games" in out and "(operation=4): 2 games" in out
    assert sorted(written(tmp_path)) == sorted(f"{c}.{fmt}" for c in CHARTS for fmt in ("png", "svg"))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--plot", "TMP/FILE"], "is not a folder"),
        (["--plot", "TMP/FILE/charts"], "is not a folder"),
        (["--plot", ""], "--plot: the folder name is empty"),
        (["--coverage-plot", "TMP/cov.pdf"], "name a .png or .svg file"),
        (["--coverage-plot", "TMP/FILE/cov.png"], "cannot write there"),
        (["--vary", "agenda"], "--vary takes NAME=V1,V2,..."),
        (["--vary", "no such=1,2"], "--vary takes NAME=V1,V2,..."),
        (["--vary", "nonsense=1,2"], "has no option 'nonsense'"),
        (["--vary", "agenda=true,,false"], "a value is empty or too long"),
        (["--vary", "agenda=true,true"], "a value is listed twice"),
        (["--vary", "agenda=true,yes"], "is the same setting as"),
        (["--vary", "agenda=true,false", "--vary", "agenda=false"], "is given twice"),
        (["--vary", "agenda=true,false", "-o", "agenda=true"], "also set by -o"),
        (["--vary", "agenda=" + ",".join(str(i) for i in range(40))], "more than 16 values"),
    ],
)
def test_bad_plot_arguments_are_usage_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str
) -> None:
    (tmp_path / "FILE").write_text("a file\n", encoding="utf-8")
    argv = [a.replace("TMP", str(tmp_path)) for a in argv]
    code, out = run(capsys, "simulate", "channel_tunnel", "-n", "1", *argv)
    assert code == 2 and message in out and "Traceback" not in out
    assert out.startswith("rulewright simulate: ") and len(out.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["FILE"]  # nothing made, nothing played


def test_too_many_settings_are_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(
        capsys, "simulate", "guerra_fronteriza", "--vary", "operation=2,3,4", "--vary", "x=1,2,3,4,5,6"
    )
    assert code == 2 and "more than 16 option settings" in out


def test_without_matplotlib_plotting_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib: ModuleNotFoundError
    monkeypatch.delitem(sys.modules, "rulewright.plots", raising=False)
    for option, target in (("--plot", tmp_path / "charts"), ("--coverage-plot", tmp_path / "c.png")):
        code, out = run(capsys, "simulate", "iron_curtain", "-n", "1", option, str(target))
        assert code == 2, out
        assert (
            out
            == f"rulewright simulate: {option}: matplotlib is not installed: pip install 'rulewright[plot]'\n"
        )
    code, out = run(
        capsys, "verify", "iron_curtain", "--examples", "1", "--coverage-plot", str(tmp_path / "c.png")
    )
    assert code == 2 and "pip install 'rulewright[plot]'" in out
    assert list(tmp_path.iterdir()) == []


def test_without_plot_no_plotting_code_is_imported() -> None:
    """simulate's speed is measured without --plot: then neither the charts nor their data are touched."""
    code = (
        "import sys; from rulewright.cli import main; "
        "assert main(['simulate', 'iron_curtain', '-n', '3', '-j', '1', '--coverage']) == 0; "
        "print(sorted(m for m in sys.modules if m.partition('.')[0] == 'matplotlib' "
        "or m in ('rulewright.plots', 'rulewright.balance')))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.splitlines()[-1] == "[]"


def test_verify_coverage_plot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "GAME-coverage.svg"
    code, out = run(
        capsys,
        "verify",
        "iron_curtain",
        "--examples",
        "2",
        "-j",
        "1",
        "--no-contract",
        "--coverage-plot",
        str(target),
    )
    assert code == 0, out
    drawn = tmp_path / "iron_curtain-coverage.svg"
    assert f"rule coverage chart written to {drawn}" in out
    assert drawn.read_bytes().startswith(b"<?xml")
    # several games into one file would overwrite each other's chart
    code, out = run(
        capsys, "verify", "iron_curtain", "channel_tunnel", "--coverage-plot", str(tmp_path / "c.png")
    )
    assert code == 2 and "put GAME in the file name" in out


def test_sampler_keeps_evenly_spaced_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    class Counted:
        made = 0

    state = Counted()

    def scores(s: Counted) -> dict[str, int]:
        return {"made": s.made}

    monkeypatch.setattr(balance, "_scores", scores)
    for length in (0, 7, 100, 101, 1000, 12345):
        sampler = balance.Sampler()
        for made in range(length + 1):  # before the first decision, then after each
            state.made = made
            sampler(state)  # type: ignore[arg-type]
        sampler.finish(state)  # type: ignore[arg-type]
        at = [d for d, _ in sampler.samples]
        assert at[0] == 0 and at[-1] == length and all(v["made"] == d for d, v in sampler.samples)
        assert len(at) <= 2 * balance.KEEP + 2
        assert len({b - a for a, b in zip(at[:-2], at[1:-1], strict=True)}) <= 1  # evenly spaced
        t = balance.Trajectories()
        t.add_game(sampler)
        # each point: the value after the last sample at or before k/POINTS of the game
        for k, seen in enumerate(t.counts["made"]):
            (value,) = seen
            assert 0 <= k * length // balance.POINTS - value < sampler.stride


def test_trajectories_give_exact_means_and_quantiles() -> None:
    t = balance.Trajectories()
    t.counts["x"] = [Counter({v: 1 for v in range(1, 11)})] * (balance.POINTS + 1)
    assert t.mean("x")[0] == 5.5
    assert t.quantile("x", 0.1)[0] == 1 and t.quantile("x", 0.9)[0] == 9 and t.quantile("x", 1.0)[0] == 10
    other = balance.Trajectories(1, {"y": [Counter({3: 1})] * (balance.POINTS + 1)})
    t.merge(other)
    assert t.names() == ["x", "y"] and t.games == 1


def test_wilson_interval() -> None:
    low, high = balance.wilson(50, 100)
    assert 0.403 < low < 0.404 and 0.596 < high < 0.597
    assert balance.wilson(0, 10)[0] == 0.0 and balance.wilson(10, 10)[1] == 1.0
    assert balance.wilson(0, 0) == (0.0, 1.0)


def test_spec_text_is_drawn_as_written(tmp_path: Path) -> None:
    """A `$` or a backslash in a title or label is text, never mathtext that could fail to parse."""
    from rulewright.plots import write_simulation_charts

    setting = balance.Setting({"deck": True}, (r"$\frac{", "$b$"), games=3, wins=[1, 1], draws=1)
    setting.lengths.update([10, 12, 12])
    write_simulation_charts(tmp_path, r"A $game\ with \bad{ text", "agents random", [setting])
    assert len(list(tmp_path.iterdir())) == 6


def test_numbers_each_player_has_share_a_panel() -> None:
    from rulewright.plots import _panels

    names = ["VP", "ops US", "ops USSR", "us ops", "evaluation USSR", "evaluation US"]
    assert _panels(names, ["US", "USSR"]) == [
        ("VP", [("VP", None)]),
        ("ops", [("ops US", 0), ("ops USSR", 1)]),
        ("us ops", [("us ops", None)]),
        ("evaluation", [("evaluation USSR", 1), ("evaluation US", 0)]),
    ]
