"""Captain's Gambit's physical cards, and the payloads printed on their stickers."""

from __future__ import annotations

from companion.engine import Component, cards

CODE = "CG"
SLUG = "captains-gambit"
CAPTAINS = ["HAMLET", "PORTIA", "PROSPERO", "LADY-MACBETH", "IAGO", "PUCK", "CORDELIA",
            "BRUTUS", "ROMEO", "JULIET", "RICHARD-III", "ROSALIND", "VIOLA", "KING-LEAR",
            "OTHELLO", "TYBALT", "MERCUTIO", "TITUS", "IMOGEN"]
PERMIT_CARDS = ["BARRAGE", "SHIELD", "DRAIN", "OVERCHARGE", "FORTIFY", "NETWORK"]
WILDCARD_CARDS = ["IDENTITY-THEFT", "DIPLOMATIC-IMMUNITY"]


def components() -> list[Component]:
    """19 captains, 4 copies of each permit, 2 of each wildcard."""
    return [*cards(CODE, SLUG, "CAPTAIN", CAPTAINS),
            *cards(CODE, SLUG, "PERMIT", PERMIT_CARDS, copies=4),
            *cards(CODE, SLUG, "WILDCARD", WILDCARD_CARDS, copies=2)]
