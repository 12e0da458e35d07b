"""A turn: which pieces may move and where (the card rolled, the boxed-in rule, the adventure
effect unlocked, AV I's second move), what a move does, and how a turn ends."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.engine import Outcome, shuffled
from companion.games.gambit_of_kings.board import Board, Piece, coords, far_rank
from companion.games.gambit_of_kings.book import CASTLE
from companion.games.gambit_of_kings.movement import Mover, Path, Powers, article
from companion.games.gambit_of_kings.state import State

Moves = Mapping[str, Mapping[str, Path]]  # origin -> target -> the path taken


@dataclass(frozen=True)
class Allowed:
    """The moves the turn allows, and the rule that narrowed them, in words ("" for none)."""

    moves: Moves
    rule: str = ""


def powers(state: State, piece: Piece, second: bool = False) -> Powers:
    """What ``piece`` may do this turn beyond its standard movement (``second``: as AV I's
    second move, which can't attack)."""
    book, mode = state.book, state.mode
    if not effect_unlocked(state, piece.kind):
        return Powers(attack=not second, giant_safe=mode.giant_safe)
    effect = book.effect(piece.kind)
    hunted = frozenset(sq for sq, p in state.board.items()
                       if p.id in state.last_moved and p.side != piece.side)
    return Powers(extra=book.effect_moves(piece.kind) if effect == "moves" else (),
                  fly=effect == "fly", unstoppable=effect == "unstoppable",
                  hunt=hunted if effect == "hunt" else frozenset(),
                  attack=not second, giant_safe=mode.giant_safe)


def effect_unlocked(state: State, kind: str) -> bool:
    """Whether a piece of ``kind`` has its adventure effect this turn: the one unlocked (by
    the card rolled, or a TAR token), or every piece's own (an even roll, any piece moving)."""
    return state.own_effects or state.unlocked == kind


def any_piece_moves(state: State, kind: str) -> bool:
    """Whether the card of ``kind`` lets any piece move: the way to play says so (AV I, AV
    II), its effect is to move any piece (the Castle's), or no piece of that type is left."""
    return (not state.mode.card_rules or state.book.effect(kind) == "any_piece"
            or not any(p.side == state.turn and p.kind == kind for p in state.board.values()))


def mover(state: State, origin: str, board: Board | None = None,
          second: bool | None = None) -> Mover:
    board = state.board if board is None else board
    second = state.phase == "second" if second is None else second
    return Mover(state.book, board, origin, powers(state, board[origin], second), state.name)


def every_move(state: State, board: Board | None = None,
               second: bool | None = None) -> dict[str, dict[str, Path]]:
    """Every move of the side to play, by its movement and this turn's powers (``second``:
    AV I's second move, another piece and no attack; by default, whether it is now)."""
    board = state.board if board is None else board
    second = state.phase == "second" if second is None else second
    out = {}
    for origin, piece in board.items():
        if piece.side != state.turn or piece.kind == CASTLE:
            continue
        if second and piece.id in state.moved:
            continue  # AV I: the second move is another piece's
        found = mover(state, origin, board, second).destinations()
        if found:
            out[origin] = found
    return out


def allowed(state: State) -> Allowed:
    """The moves open now: all of the side's, unless the card rolled says which piece.
    Kept in the state's memo while the position and the turn stay the same."""
    key = (state.phase, state.turn, state.roll, state.unlocked, state.own_effects,
           tuple(state.moved), tuple(state.last_moved), tuple(state.board.items()))
    return state.remember("allowed", key, lambda: _allowed(state))


def _allowed(state: State) -> Allowed:
    every = every_move(state)
    if not state.mode.card_rules or state.roll is None or state.phase != "move":
        return Allowed(every)
    book, seat, roll = state.book, state.turn, state.roll
    kind = state.card(seat, roll)
    if kind is None:
        return Allowed({}, f"the roll is {roll}: there is no card {roll}, the turn is lost")
    name = book.name(kind, seat)
    said = f"the roll is {roll}, the {name}'s card"
    if effect_unlocked(state, kind) and book.effect(kind) == "any_piece":
        return Allowed(every, f"{said}: any piece moves")
    own = [sq for sq, p in state.board.items() if p.side == seat and p.kind == kind]
    if not own:
        return Allowed(every, f"{said}: no {name} is left, so any piece moves")
    of_kind = {o: d for o, d in every.items() if o in own}
    if of_kind:
        return Allowed(of_kind, f"{said}: {article(name)} {name} moves")
    freeing = {o: {t: p for t, p in d.items() if _frees(state, o, t, kind)}
               for o, d in every.items()}
    freeing = {o: d for o, d in freeing.items() if d}
    if freeing:
        return Allowed(freeing, f"{said}: every {name} is boxed in, so a piece that frees one"
                                " moves")
    return Allowed(every, f"{said}: every {name} is boxed in and no move frees one, so any"
                          " piece moves")


def _frees(state: State, origin: str, target: str, kind: str) -> bool:
    """After this move (as if it lands), could a piece of ``kind`` move?"""
    board = dict(state.board)
    board[target] = board.pop(origin)
    return any(p.side == state.turn and p.kind == kind and mover(state, sq, board).destinations()
               for sq, p in board.items())


# --- what a move does -----------------------------------------------------------------------

def moving(state: State, piece: Piece) -> None:
    """``piece`` moves this turn. With each mover's own effect unlocked, a re-roll effect (the
    Paladin's) is its player's only once that piece moves."""
    state.moved.append(piece.id)
    if state.own_effects and state.book.effect(piece.kind) == "reroll":
        state.free_reroll = True


def place(state: State, origin: str, target: str) -> None:
    """The piece on ``origin`` goes to ``target`` (empty now); a Soldier reaching its far row
    is promoted (taking the Castle there, the win stays the move's last word)."""
    piece = state.board.pop(origin)
    state.board[target] = piece
    if coords(target)[1] == far_rank(piece.side, state.book.size):
        promote(state, target, "reached the farthest row")
        state.events.sort(key=lambda event: event["type"] == "castle_taken")  # stable


def destroy(state: State, where: str, by: Piece) -> None:
    """The piece on ``where`` is destroyed by ``by``; taking a Castle wins the game."""
    piece = state.board.pop(where)
    state.lost[piece.side].append(piece.kind)
    state.destroyed = True
    state.emit("destroyed", square=where, side=piece.side, kind=piece.kind)
    if piece.kind == CASTLE:
        state.turns, state.quiet = state.turns + 1, 0  # the winning turn is played out
        state.emit("castle_taken", side=by.side)
        finish(state, Outcome((by.side,), "castle_taken"))
        return
    at = state.find(by.id)
    if at is not None and state.book.greater(piece.kind):
        promote(state, at, "destroyed a greater piece")


def promote(state: State, where: str, why: str) -> None:
    piece = state.board[where]
    becomes = state.book.promotes_to(piece.kind)
    if becomes is None or becomes == piece.kind:
        return
    state.board[where] = Piece(piece.id, piece.side, becomes)
    state.emit("promoted", square=where, side=piece.side, kind=piece.kind, to=becomes, why=why)


def finish(state: State, outcome: Outcome) -> None:
    state.outcome = outcome
    state.phase = "over"
    state.combat = None


def move_done(state: State) -> None:
    """A move (and its fight) is over: AV I's second move, or the turn ends."""
    if state.outcome is not None:
        return
    double = state.mode.double_move
    first_move = len(state.moved) == 1
    if double and state.roll == double and first_move and every_move(state, second=True):
        state.phase = "second"
        return
    end_turn(state)


def end_turn(state: State) -> None:
    state.turns += 1
    state.quiet = 0 if state.destroyed else state.quiet + 1
    state.last_moved, state.moved = state.moved, []
    unlock(state, None)
    state.roll, state.destroyed = None, False
    state.combat = None
    limit = state.book.quiet_turns
    if limit and state.quiet >= limit:
        state.emit("drawn", turns=state.quiet)
        finish(state, Outcome((), "quiet_draw"))
        return
    state.turn = 1 - state.turn
    begin_turn(state)


def begin_turn(state: State) -> None:
    state.phase = "roll" if state.mode.roll else "move"


def unlock(state: State, kind: str | None, own: bool = False) -> None:
    """The adventure effect of ``kind`` is unlocked for this turn (``own``: instead, each piece
    that moves has its own)."""
    state.unlocked, state.own_effects = kind, own
    state.free_reroll = kind is not None and state.book.effect(kind) == "reroll"


def draw(state: State, sides: int) -> int:
    """A die the companion rolls: seeded, so a replay of the log rolls the same."""
    value = next_draw(state, sides)
    state.rolls += 1
    state.emit("companion_rolled", sides=sides, value=value)
    return value


def next_draw(state: State, sides: int) -> int:
    """What the companion's next die of ``sides`` will show (for the log line)."""
    return shuffled(range(1, sides + 1), state.seed, "die", state.rolls)[0]
