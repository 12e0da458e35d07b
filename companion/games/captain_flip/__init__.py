"""Captain Flip: its stickers. The rules come with their own issue; until then the companion
prints and reads the tiles, one sticker per face."""

from itertools import combinations

from companion.engine import Component, register_components, title_of

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
            for face, other in ((first, second), (second, first)):
                out.append(Component(f"{CODE}/TILE/{number:02d}/{face}", SLUG, "TILE", face,
                                     f"Tile {number:02d}: {title_of(face)} (back:"
                                     f" {title_of(other)})", face=face))
    return out


register_components(CODE, SLUG, components())
