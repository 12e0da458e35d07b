"""Step 1: draw a tile, seeing one side only. From a real bag the table tells the side seen (a
tap, or the camera reading the sticker on top, which also gives the tile's number); a table
without the bag lets the companion draw, seeded so that a replay draws the same."""

from __future__ import annotations

from companion.engine import Move, Param, Params, shuffled
from companion.games.captain_flip import bag
from companion.games.captain_flip.book import CHARACTERS
from companion.games.captain_flip.components import tile_name, tile_sides
from companion.games.captain_flip.moves.common import turn_refusal
from companion.games.captain_flip.state import DRAW, PLACE, State, Tile


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    if state.companion_draws:
        return ()
    # The number is the camera's to give (a phone does not ask it: it is not on the tile,
    # and with the stickers' numbering it tells the back). Every tile with that side: which
    # tiles are still in the bag is not the table's to know.
    return (Param("face", "choice", "The side you see", choices=CHARACTERS,
                  labels=tuple(state.book.label(face) for face in CHARACTERS)),
            Param("tile", "choice", "Its number, as the camera reads it on the sticker",
                  choices=tuple(tile_name(n) for n in tile_sides()), depends_on="face",
                  choices_by=tuple((face, bag.tiles_showing(face)) for face in CHARACTERS),
                  asked=False))


def _check(state: State, seat: int | None, params: Params) -> str | None:
    if state.companion_draws:
        return None
    face, name = params.get("face"), params.get("tile")
    if face not in CHARACTERS or not isinstance(name, str) or not name.isdigit():
        return None  # no number told, or the parameters' own checks name the problem
    number = int(name)
    if number not in tile_sides():
        return f"there is no tile {name} (tiles are 01 to {len(tile_sides()):02d})"
    if face not in tile_sides()[number]:
        return f"tile {name} has no {face} side"
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    if state.companion_draws:
        number = state.bag.pop(0)
        assert number is not None
        face = shuffled(tile_sides()[number], state.seed, "side", state.drawn)[0]
        state.emit("companion_drew")  # revealing: an undo past it would show the next tile
        first, second = tile_sides()[number]
        state.hand = Tile(number, face, second if face == first else first)
    else:
        face = str(params["face"])
        told = params.get("tile")
        state.hand = bag.take(state, face, None if told is None else int(told))
    state.drawn += 1
    state.flipped = False
    parrot = bool(state.steps) and state.steps[-1].kind == "parrot"
    if parrot:
        state.steps.pop()
    state.phase = PLACE
    state.emit("drawn", seat=seat, character=state.hand.up, parrot=parrot)


def _text(state: State, seat: int | None, params: Params) -> str:
    name = state.name(seat)
    parrot = " for the Parrot" if state.steps and state.steps[-1].kind == "parrot" else ""
    if state.companion_draws:
        return f"{name} draws a tile from the bag{parrot}"
    face = str(params.get("face", "tile"))
    return f"{name} draws a {state.book.label(face) if face in CHARACTERS else face}{parrot}"


# The tile's number stays with the drawer: with the stickers' numbering it tells the back.
MOVE = Move("draw", "move", lambda state: "Draw a tile",
            lambda state, seat: turn_refusal(state, seat, DRAW), _run, _text, _params, _check,
            secret=("tile",))
