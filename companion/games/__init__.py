"""The games. Importing this package registers every game with the engine."""

from companion.games import burkes_gambit, captains_gambit

__all__ = ["burkes_gambit", "captains_gambit"]
