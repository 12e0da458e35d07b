"""Declare a Moat: when another team's piece finishes its move on one of the eight squares
around a piece of yours, you may say that piece is a Moat. The mover accepts (and moves
again elsewhere) or challenges. A Ghost's move cannot be stopped this way."""

from __future__ import annotations

from companion.engine import Move, Param
from companion.games.gambit_6x6 import flow
from companion.games.gambit_6x6.moves.common import Params, fixed, in_window
from companion.games.gambit_6x6.state import Claim, State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = in_window(state, seat)
    if reason is None and (seat is None or not flow.moat_guards(state, seat)):
        return "no piece of yours is next to where the piece finished (or it claims Ghost)"
    return reason


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    guards = tuple(flow.moat_guards(state, seat)) if seat is not None else ()
    return (Param("piece", "choice", "Your Moat", choices=guards,
                  default=guards[0] if len(guards) == 1 else None),)


def _run(state: State, seat: int | None, params: Params) -> None:
    pending = state.pending
    assert seat is not None and pending is not None
    pending.used.append("moat")
    pending.reaction = Claim(seat, params["piece"], "moat")
    pending.stage = "moat"
    state.emit("declared", seat=seat, piece=params["piece"], power="moat")


def _text(state: State, seat: int | None, params: Params) -> str:
    pending = state.pending
    mover = state.name(pending.actor) if pending else "the mover"
    return f"{state.name(seat)} declares {params.get('piece')} a Moat against {mover}'s move"


MOVE = Move("declare_moat", "reaction", fixed("Declare a Moat"), _refusal, _run, _text, _params)
