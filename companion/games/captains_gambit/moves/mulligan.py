"""``mulligan``: before play each seat discards any permits (secretly) and draws back up;
``after_deal``: what follows the deal and the mulligan."""

from __future__ import annotations

from companion.engine import Move, Param, Params, shuffled
from companion.games.captains_gambit import flow
from companion.games.captains_gambit.moves.common import (
    fixed_label,
    hand_choices,
    not_in_phase,
    who,
)
from companion.games.captains_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = not_in_phase(state, seat, "mulligan", None)
    if reason or seat is None:
        return reason
    if state.players[seat].mulliganed:
        return f"{who(state, seat)} has already chosen their mulligan"
    return None


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    if seat is None:
        return ()
    size = len(state.players[seat].permits)
    choices = hand_choices(state, seat)
    return (Param("discard", "choices", "Permits to discard", choices=choices,
                  labels=tuple(state.book.label(c) for c in choices),
                  minimum=0, maximum=size),)


def after_deal(state: State) -> None:
    """After the deal (and mulligan): the Prologue if its captains are in the pool, else play."""
    if any(c in state.pool for c in state.book.prologue_captains()):
        state.phase = "prologue"
        state.emit("prologue_started")
    else:
        flow.begin_play(state)


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    player = state.players[seat]
    for card in params["discard"]:
        player.permits.remove(card if card in player.permits else None)
        if state.deck is not None:
            state.deck.append(card)
    player.mulliganed = True
    state.emit("mulliganed", seat=seat, count=len(params["discard"]))
    if not all(p.mulliganed for p in state.players):
        return
    size = int(state.book.setup("hand_size"))
    if state.deck is not None:
        state.deck = shuffled(state.deck, state.seed, "mulligan")
    order = [(state.first_seat + i) % len(state.players) for i in range(len(state.players))]
    for s in order:
        hand = state.players[s].permits
        while len(hand) < size:
            hand.append(state.deck.pop() if state.deck is not None else None)
    if state.deck is not None:
        state.emit("permits_dealt")  # new cards seen by their holders: no undo past this
    after_deal(state)


def _text(state: State, seat: int | None, params: Params) -> str:
    count = len(params.get("discard", []))
    return f"{state.name(seat)} discards {count} permit{'s' if count != 1 else ''}"


MOVE = Move("mulligan", "move", fixed_label("Permit mulligan"), _refusal, _run, _text, _params,
            secret=("discard",))
