"""Charts drawn with matplotlib: simulate's games (rulewright/balance.py) and a rule coverage
(rulewright/coverage.py) in, PNG and SVG files out.

Only a run that draws imports this module (`simulate --plot`, `--coverage-plot`), so matplotlib
stays optional: pip install 'rulewright[plot]'. No pyplot: each chart is a Figure on the Agg
canvas, drawn in matplotlib's default style whatever a matplotlibrc says, and written without a
date, a version or a random SVG id, so the same games give the same bytes. Text from a spec (titles,
labels, rule names) is drawn as it is written: a `$` in it never starts mathtext.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib
import matplotlib.style
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter

from rulewright.balance import POINTS, Setting, wilson
from rulewright.coverage import KINDS, Point, RuleCoverage

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

FORMATS = ("png", "svg")
DPI = 120
# no date, no matplotlib version: a chart changes only when what it shows does
METADATA: dict[str, dict[str, Any]] = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None}}
STYLE: dict[RcKeyType, Any] = {
    "svg.hashsalt": "rulewright",  # the ids of clip paths and glyphs, otherwise random
    "text.parse_math": False,  # a `$` in a spec's text is a dollar sign, never mathtext
    "svg.fonttype": "path",
    "font.size": 10,
    "axes.titlesize": 10,
    "axes.titlecolor": "0.3",
    "figure.titlesize": 13,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.35,
    "legend.fontsize": 9,
    "legend.frameon": False,
}
GREY = "0.55"
LISTED = 40  # rule points listed under a coverage chart


@contextmanager
def _style() -> Iterator[None]:
    with matplotlib.style.context("default"), matplotlib.rc_context(STYLE):
        yield


def _plain(text: str, limit: int = 90) -> str:
    """Text from a spec or the command line, cut short (a name may be megabytes)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _save(fig: Figure, path: Path, fmt: str) -> None:
    FigureCanvasAgg(fig)
    fig.savefig(path, format=fmt, dpi=DPI, metadata=METADATA[fmt])


# ---- simulate --plot ----------------------------------------------------------------------------


