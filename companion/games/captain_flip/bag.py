"""The real bag's bookkeeping: which tile numbers the companion counts in it, and which tile a
side seen stands for.

Nobody at the table reads a tile's number (it is on the sticker's sheet, not on the tile, and
with the stickers' numbering it would tell the back): a player tells the side they see, and
the camera reads the sticker's number. A tile drawn by its side alone goes by a stand-in's
number, a tile in the bag showing that side, and its back is unknown until it is turned over
in front of the table, who then tell the side it shows. The count is always right (a draw
takes one tile out); the numbers are right as far as anyone told them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from companion.games.captain_flip.components import tile_name, tile_sides
from companion.games.captain_flip.state import State, Tile


def tiles_showing(face: str) -> tuple[str, ...]:
    """The numbers of every tile with ``face`` on one side."""
    return tuple(tile_name(n) for n, sides in tile_sides().items() if face in sides)


def take(state: State, face: str, told: int | None) -> Tile:
    """The tile drawn from the real bag showing ``face``, taken out of the bag's count.

    Told a number (the camera): that tile, or its twin (the same two sides, so the same back)
    when the told one is out; never refused for where a tile is, since "tile 07 is on Ann's
    board" would tell the drawer the unseen backs of other players' tiles. Not told: a tile
    showing ``face`` stands for it, its back unknown."""
    if told is None:
        number = _claim(state, _numbers(lambda sides: face in sides), None)
        return Tile(number if number is not None else _any_from_bag(state), face, None,
                    number_told=False)
    sides = tile_sides()[told]
    number = _claim(state, [told] + _numbers(lambda other: other == sides), None)
    if number is None:
        # Both out, on tiles whose backs are known: a misread sticker. A tile left the bag
        # all the same, or "Tiles in the bag" standing still would tell everyone that both
        # tiles of that pair lie on the boards, their backs unseen.
        number = told
        _any_from_bag(state, face)
    first, second = tile_sides()[number]
    return Tile(number, face, second if face == first else first)


def turned(state: State, tile: Tile, shown: str | None = None) -> Tile:
    """``tile`` turned over in front of the table, showing ``shown`` when the table tells it
    (the tile in their hands is the truth), else its back as the companion knows it. A tile
    whose number (a stand-in's, or a misread one) does not have those two sides takes one
    that has."""
    back = shown or tile.down
    assert back is not None, "the side a tile shows must be told when its back is unknown"
    number = tile.number
    sides = {tile.up, back}
    if number is not None and set(tile_sides()[number]) != sides:
        claimed = _claim(state, _numbers(lambda both: set(both) == sides), number)
        number = number if claimed is None else claimed
    return Tile(number, back, tile.up, True, tile.number_told)


def unknown_back(tile: Tile) -> bool:
    """Whether the tile's back is unknown to the companion too (drawn by its side alone and
    not yet turned over)."""
    return not (tile.number_told or tile.both_seen)


def may_draw(state: State, number: int) -> bool:
    """Whether the tile ``number`` may still be in the bag: the bag has it, or it (or its
    twin) only stands in for a tile drawn by its side, which may be another one (its twin,
    once turned over)."""
    twins = _numbers(lambda sides: sides == tile_sides()[number])
    return number in state.bag or any(t.number in twins and not t.number_told
                                      for t in _tiles_out(state))


def _numbers(has: Callable[[tuple[str, str]], bool]) -> list[int]:
    return [n for n, sides in tile_sides().items() if has(sides)]


def _tiles_out(state: State) -> Iterator[Tile]:
    for player in state.players:
        yield from player.spaces.values()
    if state.hand is not None:
        yield state.hand


def _claim(state: State, wanted: list[int], giving: int | None) -> int | None:
    """The first of the numbers ``wanted`` that can be had, for a tile that gives up
    ``giving`` (None: a tile just drawn, one fewer in the bag): from the bag, ``giving`` going
    back in its place; else from a tile whose back is unknown, which then stands in with
    another number from the bag, one showing its side if it can. None when every one is on
    a tile whose back is known."""
    for number in wanted:
        if number in state.bag:
            index = state.bag.index(number)
            if giving is None:
                del state.bag[index]
            else:
                state.bag[index] = giving
            return number
    for tile in _tiles_out(state):
        if tile.number in wanted and unknown_back(tile):
            claimed = tile.number
            if giving is not None:
                state.bag.append(giving)
            tile.number = _any_from_bag(state, tile.up)
            return claimed
    return None


def _any_from_bag(state: State, face: str | None = None) -> int | None:
    """Takes a number out of the bag (one showing ``face`` if it has one) for a tile whose
    own number cannot be known; None from a bag whose numbers this state does not know (a
    seat's view of the game)."""
    numbers = [n for n in state.bag if n is not None]
    number = next((n for n in numbers if face in tile_sides()[n]), numbers[0] if numbers else None)
    state.bag.remove(number)
    return number
