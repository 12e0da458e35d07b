"""Gambit of Kings' physical cards, and the payloads printed on their stickers: the adventure
pack's 8 piece cards of each side, which the camera can read."""

from __future__ import annotations

from companion.engine import Component

CODE = "GK"
SLUG = "gambit-of-kings"
LIGHT = ["CASTLE", "PALADIN", "GIANT", "KNIGHT", "GRIFFIN", "LION", "ELF", "SOLDIER"]
DARK = ["CASTLE", "LICH", "OGRE", "DEATH-KNIGHT", "DRAGON", "DIRE-WOLF", "ORC", "SKELETON"]


def components() -> list[Component]:
    """The 8 piece cards of each side (the adventure pack's movement cards)."""
    return [Component(f"{CODE}/CARD/{side.upper()}/{name}", SLUG, "CARD", name,
                      f"{name.replace('-', ' ').title()} ({side})")
            for side, names in (("light", LIGHT), ("dark", DARK)) for name in names]
