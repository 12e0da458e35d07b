"""Every action, reaction and input of Captain's Gambit: one module per action (its label and
parameters, when it is refused, what it does, its log line), named after the action.

Closely related actions share a module: ``sheet`` (the player sheet's nine actions, made from
the book's data), ``immunity`` (``use_immunity``, ``take_damage``) and ``save_window``
(``last_stand``, ``decline_save``). What several share is in ``common`` (seat names, what the
game waits for, the log's event notes, refusals, targets, hands) and ``bluff`` (a bluff call
under way).
"""

from __future__ import annotations

from companion.engine import Move, MoveSet
from companion.games.captains_gambit.moves import (
    call_bluff,
    captain_seen,
    choose_corpse,
    concede,
    correct,
    end_prologue,
    forget_told,
    immunity,
    mulligan,
    permits_seen,
    prologue_mark,
    prologue_swap,
    resolve,
    reveal,
    save_window,
    sheet,
    shield,
    show_permit,
    take_income,
)
from companion.games.captains_gambit.moves.bluff import challenged, claimed_card
from companion.games.captains_gambit.moves.common import (
    event_notes,
    prompt,
    waiting_for,
    waiting_text,
    who,
)
from companion.games.captains_gambit.moves.correct import COUNTERS
from companion.games.captains_gambit.moves.mulligan import after_deal

# The order phones offer the actions in.
MOVES: dict[str, Move] = {m.name: m for m in (
    *sheet.MOVES,
    resolve.MOVE,
    shield.MOVE,
    call_bluff.MOVE,
    show_permit.MOVE,
    concede.MOVE,
    *immunity.MOVES,
    take_income.MOVE,
    reveal.MOVE,
    *save_window.MOVES,
    mulligan.MOVE,
    prologue_swap.MOVE,
    prologue_mark.MOVE,
    end_prologue.MOVE,
    captain_seen.MOVE,
    permits_seen.MOVE,
    choose_corpse.MOVE,
    correct.MOVE,
    forget_told.MOVE,
)}

MOVE_SET = MoveSet("Captain's Gambit", MOVES.values(), who)

__all__ = [
    "COUNTERS",
    "MOVES",
    "MOVE_SET",
    "after_deal",
    "challenged",
    "claimed_card",
    "event_notes",
    "prompt",
    "waiting_for",
    "waiting_text",
]
