"""Looks at hidden cards stay private: what one player is shown never reaches the other player's
information state (observation and log, as the OpenSpiel adapter builds it) or the public log.

The positions are the Twilight Struggle scenarios named below; each case lists the cards that were
looked at and must stay hidden from `other`, and the player who looked."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

import runtime
from rulewright.scenarios import run_scenario
from rulewright.spec_loader import load_spec
from runtime.agents import RandomAgent
from runtime.engine import GameState
from tests.conftest import ROOT

# (scenario file, who looked, who must not learn it, text that must stay hidden from that player);
# players by their labels
CASES = [
    # Lone Gunman: the USSR sees the US hand; the US knows its own hand, so only the public log and
    # the US's own log must not carry the look.
    ("lone_gunman_hand_seen_by_ussr_only.yaml", "USSR", "US", ["You see"]),
    # Our Man in Tehran: the four cards returned to the deck are never named to the USSR.
    (
        "our_man_in_tehran_look_is_private.yaml",
        "US",
        "USSR",
        ["You see", "Nuclear Subs", "Arms Race", "Junta", "OPEC"],
    ),
    # Grain Sales returned: the USSR holds the card, but no line tells it which one was drawn.
    ("grain_sales_to_soviets_returned_card_stays_hidden.yaml", "US", "USSR", ["You see"]),
]


def _final_state(file: str) -> GameState:
    game = runtime.load_game("twilight_struggle")
    (scenario,) = [sc for sc in game.scenarios if sc["file"].endswith("/" + file)]
    result = run_scenario("twilight_struggle", scenario)
    assert result.ok and result.state is not None, result.message
    return result.state


def _information_state(state: GameState, player: int) -> str:
    """What the OpenSpiel adapter gives `player`: the observation and the player's log."""
    return state.observation_string(player) + "\n" + "\n".join(state.player_log(player))


@pytest.mark.skipif("twilight_struggle" not in runtime.available_games(), reason="no twilight_struggle")
@pytest.mark.parametrize(("file", "looker", "other", "hidden"), CASES, ids=[c[0] for c in CASES])
def test_a_look_reaches_only_the_player_who_looks(
    file: str, looker: str, other: str, hidden: list[str]
) -> None:
    state = _final_state(file)
    names = list(state.INFO.player_names)
    public = "\n".join(text for who, text in state.log_entries() if who < 0)
    theirs = _information_state(state, names.index(other))
    mine = "\n".join(state.player_log(names.index(looker)))
    assert "You see" in mine, "the player who looks is shown the cards"
    for word in hidden:
        assert word not in public, f"the public log names {word!r}"
        assert word not in theirs, f"{other}'s information state names {word!r}"


# ---- whole games: no log line names a card that stays hidden from its reader ------------------
#
# A seeded random game is played to the end. After each action, every new log line a player may
# read (public, or addressed to that player) is scanned for the labels of the components that were
# in a zone hidden from that player before the action. The line is a leak if the component is not
# moved into a zone that player sees (played, discarded, placed) before the turn passes to another
# player: it told the player what it may not see. That was issue 19, point 12: a plain `optionally
# choose` put the researched order into every player's log (54 such lines over seeds 0 and 1 at
# four players). Lines of an explicit `reveal` or `show` are the rules' own choice and are skipped.

# (game, options, seeds): four-player Guerra Fronteriza, where the research pile is secret, at
# every player count, two-player games of the others, and Hanabi, where a hand is hidden from its
# holder alone
WHOLE_GAMES = [
    ("guerra_fronteriza", {"operation": 4}, (0, 1, 2, 3)),
    ("guerra_fronteriza", {"operation": 3}, (0, 1)),
    ("guerra_fronteriza", {"operation": 2}, (0, 1)),
    ("twilight_struggle", {}, (0, 1)),
    ("iron_curtain", {}, (0, 1, 2)),
    ("channel_tunnel", {}, (0, 1)),
    ("hanabi", {"seats": 3}, (0, 1)),
    ("lost_cities", {}, (0, 1)),
    ("bang", {"seats": 5}, (0, 1)),
    ("goofspiel", {}, (0, 1)),
    ("kuhn_poker", {}, (0, 1, 2, 3)),
    ("leduc_poker", {}, (0, 1, 2, 3)),
]
MAX_DECISIONS = 5_000
# lines the rules write on purpose to show a card: `reveal` (to all) and `show` (to one player)
PURPOSE = ("Revealed: ", "You see: ")


