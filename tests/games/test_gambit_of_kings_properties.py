"""Random legal games of Gambit of Kings in every way to play (hypothesis), with the dice
entered at the table or rolled by the companion, and the invariants they must keep: one Castle
a side until one falls, no Soldier on its far row, tokens within their count, the phase and
the fight in step, every move the phones offer accepted, and an end.

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
from companion.games.gambit_of_kings.board import coords, far_rank
from companion.games.gambit_of_kings.book import MODES
from companion.games.gambit_of_kings.state import PHASES, State

GAMES = max(10, int(os.environ.get("COMPANION_PROPERTY_GAMES", "2000")) // 40)
MAX_ACTIONS = 3000  # far above a random game's length: a game that does not end fails

setups = st.builds(
    lambda mode, dice, cards, seed: GameSetup(
        "gambit-of-kings", ("Ann", "Ben"),
        {"mode": mode, "dice_by": dice, "card_rows": cards}, seed=seed),
    st.sampled_from(MODES), st.sampled_from(["table", "companion"]),
    st.sampled_from(["shuffle", "choose"]), st.integers(0, 2**31))


def check_state(state: State, before: State) -> None:
    castles = Counter(p.side for p in state.board.values() if p.kind == "castle")
    if state.outcome is None or state.outcome.reason != "castle_taken":
        assert castles == {0: 1, 1: 1}, "a Castle went missing"
    else:
        assert castles[1 - state.outcome.winners[0]] == 0, "the winner did not take the Castle"
    for where, piece in state.board.items():
        assert state.book.promotes_to(piece.kind) is None or \
            coords(where)[1] != far_rank(piece.side, state.book.size), "a Soldier on its far row"
    for side in (0, 1):
        count = sum(1 for p in state.board.values() if p.side == side)
        assert count <= sum(1 for p in before.board.values() if p.side == side), "a piece appeared"
        assert 0 <= state.tokens[side] <= max(state.mode.tokens, before.tokens[side])
    assert state.phase in PHASES and (state.phase == "over") == (state.outcome is not None)
    assert (state.phase == "combat") == (state.combat is not None), "phase and fight disagree"
    assert state.mode.combat or state.combat is None, "a fight without combat dice"
    assert len(state.moved) <= 2 and (state.phase != "second" or len(state.moved) == 1)


def offered_moves_are_accepted(session: TableSession, rng: random.Random) -> None:
    """A few of the moves the phone lights up: each one is accepted."""
    for spec in session.legal_actions(session.state.turn):
        if spec.name != "move":
            continue
        origins = list(dict(spec.params[1].choices_by).items())
        for origin, targets in rng.sample(origins, min(3, len(origins))):
            target = rng.choice(targets)
            session.rules.apply(session.state, Action("move", session.state.turn,
                                                      {"from": origin, "to": target}))


@settings(max_examples=GAMES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups)
def test_random_games_keep_the_rules_and_end(setup: GameSetup) -> None:
    session = TableSession(setup)
    rng = random.Random(str(setup.seed))
    for _ in range(MAX_ACTIONS):
        if session.outcome is not None:
            break
        before = session.state
        offered_moves_are_accepted(session, rng)
        assert random_step(session, rng) is not None, "nobody can act and the game goes on"
        check_state(session.state, before)
    assert session.outcome is not None, f"no end after {MAX_ACTIONS} actions"
