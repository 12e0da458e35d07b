"""Gambit of Kings' actions, one small module each, gathered in one MoveSet."""

from __future__ import annotations

from companion.engine import MoveSet, typed_square
from companion.games.gambit_of_kings.moves.cards import LAY_CARD
from companion.games.gambit_of_kings.moves.common import canonical, status
from companion.games.gambit_of_kings.moves.dice import ACCEPT, DIE, REROLL_COMBAT
from companion.games.gambit_of_kings.moves.move import BOARD, MOVE
from companion.games.gambit_of_kings.moves.roll import REROLL_MOVEMENT, ROLL
from companion.games.gambit_of_kings.moves.rulings import DECLARE
from companion.games.gambit_of_kings.moves.turns import END_TURN, PASS
from companion.games.gambit_of_kings.moves.unlock import UNLOCK
from companion.games.gambit_of_kings.state import State

MOVES = {m.name: m for m in (LAY_CARD, ROLL, REROLL_MOVEMENT, UNLOCK, MOVE, PASS, DIE,
                             REROLL_COMBAT, ACCEPT, END_TURN, DECLARE)}


def _who(state: State, seat: int | None) -> str:
    return state.name(seat)


# Squares typed by hand ("D4", " e2 ") are read as setup reads a written position.
MOVE_SET = MoveSet("Gambit of Kings", MOVES.values(), _who, cells=typed_square)

__all__ = ["BOARD", "MOVES", "MOVE_SET", "canonical", "status"]
