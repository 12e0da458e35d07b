"""``correct``: the table's ruling that sets a player's health, the engines or the Stalls
waiting in the centre, with a reason for the log. Engine and Stall dice move between the bag
and the centre with their count; the engines set back during the vote call it off."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.burkes_gambit.moves import flow
from companion.games.burkes_gambit.moves.common import a_seat, fixed_label, table_only, who
from companion.games.burkes_gambit.state import State

COUNTERS = ("health", "engines", "stalls")


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (Param("counter", "choice", "What", choices=COUNTERS,
                  labels=("Health", "Engines", "Stalls in the centre")),
            # Every seat, so that the dead are refused with a reason. The default (a phone's
            # form fills it in) is the seat whose turn it is.
            Param("target", "seat", "Player (for health)",
                  choices=tuple(p.seat for p in state.players), default=state.turn),
            Param("value", "number", "New value", minimum=0, maximum=max(9, state.book.dice),
                  starts_on=("counter", "target"), starts_by=_now(state)),
            Param("reason", "text", "Reason", maximum=200))


def _now(state: State) -> tuple[tuple[tuple[str, int], int], ...]:
    """What each counter is now, for each target: a correction starts from it."""
    return tuple(((counter, p.seat), p.health if counter == "health"
                  else state.engines if counter == "engines" else state.stalls)
                 for counter in COUNTERS for p in state.players)


def _check(state: State, seat: int | None, params: Params) -> str | None:
    counter, target, value = params.get("counter"), params.get("target"), params.get("value")
    dead = isinstance(target, int) and a_seat(state, target) and not state.players[target].alive
    if counter == "health":
        if dead:
            return f"{who(state, target)} is dead: a correction does not bring the dead back"
        if isinstance(value, int) and value > state.book.health:
            return f"health is at most {state.book.health}"
        return None
    if counter not in ("engines", "stalls"):
        return None  # the parameter's own check names the counters
    if target != state.turn:
        # Only the form's default passes unseen: a target named is a mistake.
        return "target goes with a health correction only"
    if not isinstance(value, int) or isinstance(value, bool):
        return None  # the parameter's own check names it
    if counter == "engines" and value >= state.to_earth:
        return f"set engines below {state.to_earth} (reaching Earth takes a power-up)"
    now = state.engines if counter == "engines" else state.stalls
    if value - now > state.bag_left():
        kind = "engine" if counter == "engines" else "Stall"
        return f"the bag holds {state.bag_left()} dice: each {kind} keeps a die in the centre"
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    value = int(params["value"])
    counter = params["counter"]
    if counter in ("engines", "stalls"):
        moved = value - (state.engines if counter == "engines" else state.stalls)
        state.centre += moved  # their dice move between the bag and the centre
        if counter == "engines":
            state.engines = value
        else:
            state.stalls = value
        state.emit("corrected", counter=counter, value=value, moved=moved)
        if counter == "engines" and state.phase == "vote":  # not at Earth after all
            flow.call_off_vote(state)
        return
    target = int(params["target"])
    state.players[target].health = value
    if value == 0:
        flow.kill(state, target, None)
        if target == state.turn and state.phase == "turn":
            state.die = None  # the player whose turn it was is dead: on to the next
            flow.end_turn(state)
    state.emit("corrected", counter=counter, value=value)


def _text(state: State, seat: int | None, params: Params) -> str:
    counter = params.get("counter")
    if counter in ("engines", "stalls"):
        now = state.engines if counter == "engines" else state.stalls
        return (f"Table correction: {counter} {now} -> {params.get('value')}"
                f" ({params.get('reason')})")
    target = params.get("target")
    old = state.players[target].health if isinstance(target, int) and a_seat(state, target) \
        else "?"
    return (f"Table correction: {state.name(target)}'s health {old} -> {params.get('value')}"
            f" ({params.get('reason')})")


MOVE = Move("correct", "table", fixed_label("Correct health, engines or Stalls"),
            table_only("turn", "vote"), _run, _text, _params, _check, ruling=True)
