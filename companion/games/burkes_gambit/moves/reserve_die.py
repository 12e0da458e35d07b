"""``reserve_die``: the seat whose turn it is keeps its die on its card for a later turn (a
reserved Cancel may answer another seat's action); the turn ends."""

from __future__ import annotations

from companion.engine import Move, Params
from companion.games.burkes_gambit.moves import flow
from companion.games.burkes_gambit.moves.common import fixed_label, not_my_turn
from companion.games.burkes_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    return not_my_turn(state, seat, die=True)


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None and state.die is not None
    player = state.players[seat]
    # a die keeps its one reroll on the card: once rerolled, never again
    player.reserve, player.reserve_rerolled = state.die.face, state.die.rerolled
    state.die = None
    state.emit("reserved", seat=seat, face=player.reserve)
    flow.end_turn(state)


def _text(state: State, seat: int | None, params: Params) -> str:
    face = state.book.face_label(state.die.face) if state.die else "the die"
    return f"{state.name(seat)} reserves {face}"


MOVE = Move("reserve_die", "move", fixed_label("Reserve the die on your card"), _refusal, _run,
            _text)