Component = tuple[int, int]  # (type index, entity)


def _hidden_from(state: GameState, player: int) -> dict[Component, str]:
    """Every component in a zone `player` cannot see -> that zone's name."""
    info = state.INFO
    out: dict[Component, str] = {}
    for zi, pile in enumerate(state.z.piles):
        z = info.zones[zi]
        if not _visible(state, zi, player):
            where = z.name if z.owner < 0 else f"{z.name}[{info.player_names[z.owner]}]"
            out.update(((z.type_index, e), where) for e in pile)
    return out


def _copies_in_sight(state: GameState, player: int) -> set[Component]:
    """The components of types with copies that `player` sees now."""
    info = state.INFO
    return {
        (info.zones[zi].type_index, e)
        for zi, pile in enumerate(state.z.piles)
        if info.kinds_of(info.zones[zi].type_index) and _visible(state, zi, player)
        for e in pile
    }


def _visible(state: GameState, zone: int, player: int) -> bool:
    return state.INFO.zones[zone].seen_by(player)


def _named(label: str, line: str) -> bool:
    return re.search(r"(?<![\w])" + re.escape(label) + r"(?![\w])", line) is not None


@pytest.fixture
def moves(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int, int]]:
    """Every (type, entity, zone) a component is moved or placed into, as the rules run: a card
    may pass through a public zone within one action (drawn face up, then shuffled back)."""
    seen: list[tuple[int, int, int]] = []
    move, place = GameState.move, GameState.place

    def tracked_move(self: GameState, t: int, e: int, zone: int, top: bool = True) -> None:
        seen.append((t, e, zone))
        move(self, t, e, zone, top)

    def tracked_place(self: GameState, t: int, e: int, zone: int, cell: int) -> None:
        seen.append((t, e, zone))
        place(self, t, e, zone, cell)

    monkeypatch.setattr(GameState, "move", tracked_move)
    monkeypatch.setattr(GameState, "place", tracked_place)
    return seen


def leaks(state: GameState, seed: int, moves: list[tuple[int, int, int]]) -> list[str]:
    """Play `state` to the end with a seeded random agent; each leak as a readable line."""
    agent = RandomAgent(seed)
    info = state.INFO
    found: list[str] = []
    players = range(state.num_players)
    pending: list[tuple[int, Component, str, str]] = []  # (reader, component, its zone, the line)
    for _ in range(MAX_DECISIONS):
        if state.is_terminal():
            break
        before = [_hidden_from(state, q) for q in players]
        in_sight = [_copies_in_sight(state, q) for q in players]
        seen = len(state.lines)
        actor = state.current_player()
        moves.clear()
        state.apply_action(agent.choose(state))
        for who, text in state.log_entries(seen):
            if text.startswith(PURPOSE):
                continue
            pending += [
                (q, c, zone, text)
                for q in players
                if who < 0 or who == q
                for c, zone in before[q].items()
                if _named(info.type_labels[c[0]][c[1]], text)
            ]
        # a card named and then shown to the reader (played, discarded, even if later shuffled
        # back) was no secret
        # (by label: a line names a kind, and identical copies share it, so the copy shown is the
        # one named, not another copy of it still hidden)
        shown = {
            (q, info.type_labels[t][e]) for t, e, zone in moves for q in players if _visible(state, zone, q)
        }
        pending = [x for x in pending if (x[0], info.type_labels[x[1][0]][x[1][1]]) not in shown]
        # a copy the reader saw taken (from a discard pile into a hand) is the copy its line names
        taken = {(q, info.type_labels[t][e]) for t, e, _ in moves for q in players if (t, e) in in_sight[q]}
        pending = [x for x in pending if (x[0], info.type_labels[x[1][0]][x[1][1]]) not in taken]
        # a card named while the same player goes on deciding (`card to play`, then `where`) may
        # still be on its way to the table: judge when the turn passes
        if state.is_terminal() or state.current_player() != actor:
            found += [
                f"step {len(state.history)}: {info.player_names[q]} reads {text!r}, naming "
                f"{info.type_labels[c[0]][c[1]]}, which was in {zone} and was never shown to it"
                for q, c, zone, text in pending
            ]
            pending = []
    return found


