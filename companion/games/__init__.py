"""The games. Importing this package registers every game with the engine."""

from companion.games import captains_gambit

__all__ = ["captains_gambit"]
