"""``prologue_swap``: in the Prologue, Romeo or Tybalt secretly chooses a player whose captain
changes places with the centre card (Juliet or Mercutio)."""

from __future__ import annotations

from companion.engine import Move, Params
from companion.games.captains_gambit import captains
from companion.games.captains_gambit.moves.common import (
    check_target,
    fixed_label,
    not_prologue_step,
    other_player_params,
)
from companion.games.captains_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = not_prologue_step(state, seat, captains.SWAPPERS)
    if reason or seat is None:
        return reason
    if state.swapped:
        return "the Prologue swap is done"
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    target = state.players[params["target"]]
    target.original_captain = target.captain
    target.captain, state.centre = state.centre, target.captain
    state.swapped = True
    # A mark already entered leaves with its captain: in the seed's order the swap comes
    # first, but the phones are not made to wait for it (that would show Romeo was dealt).
    state.marks.pop(params["target"], None)


def _text(state: State, seat: int | None, params: Params) -> str:
    return f"{state.name(seat)} chose {state.name(params.get('target'))} to take the centre card"


MOVE = Move("prologue_swap", "input", fixed_label("Choose who takes the centre card"), _refusal,
            _run, _text, other_player_params, check_target("other"), private=True)
