"""Gambit (6x6), property tests: random games with bluffs and challenges, on every board and
with every option, always end, and never break the rules' bookkeeping on the way. A second
player prefers to advance and seldom challenges, so that far-row wins and Player Powers come
up too."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from companion.engine import Action, RulesError, TableSession
from companion.engine.random_play import random_action, random_step
from companion.games.gambit_6x6.state import State
from tests.games.test_gambit_6x6_setup import table

SETUPS: list[tuple[tuple[str, ...], dict[str, Any]]] = [
    (("Ann", "Ben"), {}),
    (("Ann", "Ben"), {"roll_powers": True, "player_powers": True}),
    (("Ann", "Ben"), {"player_powers": True, "board": "bridges"}),
    (("Ann", "Ben"), {"player_powers": True, "roll_player_powers": True, "board": "longboard"}),
    (("Ann", "Ben", "Cat"), {"player_powers": True}),
    (("Ann", "Ben", "Cat", "Dan"), {"roll_powers": True, "powers": 1}),
]


def check(state: State) -> None:
    """What must hold after every action."""
    where = [p for stack in state.stacks.values() for p in stack]
    assert len(where) == len(set(where)), "a piece stands on two squares"
    assert all(state.stacks.values()), "an empty stack is kept"
    for piece in state.pieces.values():
        assert (piece.id in where) != piece.lost, f"{piece.id} lost and on the board"
        assert piece.movement is None or state.book.group(piece.movement) == "movement"
        assert piece.action is None or state.book.group(piece.action) == "action"
    for cell in state.stacks:
        assert cell in set(state.layout.cells()), f"a piece in a hole or off the board: {cell}"
    assert (state.phase == "answering") == (state.pending is not None and not state.owed
                                            and state.phase != "settling") or \
        state.phase == "settling"
    assert state.phase != "settling" or state.owed
    if state.outcome is not None:
        assert all(0 <= s < len(state.names) for s in state.outcome.winners)


# How often the forward player picks each action (others: 4): it moves, and seldom challenges
# or claims a look or a push (each costs a piece when caught, and far-row wins come rarely).
FORWARD = {"move": 8, "challenge": 1, "detect": 1, "bulldoze": 1}


def forward_step(session: TableSession, rng: random.Random) -> Action | None:
    """A player who moves towards the far row and seldom challenges."""
    seats = range(len(session.setup.seats))
    options = [(seat, spec) for seat in seats for spec in session.legal_actions(seat)]
    if not options:
        return None
    weights = [FORWARD.get(spec.name, 4) for _, spec in options]
    for attempt in range(30):
        seat, spec = rng.choices(options, weights)[0]
        action = random_action(spec, seat, rng)
        if spec.name == "move" and attempt < 3 and rng.random() < 0.8:
            action = _ahead(session, seat, spec.params, rng.random() < 0.5) or action
        try:
            session.submit(action)
        except RulesError:
            continue
        return action
    return None


def _ahead(session: TableSession, seat: int, params: Any, ghost: bool) -> Action | None:
    """The move that brings a piece nearest its far row."""
    state: State = session.state
    far = state.layout.far(state.sides[seat])
    far_points = [state.layout.point(c) for c in far]

    def distance(cell: str) -> int:
        x, y = state.layout.point(cell)
        return min(abs(x - fx) + abs(y - fy) for fx, fy in far_points)

    best = None
    for cell, destinations in params[1].choices_by:
        for to in destinations:
            gain = distance(cell) - distance(to)
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, cell, to)
    return None if best is None else Action("move", seat, {"piece": best[1], "to": best[2],
                                                           "ghost": ghost})


@pytest.mark.parametrize(("seats", "options"), SETUPS,
                         ids=[f"{len(s)}p-{'-'.join(o) or 'plain'}" for s, o in SETUPS])
def test_random_games_with_bluffs_and_challenges_end(seats: tuple[str, ...],
                                                     options: dict[str, Any]) -> None:
    ends: Counter[str] = Counter()
    actions: Counter[str] = Counter()
    for seed in range(6):
        for step in (random_step, forward_step):
            session = table(options, seats=seats, seed=seed)
            rng = random.Random(seed)
            for _ in range(3000):
                if session.outcome is not None:
                    break
                action = step(session, rng)
                assert action is not None, f"seed {seed}: nobody can act"
                actions[action.name] += 1
                check(session.state)
            assert session.outcome is not None, f"seed {seed}: no end"
            ends[session.outcome.reason] += 1
    assert actions["challenge"] > 0 and actions["give_up"] > 0
    assert ends["losses"] > 0, ends


def test_the_forward_player_reaches_the_far_row_and_player_powers() -> None:
    ends: Counter[str] = Counter()
    used: Counter[str] = Counter()
    for seed in range(30):
        session = table({"player_powers": True}, seed=seed)
        rng = random.Random(seed)
        while session.outcome is None:
            action = forward_step(session, rng)
            assert action is not None
            used[action.name] += 1
        ends[session.outcome.reason] += 1
    assert ends["far_row"] > 0, ends
    assert used["take_player_power"] > 0, used
    assert sum(used[n] for n in ("magician", "sensei", "witch_doctor", "use_juggernaut",
                                 "let_win_stand")) > 0, used