def write_simulation_charts(folder: Path, title: str, agents: str, settings: Sequence[Setting]) -> list[Path]:
    """The three balance charts of one simulate run (one Setting per option setting), and for a
    game with results a fourth, its returns and places, each as PNG and SVG, into `folder` (made if
    missing); the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    charts = [("win_rates", _win_rates), ("game_length", _game_length), ("scores", _scores)]
    if any(s.ranked for s in settings):
        charts.append(("places", _places))
    with _style():
        for stem, draw in charts:
            fig = draw(title, agents, settings)
            for fmt in FORMATS:
                path = folder / f"{stem}.{fmt}"
                _save(fig, path, fmt)
                written.append(path)
    return written


def _options(settings: Sequence[Setting]) -> tuple[str, list[str]]:
    """The options every setting shares, as text, and what sets each setting apart (its label)."""
    names = list(settings[0].options)
    same = [k for k in names if all(s.options.get(k) == settings[0].options[k] for s in settings)]
    apart = [k for k in names if k not in same]
    common = ", ".join(f"{k}={_value(settings[0].options[k])}" for k in same)
    labels = [", ".join(f"{k}={_value(s.options[k])}" for k in apart) for s in settings]
    return common, labels


def _value(value: int | bool | str) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _subtitle(settings: Sequence[Setting], agents: str, more: str = "") -> str:
    common, _ = _options(settings)
    games = settings[0].games
    each = " per setting" if len(settings) > 1 else ""
    parts = [f"{games:,} games{each}", _plain(agents)]
    if common:
        parts.append(f"options {_plain(common, 120)}")
    line = ", ".join(parts)
    return f"{line}\n{more}" if more else line


def _win_rates(title: str, agents: str, settings: Sequence[Setting]) -> Figure:
    """Per seat (and draws), the share of games won, with its 95% Wilson interval; one bar per
    setting in each group."""
    _, labels = _options(settings)
    seats = _seats(settings)
    groups = [*seats, "draws", *(["shared wins"] if any(s.shared for s in settings) else [])]
    many = len(settings) > 1
    fig = Figure(
        figsize=(max(6.4, 1.6 + len(groups) * (1.0 + 0.35 * len(settings))), 4.8), layout="constrained"
    )
    ax = fig.add_subplot()
    width = 0.8 / len(settings)
    top = 0.0
    for j, s in enumerate(settings):
        xs, shares, low, high, colours = [], [], [], [], []
        for g, name in enumerate(groups):
            if name == "draws":
                k = s.draws
            elif name == "shared wins":
                k = s.shared
            elif name in s.players:
                k = s.wins[s.players.index(name)]
            else:
                continue
            share = k / s.games if s.games else 0.0
            lo, hi = wilson(k, s.games)
            xs.append(g - 0.4 + width * (j + 0.5))
            shares.append(share)
            low.append(share - lo)
            high.append(hi - share)
            apart = name in ("draws", "shared wins")
            colours.append(f"C{j % 10}" if many else (GREY if apart else f"C{g % 10}"))
            top = max(top, hi)
        ax.bar(
            xs,
            shares,
            width * 0.9,
            color=colours,
            yerr=[low, high],
            capsize=4 if len(settings) < 4 else 2,
            error_kw={"elinewidth": 1.2, "ecolor": "0.2"},
            label=_plain(labels[j]) if many else None,
        )
        if len(settings) <= 4:
            for x, share, up in zip(xs, shares, high, strict=True):
                ax.annotate(
                    f"{100 * share:.1f}%",
                    (x, share + up),
                    xytext=(0, 3),
                    textcoords="offset points",
                    ha="center",
                    va="bottom",
                    fontsize=8 if many else 9,
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.5, "alpha": 0.8},
                )
        if len({len(x.players) for x in settings}) > 1:  # each setting's even share, over its bars
            even = 1 / len(s.players)
            ax.hlines(
                [even] * (len(xs) - 1),
                [x - width / 2 for x in xs[:-1]],
                [x + width / 2 for x in xs[:-1]],
                color="0.2",
                linestyle="--",
                linewidth=1.2,
                label="even share (1/players)" if j == 0 else "_hidden",  # "_": not in the legend
            )
    counts = {len(s.players) for s in settings}
    if len(counts) == 1:
        n = counts.pop()
        ax.axhline(1 / n, color="0.35", linestyle="--", linewidth=1, label=f"even share (1/{n})", zorder=0)
    ax.set_xticks(range(len(groups)), [_plain(g, 30) for g in groups])
    ax.set_xlabel("seat")
    ax.set_ylabel("share of games won")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_ylim(0, min(1.0, top * 1.12 + 0.04))
    ax.grid(axis="x", visible=False)
    ax.legend(loc="upper right", ncols=1 if len(settings) < 6 else 2)
    fig.suptitle(f"{_plain(title)}: win rate per seat")
    ax.set_title(_subtitle(settings, agents, "bars: share of games won; whiskers: 95% Wilson interval"))
    return fig


def _places(title: str, agents: str, settings: Sequence[Setting]) -> Figure:
    """Per setting, each seat's places as a stacked bar (1st at the bottom; ties share a place),
    its mean return written above it."""
    _, labels = _options(settings)
    shown = [s for s in settings if s.ranked and s.games]
    fig = Figure(figsize=(max(6.4, 3.2 * len(shown) + 1.6), 4.8), layout="constrained")
    if not shown:
        return _empty(fig, fig.add_subplot(), title, "no games")
    axes = fig.subplots(1, len(shown), squeeze=False, sharey=True)[0]
    for ax, s in zip(axes, shown, strict=True):
        seats = range(len(s.players))
        bottom = [0.0] * len(s.players)
        for k in range(len(s.players)):
            shares = [s.places[p][k] / s.games for p in seats]
            ax.bar(seats, shares, 0.7, bottom=bottom, color=f"C{k % 10}", label=_ordinal(k + 1))
            bottom = [b + v for b, v in zip(bottom, shares, strict=True)]
        for p in seats:
            ax.annotate(
                f"{s.returns[p] / s.games:+.2f}",
                (p, 1.0),
                xytext=(0, 3),
                textcoords="offset points",
                ha="center",
                va="bottom",
                fontsize=9,
            )
        ax.set_xticks(list(seats), [_plain(name, 20) for name in s.players])
        ax.grid(axis="x", visible=False)
        if len(shown) > 1:
            ax.set_title(_plain(labels[settings.index(s)]))
    axes[0].set_ylabel("share of games")
    axes[0].yaxis.set_major_formatter(PercentFormatter(1.0))
    axes[0].set_ylim(0, 1.12)
    axes[-1].legend(loc="center left", bbox_to_anchor=(1.0, 0.5), title="place", reverse=True)
    fig.suptitle(f"{_plain(title)}: places and mean return per seat")
    more = "bars: share of games in each place (ties share a place); above: mean return"
    if len(shown) == 1:
        axes[0].set_title(_subtitle(settings, agents, more))
    else:
        fig.supxlabel(_subtitle(settings, agents, more), fontsize=10, color="0.3")
    return fig


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def _game_length(title: str, agents: str, settings: Sequence[Setting]) -> Figure:
    """A histogram of decisions per game (one outline per setting), mean and median marked."""
    _, labels = _options(settings)
    many = len(settings) > 1
    fig = Figure(figsize=(8.0, 4.8), layout="constrained")
    ax = fig.add_subplot()
    lengths = [x for s in settings for x in s.lengths]
    if not lengths:
        return _empty(fig, ax, title, "no games")
    lo, hi = min(lengths), max(lengths)
    step = max(1, math.ceil((hi - lo + 1) / 40))
    edges = [lo - 0.5 + step * i for i in range(math.ceil((hi - lo + 1) / step) + 1)]
    for j, s in enumerate(settings):
        colour = f"C{j % 10}"
        values = sorted(s.lengths)
        mean = sum(v * s.lengths[v] for v in values) / s.games
        middle = statistics.median(s.lengths.elements())
        if many:
            ax.hist(
                values,
                edges,
                weights=[s.lengths[v] for v in values],
                histtype="step",
                linewidth=1.8,
                color=colour,
                label=f"{_plain(labels[j])}: mean {mean:.1f}, median {middle:g}",
            )
            ax.axvline(mean, color=colour, linewidth=1.4)
            ax.axvline(middle, color=colour, linewidth=1.4, linestyle=":")
        else:
            ax.hist(
                values, edges, weights=[s.lengths[v] for v in values], color="C0", alpha=0.75, label="games"
            )
            ax.axvline(mean, color="C3", linewidth=1.8, label=f"mean {mean:.1f}")
            ax.axvline(middle, color="C1", linewidth=1.8, linestyle="--", label=f"median {middle:g}")
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("games")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(loc="upper right")
    fig.suptitle(f"{_plain(title)}: game length")
    more = "solid lines: means; dotted: medians" if many else ""
    ax.set_title(_subtitle(settings, agents, more))
    return fig


def _scores(title: str, agents: str, settings: Sequence[Setting]) -> Figure:
    """Each public number's mean and 10-90% band against the share of the game played (games differ
    in length: the fraction lines up their starts and their ends). A panel per number, one line per
    player for a number each player has (`NAME LABEL`); with several settings, a column each."""
    _, labels = _options(settings)
    seats = _seats(settings)
    names: list[str] = []
    for s in settings:
        names += [n for n in s.trajectories.names() if n not in names]
    panels = _panels(names, seats)
    many = len(settings) > 1
    if many:  # a row per number, a column per setting
        rows, cols = max(1, len(panels)), len(settings)
    else:  # the numbers' panels wrapped, three abreast
        cols = min(3, max(1, len(panels)))
        rows = max(1, math.ceil(len(panels) / cols))
    fig = Figure(figsize=(max(8.0, 4.0 * cols + 1.6), 1.8 + 2.5 * rows), layout="constrained")
    axes = fig.subplots(rows, cols, sharex=True, sharey="row" if many else False, squeeze=False)
    xs = [k / POINTS for k in range(POINTS + 1)]
    players_drawn: dict[int, Any] = {}
    for i, ax in enumerate(axes.flat):
        row, col = divmod(i, cols)
        panel = row if many else i
        setting = settings[col] if many else settings[0]
        ax.xaxis.set_major_formatter(PercentFormatter(1.0))
        ax.set_xlim(0, 1)
        if panel >= len(panels):
            ax.set_visible(bool(panels) or i == 0)
            continue
        heading, lines = panels[panel]
        if many and row == 0:
            ax.set_title(_plain(labels[col]), color="0.1")
        if not many or col == 0:
            ax.set_ylabel(_plain(heading, 30))
        t = setting.trajectories
        for name, seat in lines:
            if name not in t.counts:
                continue
            colour = "0.2" if seat is None else f"C{seat % 10}"
            low, high = t.quantile(name, 0.1), t.quantile(name, 0.9)
            ax.fill_between(xs, low, high, color=colour, alpha=0.15, lw=0)
            for edge in (low, high):  # bands overlap: their edges keep them apart
                ax.plot(xs, edge, color=colour, linewidth=0.7, alpha=0.6)
            (line,) = ax.plot(xs, t.mean(name), color=colour, linewidth=2)
            if seat is not None:
                players_drawn[seat] = line
        ax.yaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))
    if not panels:
        ax0 = axes.flat[0]
        ax0.text(0.5, 0.5, "no numbers to chart: the game exposes none", transform=ax0.transAxes, ha="center")
    fig.supxlabel("share of the game's decisions made (0% = after the setup, 100% = the end)", fontsize=10)
    if players_drawn:
        seats_drawn = sorted(players_drawn)
        fig.legend(
            [players_drawn[p] for p in seats_drawn],
            [_plain(seats[p], 30) for p in seats_drawn],
            loc="outside right upper",
        )
    heading = f"{_plain(title)}: public numbers over the game"
    subtitle = _subtitle(settings, agents, "lines: mean over the games; bands: 10% to 90% of the games")
    fig.suptitle(f"{heading}\n{subtitle}", fontsize=11)
    return fig


def _seats(settings: Sequence[Setting]) -> list[str]:
    """The players' labels of every setting, in seat order."""
    seats: list[str] = []
    for s in settings:
        seats += [p for p in s.players if p not in seats]
    return seats


