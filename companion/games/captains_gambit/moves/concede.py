"""``concede``: the challenged seat admits the bluff; its claim is cancelled and it takes the
bluff damage."""

from __future__ import annotations

from companion.engine import Move, Params
from companion.games.captains_gambit.moves.bluff import bluff_damage, challenged
from companion.games.captains_gambit.moves.common import fixed_label, not_in_phase
from companion.games.captains_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    return not_in_phase(state, seat, "bluff", challenged(state))


def _run(state: State, seat: int | None, params: Params) -> None:
    pending = state.pending
    assert pending is not None and pending.challenge is not None and seat is not None
    caller, _, on = pending.challenge
    pending.challenge = None
    state.emit("conceded", seat=seat, on=on)
    if on == "action":
        # The action is cancelled: no refund and no blood.
        pending.claim_open = False
        bluff_damage(state, seat, caller, "end_turn")
    else:
        pending.shield_by = None
        pending.shield_open = False
        bluff_damage(state, seat, caller, "reaction")


def _text(state: State, seat: int | None, params: Params) -> str:
    return f"{state.name(seat)} concedes the bluff"


MOVE = Move("concede", "reaction", fixed_label("Concede"), _refusal, _run, _text)
