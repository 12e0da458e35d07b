"""What the actions share: whose turn it is, what the game waits for, in words, and the
checks of a die's face."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.engine import Action, Param
from companion.games.gambit_of_kings.state import State
from companion.games.gambit_of_kings.turn import allowed

PIECE_NAMED = ("lay_card", "unlock")  # the actions whose `piece` is a piece's name


def canonical(state: State, action: Action) -> Action:
    """``action`` with its piece named as the phones offer it ("dire_wolf"), however setup
    would take the name ("Dire Wolf", "dark lion"): one reading of names everywhere."""
    piece = action.params.get("piece")
    if action.name not in PIECE_NAMED or not isinstance(piece, str) or action.seat not in (0, 1):
        return action
    kind = state.book.kind_of(action.seat, piece)
    if kind is None:
        return action  # refused by the choice, which lists the names
    return Action(action.name, action.seat,
                  {**action.params, "piece": state.book.piece_id(kind, action.seat)})


def fixed(text: str) -> Callable[[State], str]:
    return lambda state: text


def my_turn(state: State, seat: int | None, *phases: str) -> str | None:
    """Why ``seat`` may not act on its turn now (None: it may)."""
    if state.outcome is not None:
        return "the game is over"
    if seat is None:
        return "the players move the pieces; the table has its own tools"
    if state.phase not in phases:
        return f"not now: {status(state, detail=False)}"
    if seat != state.turn:
        return f"it is {state.name(state.turn)}'s turn"
    return None


def faces(sides: int) -> tuple[int, ...]:
    return tuple(range(1, sides + 1))


def face_problem(value: Any, sides: int, die: str) -> str | None:
    """Why ``value`` is not a face of a die of ``sides`` (None: it is)."""
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= sides:
        return None
    return f"{die} shows 1 to {sides}, not {value!r}"


def face_param(sides: int, label: str) -> Param:
    return Param("face", "choice", label, choices=faces(sides))


def status(state: State, detail: bool = True) -> str:
    """What the game waits for, in words (``detail``: with what the roll asks)."""
    if state.outcome is not None:
        return "The game is over"
    name = state.name(state.turn)
    if state.phase == "laying":
        missing = [state.names[s] for s in (0, 1) if not state.cards[s]]
        return f"Laying out the cards: waiting for {' and '.join(missing)}"
    if state.phase == "roll":
        return f"{name} to roll the movement die (d{state.book.movement_die})"
    if state.phase == "combat":
        return combat_status(state)
    if state.phase == "second":
        return (f"{name} rolled {state.roll}: a second, different piece may move (it can't"
                " attack), or end the turn")
    if not detail:
        return f"{name} to move"
    rule = allowed(state)
    if not rule.moves:
        return f"{name} cannot move any piece: {name} passes"
    return f"{name} to move" + (f" ({rule.rule})" if rule.rule else "")


def combat_status(state: State) -> str:
    combat = state.combat
    assert combat is not None
    missing = combat.missing()
    if missing:
        return "Combat: waiting for " + ", ".join(state.die_name(d) for d in missing)
    loser = combat.loser if combat.loser is not None else state.turn
    return f"Combat: {state.name(loser)} is losing and may re-roll a die, or accept"
