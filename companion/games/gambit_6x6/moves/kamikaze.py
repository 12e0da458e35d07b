"""Declare a Kamikaze: when another team's piece sits on a piece of yours, you may say that
piece is a Kamikaze: the sitter leaves the board and yours becomes a normal piece. The mover
accepts or challenges."""

from __future__ import annotations

from companion.engine import Move
from companion.games.gambit_6x6 import flow
from companion.games.gambit_6x6.moves.common import Params, fixed, in_window
from companion.games.gambit_6x6.state import Claim, State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = in_window(state, seat)
    if reason is None and (seat is None or flow.kamikaze_piece(state, seat) is None):
        return "the moved piece does not sit on a piece of yours"
    return reason


def _run(state: State, seat: int | None, params: Params) -> None:
    pending = state.pending
    assert seat is not None and pending is not None
    piece = flow.kamikaze_piece(state, seat)
    assert piece is not None
    pending.used.append("kamikaze")
    pending.reaction = Claim(seat, piece, "kamikaze")
    pending.stage = "kamikaze"
    state.emit("declared", seat=seat, piece=piece, power="kamikaze")


def _text(state: State, seat: int | None, params: Params) -> str:
    piece = flow.kamikaze_piece(state, seat) if seat is not None else None
    return f"{state.name(seat)} declares {piece} a Kamikaze"


MOVE = Move("declare_kamikaze", "reaction", fixed("Declare a Kamikaze"), _refusal, _run, _text)
