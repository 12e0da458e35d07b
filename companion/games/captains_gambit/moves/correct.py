"""``correct``: the table's ruling that sets a player's counter, with a reason for the log."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.captains_gambit import flow
from companion.games.captains_gambit.moves.common import (
    fixed_label,
    waiting_text,
    who,
)
from companion.games.captains_gambit.state import State

COUNTERS = ("health", "energy", "blood", "loyalty")


def _refusal(state: State, seat: int | None) -> str | None:
    if seat is not None:
        return "only the table (its host) corrects counters"
    if state.phase == "over":
        return "the game is over"
    if state.phase == "ending":
        return f"not now: {waiting_text(state)}"
    if state.phase in ("mulligan", "prologue"):
        return "counters can be corrected once play has begun"
    if state.phase not in ("action", "income"):
        return f"finish what is open first: {waiting_text(state)}"
    return None


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (
        Param("target", "seat", "Player", choices=tuple(range(len(state.players)))),
        Param("counter", "choice", "Counter", choices=COUNTERS,
              labels=tuple(c.capitalize() for c in COUNTERS)),
        Param("value", "number", "New value", minimum=0, maximum=999,
              starts_on=("target", "counter"),
              starts_by=tuple(((p.seat, c), getattr(p, c))
                              for p in state.players for c in COUNTERS)),
        Param("reason", "text", "Reason", maximum=200),
    )


def _check(state: State, seat: int | None, params: Params) -> str | None:
    target = params.get("target")
    if (isinstance(target, int) and 0 <= target < len(state.players)
            and params.get("counter") == "health" and not state.players[target].alive):
        return f"{who(state, target)} is dead; the dead cannot be healed"
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    player = state.players[params["target"]]
    counter = params["counter"]
    old = getattr(player, counter)
    setattr(player, counter, params["value"])
    state.emit("corrected", seat=player.seat, counter=counter, old=old, new=params["value"],
               reason=params["reason"])
    if counter == "health" and player.health <= 0:
        state.blows[player.seat] = None
    state.resume_phase = state.phase
    flow.after_harm(state, "stay")


def _text(state: State, seat: int | None, params: Params) -> str:
    target = params.get("target")
    counter = params.get("counter")
    old = getattr(state.players[target], str(counter)) if isinstance(target, int) else "?"
    return (f"Table correction: {state.name(target)}'s {counter} {old} -> {params.get('value')} "
            f"({params.get('reason')})")


MOVE = Move("correct", "table", fixed_label("Correct a counter"), _refusal, _run, _text, _params,
            _check, ruling=True)
