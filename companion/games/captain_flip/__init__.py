"""Captain Flip, registered with the engine on import: its rules and its tiles' stickers."""

from companion.engine import register_game
from companion.games.captain_flip.rules import CaptainFlipRules

RULES = register_game(CaptainFlipRules())

__all__ = ["RULES", "CaptainFlipRules"]
