"""Gambit (6x6)'s physical pieces, and the payloads printed on their stickers."""

from __future__ import annotations

from companion.engine import Component

CODE = "G6"
SLUG = "gambit-6x6"


def components() -> list[Component]:
    """Six pieces per team, A and B."""
    return [Component(f"{CODE}/PIECE/{team}/{n}", SLUG, "PIECE", f"{team}{n}",
                      f"Team {team} piece {n}", n) for team in "AB" for n in range(1, 7)]
