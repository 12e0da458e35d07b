"""`roll` {face}: the movement roll that starts a turn in the adventure rules, AV I and AV II.
The card of that number says which piece moves (adventure rules), and an even roll unlocks
that piece's adventure effect for the turn; where any piece may move, each piece that moves
has its own (house: effects.even_roll). `reroll_movement` {face}: a re-roll token spent on it,
before any piece moves."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.gambit_of_kings.moves.common import face_param, face_problem, fixed, my_turn
from companion.games.gambit_of_kings.state import State
from companion.games.gambit_of_kings.turn import any_piece_moves, draw, unlock


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    if state.companion_dice:
        return ()
    return (face_param(state.book.movement_die, "The movement die shows"),)


def _check(state: State, seat: int | None, params: Params) -> str | None:
    if state.companion_dice:
        return None
    sides = state.book.movement_die
    return face_problem(params.get("face"), sides, f"the movement die (a d{sides})")


def set_roll(state: State, value: int) -> None:
    """The movement roll is ``value``: its card, and if it is even the card's effect, or, where
    any piece may move, each moving piece's own."""
    state.roll = value
    kind = state.card(state.turn, value)
    even = kind is not None and value % 2 == 0
    own = kind is not None and even and state.book.mover_effects and any_piece_moves(state, kind)
    unlock(state, kind if even and not own else None, own)
    state.phase = "move"
    state.emit("rolled", seat=state.turn, value=value, kind=kind, unlocked=even, own=own)


def _value(state: State, params: Params) -> int:
    return draw(state, state.book.movement_die) if state.companion_dice else int(params["face"])


def _run(state: State, seat: int | None, params: Params) -> None:
    set_roll(state, _value(state, params))


def _text(state: State, seat: int | None, params: Params, again: bool = False) -> str:
    verb = "re-rolls the movement die with a token" if again else "rolls the movement die"
    if state.companion_dice:  # a preview must not tell the die: its value is the log's note
        return f"{state.name(seat)} {verb} (rolled by the companion)"
    return f"{state.name(seat)} {verb}: {params.get('face')}"


def no_roll(state: State) -> str | None:
    """The refusal of a movement roll's action in a way to play that has none."""
    if state.outcome is None and not state.mode.roll:
        return f"there is no movement roll in the {state.mode.label}"
    return None


def _roll_refusal(state: State, seat: int | None) -> str | None:
    return no_roll(state) or my_turn(state, seat, "roll")


def _reroll_refusal(state: State, seat: int | None) -> str | None:
    reason = no_roll(state) or my_turn(state, seat, "move")
    if reason:
        return reason
    if state.roll is None or state.moved:
        return "there is no movement roll to re-roll now"
    if state.mode.token_use != "reroll" or state.tokens[state.turn] < 1:
        return "you have no re-roll token"
    return None


def _reroll_run(state: State, seat: int | None, params: Params) -> None:
    state.tokens[state.turn] -= 1
    state.emit("token_spent", seat=state.turn, left=state.tokens[state.turn])
    set_roll(state, _value(state, params))


ROLL = Move("roll", "move", fixed("Roll the movement die"), _roll_refusal, _run, _text, _params,
            _check)
REROLL_MOVEMENT = Move(
    "reroll_movement", "move",
    lambda s: f"Re-roll the movement die (a token: {s.tokens[s.turn]} left)", _reroll_refusal,
    _reroll_run, lambda s, seat, p: _text(s, seat, p, again=True), _params, _check)
