"""Give up a piece: a lost challenge costs a piece, chosen by the player who loses it (or,
by the table's rule, by the winner of the challenge)."""

from __future__ import annotations

from companion.engine import Move, Param
from companion.games.gambit_6x6 import flow
from companion.games.gambit_6x6.moves.common import Params, fixed, not_playing, on_squares
from companion.games.gambit_6x6.state import Owed, State


def owed_loss(state: State, seat: int | None) -> Owed | None:
    """The loss ``seat`` settles now (what is owed is settled in order)."""
    first = state.owed[0] if state.owed else None
    return first if first is not None and first.kind == "lose" and first.seat == seat else None


def _refusal(state: State, seat: int | None) -> str | None:
    if state.outcome is None and seat is not None and owed_loss(state, seat) is None:
        return "you have no piece to give up now"
    return not_playing(state, seat)


def choices(state: State, seat: int | None) -> tuple[str, ...]:
    owed = owed_loss(state, seat)
    if owed is None or owed.loser is None:
        return ()
    free_only = not state.book.rule("challenge", "lose_sat_on")
    return tuple(p.id for p in state.team(owed.loser) if not free_only or state.is_free(p.id))


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    owed = owed_loss(state, seat)
    label = "Your piece to give up" if owed is None or owed.loser == seat \
        else f"{state.name(owed.loser)}'s piece to take"
    pieces = choices(state, seat)
    return (Param("piece", "choice", label, choices=pieces, labels=on_squares(state, pieces)),)


def _run(state: State, seat: int | None, params: Params) -> None:
    owed = owed_loss(state, seat)
    assert owed is not None
    state.owed.remove(owed)
    flow.lose(state, params["piece"], given=owed.loser == seat)
    flow.carry_on(state)


def _text(state: State, seat: int | None, params: Params) -> str:
    owed = owed_loss(state, seat)
    if owed is not None and owed.loser != seat:
        return f"{state.name(seat)} takes {params.get('piece')} from {state.name(owed.loser)}"
    return f"{state.name(seat)} gives up {params.get('piece')}"


MOVE = Move("give_up", "reaction", fixed("Give up a piece"), _refusal, _run, _text, _params)
