"""``end_prologue``: the table's host ends the eyes-closed Prologue and play begins."""

from __future__ import annotations

from companion.engine import Move, Params
from companion.games.captains_gambit import flow
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
    # The marks' tokens are laid now, all at once: Hamlet's in the mark's hand (the mark
    # knows of it), Cordelia's and Brutus's loyalty in front of the mark, for all to see.
    for marker, target in state.marks.items():
        if state.players[marker].captain == "hamlet":
            state.hamlet_token = target
        if state.players[marker].captain in ("cordelia", "brutus"):
            state.players[target].loyalty += 1
    state.emit("prologue_ended")
    flow.begin_play(state)


MOVE = Move("end_prologue", "table", fixed_label("Everyone opens their eyes"), _refusal, _run,
            said("The Prologue ends"))
