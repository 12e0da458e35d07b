"""Random legal games of Captain Flip (hypothesis), on every board, 2 to 5 players, from a
real bag or the companion's draw, and what they must keep: every game ends; a score is the
sum of its breakdown; coins never appear from nowhere; the bag never yields a tile twice.

COMPANION_PROPERTY_GAMES sets how many games (default 2000, shared with the other games).
"""

from __future__ import annotations

import os
import random
from collections import Counter

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


def step(session: TableSession, rng: random.Random) -> Action | None:
    """A random legal action; a draw from a real bag takes a tile that is in it, as a player
    pulling one out would (random values would mostly name tiles drawn before)."""
    state: State = session.state
    names = {spec.name for spec in session.legal_actions(state.turn)}
    if "draw" in names and not state.companion_draws:
        number = rng.choice(state.bag)
        assert number is not None
        action = Action("draw", state.turn, {"face": rng.choice(tile_sides()[number]),
                                             "tile": tile_name(number)})
        session.submit(action)
        return action
    return random_step(session, rng)


def check_tiles(state: State, drawn: list[int]) -> None:
    """Every tile is in one place, and no tile came out of the bag twice."""
    assert len(drawn) == len(set(drawn)), "the bag yielded a tile twice"
    places = [n for p in state.players for n in (t.number for t in p.spaces.values())]
    places += [state.hand.number] if state.hand else []
    everywhere = Counter(places + list(state.bag))
    assert set(everywhere) == set(tile_sides()) and set(everywhere.values()) == {1}
    assert len(state.bag) == len(tile_sides()) - len(drawn) == len(tile_sides()) - state.drawn


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
    for _ in range(MAX_ACTIONS):
        action = step(session, rng)
        if action is None:
            break
        state: State = session.state
        if action.name == "draw":
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
