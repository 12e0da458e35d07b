"""Declare a Moat: when another team's piece finishes its move on one of the eight squares
around a piece of yours, you may say that piece is a Moat. The mover accepts (and moves
again elsewhere) or challenges. A Ghost's move cannot be stopped this way."""

from __future__ import annotations

from companion.engine import Move, Param
from companion.games.gambit_6x6 import flow
from companion.games.gambit_6x6.moves.common import KINDS, Params, fixed, in_window, on_squares
from companion.games.gambit_6x6.state import Claim, State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = in_window(state, seat)
    if reason is None and (seat is None or not flow.moat_guards(state, seat)):
        return _why_not(state)
    return reason


def _why_not(state: State) -> str:
    """Why no Moat may be declared against the pending action, from public facts only (the
    action, its claims, the squares): never from the powers a piece holds."""
    pending = state.pending
    assert pending is not None
    mover = state.name(pending.actor)
    if pending.kind not in ("move", "bulldoze"):
        return f"a Moat stops a piece finishing its move, not {mover}'s {KINDS[pending.kind]}"
    if "moat" in pending.used:
        return f"a Moat was already declared against {mover}'s {KINDS[pending.kind]}"
    if flow.standing(pending, "ghost"):
        return (f"{mover}'s move claims Ghost, and no Moat stops a Ghost: challenge the Ghost"
                " first (if it is a bluff, you may then declare the Moat)")
    if pending.end is None or state.where(pending.piece) != pending.end:
        return f"{mover}'s piece is no longer where it finished"
    what = "Bulldozer" if pending.kind == "bulldoze" else "piece"
    return f"no piece of yours is next to {pending.end}, where {mover}'s {what} finished"


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    guards = tuple(flow.moat_guards(state, seat)) if seat is not None else ()
    return (Param("piece", "choice", "Your Moat", choices=guards,
                  labels=on_squares(state, guards),
                  default=guards[0] if len(guards) == 1 else None),)


def _check(state: State, seat: int | None, params: Params) -> str | None:
    """A piece of yours that is no Moat here, said why (from the squares alone): the one the
    mover sits on guards the squares around it, not its own."""
    pending, piece = state.pending, params.get("piece")
    if seat is None or pending is None or not isinstance(piece, str) \
            or piece not in state.pieces or state.pieces[piece].seat != seat:
        return None  # the parameter's own check names the problem
    guards = flow.moat_guards(state, seat)
    if piece in guards or state.where(piece) != pending.end:
        return None
    yours = f" (yours next to {pending.end}: {', '.join(guards)})" if guards else ""
    return (f"{piece} is under {state.name(pending.actor)}'s {pending.piece} on {pending.end}:"
            f" a Moat guards the squares around it, not its own{yours}")


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


MOVE = Move("declare_moat", "reaction", fixed("Declare a Moat"), _refusal, _run, _text, _params,
            _check)
