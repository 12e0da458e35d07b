"""Burke's Gambit, registered with the engine on import."""

from companion.engine import register_game
from companion.games.burkes_gambit.rules import BurkesGambitRules

RULES = register_game(BurkesGambitRules())

__all__ = ["RULES", "BurkesGambitRules"]
