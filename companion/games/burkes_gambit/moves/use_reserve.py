"""``use_reserve``: instead of drawing, the seat whose turn it is uses the die reserved on its
card."""

from __future__ import annotations

from companion.engine import Move, Params
from companion.games.burkes_gambit.moves.common import fixed_label, not_my_turn
from companion.games.burkes_gambit.state import Die, State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = not_my_turn(state, seat, die=False)
    if reason:
        return reason
    assert seat is not None
    return None if state.players[seat].reserve else "you have no reserved die"


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    player = state.players[seat]
    assert player.reserve is not None
    state.die = Die(player.reserve, rerolled=player.reserve_rerolled)
    player.reserve = None
    state.emit("used_reserve", seat=seat, face=state.die.face)


def _text(state: State, seat: int | None, params: Params) -> str:
    face = (state.book.face_label(state.players[seat].reserve or "cancel")
            if seat is not None else "")
    return f"{state.name(seat)} uses the reserved {face}"


MOVE = Move("use_reserve", "move", fixed_label("Use your reserved die"), _refusal, _run, _text)
