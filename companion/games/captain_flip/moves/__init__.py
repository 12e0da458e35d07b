"""Every action of Captain Flip, one module each, gathered in one MoveSet."""

from companion.engine import MoveSet, typed_square
from companion.games.captain_flip.moves import correct, draw, flip, monkey, place
from companion.games.captain_flip.moves.common import who

MOVE_SET = MoveSet("Captain Flip", (draw.MOVE, flip.MOVE, place.MOVE, monkey.MOVE,
                                    correct.MOVE), who, cells=typed_square)  # "B1 " is b1

__all__ = ["MOVE_SET"]
