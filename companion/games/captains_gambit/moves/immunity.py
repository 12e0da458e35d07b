"""The Diplomatic Immunity choice after a lost bluff call: ``use_immunity`` or
``take_damage``. Every loser is asked when wildcards are in play, holder or not, and both
buttons are on every loser's phone, so neither the question nor a glance at the phone
tells the table anything; holding the card is judged when "Reveal" is tapped."""

from __future__ import annotations

from companion.engine import Move, Params
from companion.games.captains_gambit import flow
from companion.games.captains_gambit.moves.common import (
    fixed_label,
    may_hold,
    not_in_phase,
    said,
    who,
)
from companion.games.captains_gambit.state import State


def _victim(state: State) -> int | None:
    return state.immunity[0] if state.immunity else None


def _use_check(state: State, seat: int | None, params: Params) -> str | None:
    if seat is not None and not may_hold(state, seat, "diplomatic_immunity"):
        return f"{who(state, seat)} holds no Diplomatic Immunity"
    return None


def _use_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.immunity = None
    flow.shuffle_back(state, seat, "diplomatic_immunity")
    state.immune.add(seat)
    state.emit("immune", seat=seat)
    flow.carry_on(state)


def _refusal(state: State, seat: int | None) -> str | None:
    return not_in_phase(state, seat, "immunity", _victim(state))


def _take_run(state: State, seat: int | None, params: Params) -> None:
    assert state.immunity is not None
    victim, credit = state.immunity
    state.immunity = None
    flow.damage(state, victim, int(state.book.setup("bluff_damage")), credit, "bluff")
    flow.after_harm(state, state.resume or "stay")


MOVES = (
    Move("use_immunity", "reaction", fixed_label("Reveal Diplomatic Immunity"), _refusal,
         _use_run, said("{who} reveals Diplomatic Immunity"), check=_use_check),
    Move("take_damage", "reaction", fixed_label("Take the bluff damage"), _refusal,
         _take_run, said("{who} takes the bluff damage")),
)
