"""`move` {from, to}: tap a piece, then one of the lit squares. Landing on an enemy piece
destroys it, or, with combat dice, attacks it."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.gambit_of_kings import combat
from companion.games.gambit_of_kings.board import on_board, square
from companion.games.gambit_of_kings.book import CASTLE
from companion.games.gambit_of_kings.moves.common import my_turn
from companion.games.gambit_of_kings.state import State
from companion.games.gambit_of_kings.turn import allowed, destroy, move_done, mover, moving, place

BOARD = "board"


def _label(state: State) -> str:
    return "Second move (another piece, no attack)" if state.phase == "second" \
        else "Move a piece"


def _refusal(state: State, seat: int | None) -> str | None:
    reason = my_turn(state, seat, "move", "second")
    if reason is None and not allowed(state).moves:
        return "none of your pieces can move: pass"
    return reason


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    moves = allowed(state).moves
    origins = tuple(moves)
    targets = tuple(sorted({t for found in moves.values() for t in found}))
    # the sheet names each piece with its square: "Griffin a1", not "a1"
    names = tuple(f"{state.piece_name(state.board[o])} {o}" for o in origins)
    return (Param("from", "cell", "Your piece", choices=origins, board=BOARD, labels=names),
            Param("to", "cell", "Move to", choices=targets, board=BOARD, depends_on="from",
                  choices_by=tuple((o, tuple(found)) for o, found in moves.items())))


def _check(state: State, seat: int | None, params: Params) -> str | None:
    """Why this move is refused, naming the piece, the squares and the rule."""
    origin, target = params.get("from"), params.get("to")
    size = state.book.size
    last = square(size - 1, size)
    for where in (origin, target):
        if not on_board(where, size):
            return f"{where!r} is not a square of the board (a1 to {last})"
    assert isinstance(origin, str) and isinstance(target, str)
    piece = state.board.get(origin)
    if piece is None:
        return f"there is no piece on {origin}"
    if piece.side != seat:
        return f"the {state.piece_name(piece)} on {origin} is {state.name(piece.side)}'s"
    if piece.kind == CASTLE:
        return f"the Castle on {origin} never moves"
    if state.phase == "second" and piece.id in state.moved:
        return (f"the {state.piece_name(piece)} on {origin} has moved this turn: the second"
                " move is another piece's")
    rule = allowed(state)
    if origin not in rule.moves:
        why = mover(state, origin).refusal(target)
        return why or f"{rule.rule} (not the {state.piece_name(piece)} on {origin})"
    if target not in rule.moves[origin]:
        why = mover(state, origin).refusal(target)
        return why or f"{rule.rule}: {origin} to {target} does not free one"
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    origin, target = str(params["from"]), str(params["to"])
    path = allowed(state).moves[origin][target]
    piece = state.board[origin]
    if state.phase == "move":
        state.last_move = []
    moving(state, piece)
    state.last_move.append((origin, target))
    state.emit("moved", side=piece.side, kind=piece.kind, origin=origin, target=target)
    if target in state.board:
        if state.mode.combat:
            combat.start(state, origin, target, path)
            return
        destroy(state, target, piece)
    place(state, origin, target)
    move_done(state)


def _text(state: State, seat: int | None, params: Params) -> str:
    origin, target = params.get("from"), params.get("to")
    piece = state.board.get(str(origin))
    if piece is None:
        return f"{state.name(seat)} moves {origin} to {target}"
    said = f"{state.whose(piece)} {origin} to {target}"
    other = state.board.get(str(target))
    if other is None:
        return said
    verb = "attacks" if state.mode.combat else "destroys"
    return f"{said}: {verb} {state.whose(other)}"


MOVE = Move("move", "move", _label, _refusal, _run, _text, _params, _check)
