"""Bulldoze: a Bulldozer moves one square into an adjacent piece's square, pushing that piece
(or stack) one square on into an empty square. It claims Bulldozer."""

from __future__ import annotations

from companion.engine import Move, Param
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


def pushers(state: State, seat: int | None) -> dict[str, dict[str, str]]:
    """The squares whose top piece is the seat's and can push, with what it can push where."""
    found = {}
    for cell in tops(state, seat):
        pushes = {target: beyond for target, beyond in reach.pushes(state, cell).items()
                  if reach.moated(state, target, seat, (target, beyond)) is None}
        if pushes:
            found[cell] = pushes
    return found


def _refusal(state: State, seat: int | None) -> str | None:
    reason = on_turn(state, seat)
    if reason is None and not pushers(state, seat):
        guard = next((g for cell in tops(state, seat)
                      for target, beyond in reach.pushes(state, cell).items()
                      if (g := reach.moated(state, target, seat, (target, beyond)))), None)
        if guard is not None:  # every push there is would finish beside it
            return (f"the Moat on {guard} sent your last try back: your Bulldozer may not"
                    " finish around it this turn")
        return ("none of your pieces can push: a Bulldozer pushes a piece next to it (not"
                " diagonally) one square on, into an empty square")
    return reason


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    return tap_then_tap(state, ("piece", "Your Bulldozer"), ("target", "The piece to push"),
                        pushers(state, seat))


def _check(state: State, seat: int | None, params: Params) -> str | None:
    cell, target = params.get("piece"), params.get("target")
    if not isinstance(cell, str) or not isinstance(target, str):
        return None
    if cell not in tops(state, seat):
        if any(state.pieces[p].seat == seat for p in state.stacks.get(cell, ())):
            return not_on_top(state, seat, cell)  # sat on
        return f"no piece of yours on {cell} can push"
    if target not in state.layout.cells():
        return None  # the spec names a square the board does not have
    reason = reach.push_refusal(state, cell, target)
    if reason is not None:
        return reason
    beyond = reach.pushes(state, cell)[target]
    guard = reach.moated(state, target, seat, (target, beyond)) if seat is not None else None
    if guard is not None:
        return (f"the Moat on {guard} sent your last try back: your Bulldozer may not finish"
                " around it this turn")
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    cell, target = params["piece"], params["target"]
    beyond = reach.pushes(state, cell)[target]
    before = {c: list(s) for c, s in state.stacks.items()}
    pushed = state.lift(target)
    state.stacks[beyond] = pushed
    bulldozer = state.stacks[cell].pop()
    if not state.stacks[cell]:
        del state.stacks[cell]
    state.place(bulldozer, target)
    state.emit("pushed", seat=seat, piece=bulldozer, start=cell, end=target,
               pushed=pushed[0], to=beyond)
    flow.open_window(state, Pending(seat, "bulldoze", bulldozer, before,
                                    [Claim(seat, bulldozer, "bulldozer")], start=cell,
                                    end=target))


def _text(state: State, seat: int | None, params: Params) -> str:
    cell, target = params.get("piece"), params.get("target")
    mover = state.top(cell) if isinstance(cell, str) and cell in state.stacks else None
    pushed = state.top(target) if isinstance(target, str) and target in state.stacks else None
    beyond = reach.pushes(state, cell).get(target) \
        if mover and isinstance(cell, str) and isinstance(target, str) else None
    what = pushed.id if pushed else "a piece"
    if isinstance(target, str) and len(state.stacks.get(target, [])) > 1:
        what = f"the stack under {what}"
    return (f"{state.name(seat)}'s {mover.id if mover else 'piece'} pushes {what} from"
            f" {target} to {beyond}, claiming Bulldozer")


MOVE = Move("bulldoze", "move", fixed("Push with a Bulldozer"), _refusal, _run, _text, _params,
            _check)
