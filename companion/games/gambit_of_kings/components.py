"""Gambit of Kings' physical components and the payloads printed on their stickers: the
adventure pack's 8 piece cards of each side (QR codes), a marker for the top of every piece,
and the board's four corner stickers, by which the camera places the board.

Piece stickers are square markers 20 mm wide (benchmarks/vision/bench_codes.py: they read from
90 cm on a 720p camera, tilted 30 degrees, with motion blur), for pieces whose top is at least
23 mm across; corner stickers are QR codes 80 mm wide (3.2 mm modules: docs/vision.md,
"Decisions"). Each side has one marker per piece of the starting layout, and five spare
Knight markers, stuck on a Soldier's when it becomes a Knight (the set has no spare Knight
piece).
"""

from __future__ import annotations

from functools import cache

from companion.engine import CORNERS, BoardShape, Component, grid
from companion.games.gambit_of_kings.board import square
from companion.games.gambit_of_kings.book import SIDES, Book

CODE = "GK"
SLUG = "gambit-of-kings"
LIGHT = ["CASTLE", "PALADIN", "GIANT", "KNIGHT", "GRIFFIN", "LION", "ELF", "SOLDIER"]
DARK = ["CASTLE", "LICH", "OGRE", "DEATH-KNIGHT", "DRAGON", "DIRE-WOLF", "ORC", "SKELETON"]
PIECE_STICKER_MM = 20.0
PIECE_HEIGHT_MM = 25.0  # where a piece's top (its sticker) lies above the board  [house]
CORNER_STICKER_MM = 80.0
FIRST_MARKER = 0  # markers 0 to 49 (docs/adding-a-game.md lists every game's numbers)
PROMOTION_STICKERS = 5  # spare Knight markers per side: one per Soldier
CORNER_NAMES = ("TL", "TR", "BR", "BL")
BOARD_SHAPE = "board"


def _cards() -> list[Component]:
    return [Component(f"{CODE}/CARD/{side.upper()}/{name}", SLUG, "CARD", name,
                      f"{name.replace('-', ' ').title()} ({side})")
            for side, names in (("light", LIGHT), ("dark", DARK)) for name in names]


# The pieces of each side in the box (RULES.md 3.1; the split of the greater pieces is
# inferred), in the order their markers are numbered: printed stickers never renumber.
PIECES = (("castle", 1), ("paladin", 1), ("giant", 2), ("knight", 2), ("griffin", 2),
          ("lion", 2), ("elf", 5), ("soldier", 5))


@cache
def piece_marks() -> dict[str, str]:
    """Each piece sticker's id -> its mark on the board: the side and kind ("light knight")."""
    marks = {}
    for side, names in enumerate((LIGHT, DARK)):
        word = SIDES[side]
        for (kind, count), name in zip(PIECES, [names[LIGHT.index(k.upper())] for k, _ in PIECES],
                                       strict=True):
            copies = count + (PROMOTION_STICKERS if kind == "knight" else 0)
            for copy in range(1, copies + 1):
                marks[f"{CODE}/PIECE/{word.upper()}/{name}/{copy}"] = f"{word} {kind}"
    return marks


def _pieces() -> list[Component]:
    out = []
    for number, (piece_id, mark) in enumerate(piece_marks().items()):
        side, name, copy = piece_id.split("/")[2:]
        spare = mark.endswith("knight") and int(copy) > dict(PIECES)["knight"]
        label = f"{name.replace('-', ' ').title()} {copy} ({side.lower()})" + (
            ", for a promoted Soldier" if spare else "")
        out.append(Component(piece_id, SLUG, "PIECE", name, label, int(copy),
                             marker=FIRST_MARKER + number, size_mm=PIECE_STICKER_MM))
    return out


def _corners() -> list[Component]:
    size = Book.default().size
    grid_corners = (square(0, size), square(size - 1, size), square(size - 1, 1), square(0, 1))
    return [Component(f"{CODE}/CORNER/{name}", SLUG, "CORNER", name,
                      f"Board corner by {cell} ({where})", size_mm=CORNER_STICKER_MM)
            for name, cell, where in zip(CORNER_NAMES, grid_corners, CORNERS, strict=True)]


def components() -> list[Component]:
    """The piece cards, a marker for each piece, and the board's corner stickers."""
    return _cards() + _pieces() + _corners()


def board_shape() -> BoardShape:
    """The board as the camera places it: drawn with rank 10 at the top, file a on the left."""
    size = Book.default().size
    tl, tr, br, bl = (f"{CODE}/CORNER/{n}" for n in CORNER_NAMES)
    return BoardShape(BOARD_SHAPE, "the Gambit of Kings board", (tl, tr, br, bl), size, size,
                      grid(size, size, lambda r, c: square(c, size - r)), PIECE_HEIGHT_MM,
                      PIECE_STICKER_MM)
