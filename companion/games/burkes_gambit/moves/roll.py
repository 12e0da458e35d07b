"""``roll``: the seat whose turn it is draws a die from the bag and says the face it rolled
(an engine powers up at once)."""

from __future__ import annotations

from companion.engine import Move, Params
from companion.games.burkes_gambit.moves.common import (
    face_label,
    face_param,
    fixed_label,
    not_my_turn,
)
from companion.games.burkes_gambit.moves.die_action import engine_rolled
from companion.games.burkes_gambit.state import Die, State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = not_my_turn(state, seat, die=False)
    if reason or state.bag_left() > 0:
        return reason
    assert seat is not None  # a seat's turn: not_my_turn refuses the table
    reserved = state.players[seat].reserve is not None  # face up on the card: public
    return f"the bag is empty: {'use your reserved die or pass' if reserved else 'pass'}"


def _run(state: State, seat: int | None, params: Params) -> None:
    state.die = Die(str(params["face"]))
    state.emit("rolled", seat=seat, face=state.die.face)
    if state.die.face == "engine":
        assert seat is not None
        engine_rolled(state, seat)


def _text(state: State, seat: int | None, params: Params) -> str:
    return f"{state.name(seat)} rolled {face_label(state, params)}"


MOVE = Move("roll", "move", fixed_label("Draw and roll a die"), _refusal, _run, _text,
            face_param("Face rolled"))
