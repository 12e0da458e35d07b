"""Move: one piece 1 or 2 squares straight, or further with a power it claims (Diagonal,
Ghost, Sidewinder; Sitting to end on another piece). The claims follow from the squares."""

from __future__ import annotations

from companion.engine import Move, Param, listed
from companion.games.gambit_6x6 import flow, reach
from companion.games.gambit_6x6.moves.common import (
    Params,
    fixed,
    not_on_top,
    on_turn,
    tap_then_tap,
    tops,
)
from companion.games.gambit_6x6.state import Claim, Pending, State


def movable(state: State, seat: int | None) -> dict[str, dict[str, reach.Route]]:
    """The squares whose top piece is the seat's, with where each may go (around a Moat that
    sent this turn's move back, only as a Ghost)."""
    found = {}
    for cell in tops(state, seat):
        routes = {to: route for to, route in reach.routes(state, cell).items()
                  if route.power in (None, "ghost") or reach.moated(state, to, seat) is None}
        if routes:
            found[cell] = routes
    return found


def _refusal(state: State, seat: int | None) -> str | None:
    reason = on_turn(state, seat)
    if reason is None and not movable(state, seat):
        return "none of your pieces can move"
    return reason


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    routes = movable(state, seat)

    def claimed(cell: str, to: str) -> str:
        """What going there claims (beside a Moat that sent this turn's move back, Ghost
        too): a phone marks the square before the move is chosen."""
        moated = seat is not None and reach.moated(state, to, seat) is not None
        claims = claims_of(routes[cell][to], moated, seat or 0, cell, moated)
        powers = [state.book.label(c.power) for c in claims]
        return f"Claims {listed(powers)}" if powers else ""

    return (*tap_then_tap(state, ("piece", "Your piece"), ("to", "Move to"), routes, claimed),
            Param("ghost", "flag", "Claim Ghost too (a Moat cannot stop a Ghost)",
                  default=False))


def route_of(state: State, seat: int | None, params: Params) -> reach.Route | None:
    routes = movable(state, seat).get(params.get("piece"))  # type: ignore[arg-type]
    return None if routes is None else routes.get(params.get("to"))  # type: ignore[arg-type]


def _check(state: State, seat: int | None, params: Params) -> str | None:
    cell, to = params.get("piece"), params.get("to")
    if not isinstance(cell, str) or not isinstance(to, str):
        return None  # the spec names what is missing
    if cell not in movable(state, seat):
        top = state.top(cell) if cell in state.stacks else None
        if top is None or top.seat != seat:
            return not_on_top(state, seat, cell)
        return f"your piece on {cell} has nowhere to go"
    route = route_of(state, seat, params)
    anyhow = reach.routes(state, cell).get(to)  # around a Moat too
    if params.get("ghost") is True and anyhow is not None \
            and anyhow.power not in (None, "ghost"):
        return (f"a piece holds one Movement power: this move needs"
                f" {state.book.label(anyhow.power)}, so it cannot claim Ghost too")
    if route is None and seat is not None and anyhow is not None:
        return (f"the Moat on {reach.moated(state, to, seat)} sent your last try back: no"
                f" piece of yours but a Ghost may finish around it this turn")
    if route is None:
        return reach.why_not(state, cell, to)
    ghost = params.get("ghost") is True or route.power == "ghost"
    guard = reach.moated(state, to, seat) if seat is not None else None
    if guard is not None and not ghost:
        return (f"the Moat on {guard} sent your last try back: no piece of yours but a Ghost"
                f" may finish around it this turn")
    return None


def claims_of(route: reach.Route, ghost: bool, seat: int, piece: str,
              moated: bool = False) -> list[Claim]:
    """``moated``: the move ends beside a Moat that sent this turn's move back."""
    claims = [Claim(seat, piece, power) for power in route.claims()]
    if ghost and route.power is None:
        # Only against a Moat; beside one that already stood, the move is valid only as a Ghost.
        claims.insert(0, Claim(seat, piece, "ghost", needed=moated))
    return claims


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    route = route_of(state, seat, params)
    assert route is not None
    cell, to = params["piece"], params["to"]
    before = {c: list(s) for c, s in state.stacks.items()}
    piece = state.stacks[cell].pop()
    if not state.stacks[cell]:
        del state.stacks[cell]
    state.place(piece, to)
    claims = claims_of(route, params.get("ghost") is True, seat, piece,
                       reach.moated(state, to, seat) is not None)
    state.emit("moved", seat=seat, piece=piece, start=cell, end=to,
               claims=[c.power for c in claims])
    flow.open_window(state, Pending(seat, "move", piece, before, claims, start=cell, end=to))


def _text(state: State, seat: int | None, params: Params) -> str:
    cell, to = params.get("piece"), params.get("to")
    top = state.top(cell) if isinstance(cell, str) and cell in state.stacks else None
    route = route_of(state, seat, params)
    name = top.id if top else "a piece"
    if route is None:
        return f"{state.name(seat)} moves {name} from {cell} to {to}"
    under = state.top(route.to)
    sits = f" onto {under.id}" if route.sits and under else ""
    claims = [c.power for c in claims_of(route, params.get("ghost") is True, seat or 0, name)]
    claimed = f", claiming {' and '.join(state.book.label(p) for p in claims)}" if claims else ""
    return f"{state.name(seat)} moves {name} {cell}-{to}{sits}{claimed}"


MOVE = Move("move", "move", fixed("Move a piece"), _refusal, _run, _text, _params, _check)
