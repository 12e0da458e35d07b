"""Ending a turn without moving: `end_turn` (AV I, instead of the second move an 8 allows) and
`pass` (no piece can move: the turn is lost)."""

from __future__ import annotations

from companion.engine import Move, Params
from companion.games.gambit_of_kings.moves.common import fixed, my_turn
from companion.games.gambit_of_kings.state import State
from companion.games.gambit_of_kings.turn import allowed, end_turn


def _pass_refusal(state: State, seat: int | None) -> str | None:
    reason = my_turn(state, seat, "move")
    if reason is None and allowed(state).moves:
        return "a piece can move: a turn moves exactly one piece"
    return reason


def _pass_run(state: State, seat: int | None, params: Params) -> None:
    state.emit("passed", seat=seat)
    end_turn(state)


def _end_run(state: State, seat: int | None, params: Params) -> None:
    end_turn(state)


END_TURN = Move("end_turn", "move", fixed("End the turn (no second move)"),
                lambda s, seat: my_turn(s, seat, "second"), _end_run,
                lambda s, seat, p: f"{s.name(seat)} ends the turn without a second move")
PASS = Move("pass", "move", fixed("Pass: no piece can move"), _pass_refusal, _pass_run,
            lambda s, seat, p: f"{s.name(seat)} cannot move any piece and passes")
