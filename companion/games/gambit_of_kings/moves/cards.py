"""`lay_card` {piece}: with the option card_rows "choose", each player lays out their own row of
piece cards, one card at a time from card 1; the Castle is always the last card (8). The first
turn begins when both rows lie."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.gambit_of_kings.book import CASTLE, KINDS, SIDES
from companion.games.gambit_of_kings.state import State
from companion.games.gambit_of_kings.turn import begin_turn


def still_to_lay(state: State, seat: int) -> dict[str, str]:
    """The seat's cards not laid yet, as a phone offers them ("dire_wolf") -> kind."""
    laid = state.laying[seat]
    return {state.book.piece_id(k, seat): k for k in KINDS if k != CASTLE and k not in laid}


def _refusal(state: State, seat: int | None) -> str | None:
    if not state.mode.roll:
        return f"there are no card rows in the {state.mode.label}"
    if state.phase != "laying":
        return "the card rows are laid out"
    if seat is None:
        return "each player lays out their own cards"
    if state.cards[seat]:
        return "your cards are laid out"
    return None


def _label(state: State) -> str:
    return "Lay your next card"


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    assert seat is not None
    slot = len(state.laying[seat]) + 1
    return (Param("piece", "choice", f"Card {slot}", choices=tuple(still_to_lay(state, seat))),)


def _check(state: State, seat: int | None, params: Params) -> str | None:
    """Why this card can't be laid next, in the players' words (None: it can, or the list of
    the cards left names the problem)."""
    piece = params.get("piece")
    if seat is None or not isinstance(piece, str) or piece in still_to_lay(state, seat):
        return None
    book, found = state.book, state.book.kind_named(piece)
    if found is None:
        left = ", ".join(still_to_lay(state, seat))
        return f"{piece!r} is not a piece: lay one of {left}"
    side, kind = found
    if side is not None and side != seat:
        return (f"the {book.name(kind, side)} is a {SIDES[side]} piece: {state.name(seat)}"
                f" lays the {SIDES[seat]} side's cards")
    if kind == CASTLE:
        return f"the Castle is always card {len(KINDS)}, the last: lay the other seven"
    if kind in state.laying[seat]:
        return f"the {book.name(kind, seat)} is card {state.laying[seat].index(kind) + 1} already"
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.laying[seat].append(still_to_lay(state, seat)[str(params["piece"])])
    if len(state.laying[seat]) == len(KINDS) - 1:
        state.cards[seat] = [*state.laying[seat], CASTLE]
        state.emit("cards_laid", seat=seat, cards=list(state.cards[seat]))
        if all(state.cards):
            begin_turn(state)


def _text(state: State, seat: int | None, params: Params) -> str:
    slot = len(state.laying[seat]) + 1 if seat is not None else 0
    piece = str(params.get("piece")).replace("_", " ").title()
    return f"{state.name(seat)} lays card {slot}: {piece}"


LAY_CARD = Move("lay_card", "move", _label, _refusal, _run, _text, _params, check=_check)
