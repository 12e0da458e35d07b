"""``resolve``: the seat whose turn it is uses its die's face (on whom, or what to Cancel).
The action then waits in the Cancel window; what each face does is in ``die_action``."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.burkes_gambit.moves.common import not_my_turn, target_problem, who
from companion.games.burkes_gambit.moves.die_action import (
    cancel_param,
    cancel_targets,
    cancelled_name,
    engine_reason,
    nothing_to_cancel,
    open_window,
)
from companion.games.burkes_gambit.state import Pending, State


def _label(state: State) -> str:
    return f"Use {state.book.face_label(state.die.face)}" if state.die else "Use the die"


def _neighbour(state: State, seat: int, step: int) -> int:
    count = len(state.players)
    for distance in range(1, count):
        other = (seat + step * distance) % count
        if state.players[other].alive:
            return other
    return seat


def _living_choices(state: State, seat: int | None, kind: str) -> tuple[int, ...]:
    living = [p.seat for p in state.living()]
    if kind == "any":
        return tuple(living)
    if kind == "other":
        return tuple(s for s in living if s != seat)
    if kind == "neighbour" and seat is not None:
        return tuple(sorted({_neighbour(state, seat, -1), _neighbour(state, seat, 1)} - {seat}))
    return ()


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    die = state.die
    if die is None:
        return ()
    target = state.book.face(die.face)["target"]
    params: list[Param] = []
    if die.face == "cancel":
        params.append(cancel_param(state, seat, with_window=False))
    elif target != "none":
        params.append(Param("target", "seat", "Whom",
                            choices=_living_choices(state, seat, target)))
    if die.face == "damage_heal":
        params.append(Param("choice", "choice", "Damage or heal", choices=("damage", "heal"),
                            labels=("Damage", "Heal")))
    return tuple(params)


def _refusal(state: State, seat: int | None) -> str | None:
    reason = not_my_turn(state, seat, die=True)
    if reason:
        return reason
    assert state.die is not None
    if state.die.face == "cancel" and not cancel_targets(state, seat, with_window=False):
        reason = engine_reason(state) or nothing_to_cancel(state, seat, with_window=False)
        return f"{reason}: return the die or reserve it"
    if any(p.kind == "seat" and not p.choices for p in _params(state, seat)):
        return "there is nobody to use it on"
    return None


def _check(state: State, seat: int | None, params: Params) -> str | None:
    assert state.die is not None
    face, target = state.die.face, params.get("target")
    kind = state.book.face(face)["target"]
    if kind != "none":
        reason = target_problem(state, seat, target, kind)
        if reason:
            return reason
        if kind == "neighbour" and target not in _living_choices(state, seat, kind):
            return f"{who(state, target)} is not your living left or right neighbour"
    hurts = face == "insta_kill" or (face == "damage_heal" and params.get("choice") == "damage")
    if hurts and target in state.quarantine:
        return f"{who(state, target)} is in quarantine and cannot be hurt"
    if face == "quarantine" and target in state.quarantine:
        return f"{who(state, target)} is in quarantine already"
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None and state.die is not None
    face = state.die.face
    choice = params.get("what") if face == "cancel" else params.get("choice")
    state.die = None
    open_window(state, Pending(seat, face, params.get("target"), choice))


def _text(state: State, seat: int | None, params: Params) -> str:
    die = state.die
    face = state.book.face_label(die.face) if die else "?"
    target = params.get("target")
    on = f" on {state.name(target)}" if isinstance(target, int) else ""
    what = params.get("what")
    if isinstance(what, str):
        on = f": {cancelled_name(state, what)}"
    choice = f" ({params['choice']})" if params.get("choice") else ""
    return f"{state.name(seat)} uses {face}{choice}{on}"


def _note(state: State, seat: int | None) -> str:
    """What the rolled face does."""
    return state.book.face_effect(state.die.face) if state.die else ""


MOVE = Move("resolve", "move", _label, _refusal, _run, _text, _params, _check, note=_note)
