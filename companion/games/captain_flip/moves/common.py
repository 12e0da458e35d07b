"""What the moves share: who is acting, and why a seat cannot play now."""

from __future__ import annotations

from companion.engine import Param
from companion.games.captain_flip.book import CHARACTERS, COLUMNS
from companion.games.captain_flip.state import DRAW, MONKEY, OVER, PLACE, State


def who(state: State, seat: int | None) -> str:
    return "the table" if seat is None else f"seat {seat} ({state.players[seat].name})"


def board_id(seat: int) -> str:
    """The id of a player's board in the table view (what a cell parameter names)."""
    return f"ship-{seat}"


def column_name(state: State, cell: str) -> str:
    return COLUMNS[state.layout.column_of(cell)]


def in_hand(state: State) -> str:
    """The drawn tile's Character, as players read it ("Cook"), or "tile"."""
    return state.book.label(state.hand.up) if state.hand else "tile"


SHOWN = "Turn it over: which side shows now?"


def others(face: str) -> tuple[str, ...]:
    """The Characters a tile showing ``face`` may have on its back."""
    return tuple(c for c in CHARACTERS if c != face)


def shown_param(state: State, up: str) -> Param:
    """What the table tells once the tile in hand, showing ``up``, whose back nobody knows,
    is turned over: the side it shows now."""
    choices = others(up)
    return Param("face", "choice", SHOWN, choices=choices,
                 labels=tuple(state.book.label(c) for c in choices))


def shown_problem(state: State, up: str, shown: object) -> str | None:
    """Why ``shown`` cannot be the side a tile showing ``up`` shows once turned over."""
    if shown == up:
        label = state.book.label(up)
        return (f"a tile's two sides differ: it showed a {label}; tell the side it shows once"
                " turned over")
    return None


def status(state: State) -> str:
    """What the game waits for, in words."""
    name = state.name(state.turn)
    if state.phase == OVER:
        return "the game is over"
    if state.phase == DRAW:
        parrot = " for the Parrot" if state.steps and state.steps[-1].kind == "parrot" else ""
        return f"{name} draws a tile{parrot}"
    if state.phase == PLACE and state.hand is not None:
        what = state.book.label(state.hand.up)
        if state.flipped:
            return f"{name} places the {what} (flipped: it stays as it is)"
        return f"{name} keeps or flips the {what}, then places it"
    if state.phase == MONKEY:
        cell = state.steps[-1].cell or ""
        near = " or ".join(state.tiles_next_to(state.turn, cell))
        return f"{name}'s Monkey on {cell} flips {near}"
    return state.phase


def turn_refusal(state: State, seat: int | None, phase: str) -> str | None:
    """Why ``seat`` cannot take a step of the ``phase`` now (None: it can)."""
    if state.phase == OVER:
        return "the game is over"
    if seat is None:
        return "the player whose turn it is does this, not the table"
    if seat != state.turn:
        return f"it is {state.name(state.turn)}'s turn"
    if state.phase != phase:
        return f"not now: {status(state)}"
    return None
