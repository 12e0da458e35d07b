"""A die action from the moment it is used to its effect: the Cancel window it waits in
(``resolve`` and ``cancel`` open one, ``carry_out`` or the last possible answer closes it)
and what each face does when the window closes (``carry_out``)."""

from __future__ import annotations

from typing import Any

from companion.engine import Param
from companion.games.burkes_gambit.moves import flow
from companion.games.burkes_gambit.moves.common import cannot_act
from companion.games.burkes_gambit.state import Pending, State


def cancel_targets(state: State, seat: int | None, with_window: bool) -> tuple[str, ...]:
    """What a Cancel can stop now: the die action waiting, a Stall in the centre, a
    quarantine; only faces the data calls ``cancellable`` (the last Cancel on an action is
    what a new Cancel stops: the ``cancel`` face)."""
    out: list[str] = []
    pending = state.pending
    book = state.book
    if with_window and state.phase == "cancel" and pending is not None:
        own_action = seat == pending.actor and not pending.cancelled
        last_canceller = pending.cancels[-1] if pending.cancels else None
        stopped = "cancel" if pending.cancels else pending.face
        if not own_action and seat != last_canceller and book.cancellable(stopped):
            out.append("waiting")
    if state.stalls and book.cancellable("stall"):
        out.append("stall")
    if book.cancellable("quarantine"):
        out += [f"quarantine:{s}" for s in sorted(state.quarantine)]
    return tuple(out)


def _window_reason(state: State, seat: int | None) -> str | None:
    """Why ``seat`` may not cancel the action waiting in the window (None: it may, or none
    waits)."""
    pending = state.pending
    if state.phase != "cancel" or pending is None:
        return None
    stopped = "cancel" if pending.cancels else pending.face
    if seat == pending.actor and not pending.cancelled:
        return f"you cannot cancel your own {state.book.face_label(pending.face)}"
    if pending.cancels and seat == pending.cancels[-1]:
        return "the last Cancel on it is yours"
    if not state.book.cancellable(stopped):
        return (f"at this table a {state.book.face_label(stopped)} cannot be cancelled"
                f" (faces.{stopped}.cancellable)")
    return None


def _standing_reason(state: State, kind: str) -> str | None:
    """Why a Stall or a quarantine on the table may not be cancelled here (the data's)."""
    there = state.stalls if kind == "stall" else state.quarantine
    if there and not state.book.cancellable(kind):
        name = "a Stall" if kind == "stall" else "a quarantine"
        return f"at this table {name} cannot be cancelled (faces.{kind}.cancellable)"
    return None


def nothing_to_cancel(state: State, seat: int | None, with_window: bool) -> str:
    """Why ``seat``'s Cancel has nothing it may stop (``cancel_targets`` is empty), from what
    lies on the table (public): its own action, the last Cancel its own, a face the table's
    data makes uncancellable, or nothing there at all."""
    reasons = [r for r in (_window_reason(state, seat) if with_window else None,
                           _standing_reason(state, "stall"),
                           _standing_reason(state, "quarantine")) if r]
    if reasons:
        return "; ".join(reasons)
    if with_window:
        return ("there is nothing to cancel: no action waits for Cancels (what: waiting), no"
                " Stall is in the centre (stall) and nobody is in quarantine (quarantine:N)")
    return ("there is nothing to cancel now: no Stall is in the centre (what: stall) and nobody"
            " is in quarantine (quarantine:N)")


def engine_reason(state: State) -> str | None:
    """Why a Cancel tried right after an engine power-up cannot stop it (the seed's "any
    dice action except engine power-up"); None if the last action was no power-up, or the
    table made power-ups cancellable."""
    if state.powered_up is None or state.book.cancellable("engine"):
        return None
    return (f"{state.name(state.powered_up)}'s {state.book.face_label('engine')} cannot be"
            " cancelled (a Cancel stops any die action but an engine power-up)")


def why_not(state: State, seat: int | None, what: object) -> str | None:
    """Why ``what`` is not among what ``seat``'s Cancel may stop now (None: it is, or the
    parameter's own check names the values)."""
    if not isinstance(what, str) or what in cancel_targets(state, seat, with_window=True):
        return None
    if what == "waiting":
        return (_window_reason(state, seat) or engine_reason(state)
                or "no action waits for Cancels")
    if what == "stall":
        return _standing_reason(state, "stall") or "no Stall is in the centre"
    if what.startswith("quarantine:"):
        seat_text = what.removeprefix("quarantine:")
        target = int(seat_text) if seat_text.isdigit() else None
        if target is None or not 0 <= target < len(state.players):
            return None  # the parameter's own check names the values
        return (_standing_reason(state, "quarantine")
                or f"{state.name(target)} is not in quarantine")
    return None


def engine_rolled(state: State, seat: int) -> None:
    """An engine face, rolled or rerolled (it cannot be rerolled again): it powers up at once
    and the turn ends, or, if the data makes it ``cancellable`` (a house edit), it waits in a
    Cancel window like a used die."""
    state.die = None
    if state.book.cancellable("engine"):
        open_window(state, Pending(seat, "engine", None, None))
        return
    flow.engine_power(state)
    flow.end_turn(state)


