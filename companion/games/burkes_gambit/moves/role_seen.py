"""``role_seen``: before play each seat tells the companion the role card in front of it
(role cards are public); the last one told starts the heads-down phase."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.burkes_gambit.moves.common import fixed_label
from companion.games.burkes_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    if seat is None:
        return "each seat tells its own role"
    if state.phase != "roles":
        return "the roles are known"
    if state.players[seat].role is not None:
        return "you have told your role"
    return None


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    taken = {p.role for p in state.players}
    free = tuple(r for r in state.book.roles() if r not in taken)
    return (Param("role", "choice", "Your role card", choices=free,
                  labels=tuple(state.book.role_label(r) for r in free)),)


def _check(state: State, seat: int | None, params: Params) -> str | None:
    holder = next((p for p in state.players if p.role is not None
                   and p.role == params.get("role")), None)
    if holder is not None:
        return (f"{holder.name} has the {state.book.role_label(holder.role or '')} card in"
                " front of them")
    unknown = [p for p in state.players if p.role is None]
    if len(unknown) == 1 and state.captain() is None and params.get("role") != "captain":
        return "the Captain is always in play: the last role must be the Captain"
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.players[seat].role = str(params["role"])
    if all(p.role for p in state.players):
        captain = state.captain()
        assert captain is not None
        state.turn = captain.seat
        state.phase = "heads_down"
        state.emit("roles_known")


def _text(state: State, seat: int | None, params: Params) -> str:
    return f"{state.name(seat)}'s role is {state.book.role_label(str(params.get('role')))}"


MOVE = Move("role_seen", "input", fixed_label("Tell the companion your role card"), _refusal,
            _run, _text, _params, _check)
