"""Captain Flip's physical tiles and boards, and the payloads printed on their stickers: a
marker on each face of every tile, and the corner stickers of each player's board.

Tile stickers are square markers 30 mm wide (benchmarks/vision/bench_codes.py), for tiles at
least 32 mm across; corner stickers are QR codes 70 mm wide
(2.8 mm modules: docs/vision.md, "Decisions"). The box holds five double-sided
boards (A/B or C/D on each side, RULES.md 5.3): each face of each board has its own four
corner stickers, naming its letter and its copy; copy 1 is the board with the pirate flag,
the first player's, and copy N is seat N-1's.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from companion.engine import CORNERS, BoardShape, Component, title_of

CODE = "CF"
SLUG = "captain-flip"
CHARACTERS = ["SWABBY", "CARTOGRAPHER", "NAVIGATOR", "CARPENTER", "COOK", "MONKEY", "GUNNER",
              "PARROT", "LOOKOUT"]
LETTERS = ("A", "B", "C", "D")
COPIES = 5  # boards in the box: one per player
TILE_STICKER_MM = 30.0
TILE_HEIGHT_MM = 2.5  # a tile's thickness: where its sticker lies above the board  [house]
CORNER_STICKER_MM = 70.0
FIRST_MARKER = 96  # markers 96 to 239 (docs/adding-a-game.md lists every game's numbers)
CORNER_NAMES = ("TL", "TR", "BR", "BL")


def _tiles() -> list[Component]:
    """72 two-sided tiles: every pair of different characters on exactly 2 tiles.

    Numbering is ours (the printed tiles carry none): pairs in the order of CHARACTERS, each
    pair twice, so tiles 01 and 02 are Swabby/Cartographer.
    """
    out: list[Component] = []
    number = 0
    for first, second in combinations(CHARACTERS, 2):
        for _ in range(2):
            number += 1
            # The label names the face it is stuck on, never the back: the drawer may see only
            # one side (seed), and the sticker is on the side that is seen.
            for face in (first, second):
                out.append(Component(f"{CODE}/TILE/{number:02d}/{face}", SLUG, "TILE", face,
                                     f"Tile {number:02d}: {title_of(face)}", face=face,
                                     marker=FIRST_MARKER + len(out), size_mm=TILE_STICKER_MM))
    return out


def shape_name(letter: str, seat: int) -> str:
    """A board's name among the camera's boards: its letter and copy ("A1": seat 0's A)."""
    return f"{letter}{seat + 1}"


def _corners() -> list[Component]:
    return [Component(f"{CODE}/CORNER/{shape_name(letter, copy)}/{name}", SLUG, "CORNER", name,
                      f"Board {letter}, copy {copy + 1}: corner ({where})",
                      size_mm=CORNER_STICKER_MM)
            for letter in LETTERS for copy in range(COPIES)
            for name, where in zip(CORNER_NAMES, CORNERS, strict=True)]


def components() -> list[Component]:
    """Both faces of every tile, and the corner stickers of every face of every board."""
    return _tiles() + _corners()


def board_shapes(cells_of: dict[str, tuple[tuple[str, int, int], ...]]) -> list[BoardShape]:
    """Every face of every board: ``cells_of`` gives each letter's spaces (id, row, col) on
    its 5 x 5 grid (row 0 at the top)."""
    out = []
    for letter in LETTERS:
        for seat in range(COPIES):
            name = shape_name(letter, seat)
            tl, tr, br, bl = (f"{CODE}/CORNER/{name}/{n}" for n in CORNER_NAMES)
            out.append(BoardShape(name, f"board {letter}, copy {seat + 1}", (tl, tr, br, bl),
                                  5, 5, cells_of[letter], TILE_HEIGHT_MM, TILE_STICKER_MM,
                                  seat))
    return out


@cache
def tile_sides() -> dict[int, tuple[str, str]]:
    """Each tile's number and its two characters, as the rules name them (``cook``)."""
    sides: dict[int, list[str]] = {}
    for component in _tiles():
        number = int(component.id.split("/")[2])
        sides.setdefault(number, []).append(component.name.lower())
    return {number: (faces[0], faces[1]) for number, faces in sides.items()}


def tile_name(number: int) -> str:
    """A tile's number as its stickers print it: ``07``."""
    return f"{number:02d}"


def read_tile(component: Component) -> tuple[int, str] | None:
    """The tile number and the character showing, for one of this game's stickers."""
    if component.game != SLUG or component.kind != "TILE" or component.face is None:
        return None
    return int(component.id.split("/")[2]), component.face.lower()
