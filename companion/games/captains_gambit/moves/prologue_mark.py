"""``prologue_mark``: in the Prologue, Hamlet, Cordelia or Brutus secretly marks a player."""

from __future__ import annotations

from companion.engine import Move, Params
from companion.games.captains_gambit import captains
from companion.games.captains_gambit.moves.common import (
    check_target,
    fixed_label,
    not_prologue_step,
    other_player_params,
    who,
)
from companion.games.captains_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = not_prologue_step(state, seat, captains.MARKERS)
    if reason or seat is None:
        return reason
    if seat in state.marks:
        return f"{who(state, seat)} has already marked a player"
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    # The tokens are laid when the Prologue ends (end_prologue): a swap entered later may
    # still send this captain to the centre, and a loyalty token appearing now would tell
    # the table when, so whose, it was.
    assert seat is not None
    state.marks[seat] = params["target"]


def _text(state: State, seat: int | None, params: Params) -> str:
    return f"{state.name(seat)} marked {state.name(params.get('target'))}"


MOVE = Move("prologue_mark", "input", fixed_label("Mark a player"), _refusal, _run, _text,
            other_player_params, check_target("other"), private=True)
