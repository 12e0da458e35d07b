"""Physical boards, as the camera sees them: what a game declares so that a board can be placed
in a picture by its four corner stickers, what the companion expects to stand on each cell
now, and a board's score from a photo. Geometry only comes from here: shared code reads any
game's boards the same way (docs/adding-a-game.md, "Boards the camera reads").

A board's cells are those of the table view's board it shows (row 0 at the top as drawn,
``Board.cells``). Its corner stickers lie outside the grid, one at each corner, the sticker's
own corner on the grid's corner. What stands on a cell is named by a *mark*: the game's word
for what a sticker shows (``GameRules.board_mark``), the same word ``BoardInPlay.marks``
expects, so that a camera reading and the companion's position compare as text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from companion.engine.table_view import ScoreSheet

CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")
# A corner sticker is a version-1 QR code (21 modules: a payload of at most 20 characters) in
# a quiet zone of 2 modules, so its code covers 21/25 of the sticker's side; the sticker's
# corner nearest the board lies on the grid's corner.
CORNER_PAYLOAD_MAX = 20
CORNER_CODE_SHARE = 21 / 25


@dataclass(frozen=True)
class BoardShape:
    """One physical board the camera can place."""

    name: str  # its name among the game's boards ("board", "6x8", "A1": board A, copy 1)
    title: str  # in words, for a status ("board A, copy 1")
    corners: tuple[str, str, str, str]  # component ids of its corner stickers, in CORNERS order
    rows: int
    cols: int
    cells: tuple[tuple[str, int, int], ...]  # every cell it has: (id, row, col)
    height_mm: float = 0.0  # how far above the board the stickers on its pieces lie
    sticker_mm: float = 20.0  # the side of the stickers on its pieces
    seat: int | None = None  # the seat it belongs to, when the board itself says so


@dataclass(frozen=True)
class BoardInPlay:
    """A board the table plays on now, and what the companion expects the camera to see."""

    shape: str  # BoardShape.name
    board: str  # the table view's board id
    seat: int | None  # whose board (None: the table's)
    marks: Mapping[str, str]  # every cell there is now -> the mark on top of it ("": none)


@dataclass(frozen=True)
class PhotoScore:
    """Boards scored from one photo: the score sheet of the boards read wholly, and for each
    board that was not, the cells it could not read (or that cannot be as read)."""

    sheet: ScoreSheet | None
    unread: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # shape -> cells
    notes: tuple[str, ...] = ()


def grid(rows: int, cols: int,
         name: Callable[[int, int], str]) -> tuple[tuple[str, int, int], ...]:
    """Every cell of a full grid, ``name(row, col)`` its id."""
    return tuple((name(r, c), r, c) for r in range(rows) for c in range(cols))
