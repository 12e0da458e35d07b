"""Burke's Gambit's physical cards, and the payloads printed on their stickers."""

from __future__ import annotations

from companion.engine import Component, cards

CODE = "BG"
SLUG = "burkes-gambit"
# 7 of the 13 role names are unknown; tables rename them in the game's data.
ROLES = ["CAPTAIN", "MARINE", "COMMS-OFFICER", "DOCTOR", "PILOT", "STOWAWAY",
         *[f"ROLE-{n}" for n in range(7, 14)]]


def components() -> list[Component]:
    """ID cards (5 crew, 3 specialists), parasite cards (1 infected, 7 clean), 13 roles."""
    return [*cards(CODE, SLUG, "ID", ["CREW"], copies=5),
            *cards(CODE, SLUG, "ID", ["ASS"], copies=3),
            *cards(CODE, SLUG, "PARASITE", ["INFECTED"]),
            *cards(CODE, SLUG, "PARASITE", ["CLEAN"], copies=7),
            *cards(CODE, SLUG, "ROLE", ROLES)]
