"""``choose_corpse``: Viola privately chooses a dead captain to play as."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.captains_gambit import captains, flow
from companion.games.captains_gambit.moves.common import fixed_label, not_living
from companion.games.captains_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = not_living(state, seat)
    if reason or seat is None:
        return reason
    player = state.players[seat]
    if player.captain != "viola":
        return "only Viola chooses a dead captain to play as"
    if player.copies_seat is not None:
        return "Viola has already chosen"
    if not any(captains.can_copy(state, seat, p.seat) for p in state.players):
        return "no dead captain can be chosen yet"
    return None


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    choices = tuple(p.seat for p in state.players
                    if seat is not None and captains.can_copy(state, seat, p.seat))
    return (Param("target", "seat", "Dead captain", choices=choices),)


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.players[seat].copies_seat = params["target"]
    flow.check_end(state)


def _text(state: State, seat: int | None, params: Params) -> str:
    return f"{state.name(seat)} chose to play as {state.name(params.get('target'))}"


MOVE = Move("choose_corpse", "input", fixed_label("Choose a dead captain to play as"), _refusal,
            _run, _text, _params, private=True)
