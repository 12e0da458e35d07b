"""Gambit of Kings, registered with the engine on import (its stickers with it)."""

from companion.engine import register_game
from companion.games.gambit_of_kings.rules import GambitOfKingsRules

RULES = register_game(GambitOfKingsRules())

__all__ = ["RULES", "GambitOfKingsRules"]
