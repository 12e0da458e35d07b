"""``end_prologue``: the table's host ends the eyes-closed Prologue and play begins."""

from __future__ import annotations

from companion.engine import Move, Params
from companion.games.captains_gambit import flow
from companion.games.captains_gambit.moves import prologue_mark
from companion.games.captains_gambit.moves.common import fixed_label, said, waiting_text
from companion.games.captains_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    if seat is not None:
        return "the table (its host) ends the Prologue"
    if state.phase != "prologue":
        return f"not now: {waiting_text(state)}"
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    # Never refused for a missing step: a refusal would tell the table who is in play.
    prologue_mark.place_tokens(state)
    state.emit("prologue_ended")
    flow.begin_play(state)


MOVE = Move("end_prologue", "table", fixed_label("Everyone opens their eyes"), _refusal, _run,
            said("The Prologue ends"))
