"""The table's rulings, each with a reason and logged for everyone: `set_piece` {piece,
square, reason} puts a piece where it really is (a move entered wrong and found only after a
look or a rolled power, where undo cannot reach), or off the board as lost, or back from the
lost; `declare` {result, reason} ends the game with a result the table agrees on (a player
concedes, a draw by agreement, a position the companion got wrong). Neither shows a power."""

from __future__ import annotations

from companion.engine import Move, Param
from companion.games.gambit_6x6 import flow
from companion.games.gambit_6x6.moves.common import Params, fixed, on_squares
from companion.games.gambit_6x6.state import State

OFF = "off"  # set_piece's square for "off the board, lost"
DRAW = "draw"


def _between_actions(state: State, seat: int | None) -> str | None:
    """A piece is put right between actions only: not while a claim waits for its answers,
    a challenge is settled or a Player Power is taken (each of those finishes first)."""
    if seat is not None:
        return "only the table (its host) puts a piece right"
    if state.phase != "turn" or state.pending is not None or state.owed:
        return "not now: between actions only (finish the one under way, or undo it)"
    return None


def _piece_params(state: State, seat: int | None) -> tuple[Param, ...]:
    pieces = tuple(sorted(state.pieces))
    squares = (*state.layout.cells(), OFF)
    return (Param("piece", "choice", "Which piece", choices=pieces,
                  labels=on_squares(state, pieces)),
            Param("square", "choice", "Where it really is", choices=squares,
                  labels=(*state.layout.cells(), "Off the board (lost)")),
            Param("reason", "text", "Why", maximum=200))


def _piece_check(state: State, seat: int | None, params: Params) -> str | None:
    piece, square = params.get("piece"), params.get("square")
    if piece not in state.pieces or not isinstance(square, str):
        return None  # the fields' own checks name the values
    where = state.where(str(piece))
    if (where or OFF) == square:
        return f"{piece} is {'off the board' if where is None else 'on ' + where} already"
    team = state.pieces[str(piece)].seat
    if square != OFF and not state.in_game(team):
        return f"{state.name(team)} is out of the game: undo back to it, or declare the result"
    return None


def _piece_run(state: State, seat: int | None, params: Params) -> None:
    piece, square = str(params["piece"]), str(params["square"])
    if square == OFF:
        flow.lose(state, piece)  # a loss that counts: a team out, or the game over, follow
        return
    state.take_off(piece)  # anything sitting on it settles onto the square it leaves
    state.pieces[piece].lost = False
    state.pieces[piece].counts = True
    state.place(piece, square)  # on top of any piece there: it sits on it


def _piece_text(state: State, seat: int | None, params: Params) -> str:
    piece, square = params.get("piece"), params.get("square")
    where = state.where(str(piece)) if piece in state.pieces else None
    now = "off the board (lost)" if square == OFF else f"on {square}"
    was = f", not on {where}" if where is not None else ""
    return f"Table ruling: {piece} is {now}{was} ({params.get('reason')})"


SET_PIECE = Move("set_piece", "table", fixed("Put a piece where it really is (the table's"
                                             " ruling)"),
                 _between_actions, _piece_run, _piece_text, _piece_params, _piece_check,
                 ruling=True)


def _declare_refusal(state: State, seat: int | None) -> str | None:
    if state.outcome is not None:
        return "the game is over"
    return None if seat is None else "only the table declares a result"


def _declare_params(state: State, seat: int | None) -> tuple[Param, ...]:
    playing = [s for s in range(len(state.names)) if state.in_game(s)]
    return (Param("result", "choice", "Who wins",
                  choices=(*(state.names[s] for s in playing), DRAW),
                  labels=(*(state.names[s] for s in playing), "A draw (nobody wins)")),
            Param("reason", "text", "Why", maximum=200))


def _declare_run(state: State, seat: int | None, params: Params) -> None:
    result = str(params["result"])
    winners = () if result == DRAW else (state.names.index(result),)
    flow.game_over(state, winners, "declared", why=str(params["reason"]))


def _declare_text(state: State, seat: int | None, params: Params) -> str:
    result = params.get("result")
    said = "a draw" if result == DRAW else f"{result} the winner"
    return f"The table declares {said} ({params.get('reason')})"


DECLARE = Move("declare", "table", fixed("Declare the result (the table's ruling)"),
               _declare_refusal, _declare_run, _declare_text, _declare_params, ruling=True)
