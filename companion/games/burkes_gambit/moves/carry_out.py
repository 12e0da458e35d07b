"""``carry_out``: nobody (else) cancels, so the actor closes the Cancel window: the waiting
action goes ahead, or stays cancelled."""

from __future__ import annotations

from companion.engine import Move, Params
from companion.games.burkes_gambit.moves import die_action
from companion.games.burkes_gambit.moves.common import fixed_label
from companion.games.burkes_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    if state.phase != "cancel" or state.pending is None:
        return "nothing is waiting"
    if seat != state.pending.actor:
        actor, face = state.name(state.pending.actor), state.book.face_label(state.pending.face)
        return f"only {actor} closes the window on their {face} (it then " + \
            ("stays cancelled)" if state.pending.cancelled else "goes ahead)")
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    die_action.carry_out(state)


def _text(state: State, seat: int | None, params: Params) -> str:
    pending = state.pending
    if pending is None:
        return f"{state.name(seat)} goes on"
    face = state.book.face_label(pending.face)
    return f"{state.name(seat)}'s {face} " + ("stays cancelled" if pending.cancelled
                                             else "goes ahead")


MOVE = Move("carry_out", "reaction", fixed_label("Nobody cancels: go on"), _refusal, _run, _text)