def _panels(names: Sequence[str], seats: Sequence[str]) -> list[tuple[str, list[tuple[str, int | None]]]]:
    """The numbers grouped into panels: `NAME LABEL` for players' labels is one panel NAME with a
    line per player (the seat's index); any other number is a panel of its own."""
    by_length = sorted(range(len(seats)), key=lambda p: -len(seats[p]))  # a longer label first
    panels: dict[str, list[tuple[str, int | None]]] = {}
    for name in names:
        seat = next((p for p in by_length if name.endswith(" " + seats[p])), None)
        heading = name if seat is None else name[: -len(seats[seat]) - 1]
        panels.setdefault(heading, []).append((name, seat))
    return list(panels.items())


def _empty(fig: Figure, ax: Axes, title: str, why: str) -> Figure:
    ax.text(0.5, 0.5, why, transform=ax.transAxes, ha="center", va="center")
    fig.suptitle(_plain(title))
    return fig


# ---- --coverage-plot ----------------------------------------------------------------------------


def write_coverage_chart(path: Path, cov: RuleCoverage, only: frozenset[str] | None, source: str) -> None:
    """The rule coverage as a chart in `path` (.png or .svg, by its suffix): per kind, the share of
    rule points that ran; below, the points that never ran, then those that ran least (with
    `only`, of those kinds)."""
    counts = cov.counts()
    points = cov.points
    kinds = [k for k in KINDS if any(p.kind == k for p in points)]
    kinds += sorted({p.kind for p in points} - set(KINDS))
    lines = _least_run(cov, only)
    with _style():
        bars_height = 1.3 + 0.42 * len(kinds)
        text_height = 0.3 + 0.14 * len(lines)
        fig = Figure(figsize=(11.0, bars_height + text_height + 0.6), layout="constrained")
        top, bottom = fig.subplots(2, 1, height_ratios=[bars_height, text_height])
        ys = list(range(len(kinds)))
        shares, notes = [], []
        for k in kinds:
            of = [p for p in points if p.kind == k]
            ran = sum(1 for p in of if counts[p.index])
            runs = sum(counts[p.index] for p in of)
            shares.append(ran / len(of))
            never = f", {len(of) - ran} never" if ran < len(of) else ""
            notes.append(f"{ran} of {len(of)} ran ({100 * ran / len(of):.0f}%){never}; {runs:,} runs")
        top.barh(ys, [1.0] * len(kinds), color="#f4b6b6", height=0.7)
        top.barh(ys, shares, color="C0", height=0.7)
        for y, note in zip(ys, notes, strict=True):
            top.text(1.01, y, note, va="center", fontsize=9)
        top.set_yticks(ys, [_plain(k, 20) for k in kinds])
        top.invert_yaxis()
        top.set_xlim(0, 1)
        top.xaxis.set_major_formatter(PercentFormatter(1.0))
        top.set_xlabel("share of the kind's rule points that ran at least once (blue) and never ran (red)")
        top.grid(axis="y", visible=False)
        top.spines["right"].set_visible(False)
        total, ran = len(points), sum(1 for c in counts if c)
        pct = 100 * ran / total if total else 100.0
        fig.suptitle(
            f"Rule coverage of {_plain(cov.info.title)}: {ran} of {total} rule points ran ({pct:.1f}%)"
        )
        narrowed = f"; points listed: {', '.join(sorted(only))} only" if only else ""
        top.set_title(_plain(source, 140) + narrowed)
        bottom.axis("off")
        bottom.text(
            0,
            1,
            "\n".join(_plain(line, 150) for line in lines),
            transform=bottom.transAxes,
            va="top",
            ha="left",
            family="DejaVu Sans Mono",
            fontsize=8,
        )
        fmt = path.suffix.lower().lstrip(".")
        _save(fig, path, fmt if fmt in FORMATS else "png")


