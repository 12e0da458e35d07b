"""The save window opened for a dying Titus: ``last_stand`` (reveal, and damage everyone
else by his blood) or ``decline_save`` (the death stands)."""

from __future__ import annotations

from companion.engine import Move, Params
from companion.games.captains_gambit import flow
from companion.games.captains_gambit.moves.common import fixed_label, said, waiting_text
from companion.games.captains_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    if state.phase != "save":
        return f"not now: {waiting_text(state)}"
    if seat != state.saving:
        return f"not yours to answer: {waiting_text(state)}"
    return None


def _last_stand_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    titus = state.players[seat]
    titus.revealed = True
    titus.last_stand_done = True
    state.saving = None
    state.emit("revealed", seat=seat, captain=titus.captain)
    per_blood = int(state.book.captain("titus")["last_stand_damage_per_blood"])
    for other in state.living():
        if other.seat != seat:
            flow.damage(state, other.seat, per_blood * titus.blood, seat, "last_stand")
    if not flow.settle(state):
        flow.carry_on(state)


def _decline_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.players[seat].last_stand_done = True
    state.saving = None
    if not flow.settle(state):
        flow.carry_on(state)


MOVES = (
    Move("last_stand", "reaction", fixed_label("Reveal: last stand"), _refusal, _last_stand_run,
         said("{who} reveals Titus's last stand")),
    Move("decline_save", "reaction", fixed_label("Let the death stand"), _refusal, _decline_run,
         said("The save window closes for {who}")),
)
