"""Gambit (6x6)'s physical components, and the payloads printed on their stickers: a marker on
top of every piece, and the corner stickers of the two boards (the 6x6 grid, which the
bridges and 3-4 player boards share with their blocked squares marked, and the 6x8
Longboard), by which the camera places the board.

Piece stickers are square markers 20 mm wide, as Gambit of Kings' (benchmarks/vision/
bench_codes.py), for pieces whose top is at least 23 mm across; corner stickers are QR codes
80 mm wide (docs/vision.md, "Decisions"). Teams A and B have six pieces, C and D (the 3-4
player board) four.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.engine import CORNERS, BoardShape, Component, grid
from companion.games.gambit_6x6.board import FILES

CODE = "G6"
SLUG = "gambit-6x6"
TEAMS = (("A", 6), ("B", 6), ("C", 4), ("D", 4))
PIECE_STICKER_MM = 20.0
PIECE_HEIGHT_MM = 15.0  # where a piece's top (its sticker) lies above the board  [house]
CORNER_STICKER_MM = 80.0
FIRST_MARKER = 64  # markers 64 to 83 (docs/adding-a-game.md lists every game's numbers)
CORNER_NAMES = ("TL", "TR", "BR", "BL")
BOARD_ID = "board"  # the table view's board
GRIDS = ((6, 6), (6, 8))  # (files, ranks) of the physical boards


def shape_name(cols: int, rows: int) -> str:
    return f"{cols}X{rows}"


def _pieces() -> list[Component]:
    out: list[Component] = []
    for team, count in TEAMS:
        for n in range(1, count + 1):
            out.append(Component(f"{CODE}/PIECE/{team}/{n}", SLUG, "PIECE", f"{team}{n}",
                                 f"Team {team} piece {n}", n, marker=FIRST_MARKER + len(out),
                                 size_mm=PIECE_STICKER_MM))
    return out


def _corners() -> list[Component]:
    return [Component(f"{CODE}/CORNER/{shape_name(cols, rows)}/{name}", SLUG, "CORNER", name,
                      f"{cols}x{rows} board corner ({where})", size_mm=CORNER_STICKER_MM)
            for cols, rows in GRIDS for name, where in zip(CORNER_NAMES, CORNERS, strict=True)]


def components() -> list[Component]:
    """A marker for each piece of the four teams, and the corner stickers of both boards."""
    return _pieces() + _corners()


def _namer(rows: int) -> Callable[[int, int], str]:
    """Cell names as the rules give them: files from a, ranks from 1 at the bottom."""
    return lambda r, c: f"{FILES[c]}{rows - r}"


def board_shapes() -> list[BoardShape]:
    """Both boards as the camera places them: rank 1 (seat 0's home row) at the bottom."""
    out = []
    for cols, rows in GRIDS:
        name = shape_name(cols, rows)
        tl, tr, br, bl = (f"{CODE}/CORNER/{name}/{n}" for n in CORNER_NAMES)
        out.append(BoardShape(name, f"the {cols}x{rows} Gambit board", (tl, tr, br, bl), rows,
                              cols, grid(rows, cols, _namer(rows)), PIECE_HEIGHT_MM,
                              PIECE_STICKER_MM))
    return out
