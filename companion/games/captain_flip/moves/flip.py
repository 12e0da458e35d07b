"""Step 2: keep the drawn Character or flip the tile, once: after a flip the new Character
must be kept (seed). A tile drawn by its side alone has a back nobody knows: the table tells
the side it shows once flipped."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.captain_flip import bag
from companion.games.captain_flip.moves.common import (
    in_hand,
    shown_param,
    shown_problem,
    turn_refusal,
)
from companion.games.captain_flip.state import PLACE, State


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    if state.hand is None or not bag.unknown_back(state.hand):
        return ()
    return (shown_param(state, state.hand.up),)


def _refusal(state: State, seat: int | None) -> str | None:
    reason = turn_refusal(state, seat, PLACE)
    if reason is None and state.flipped and state.hand is not None:
        return (f"the tile was flipped once already: the {state.book.label(state.hand.up)}"
                " must be placed as it is")
    return reason


def _check(state: State, seat: int | None, params: Params) -> str | None:
    hand = state.hand
    if "face" not in params or hand is None:
        return None
    if not bag.unknown_back(hand):
        return ("the companion knows this tile's other side (the camera read its number):"
                " flip it without naming a side")
    return shown_problem(state, hand.up, params["face"])


def _run(state: State, seat: int | None, params: Params) -> None:
    assert state.hand is not None
    before = state.hand.up
    state.hand = bag.turned(state, state.hand, params.get("face"))
    state.flipped = True
    state.emit("hand_flipped", seat=seat, before=before, after=state.hand.up)


def _text(state: State, seat: int | None, params: Params) -> str:
    return f"{state.name(seat)} flips the {in_hand(state)}"


MOVE = Move("flip", "move", lambda state: f"Flip the {in_hand(state)}", _refusal, _run, _text,
            _params, _check)
