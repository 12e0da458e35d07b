"""``shield``: a reaction that negates a Strike, Barrage or Drain (itself a permit claim that
may be called)."""

from __future__ import annotations

from companion.engine import Move, Params
from companion.games.captains_gambit.moves.common import (
    claim_note,
    fixed_label,
    not_in_phase,
    said,
    who,
)
from companion.games.captains_gambit.state import State


def _cost(state: State) -> int:
    return int(state.book.action("shield")["cost"])


def _refusal(state: State, seat: int | None) -> str | None:
    reason = not_in_phase(state, seat, "reaction", None)
    if reason or seat is None:
        return reason
    pending = state.pending
    assert pending is not None
    if pending.name not in ("strike", "barrage", "drain"):
        return "only a Strike, Barrage or Drain can be Shielded"
    if seat == pending.actor:
        return "you cannot Shield your own action"
    if pending.name == "drain" and seat != pending.target:
        return "only the target of a Drain can Shield it"
    if pending.shield_by is not None:
        return f"{who(state, pending.shield_by)} has already declared a Shield"
    if state.players[seat].energy < _cost(state):
        return (f"Shield costs {_cost(state)} energy and {who(state, seat)} has "
                f"{state.players[seat].energy}")
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    pending = state.pending
    assert pending is not None and seat is not None
    state.players[seat].energy -= _cost(state)
    pending.shield_by = seat
    pending.shield_open = True  # while a Shield stands, bluff calls go to the Shield
    state.emit("declared", seat=seat, action="shield", target=pending.actor, via="claim")


def _check(state: State, seat: int | None, params: Params) -> str | None:
    if "via" in params:  # decisions.md: Identity Theft is for your own turn's permit action
        return "a Shield is always a claim: Identity Theft is for your own turn's permit action"
    return None


def _note(state: State, seat: int | None) -> str:
    return claim_note(state, seat, "shield", state.book.action_text("shield"))


MOVE = Move("shield", "reaction", fixed_label("Shield"), _refusal, _run,
            said("{who} declares Shield"), check=_check, cost=_cost, note=_note)
