"""A die action from the moment it is used to its effect: the Cancel window it waits in
(``resolve`` and ``cancel`` open one, ``carry_out`` or the last possible answer closes it)
and what each face does when the window closes (``carry_out``)."""

from __future__ import annotations

from companion.games.burkes_gambit.moves import flow
from companion.games.burkes_gambit.moves.common import cannot_act
from companion.games.burkes_gambit.state import Pending, State


def cancel_targets(state: State, seat: int | None, with_window: bool) -> tuple[str, ...]:
    """What a Cancel can stop now: the die action waiting, a Stall in the centre, a
    quarantine."""
    out: list[str] = []
    pending = state.pending
    if with_window and state.phase == "cancel" and pending is not None:
        own_action = seat == pending.actor and not pending.cancelled
        last_canceller = pending.cancels[-1] if pending.cancels else None
        if not own_action and seat != last_canceller:
            out.append("waiting")
    if state.stalls:
        out.append("stall")
    out += [f"quarantine:{s}" for s in sorted(state.quarantine)]
    return tuple(out)


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


def open_window(state: State, pending: Pending) -> None:
    """A die action waits while anyone holding a Cancel may answer (none: it happens)."""
    state.pending = pending
    state.phase = "cancel"
    state.emit("resolving", seat=pending.actor, face=pending.face, target=pending.target)
    if not can_answer(state):
        carry_out(state)


def can_answer(state: State) -> bool:
    """Whether any seat could Cancel what is waiting (the table need not wait otherwise)."""
    return any(p.reserve == "cancel" and cannot_act(state, p.seat) is None
               and "waiting" in cancel_targets(state, p.seat, with_window=True)
               for p in state.players)


def _cancel_standing(state: State, what: str) -> None:
    if what == "stall":
        state.stalls -= 1
        state.centre -= 1
    else:
        state.quarantine.pop(int(what.split(":")[1]), None)


def carry_out(state: State) -> None:
    """The window closes: the waiting action happens, or stays cancelled."""
    pending = state.pending
    assert pending is not None
    state.pending = None
    state.phase = "turn"
    if pending.cancelled:
        state.emit("action_cancelled", seat=pending.actor, face=pending.face)
        if pending.ends_turn:
            flow.end_turn(state)
        return
    face, actor, target = pending.face, pending.actor, pending.target
    if face == "cancel":
        _cancel_standing(state, str(pending.choice))
        state.emit("cancel_done", what=pending.choice)
        if pending.ends_turn:
            flow.end_turn(state)
        return
    if face == "damage_heal" and target is not None:
        player = state.players[target]
        if not player.alive or (pending.choice == "damage" and target in state.quarantine):
            state.emit("fizzled", seat=actor)
        elif pending.choice == "heal":
            player.health = min(state.book.health, player.health + 1)
            state.emit("healed", seat=target, health=player.health)
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
    elif face == "stall":
        state.stalls += 1
        state.centre += 1
        state.emit("stall_placed", stalls=state.stalls)
    elif face == "reshuffle":
        flow.deal_parasites(state, "reshuffle", keep_infected=True)
        state.emit("reshuffled")
    if state.phase == "turn":
        flow.end_turn(state)
