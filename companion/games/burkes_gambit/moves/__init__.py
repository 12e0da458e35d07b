"""Every action of Burke's Gambit: one module per action (its label and parameters, when it is
refused, what it does, its log line), named after the action. Dice are never simulated: a
roll is an observation ("Ann rolled Quarantine"), from the camera or a phone.

What several actions share: ``common`` (the teams, seat names, what the game waits for, the
usual refusals, the die's face), ``die_action`` (the Cancel window a die action waits in, and
what each face does) and ``flow`` (turns, engines, deaths, looks, the vote's count, the end).
"""

from __future__ import annotations

from companion.engine import Move, MoveSet
from companion.games.burkes_gambit.moves import (
    break_tie,
    cancel,
    carry_out,
    correct,
    dead_revealed,
    declare_winner,
    ejected_revealed,
    end_heads_down,
    grant_look,
    id_seen,
    pass_turn,
    reroll,
    reserve_die,
    resolve,
    return_die,
    role_seen,
    roll,
    use_reserve,
    use_role,
    vote,
)
from companion.games.burkes_gambit.moves.common import (
    NAMES,
    WINNERS,
    own_looks,
    status,
    turn_shown,
    waiting_for,
    who,
    winning_team,
)
from companion.games.burkes_gambit.moves.die_action import action_name, cancelled_name

# The order phones offer the actions in.
MOVES: dict[str, Move] = {m.name: m for m in (
    role_seen.MOVE,
    id_seen.MOVE,
    end_heads_down.MOVE,
    roll.MOVE,
    pass_turn.MOVE,
    use_reserve.MOVE,
    reroll.MOVE,
    resolve.MOVE,
    return_die.MOVE,
    reserve_die.MOVE,
    cancel.MOVE,
    carry_out.MOVE,
    use_role.MOVE,
    vote.MOVE,
    break_tie.MOVE,
    dead_revealed.MOVE,
    ejected_revealed.MOVE,
    correct.MOVE,
    grant_look.MOVE,
    declare_winner.MOVE,
)}

MOVE_SET = MoveSet("Burke's Gambit", MOVES.values(), who)

__all__ = [
    "MOVES",
    "MOVE_SET",
    "NAMES",
    "WINNERS",
    "action_name",
    "cancelled_name",
    "own_looks",
    "status",
    "turn_shown",
    "waiting_for",
    "winning_team",
]
