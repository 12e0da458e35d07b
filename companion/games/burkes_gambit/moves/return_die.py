"""``return_die``: the seat whose turn it is puts its die back in the bag unused; the turn
ends."""

from __future__ import annotations

from companion.engine import Move, Params
from companion.games.burkes_gambit.moves import flow
from companion.games.burkes_gambit.moves.common import fixed_label, not_my_turn, said
from companion.games.burkes_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    return not_my_turn(state, seat, die=True)


def _run(state: State, seat: int | None, params: Params) -> None:
    state.emit("returned", seat=seat)
    flow.end_turn(state)


MOVE = Move("return_die", "move", fixed_label("Return the die to the bag"), _refusal, _run,
            said("{who} returns the die to the bag"))
