"""Random legal games of Captain Flip (hypothesis), on every board, 2 to 5 players, from a
real bag or the companion's draw, and what they must keep: every game ends; a score is the
sum of its breakdown; coins never appear from nowhere; the bag never yields a tile twice.
A real bag is played with real tiles beside it, told as a table tells them (the side seen,
the number only as a camera would read it, the side a flipped tile shows): what the companion
holds for true of a tile always is.

COMPANION_PROPERTY_GAMES sets how many games (default 2000, shared with the other games).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import Action, GameSetup, TableSession
from companion.engine.random_play import random_step
from companion.games.captain_flip import scoring
from companion.games.captain_flip.components import tile_name, tile_sides
from companion.games.captain_flip.state import OVER, State

GAMES = int(os.environ.get("COMPANION_PROPERTY_GAMES", "2000")) // 8
MAX_ACTIONS = 1000  # far above a real game: a game that does not end fails the test
# Every reason a coin may move: a Character, a space (its bonus or its cost), the map.
WHY = {"gunner", "cook", "navigator", "monkey", "bonus", "cost", "treasure_map"}

setups = st.builds(
    lambda players, board, companion, seed: GameSetup(
        "captain-flip", tuple(f"P{i}" for i in range(players)),
        {"board": board, "companion_draws": companion}, seed=seed),
    st.integers(2, 5), st.sampled_from("ABCD"), st.booleans(), st.integers(0, 2**31))


@dataclass
class RealTiles:
    """The tiles as they really lie: in the bag, in hand, on the boards (number, side up)."""

    bag: list[int] = field(default_factory=lambda: list(tile_sides()))
    hand: tuple[int, str] | None = None
    boards: dict[tuple[int, str], tuple[int, str]] = field(default_factory=dict)


def _other(number: int, face: str) -> str:
    first, second = tile_sides()[number]
    return second if face == first else first


def step(session: TableSession, rng: random.Random, real: RealTiles) -> Action | None:
    """A random legal action; from a real bag, what the table does with the real tiles: a
    tile pulled out and told by its side (its number half the time, as a camera reads it),
    kept or flipped, placed, a Monkey's flip told by the side it then shows."""
    state: State = session.state
    if state.companion_draws:
        return random_step(session, rng)
    seat = state.turn
    specs = {spec.name: spec for spec in session.legal_actions(seat)}
    params: dict[str, object]
    if "draw" in specs:
        number = real.bag.pop(rng.randrange(len(real.bag)))
        real.hand = (number, rng.choice(tile_sides()[number]))
        params = {"face": real.hand[1]}
        if rng.random() < 0.5:
            params["tile"] = tile_name(number)
        action = Action("draw", seat, params)
    elif "monkey_flip" in specs:
        spec = specs["monkey_flip"]
        cell = rng.choice(spec.params[0].choices)
        number, up = real.boards[seat, cell]
        real.boards[seat, cell] = (number, _other(number, up))
        params = {"cell": cell}
        if len(spec.params) > 1:
            params["face"] = _other(number, up)
        action = Action("monkey_flip", seat, params)
    elif "flip" in specs and real.hand and rng.random() < 0.4:
        number, up = real.hand
        real.hand = (number, _other(number, up))
        action = Action("flip", seat, {"face": real.hand[1]} if specs["flip"].params else {})
    elif "place" in specs and real.hand:
        cell = rng.choice(specs["place"].params[0].choices)
        real.boards[seat, cell], real.hand = real.hand, None
        action = Action("place", seat, {"cell": cell})
    else:
        return None
    session.submit(action)
    return action


def check_tiles(state: State, drawn: list[int]) -> None:
    """Every tile is in one place, and no tile came out of the bag twice."""
    assert len(drawn) == len(set(drawn)), "the bag yielded a tile twice"
    check_count(state, len(tile_sides()) - len(drawn))


def check_count(state: State, in_bag: int) -> None:
    """Every number is in one place, and the bag holds as many as it should."""
    places = [n for p in state.players for n in (t.number for t in p.spaces.values())]
    places += [state.hand.number] if state.hand else []
    everywhere = Counter(places + list(state.bag))
    assert set(everywhere) == set(tile_sides()) and set(everywhere.values()) == {1}
    assert len(state.bag) == in_bag == len(tile_sides()) - state.drawn


def check_real(state: State, real: RealTiles) -> None:
    """What the companion holds for true of each tile is: its side up, and its back when it
    knows it; and its bag holds as many tiles as the real one."""
    check_count(state, len(real.bag))
    held = [((p.seat, cell), tile) for p in state.players for cell, tile in p.spaces.items()]
    assert {where for where, _ in held} == set(real.boards)
    for where, tile in held + ([(None, state.hand)] if state.hand else []):
        number, up = real.boards[where] if where is not None else real.hand or (0, "")
        assert tile.up == up
        if tile.down is not None:
            assert {tile.up, tile.down} == set(tile_sides()[number]), "a wrong back"
        if tile.both_seen:
            assert tile.number is not None and tile_sides()[tile.number] == tile_sides()[number]


def check_scores(session: TableSession) -> None:
    state: State = session.state
    sheet = session.table_view(None).score_sheet
    assert sheet is not None
    for score, column in zip(scoring.final_scores(state), sheet.columns, strict=True):
        assert column.total == sum(s or 0 for s in column.scores) == score.total
        assert score.total == sum(score.parts())


@settings(max_examples=GAMES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups, play_seed=st.integers(0, 2**31))
def test_random_games_keep_the_invariants(setup: GameSetup, play_seed: int) -> None:
    rng = random.Random(play_seed)
    session = TableSession(setup)
    drawn: list[int] = []
    real = RealTiles()
    for _ in range(MAX_ACTIONS):
        action = step(session, rng, real)
        if action is None:
            break
        state: State = session.state
        if not state.companion_draws:
            check_real(state, real)
        elif action.name == "draw":
            assert state.hand is not None and state.hand.number is not None
            drawn.append(state.hand.number)
            check_tiles(state, drawn)
        assert all(p.coins >= 0 for p in state.players), "coins below zero"
    state = session.state
    assert session.outcome is not None and state.phase == OVER, "the game never ended"
    # Coins never appear from nowhere: each player's coins are the sum of what the log says
    # they took and paid, each for a rule's reason.
    moved = Counter[int]()
    for record in session.history:
        for event in record.events:
            if event["type"] == "coins":
                assert event["why"] in WHY, event
                moved[event["seat"]] += event["amount"]
    assert [moved[p.seat] for p in state.players] == [p.coins for p in state.players]
    check_scores(session)
    # The winners: the most coins among those who did not lose, or the map's holder.
    scores = scoring.final_scores(state)
    contenders = [s for s in scores if not s.lost]
    if contenders:
        best = max(s.total for s in contenders)
        assert session.outcome.winners
        assert all(scores[w].total == best and not scores[w].lost
                   for w in session.outcome.winners)
    # The end came from four columns, or from the bag running out.
    ended = session.outcome.details["game_end"]
    assert ended == "bag_empty" and not state.bag or state.ended_by is not None
    again = TableSession.replay(session.setup, [r.action for r in session.history])
    assert again.view(None) == session.view(None)
