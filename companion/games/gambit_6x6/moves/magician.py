"""Magician (a Player Power, a whole turn): one of your pieces swaps places with another
team's piece. Both must stand alone on their squares (neither sitting nor sat on)."""

from __future__ import annotations

from companion.engine import Move, Param
from companion.games.gambit_6x6 import flow
from companion.games.gambit_6x6.moves.common import Params, fixed, on_turn, tap_then_tap
from companion.games.gambit_6x6.state import State


def _alone(state: State, mine: bool, seat: int | None) -> tuple[str, ...]:
    return tuple(sorted(c for c, stack in state.stacks.items() if len(stack) == 1
                        and (state.pieces[stack[0]].seat == seat) == mine))


def _refusal(state: State, seat: int | None) -> str | None:
    reason = on_turn(state, seat)
    if reason is None and "magician" not in state.held_powers[seat or 0]:
        return "you hold no Magician"
    if reason is None and not (_alone(state, True, seat) and _alone(state, False, seat)):
        return "a Magician needs a piece of yours and another team's, each alone on its square"
    return reason


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    theirs = _alone(state, False, seat)
    return tap_then_tap(state, ("piece", "Your piece"), ("target", "Swap with"),
                        dict.fromkeys(_alone(state, True, seat), theirs))


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    cell, target = params["piece"], params["target"]
    before = {c: list(s) for c, s in state.stacks.items()}
    state.held_powers[seat].remove("magician")
    state.stacks[cell], state.stacks[target] = state.stacks[target], state.stacks[cell]
    state.emit("swapped", seat=seat, start=cell, end=target)
    flow.end_turn(state, flow.entered(state, seat, before))


def _text(state: State, seat: int | None, params: Params) -> str:
    cell, target = params.get("piece"), params.get("target")
    mine = state.top(cell) if isinstance(cell, str) and cell in state.stacks else None
    theirs = state.top(target) if isinstance(target, str) and target in state.stacks else None
    return (f"{state.name(seat)} uses the Magician: {mine.id if mine else cell} on {cell} swaps"
            f" places with {theirs.id if theirs else target} on {target}")


MOVE = Move("magician", "move", fixed("Magician: swap places"), _refusal, _run, _text, _params)
