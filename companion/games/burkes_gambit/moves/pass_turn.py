"""``pass_turn``: with the bag empty, the seat whose turn it is passes."""

from __future__ import annotations

from companion.engine import Move, Params
from companion.games.burkes_gambit.moves import flow
from companion.games.burkes_gambit.moves.common import fixed_label, not_my_turn, said
from companion.games.burkes_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = not_my_turn(state, seat, die=False)
    if reason:
        return reason
    return None if state.bag_left() <= 0 else "draw a die: the bag is not empty"


def _run(state: State, seat: int | None, params: Params) -> None:
    state.emit("passed", seat=seat)
    flow.end_turn(state)


MOVE = Move("pass_turn", "move", fixed_label("Pass (the bag is empty)"), _refusal, _run,
            said("{who} passes: the bag is empty"))
