"""``use_role``: a seat uses its role's once-a-game ability; the table applies it (a look is
granted with ``grant_look``)."""

from __future__ import annotations

from companion.engine import Move, Params
from companion.games.burkes_gambit.moves.common import cannot_act, fixed_label, status
from companion.games.burkes_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = cannot_act(state, seat)
    if reason:
        return reason
    assert seat is not None
    player = state.players[seat]
    if state.phase in ("roles", "heads_down", "over"):
        return f"not now: {status(state)}"
    if player.role in (None, "captain", "stowaway"):
        return "your role has no ability to use" if player.role else "tell your role first"
    if player.role_used:
        return "you have used your role"
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.players[seat].role_used = True
    state.emit("role_used", seat=seat, role=state.players[seat].role)


def _text(state: State, seat: int | None, params: Params) -> str:
    role = state.book.role_label(state.players[seat].role or "captain") if seat is not None \
        else ""
    return f"{state.name(seat)} uses the {role} role: the table applies it"


def _note(state: State, seat: int | None) -> str:
    """What the role does, on its button (roles lie face up: nothing secret)."""
    role = state.players[seat].role if seat is not None else None
    if role is None:
        return ""
    return f"{state.book.role_label(role)}: {state.book.role_ability(role)}"


MOVE = Move("use_role", "move", fixed_label("Use your role (once)"), _refusal, _run, _text,
            note=_note)
