"""Step 3 and 4: place the Character on the lowest empty space of a column (a space with a
cost only with the coins to pay it), then its immediate effect, then the space's bonus."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.captain_flip import effects
from companion.games.captain_flip.moves.common import (
    board_id,
    column_name,
    in_hand,
    turn_refusal,
)
from companion.games.captain_flip.state import PLACE, State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = turn_refusal(state, seat, PLACE)
    if reason is None and seat is not None and not state.open_cells(seat):
        return "no space on the board can take a tile"
    return reason


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    assert seat is not None
    return (Param("cell", "cell", "The space (the lowest empty one of a column)",
                  choices=tuple(state.open_cells(seat)), board=board_id(seat)),)


def _check(state: State, seat: int | None, params: Params) -> str | None:
    """The reason a space is refused, in the rules' words."""
    assert seat is not None
    cell = str(params.get("cell"))
    layout = state.layout
    if cell not in layout.spaces:
        return (f"there is no space {cell!r} on board {state.board} (its spaces:"
                f" {', '.join(sorted(layout.spaces))})")
    column = column_name(state, cell)
    lowest = state.lowest_empty(seat, layout.column_of(cell))
    if cell in state.players[seat].spaces:
        taken = state.book.label(state.players[seat].spaces[cell].up)
        return (f"{cell} already holds a tile ({taken})" + (f": column {column} is full"
                if lowest is None else f"; column {column}'s lowest empty space is {lowest}"))
    if lowest is None:
        return f"column {column} is full"
    if cell != lowest:
        return f"{cell} is not the lowest empty space of column {column}: {lowest} is"
    cost = layout.spaces[cell].cost
    coins = state.players[seat].coins
    if cost > coins:
        return (f"{cell} costs {cost} coin{'s' * (cost != 1)} to cover and"
                f" {state.name(seat)} has {coins or 'none'}")
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None and state.hand is not None
    tile, state.hand, state.flipped = state.hand, None, False
    effects.place(state, seat, str(params["cell"]), tile)


def _text(state: State, seat: int | None, params: Params) -> str:
    return f"{state.name(seat)} places the {in_hand(state)} on {params.get('cell')}"


MOVE = Move("place", "move", lambda state: f"Place the {in_hand(state)}", _refusal, _run, _text,
            _params, _check)
