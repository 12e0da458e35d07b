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
    if not state.swapped and any(p.captain in captains.SWAPPERS for p in state.players):
        # the Prologue's order: the swap may send this captain to the centre, unmarked
        return "not yet: the Prologue's swap comes first"
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    target = params["target"]
    state.marks[seat] = target
    if state.players[seat].captain == "hamlet":
        state.hamlet_token = target  # a token in the mark's hand: the mark knows of it
    if state.players[seat].captain in ("cordelia", "brutus"):
        state.players[target].loyalty += 1  # a loyalty token in front of the mark, for all to see


def _text(state: State, seat: int | None, params: Params) -> str:
    return f"{state.name(seat)} marked {state.name(params.get('target'))}"


MOVE = Move("prologue_mark", "input", fixed_label("Mark a player"), _refusal, _run, _text,
            other_player_params, check_target("other"), private=True)
