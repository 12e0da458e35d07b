"""Pass: only when a player cannot act without claiming a power (all its pieces sat on, or
boxed in): the seed has no pass, and nobody is made to bluff."""

from __future__ import annotations

from companion.engine import Move
from companion.games.gambit_6x6 import flow, reach
from companion.games.gambit_6x6.moves import bulldoze, detect, magician, move, sensei
from companion.games.gambit_6x6.moves.common import Params, on_turn
from companion.games.gambit_6x6.state import State


def still(state: State, seat: int) -> str | None:
    """What the seat can still do on its turn instead of a pass (None: nothing)."""
    routes = [(to, route) for found in move.movable(state, seat).values()
              for to, route in found.items()]
    if any(not route.claims() and reach.moated(state, to, seat) is None for to, route in routes):
        return "move a piece without claiming a power"
    if magician.MOVE.refusal(state, seat) is None:
        return "use your Magician"
    if state.book.rule("moves", "pass_if_only_claims"):
        return None
    if routes or bulldoze.pushers(state, seat) or detect.suspects(state, seat) \
            or sensei.MOVE.refusal(state, seat) is None:
        return "act by claiming a power"
    return None


def _refusal(state: State, seat: int | None) -> str | None:
    reason = on_turn(state, seat)
    if reason is None and seat is not None and (what := still(state, seat)) is not None:
        return f"you can still {what}: a pass is only for a player who cannot"
    return reason


def _run(state: State, seat: int | None, params: Params) -> None:
    flow.end_turn(state, [])


def _why(state: State) -> str:
    """Why a pass is allowed, by the table's rule."""
    if state.book.rule("moves", "pass_if_only_claims"):
        return "nothing to do without claiming a power"
    return "nothing to do, not even by claiming a power"


MOVE = Move("pass", "move", lambda s: f"Pass ({_why(s)})", _refusal, _run,
            lambda s, seat, p: f"{s.name(seat)} passes: {_why(s)}")
