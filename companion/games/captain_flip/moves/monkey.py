"""The Monkey's flip: the player turns over one tile next to the Monkey (orthogonally); the
revealed Character's immediate effect applies, so a revealed Monkey flips again and a revealed
Parrot draws another tile. When a tile next to it has a back nobody knows (drawn by its side
alone), the table tells the side the flipped tile shows."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.captain_flip import bag, effects
from companion.games.captain_flip.book import CHARACTERS
from companion.games.captain_flip.moves.common import (
    SHOWN,
    board_id,
    others,
    shown_problem,
    status,
    turn_refusal,
)
from companion.games.captain_flip.state import MONKEY, OVER, State


def monkey_cell(state: State) -> str:
    step = state.steps[-1]
    assert step.kind == "monkey" and step.cell is not None
    return step.cell


def asks_shown(state: State, seat: int) -> bool:
    """Whether the flip asks the side it shows: a tile it may flip has a back nobody knows.
    Then it asks it of every tile it may flip, so the question tells nothing of a back."""
    spaces = state.players[seat].spaces
    return any(bag.unknown_back(spaces[cell])
               for cell in state.tiles_next_to(seat, monkey_cell(state)))


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    assert seat is not None
    near = tuple(state.tiles_next_to(seat, monkey_cell(state)))
    cell = Param("cell", "cell", "The tile to flip (next to the Monkey)", choices=near,
                 board=board_id(seat))
    if not asks_shown(state, seat):
        return (cell,)
    spaces = state.players[seat].spaces
    return (cell, Param("face", "choice", SHOWN, choices=CHARACTERS,
                        labels=tuple(state.book.label(c) for c in CHARACTERS),
                        depends_on="cell",
                        choices_by=tuple((c, others(spaces[c].up)) for c in near)))


def _check(state: State, seat: int | None, params: Params) -> str | None:
    assert seat is not None
    monkey = monkey_cell(state)
    near = state.tiles_next_to(seat, monkey)
    cell = str(params.get("cell"))
    if "face" in params and not asks_shown(state, seat):
        return ("the companion knows the other side of every tile next to the Monkey (the"
                " camera read their numbers): flip without naming a side")
    if cell in near:
        return shown_problem(state, state.players[seat].spaces[cell].up, params.get("face"))
    if cell == monkey:
        why = f"{cell} is the Monkey itself"
    elif cell not in state.layout.spaces:
        why = f"there is no space {cell!r} on board {state.board}"
    elif cell not in state.players[seat].spaces:
        why = f"{cell} is empty"
    else:
        here, there = state.layout.spaces[monkey], state.layout.spaces[cell]
        diagonal = abs(here.column - there.column) == abs(here.row - there.row) == 1
        why = (f"{cell} is {'only diagonal' if diagonal else 'not next'} to the Monkey on"
               f" {monkey}")
    return f"{why}: flip {near[0] if len(near) == 1 else 'one of ' + ', '.join(near)}"


def _refusal(state: State, seat: int | None) -> str | None:
    """Out of the Monkey's phase, say so first: a Monkey with no neighbour flips nothing (FAQ),
    and "it is Ben's turn" would not tell its player why their flip is refused."""
    if state.phase not in (MONKEY, OVER) and seat is not None:
        return f"no Monkey is waiting to flip a tile ({status(state)})"
    return turn_refusal(state, seat, MONKEY)


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.steps.pop()
    effects.flip_on_board(state, seat, str(params["cell"]), params.get("face"))


def _text(state: State, seat: int | None, params: Params) -> str:
    cell = str(params.get("cell"))
    tile = state.players[seat or 0].spaces.get(cell)
    what = f"the {state.book.label(tile.up)}" if tile else "the tile"
    return f"{state.name(seat)}'s Monkey flips {what} on {cell}"


MOVE = Move("monkey_flip", "move", lambda state: "Flip a tile next to the Monkey",
            _refusal, _run, _text, _params, _check)
