"""``permits_seen``: at a table dealt by hand, a seat privately tells the companion its
permits."""

from __future__ import annotations

from collections import Counter

from companion.engine import Move, Param, Params
from companion.games.captains_gambit.book import PERMITS, WILDCARDS
from companion.games.captains_gambit.moves.common import (
    fixed_label,
    hand_choices,
    not_hand_dealt,
    told_text,
)
from companion.games.captains_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = not_hand_dealt(state, seat)
    if reason or seat is None:
        return reason
    if None not in state.players[seat].permits:
        return ("the companion already knows this seat's permits (to change them: undo that"
                " input, or the host's ruling Forget what a player told)")
    return None


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    if seat is None:
        return ()
    size = len(state.players[seat].permits)
    choices = hand_choices(state, seat)
    return (Param("permits", "choices", "Your permits", choices=choices,
                  labels=tuple(state.book.label(c) for c in choices),
                  minimum=size, maximum=size),)


def _copies(state: State, card: str) -> int:
    players = len(state.players)
    if card in WILDCARDS:
        return state.book.copies("wildcard_copies", players) if state.wildcards else 0
    return state.book.copies("permit_copies", players)


def _check(state: State, seat: int | None, params: Params) -> str | None:
    told = params.get("permits")
    if seat is None or not isinstance(told, list) or not all(isinstance(c, str) for c in told):
        return None
    # Checked against this hand alone: a check against other seats' hands would let a seat
    # probe them by trying hands until one is refused.
    for card, count in Counter(told).items():
        if card in PERMITS + WILDCARDS and count > _copies(state, card):
            return (f"this game has only {_copies(state, card)}"
                    f" {state.book.label(card)} card(s)")
    rest = list(told)
    for known in state.players[seat].permits:
        if known is not None:
            if known not in rest:
                return f"this seat is known to hold {state.book.label(known)}"
            rest.remove(known)
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.players[seat].permits = list(params["permits"])


MOVE = Move("permits_seen", "input", fixed_label("Tell the companion your permits"), _refusal,
            _run, told_text("permits"), _params, _check, private=True)
