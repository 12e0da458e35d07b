"""``correct``: the table's ruling that sets a player's health or the engines, with a reason
for the log."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.burkes_gambit.moves import flow
from companion.games.burkes_gambit.moves.common import fixed_label, table_only
from companion.games.burkes_gambit.state import State


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (Param("counter", "choice", "What", choices=("health", "engines")),
            Param("target", "seat", "Player (for health)",
                  choices=tuple(p.seat for p in state.living()), default=state.turn),
            Param("value", "number", "New value", minimum=0, maximum=9),
            Param("reason", "text", "Reason", maximum=200))


def _check(state: State, seat: int | None, params: Params) -> str | None:
    if isinstance(params.get("reason"), str) and not params["reason"].strip():
        return "a correction needs a reason"
    if params.get("counter") == "health" and isinstance(params.get("value"), int) \
            and params["value"] > state.book.health:
        return f"health is at most {state.book.health}"
    if params.get("counter") == "engines" and isinstance(params.get("value"), int) \
            and params["value"] >= state.to_earth:
        return f"set engines below {state.to_earth} (reaching Earth takes a power-up)"
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    value = int(params["value"])
    if params["counter"] == "engines":
        state.engines = value
    else:
        target = int(params["target"])
        state.players[target].health = value
        if value == 0:
            flow.kill(state, target, None)
            if target == state.turn and state.phase == "turn":
                state.die = None  # the player whose turn it was is dead: on to the next
                flow.end_turn(state)
    state.emit("corrected", counter=params["counter"], value=value)


def _text(state: State, seat: int | None, params: Params) -> str:
    if params.get("counter") == "engines":
        return (f"Table correction: engines {state.engines} -> {params.get('value')}"
                f" ({params.get('reason')})")
    target = params.get("target")
    old = state.players[target].health if isinstance(target, int) else "?"
    return (f"Table correction: {state.name(target)}'s health {old} -> {params.get('value')}"
            f" ({params.get('reason')})")


MOVE = Move("correct", "table", fixed_label("Correct health or engines"),
            table_only("turn", "vote"), _run, _text, _params, _check, ruling=True)
