"""Gambit (the 6x6 bluffing game): its stickers. The rules come with their own issue; until
then the companion prints and reads the game's pieces."""

from companion.engine import Component, register_components

CODE = "G6"
SLUG = "gambit-6x6"


def components() -> list[Component]:
    """Six pieces per team, A and B."""
    return [Component(f"{CODE}/PIECE/{team}/{n}", SLUG, "PIECE", f"{team}{n}",
                      f"Team {team} piece {n}", n) for team in "AB" for n in range(1, 7)]


register_components(CODE, SLUG, components())
