"""``reroll``: the seat whose turn it is rerolls its die, once, and says the new face."""

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
    reason = not_my_turn(state, seat, die=True)
    if reason:
        return reason
    assert state.die is not None
    return "you have rerolled this die once already" if state.die.rerolled else None


def _run(state: State, seat: int | None, params: Params) -> None:
    assert state.die is not None
    state.die = Die(str(params["face"]), rerolled=True)
    state.emit("rerolled", seat=seat, face=state.die.face)
    if state.die.face == "engine":
        assert seat is not None
        engine_rolled(state, seat)


def _text(state: State, seat: int | None, params: Params) -> str:
    return f"{state.name(seat)} rerolled: {face_label(state, params)}"


MOVE = Move("reroll", "move", fixed_label("Reroll (once)"), _refusal, _run, _text,
            face_param("New face"))
