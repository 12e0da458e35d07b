"""Take a Player Power: a piece that reaches its far row earns its player one, chosen (or
chosen for a wild die), and announced to all."""

from __future__ import annotations

from companion.engine import Move, Param
from companion.games.gambit_6x6 import flow
from companion.games.gambit_6x6.moves.common import Params, fixed, not_playing
from companion.games.gambit_6x6.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = not_playing(state, seat)
    if reason is None and (state.phase != "earn" or state.earning[:1] != [seat]):
        return "you have no Player Power to take now"
    return reason


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    powers = state.book.player_powers()
    return (Param("power", "choice", "Player Power", choices=powers,
                  labels=tuple(state.book.label(p) for p in powers)),)


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.earning.pop(0)
    flow.gain_player_power(state, seat, params["power"])
    flow.next_earning(state)


def _text(state: State, seat: int | None, params: Params) -> str:
    power = params.get("power")
    label = state.book.label(power) if isinstance(power, str) else "a Player Power"
    return f"{state.name(seat)} takes the Player Power {label}"


MOVE = Move("take_player_power", "move", fixed("Take your Player Power"), _refusal, _run, _text,
            _params)
