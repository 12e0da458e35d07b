"""Captain Flip's physical tiles and the payloads printed on their stickers, one per face."""

from __future__ import annotations

from functools import cache
from itertools import combinations

from companion.engine import Component, title_of

CODE = "CF"
SLUG = "captain-flip"
CHARACTERS = ["SWABBY", "CARTOGRAPHER", "NAVIGATOR", "CARPENTER", "COOK", "MONKEY", "GUNNER",
              "PARROT", "LOOKOUT"]


def components() -> list[Component]:
    """72 two-sided tiles: every pair of different characters on exactly 2 tiles.

    Numbering is ours (the printed tiles carry none): pairs in the order of CHARACTERS, each
    pair twice, so tiles 01 and 02 are Swabby/Cartographer.
    """
    out = []
    number = 0
    for first, second in combinations(CHARACTERS, 2):
        for _ in range(2):
            number += 1
            # The label names the face it is stuck on, never the back: the drawer may see only
            # one side (seed), and the sticker is on the side that is seen.
            for face in (first, second):
                out.append(Component(f"{CODE}/TILE/{number:02d}/{face}", SLUG, "TILE", face,
                                     f"Tile {number:02d}: {title_of(face)}", face=face))
    return out


@cache
def tile_sides() -> dict[int, tuple[str, str]]:
    """Each tile's number and its two characters, as the rules name them (``cook``)."""
    sides: dict[int, list[str]] = {}
    for component in components():
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
