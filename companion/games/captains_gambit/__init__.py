"""Captain's Gambit, registered with the engine on import."""

from companion.engine import register_game
from companion.games.captains_gambit.book import Book
from companion.games.captains_gambit.rules import CaptainsGambitRules

RULES = register_game(CaptainsGambitRules())

__all__ = ["RULES", "Book", "CaptainsGambitRules"]
