"""The table's ruling: `declare` {result, reason}, a result the table agrees on (a player
concedes, a draw by agreement, a position the companion got wrong)."""

from __future__ import annotations

from companion.engine import Move, Outcome, Param, Params
from companion.games.gambit_of_kings.book import SIDES
from companion.games.gambit_of_kings.moves.common import fixed
from companion.games.gambit_of_kings.state import State
from companion.games.gambit_of_kings.turn import finish

RESULTS = (*SIDES, "draw")


def _refusal(state: State, seat: int | None) -> str | None:
    if state.outcome is not None:
        return "the game is over"
    return None if seat is None else "only the table declares a result"


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (Param("result", "choice", "Who wins", choices=RESULTS),
            Param("reason", "text", "Why", maximum=200))


def _run(state: State, seat: int | None, params: Params) -> None:
    result = str(params["result"])
    winners = () if result == "draw" else (SIDES.index(result),)
    state.emit("declared", result=result)
    finish(state, Outcome(winners, "declared", {"why": str(params["reason"])}))


def _text(state: State, seat: int | None, params: Params) -> str:
    result = params.get("result")
    said = "a draw" if result == "draw" else \
        f"{state.name(SIDES.index(str(result)))} the winner" if result in SIDES else str(result)
    return f"The table declares {said} ({params.get('reason')})"


DECLARE = Move("declare", "table", fixed("Declare the result (the table's ruling)"), _refusal,
               _run, _text, _params, ruling=True)
