"""Juggernaut (a Player Power): when another player wins on the far row, its holder may make
one more move to undo the win (it takes up the holder's next turn); or let the win stand."""

from __future__ import annotations

from companion.engine import Move
from companion.games.gambit_6x6 import flow
from companion.games.gambit_6x6.moves.common import Params, fixed, not_playing
from companion.games.gambit_6x6.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = not_playing(state, seat)
    if reason is None and (state.phase != "juggernaut" or state.juggernaut is None
                           or state.juggernaut[1] != seat):
        return "no win is waiting for your Juggernaut"
    return reason


def _use(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None and state.juggernaut is not None
    flow.use_out_of_turn(state, seat, "juggernaut")
    state.turn, state.phase = seat, "turn"
    state.moated, state.remake = [], False
    state.emit("juggernaut", seat=seat, winner=state.juggernaut[0])


def _let_stand(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None and state.juggernaut is not None
    state.asked.append(seat)
    state.turn = state.juggernaut[0]
    state.juggernaut = None
    flow.end_turn(state, [])


def _winner(state: State) -> str:
    return state.name(state.juggernaut[0]) if state.juggernaut else "the winner"


USE = Move("use_juggernaut", "move", fixed("Juggernaut: one more move"), _refusal, _use,
           lambda s, seat, p: f"{s.name(seat)} uses the Juggernaut against {_winner(s)}'s win")
LET_STAND = Move("let_win_stand", "move", fixed("Let the win stand"), _refusal, _let_stand,
                 lambda s, seat, p: f"{s.name(seat)} lets {_winner(s)}'s win stand")
