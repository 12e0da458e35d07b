"""``cancel``: a seat spends its reserved Cancel die on the action waiting, a Stall in the
centre or a quarantine. A Cancel of a Stall or a quarantine opens a window of its own: it,
too, may be cancelled; an action whose window it was played in waits until it is settled."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.burkes_gambit.moves.common import cannot_act, fixed_label, status
from companion.games.burkes_gambit.moves.die_action import (
    can_answer,
    cancel_param,
    cancel_targets,
    cancelled_name,
    carry_out,
    engine_reason,
    nothing_to_cancel,
    open_window,
    why_not,
)
from companion.games.burkes_gambit.state import Pending, State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = cannot_act(state, seat)
    if reason:
        return reason
    assert seat is not None
    # "At any time": on any turn, in a Cancel window and in the vote (a quarantine there may
    # keep a player from voting); not before play, while the table turns a dead player's
    # cards, once the votes are shown, nor after the end.
    if state.phase in ("roles", "heads_down", "tiebreak", "over", "reveal", "reveal_ejected"):
        return f"not now: {status(state)}"
    if state.players[seat].reserve != "cancel":
        return "you have no Cancel die in reserve"
    if not cancel_targets(state, seat, with_window=True):
        # the power-up just made is what a player most likely meant, but say what else
        # there is not, for one who meant a Stall or a quarantine
        nothing = nothing_to_cancel(state, seat, with_window=True)
        engine = engine_reason(state)
        return f"{engine}; and {nothing}" if engine else nothing
    return None


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (cancel_param(state, seat, with_window=True),)


def _check(state: State, seat: int | None, params: Params) -> str | None:
    return why_not(state, seat, params.get("what"))


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.players[seat].reserve = None  # off the card: back in the bag once it is settled
    what = str(params["what"])
    state.emit("cancelled", seat=seat, what=what)
    if what == "waiting":
        assert state.pending is not None
        state.pending.cancels.append(seat)
        if not can_answer(state):
            carry_out(state)
    else:  # a Stall or a quarantine: this Cancel, too, may be cancelled
        open_window(state, Pending(seat, "cancel", None, what, ends_turn=False))


def _text(state: State, seat: int | None, params: Params) -> str:
    return f"{state.name(seat)} cancels {cancelled_name(state, str(params.get('what')))}"


def _kind(state: State, seat: int | None) -> str:
    # An answer while an action waits for Cancels; else a move its holder may make any time
    # (a Stall, a quarantine), which no phone alerts for at every change of the table.
    return "reaction" if "waiting" in cancel_targets(state, seat, with_window=True) else "move"


MOVE = Move("cancel", "reaction", fixed_label("Cancel (reserved die)"), _refusal, _run, _text,
            _params, _check, kind_now=_kind)
