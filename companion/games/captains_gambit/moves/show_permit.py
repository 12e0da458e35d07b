"""``show_permit``: the challenged seat shows the permit it claimed; the caller loses the call."""

from __future__ import annotations

from companion.engine import Move, Params
from companion.games.captains_gambit import flow
from companion.games.captains_gambit.moves.bluff import bluff_damage, challenged, claimed_card
from companion.games.captains_gambit.moves.common import fixed_label, may_hold, not_in_phase, who
from companion.games.captains_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    """Offered to the challenged seat whether it holds the card or not: a button shown only
    to a holder would tell a neighbour glancing at the phone, even if the seat concedes
    (decisions.md, "a neighbour sees the buttons too"). Holding is judged when tapped."""
    return not_in_phase(state, seat, "bluff", challenged(state))


def _check(state: State, seat: int | None, params: Params) -> str | None:
    card = claimed_card(state)
    if seat is not None and not may_hold(state, seat, card):
        return f"{who(state, seat)} holds no {state.book.label(card)} permit"
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    pending = state.pending
    assert pending is not None and pending.challenge is not None and seat is not None
    caller, _, on = pending.challenge
    card = claimed_card(state)
    pending.challenge = None
    if on == "action":
        pending.claim_open = False
    else:
        pending.shield_open = False
    flow.shuffle_back(state, seat, card)
    bluff_damage(state, caller, seat, "reaction")


def _text(state: State, seat: int | None, params: Params) -> str:
    label = state.book.label(claimed_card(state))
    article = "an" if label[0] in "AEIOU" else "a"
    return f"{state.name(seat)} shows {article} {label} permit"


MOVE = Move("show_permit", "reaction", fixed_label("Show the permit"), _refusal, _run, _text,
            check=_check)