@pytest.mark.parametrize(
    ("name", "options", "seed"),
    [(n, o, s) for n, o, seeds in WHOLE_GAMES for s in seeds],
    ids=[
        f"{n}-{'-'.join(f'{k}{v}' for k, v in o.items()) or 'default'}-seed{s}"
        for n, o, seeds in WHOLE_GAMES
        for s in seeds
    ],
)
def test_no_player_reads_a_card_hidden_from_it(
    name: str, options: dict[str, int], seed: int, moves: list[tuple[int, int, int]]
) -> None:
    if name not in runtime.available_games():
        pytest.skip(f"no {name}")
    state = runtime.load_game(name, options).new_initial_state(seed)
    found = leaks(state, seed, moves)
    assert not found, f"{len(found)} leak(s), the first: " + "; ".join(found[:3])


def test_the_scan_finds_the_research_leak(tmp_path: Path, moves: list[tuple[int, int, int]]) -> None:
    """With the arms race's choice back to a plain public one, the scan reports the leak (so the
    test above would catch it again)."""
    spec = ROOT / "specs" / "guerra_fronteriza"
    copy = tmp_path / "guerra_fronteriza"
    shutil.copytree(spec, copy, ignore=shutil.ignore_patterns("scenarios"))
    rounds = copy / "round.yaml"
    text = rounds.read_text(encoding="utf-8")
    assert "secretly optionally choose from hand[p]" in text
    rounds.write_text(
        text.replace("secretly optionally choose from hand[p]", "publicly optionally choose from hand[p]"),
        encoding="utf-8",
    )
    state = load_spec(copy, {"operation": 4}).new_initial_state(0)
    found = leaks(state, 0, moves)
    assert found and all("(order to add to your research" in f for f in found), found[:3]


def test_no_research_card_in_a_rivals_openspiel_information_state() -> None:
    """The measure of issue 19, through pyspiel: over two seeded four-player games, how often the
    label of an order in a rival's research pile appears in a player's information state
    (observation and log, perfect recall), counted at every decision. It was 9,261 for seeds 0
    and 1 while the research choice was logged to all."""
    pyspiel = pytest.importorskip("pyspiel", reason="install the rl extra: pip install -e '.[rl]'")
    from runtime.adapters.openspiel import register

    total = 0
    for seed in (0, 1):
        state = pyspiel.load_game(
            register("guerra_fronteriza"), {"operation": 4, "seed": seed}
        ).new_initial_state()
        agent = RandomAgent(seed)
        while True:
            engine = state.engine
            info = engine.INFO
            labels = info.type_labels[info.type_names.index("order_card")]
            research = {z.owner: zi for zi, z in enumerate(info.zones) if z.name == "research"}
            for q in range(engine.num_players):
                text = state.information_state_string(q)
                total += sum(
                    text.count(labels[c]) for p, zi in research.items() if p != q for c in engine.z.piles[zi]
                )
            if state.is_terminal():
                break
            state.apply_action(agent.choose(engine))
    assert total == 0
