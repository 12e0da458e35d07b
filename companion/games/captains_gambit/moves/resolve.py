"""``resolve``: the actor lets the declared action take effect once nobody reacts."""

from __future__ import annotations

from companion.engine import Move, Params
from companion.games.captains_gambit.moves import sheet
from companion.games.captains_gambit.moves.common import fixed_label, not_in_phase
from companion.games.captains_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    actor = state.pending.actor if state.pending else None
    return not_in_phase(state, seat, "reaction", actor)


def _run(state: State, seat: int | None, params: Params) -> None:
    sheet.resolve(state)


def _text(state: State, seat: int | None, params: Params) -> str:
    pending = state.pending
    label = state.book.label(pending.name) if pending else "action"
    return f"{state.name(seat)}'s {label} resolves"


MOVE = Move("resolve", "reaction", fixed_label("Let it resolve"), _refusal, _run, _text)