def cancel_param(state: State, seat: int | None, with_window: bool) -> Param:
    """What a Cancel stops, each choice in words ("Dan's quarantine", not its key)."""
    targets = cancel_targets(state, seat, with_window)
    return Param("what", "choice", "Cancel what", choices=targets,
                 labels=tuple(cancelled_name(state, t).capitalize() for t in targets))


def cancelled_name(state: State, what: str) -> str:
    if what == "waiting" and state.pending:
        if state.pending.cancels:  # the last Cancel is what a new one stops
            return f"{state.name(state.pending.cancels[-1])}'s Cancel"
        return f"{state.name(state.pending.actor)}'s {state.book.face_label(state.pending.face)}"
    if what == "stall":
        return "the Stall in the centre"
    if what.startswith("quarantine:"):
        return f"{state.name(int(what.split(':')[1]))}'s quarantine"
    return what


def action_name(state: State, seat: int, face: str, target: int | None,
                choice: str | None) -> str:
    """A die action as the log and the screen name it: "Dan's Insta-kill on Ann", "Ben's
    Cancel of the Stall in the centre"."""
    name = f"{state.name(seat)}'s {state.book.face_label(face)}"
    if face == "cancel":
        return f"{name} of {cancelled_name(state, str(choice))}"
    on = f" on {state.name(target)}" if target is not None else ""
    return name + (f" ({choice})" if choice else "") + on


def open_window(state: State, pending: Pending) -> None:
    """A die action waits while anyone holding a Cancel may answer (none: it happens). An
    action already waiting (a Cancel of a Stall or a quarantine is played in its window) is
    held until the new one is settled, then waits again. The window closes back to the phase
    it opened in: a turn, or the vote (a reserved Cancel played there)."""
    if state.pending is not None:
        pending.resume = state.pending.resume
        state.held.append(state.pending)
        state.emit("held", **_fields(state.pending))
    else:
        pending.resume = state.phase
    state.emit("resolving", **_fields(pending))
    _wait(state, pending)


def _fields(pending: Pending) -> dict[str, Any]:
    """What an event names of an action: what ``action_name`` needs."""
    return {"seat": pending.actor, "face": pending.face, "target": pending.target,
            "choice": pending.choice}


def _wait(state: State, pending: Pending) -> None:
    state.pending = pending
    state.phase = "cancel"
    if not can_answer(state):
        carry_out(state)


def can_answer(state: State) -> bool:
    """Whether any seat could Cancel what is waiting (the table need not wait otherwise)."""
    return any(p.reserve == "cancel" and cannot_act(state, p.seat) is None
               and "waiting" in cancel_targets(state, p.seat, with_window=True)
               for p in state.players)


def _cancel_standing(state: State, what: str) -> bool:
    """Stops a Stall or a quarantine; False if it is gone already (another Cancel of it,
    played in this one's window, went first)."""
    if what == "stall":
        if not state.stalls:
            return False
        state.stalls -= 1
        state.centre -= 1
        return True
    return state.quarantine.pop(int(what.split(":")[1]), None) is not None


def carry_out(state: State) -> None:
    """The window closes: the waiting action happens, or stays cancelled. Then the action held
    beneath it, if any, waits again; else the turn ends (if it was a turn's die)."""
    pending = state.pending
    assert pending is not None
    state.pending = None
    state.phase = pending.resume
    if pending.cancelled:
        state.emit("action_cancelled", seat=pending.actor, face=pending.face)
    else:
        _happen(state, pending)
    if state.held:  # only a Cancel is ever played over another action: it kills nobody
        held = state.held.pop()
        state.emit("resumed", **_fields(held))
        _wait(state, held)
    elif pending.ends_turn:
        flow.end_turn(state)
    else:
        flow.check_vote_done(state)  # a Cancel in the vote may free a voter


def _happen(state: State, pending: Pending) -> None:
    """What each face does."""
    face, actor, target = pending.face, pending.actor, pending.target
    if face == "cancel":
        if _cancel_standing(state, str(pending.choice)):
            state.emit("cancel_done", what=pending.choice)
        else:
            state.emit("fizzled", seat=actor, face=face)
    elif face == "damage_heal" and target is not None:
        player = state.players[target]
        if not player.alive or (pending.choice == "damage" and target in state.quarantine):
            state.emit("fizzled", seat=actor, face=face)
        elif pending.choice == "heal":
            before = player.health
            player.health = min(state.book.health, player.health + 1)
            state.emit("healed", seat=target, health=player.health, before=before)
        else:
            player.health -= 1
            state.emit("damaged", seat=target, health=player.health)
            if player.health <= 0:
                flow.kill(state, target, actor)
    elif face == "insta_kill" and target is not None:
        if state.players[target].alive and target not in state.quarantine:
            flow.kill(state, target, actor)
    elif face in ("scan_neighbour", "scan_any", "id_check") and target is not None:
        flow.look(state, actor, target, "id" if face == "id_check" else "parasite")
    elif face == "quarantine" and target is not None:
        state.quarantine[target] = actor
        state.emit("quarantined", seat=target, by=actor)
    elif face == "engine":
        flow.engine_power(state)
    elif face == "stall":
        state.stalls += 1
        state.centre += 1
        state.emit("stall_placed", stalls=state.stalls)
    elif face == "reshuffle":
        flow.deal_parasites(state, "reshuffle", keep_infected=True)
        state.emit("reshuffled")
