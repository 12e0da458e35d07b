"""The Monkey's flip: the player turns over one tile next to the Monkey (orthogonally); the
revealed Character's immediate effect applies, so a revealed Monkey flips again and a revealed
Parrot draws another tile."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.captain_flip import effects
from companion.games.captain_flip.moves.common import board_id, turn_refusal
from companion.games.captain_flip.state import MONKEY, State


def monkey_cell(state: State) -> str:
    step = state.steps[-1]
    assert step.kind == "monkey" and step.cell is not None
    return step.cell


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    assert seat is not None
    return (Param("cell", "cell", "The tile to flip (next to the Monkey)",
                  choices=tuple(state.tiles_next_to(seat, monkey_cell(state))),
                  board=board_id(seat)),)


def _check(state: State, seat: int | None, params: Params) -> str | None:
    assert seat is not None
    monkey = monkey_cell(state)
    near = state.tiles_next_to(seat, monkey)
    if params.get("cell") not in near:
        return (f"{params.get('cell')} is not a tile next to the Monkey on {monkey}:"
                f" flip one of {', '.join(near)}")
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.steps.pop()
    effects.flip_on_board(state, seat, str(params["cell"]))


def _text(state: State, seat: int | None, params: Params) -> str:
    cell = str(params.get("cell"))
    tile = state.players[seat or 0].spaces.get(cell)
    what = f"the {state.book.label(tile.up)}" if tile else "the tile"
    return f"{state.name(seat)}'s Monkey flips {what} on {cell}"


MOVE = Move("monkey_flip", "move", lambda state: "Flip a tile next to the Monkey",
            lambda state, seat: turn_refusal(state, seat, MONKEY), _run, _text, _params, _check)
