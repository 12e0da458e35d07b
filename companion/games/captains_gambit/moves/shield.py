"""``shield``: a reaction that negates a Strike, Barrage or Drain (itself a permit claim that
may be called)."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.captains_gambit import flow
from companion.games.captains_gambit.moves.common import (
    claim_note,
    fixed_label,
    identity_theft_problem,
    not_in_phase,
    who,
)
from companion.games.captains_gambit.moves.sheet import VIA_LABELS
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


def _stolen_shield(state: State) -> bool:
    """Whether Identity Theft may do a Shield at this table ("any permit action")."""
    return state.wildcards and bool(state.book.data["wildcards"]["identity_theft"]["shield"])


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    # Offered to every seat, holder or not (a neighbour sees the phone), as on the sheet's
    # permit actions; holding it is judged in ``_check``.
    if not _stolen_shield(state):
        return ()
    return (Param("via", "choice", "How", choices=("claim", "identity_theft"),
                  default="claim", labels=VIA_LABELS),)


def _run(state: State, seat: int | None, params: Params) -> None:
    pending = state.pending
    assert pending is not None and seat is not None
    stolen = params.get("via") == "identity_theft"
    state.players[seat].energy -= _cost(state)
    pending.shield_by = seat
    # while a claimed Shield stands, bluff calls go to it; one done through Identity Theft
    # cannot be called
    pending.shield_open, pending.shield_stolen = not stolen, stolen
    state.emit("declared", seat=seat, action="shield", target=pending.actor,
               via="identity_theft" if stolen else "claim")
    if stolen:
        flow.shuffle_back(state, seat, "identity_theft")


def _check(state: State, seat: int | None, params: Params) -> str | None:
    if params.get("via") != "identity_theft" or seat is None:
        return None
    if state.wildcards and not _stolen_shield(state):  # data: wildcards.identity_theft
        return ("a Shield is always a claim at this table: Identity Theft is for your own"
                " turn's permit action")
    return identity_theft_problem(state, seat)


def _text(state: State, seat: int | None, params: Params) -> str:
    if params.get("via") == "identity_theft":
        return f"{state.name(seat)} reveals Identity Theft to Shield"
    return f"{state.name(seat)} declares Shield"


def _note(state: State, seat: int | None) -> str:
    return claim_note(state, seat, "shield", state.book.action_text("shield"))


MOVE = Move("shield", "reaction", fixed_label("Shield"), _refusal, _run, _text, _params,
            _check, cost=_cost, note=_note)
