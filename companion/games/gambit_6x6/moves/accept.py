"""Accept: let the pending action stand (no challenge), or, for the mover, accept the Moat
(the move is undone and made again elsewhere) or the Kamikaze (the sitter leaves the board)."""

from __future__ import annotations

from companion.engine import Move
from companion.games.gambit_6x6 import flow
from companion.games.gambit_6x6.moves.common import KINDS, Params, in_window
from companion.games.gambit_6x6.state import State


def _label(state: State) -> str:
    pending = state.pending
    if pending is not None and pending.stage == "moat":
        return "Accept the Moat (move again)"
    if pending is not None and pending.stage == "kamikaze":
        return "Accept the Kamikaze"
    return "Let it stand"


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None and state.pending is not None
    pending = state.pending
    if pending.stage == "moat" and pending.reaction is not None:
        flow.send_back(state, pending.reaction.piece)
        state.emit("sent_back", seat=seat, moat=pending.reaction.piece)
        flow.carry_on(state)
    elif pending.stage == "kamikaze" and pending.reaction is not None:
        flow.fire_kamikaze(state, pending.reaction)
        flow.carry_on(state)
    else:
        pending.passed.append(seat)
        if not flow.answering(state):
            flow.close_window(state)


def _text(state: State, seat: int | None, params: Params) -> str:
    pending = state.pending
    if pending is None:
        return f"{state.name(seat)} accepts"
    if pending.stage == "moat" and pending.reaction is not None:
        return (f"{state.name(seat)} accepts the Moat on {pending.reaction.piece} and will"
                " move again")
    if pending.stage == "kamikaze" and pending.reaction is not None:
        return f"{state.name(seat)} accepts the Kamikaze of {pending.reaction.piece}"
    return f"{state.name(seat)} lets {state.name(pending.actor)}'s {KINDS[pending.kind]} stand"


MOVE = Move("accept", "reaction", _label, in_window, _run, _text)
