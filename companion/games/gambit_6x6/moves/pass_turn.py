"""Pass: only when none of your pieces can do anything (all sat on, or boxed in)."""

from __future__ import annotations

from companion.engine import Move
from companion.games.gambit_6x6 import flow
from companion.games.gambit_6x6.moves import bulldoze, detect, move
from companion.games.gambit_6x6.moves.common import Params, fixed, on_turn
from companion.games.gambit_6x6.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = on_turn(state, seat)
    if reason is None and (move.movable(state, seat) or bulldoze.pushers(state, seat)
                           or detect.suspects(state, seat)
                           or {"sensei", "magician"} & set(state.held_powers[seat or 0])):
        return "you can still move: a pass is only for a player who cannot"
    return reason


def _run(state: State, seat: int | None, params: Params) -> None:
    flow.end_turn(state, [])


MOVE = Move("pass", "move", fixed("Pass (nothing can move)"), _refusal, _run,
            lambda s, seat, p: f"{s.name(seat)} passes: no piece can move")
