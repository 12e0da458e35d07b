"""Gambit of Kings: its stickers. The rules come with their own issue; until then the
companion prints and reads the game's piece cards."""

from companion.engine import Component, register_components

CODE = "GK"
SLUG = "gambit-of-kings"
LIGHT = ["CASTLE", "PALADIN", "GIANT", "KNIGHT", "GRIFFIN", "LION", "ELF", "SOLDIER"]
DARK = ["CASTLE", "LICH", "OGRE", "DEATH-KNIGHT", "DRAGON", "DIRE-WOLF", "ORC", "SKELETON"]


def components() -> list[Component]:
    """The 8 piece cards of each side (the adventure pack's movement cards)."""
    return [Component(f"{CODE}/CARD/{side.upper()}/{name}", SLUG, "CARD", name,
                      f"{name.replace('-', ' ').title()} ({side})")
            for side, names in (("light", LIGHT), ("dark", DARK)) for name in names]


register_components(CODE, SLUG, components())
