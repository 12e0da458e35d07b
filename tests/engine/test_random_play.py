"""Random play (conformance and property tests, benchmarks): legal moves, never the table's
rulings, which would only undo the game."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from companion.engine import Action, GameSetup, TableSession
from companion.engine.random_play import random_step
from tests.conftest import cg_table


def captains_gambit() -> TableSession:
    return cg_table({0: "puck", 1: "iago", 2: "portia", 3: "prospero"})


def burkes_gambit() -> TableSession:
    session = TableSession(GameSetup("burkes-gambit", ("Ann", "Ben", "Cat", "Dan"), {}, seed=1))
    session.submit(Action("end_heads_down"))
    return session


@pytest.mark.parametrize("new_table", [captains_gambit, burkes_gambit])
def test_random_play_never_makes_the_tables_rulings(new_table: Callable[[], TableSession]) -> None:
    session = new_table()
    rulings = {spec.name for spec in session.legal_actions(None) if spec.ruling}
    assert "correct" in rulings  # the table can always correct a counter
    assert not any(spec.ruling for seat in range(4) for spec in session.legal_actions(seat))
    rng = random.Random(5)
    played = []
    for _ in range(60):
        action = random_step(session, rng)
        if action is None:
            break
        played.append(action.name)
    assert played and not set(played) & rulings
