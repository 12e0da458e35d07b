"""Random legal games of Captain's Gambit (hypothesis) and the invariants they must keep.

COMPANION_PROPERTY_GAMES sets how many games (default 2000).
"""

from __future__ import annotations

import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import Action, GameSetup, RulesError, TableSession
from companion.engine.random_play import random_step
from companion.games.captains_gambit import captains
from companion.games.captains_gambit.moves import MOVES
from companion.games.captains_gambit.state import State

GAMES = int(os.environ.get("COMPANION_PROPERTY_GAMES", "2000"))
WARP_GROUPS = ["viola", "lear_othello", "tybalt_mercutio", "titus", "imogen"]
MOVE_NAMES = sorted(MOVES)
MAX_ACTIONS = 5000  # far above any real game: a game that does not end fails the test

setups = st.builds(
    lambda players, seed, wildcards, mulligan, warp, first: GameSetup(
        "captains-gambit", tuple(f"P{i}" for i in range(players)),
        {"wildcards": wildcards, "mulligan": mulligan, "warp_in": warp,
         "first_seat": first % players}, seed=seed),
    st.integers(4, 8), st.integers(0, 2**31), st.booleans(), st.booleans(),
    st.lists(st.sampled_from(WARP_GROUPS), unique=True), st.integers(0, 7))


def check_state(state: State) -> None:
    assert all(p.energy >= 0 for p in state.players), "energy went negative"
    assert state.round <= 12, "played past round 12"
    outcome = state.outcome
    if outcome is None:
        assert state.living(), "everyone is dead but the game goes on"
        assert not any(captains.wins_now(state, p.seat) for p in state.players), \
            "a win condition holds but the game goes on"
    elif outcome.reason == "win":
        assert any(captains.wins_now(state, s) for s in outcome.winners)
    elif outcome.reason == "all_dead":
        assert not state.living()
    else:
        assert outcome.reason == "round_limit"
        assert state.round == 12 and state.completed_rounds == 12


def check_secrets(session: TableSession, seat: int) -> None:
    table = session.view(None)
    for player in table["players"]:
        assert player["captain"] is None or player["revealed"]
        assert isinstance(player["permits"], int) or not player["alive"]
    mine = session.view(seat)
    you = mine.pop("you")
    assert mine == table, "a seat's view differs from the table's outside its own secrets"
    own = session.state.players[seat]
    assert you["seat"] == seat and you["captain"] == own.captain
    assert you["permits"] == own.permits


@settings(max_examples=GAMES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups, play_seed=st.integers(0, 2**31))
def test_random_games_keep_the_invariants(setup: GameSetup, play_seed: int) -> None:
    rng = random.Random(play_seed)
    session = TableSession(setup)
    seats = len(setup.seats)
    for _ in range(MAX_ACTIONS):
        before = session.state
        action = random_step(session, rng)
        if action is None:
            break
        if action.seat is not None:
            assert before.players[action.seat].alive, f"a dead seat acted: {action}"
        check_state(session.state)
        check_secrets(session, rng.randrange(seats))
    assert session.outcome is not None, "the game never ended"
    assert session.state.phase == "over"
    rebuilt = TableSession.replay(session.setup, [r.action for r in session.history])
    for seat in [None, *range(seats)]:
        assert rebuilt.view(seat) == session.view(seat)


junk_values = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.text(max_size=8),
                        st.lists(st.sampled_from(["barrage", "shield", "laser", 3]), max_size=3),
                        st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
junk_actions = st.fixed_dictionaries(
    {"action": st.sampled_from([*MOVE_NAMES, "fly", ""]),
     "seat": st.one_of(st.none(), st.integers(-2, 9))},
    optional={"target": junk_values, "amount": junk_values, "via": junk_values,
              "kind": junk_values, "discard": junk_values, "permits": junk_values,
              "captain": junk_values, "counter": junk_values, "value": junk_values,
              "reason": junk_values, "colour": junk_values})


@settings(max_examples=max(200, GAMES // 4), deadline=None)
@given(setup=setups, play_seed=st.integers(0, 2**31), steps=st.integers(0, 120),
       junk=st.lists(junk_actions, min_size=1, max_size=5))
def test_malformed_actions_are_refused_cleanly(setup: GameSetup, play_seed: int, steps: int,
                                               junk: list[dict[str, object]]) -> None:
    """Whatever a phone or a transcript sends: a RulesError with a reason, or a legal action."""
    rng = random.Random(play_seed)
    session = TableSession(setup)
    for _ in range(steps):
        if random_step(session, rng) is None:
            break
    for data in junk:
        before = [session.view(s) for s in [None, *range(len(setup.seats))]]
        try:
            session.submit(Action.from_dict(data))
        except RulesError as refused:
            assert str(refused)
            assert before == [session.view(s) for s in [None, *range(len(setup.seats))]]
