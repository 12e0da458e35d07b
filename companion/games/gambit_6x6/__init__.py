"""Gambit (the 6x6 bluffing game), registered with the engine on import."""

from companion.engine import register_game
from companion.games.gambit_6x6.rules import Gambit6x6Rules

RULES = register_game(Gambit6x6Rules())

__all__ = ["RULES", "Gambit6x6Rules"]