def _least_run(cov: RuleCoverage, only: frozenset[str] | None) -> list[str]:
    """The lines listed under the bars: the points that never ran (at most LISTED - 10 of them),
    then those that ran least, up to LISTED points in all."""
    counts = cov.counts()
    chosen = [p for p in cov.points if only is None or p.kind in only]
    never = [p for p in cov.never_ran() if p in chosen]
    ran = sorted((p for p in chosen if counts[p.index]), key=lambda p: (counts[p.index], p.file, p.line))
    most = LISTED - 10 if len(ran) >= 10 else LISTED
    shown_never = never if len(never) <= most + 2 else never[:most]  # never "... and 1 more"
    shown_ran = ran[: LISTED - len(shown_never)]
    width = max((len(p.where) for p in [*shown_never, *shown_ran]), default=0)

    def row(p: Point, count: str) -> str:
        return f"  {count:>9}  {p.where:<{width}}  {p.kind:<10} {p.what}"

    if not chosen:
        return [f"No rule points of the kinds listed ({', '.join(sorted(only or ()))})"]
    out = [f"Never ran ({len(never)}):" if never else "Never ran: none, every point listed ran"]
    out += [row(p, "-") for p in shown_never]
    if len(never) > len(shown_never):
        out.append(f"  ... and {len(never) - len(shown_never)} more (`--coverage` lists them all)")
    if shown_ran:
        out.append(f"Ran least ({len(shown_ran)} of {len(ran)}):")
        out += [row(p, f"{counts[p.index]:,}x") for p in shown_ran]
    return out
