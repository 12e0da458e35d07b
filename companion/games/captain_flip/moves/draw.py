"""Step 1: draw a tile, seeing one side only. From a real bag the table tells which tile and
side (a tap, or the camera reading the sticker on top); a table without the bag lets the
companion draw, seeded so that a replay draws the same."""

from __future__ import annotations

from companion.engine import Move, Param, Params, shuffled
from companion.games.captain_flip.book import CHARACTERS
from companion.games.captain_flip.components import tile_name, tile_sides
from companion.games.captain_flip.moves.common import turn_refusal
from companion.games.captain_flip.state import DRAW, PLACE, State, Tile


def _tiles_showing(face: str) -> tuple[str, ...]:
    return tuple(tile_name(n) for n, sides in tile_sides().items() if face in sides)


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    if state.companion_draws:
        return ()
    # Every tile with that side: which tiles are still in the bag is not the table's to know
    # (with the numbering it would tell the backs of tiles on the boards).
    return (Param("face", "choice", "The side you see", choices=CHARACTERS,
                  labels=tuple(state.book.label(face) for face in CHARACTERS)),
            Param("tile", "choice", "Its number (on the sticker)",
                  choices=tuple(tile_name(n) for n in tile_sides()), depends_on="face",
                  choices_by=tuple((face, _tiles_showing(face)) for face in CHARACTERS)))


def _as_drawn(state: State, number: int) -> int:
    """The tile told, or its twin (the same two sides, so the same back) when the told one is
    not in the bag; the told one still when neither is. Never refused for where a tile is:
    with the stickers' numbering, "tile 07 is on Ann's board" (or only refused against
    accepted) would tell the drawer the unseen backs of other players' tiles."""
    if number in state.bag:
        return number
    sides = tile_sides()[number]
    return next((n for n in state.bag if n is not None and tile_sides()[n] == sides), number)


def _stand_in(state: State, face: str) -> int | None:
    """The tile taken out of the bag for a draw whose tile and twin are both out: one showing
    the side seen (the real tile has it), else any."""
    return next((n for n in state.bag if n is not None and face in tile_sides()[n]),
                state.bag[0])


def _check(state: State, seat: int | None, params: Params) -> str | None:
    if state.companion_draws:
        return None
    face, name = params.get("face"), params.get("tile")
    if face not in CHARACTERS or not isinstance(name, str) or not name.isdigit():
        return None  # the parameters' own checks name the problem
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
    else:
        number, face = _as_drawn(state, int(params["tile"])), str(params["face"])
        # A tile left the real bag even when the one told and its twin are both out (a
        # misread sticker): the count drops all the same, or it would tell everyone that both
        # tiles of that pair lie on the boards, their backs unseen.
        state.bag.remove(number if number in state.bag else _stand_in(state, face))
    first, second = tile_sides()[number]
    state.hand = Tile(number, face, second if face == first else first)
    state.drawn += 1
    state.flipped = False
    parrot = bool(state.steps) and state.steps[-1].kind == "parrot"
    if parrot:
        state.steps.pop()
    state.phase = PLACE
    state.emit("drawn", seat=seat, character=face, parrot=parrot)


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
