"""`unlock` {piece} (TAR): a token spent before moving unlocks one piece's adventure effect for
the turn. Only effects that change a move are offered: TAR has no dice to re-roll, and any
piece may move anyway."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.gambit_of_kings.moves.common import my_turn
from companion.games.gambit_of_kings.state import State
from companion.games.gambit_of_kings.turn import unlock

MOVING_EFFECTS = ("moves", "fly", "unstoppable", "hunt")


def choices(state: State, seat: int) -> dict[str, str]:
    """The seat's pieces on the board whose effect changes a move: "death_knight" -> kind."""
    book = state.book
    kinds = {p.kind for p in state.board.values() if p.side == seat
             and book.effect(p.kind) in MOVING_EFFECTS}
    return {book.piece_id(k, seat): k for k in sorted(kinds)}


def _refusal(state: State, seat: int | None) -> str | None:
    if state.mode.token_use != "unlock":  # first: "not now" would say it comes later
        return "tokens unlock adventure effects only in the tactical adventure rules (TAR)"
    reason = my_turn(state, seat, "move")
    if reason:
        return reason
    if state.tokens[state.turn] < 1:
        return "you have no token left"
    if state.unlocked is not None or state.moved:
        return "an effect is unlocked this turn already" if state.unlocked else \
            "unlock an effect before moving"
    if not choices(state, state.turn):  # name what they have, so no one hunts for a piece
        book = state.book
        kinds = sorted({p.kind for p in state.board.values() if p.side == state.turn})
        return "none of your pieces has an adventure effect that changes a move (" + \
            "; ".join(f"the {book.name(k, state.turn)}: {book.effect_text(k)}" for k in kinds) + ")"
    return None


def _check(state: State, seat: int | None, params: Params) -> str | None:
    """Why this piece's effect can't be unlocked, in the players' words (None: it can, or the
    list of the choices names the problem)."""
    piece = params.get("piece")
    if seat is None or not isinstance(piece, str) or piece in choices(state, seat):
        return None
    book, found = state.book, state.book.kind_named(piece)
    if found is None:
        return None
    side, kind = found
    if side is not None and side != seat:
        return f"the {book.name(kind, side)} is {state.name(side)}'s piece: unlock one of your own"
    name = book.name(kind, seat)
    if book.effect(kind) not in MOVING_EFFECTS:
        why = {"reroll": f", and the {state.mode.label} have no combat dice",
               "any_piece": f": in the {state.mode.label} any piece may move anyway"}
        return f"the {name}'s adventure effect ({book.effect_text(kind)}) changes no move" \
            f"{why.get(book.effect(kind), '')}"
    if not any(p.side == seat and p.kind == kind for p in state.board.values()):
        return f"you have no {name} on the board"
    return None


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (Param("piece", "choice", "Whose adventure effect",
                  choices=tuple(choices(state, state.turn))),)


def _run(state: State, seat: int | None, params: Params) -> None:
    kind = choices(state, state.turn)[str(params["piece"])]
    state.tokens[state.turn] -= 1
    unlock(state, kind)
    state.emit("unlocked", seat=state.turn, kind=kind, left=state.tokens[state.turn])


def _text(state: State, seat: int | None, params: Params) -> str:
    kind = choices(state, state.turn).get(str(params.get("piece")))
    if kind is None:
        return f"{state.name(seat)} spends a token"
    return (f"{state.name(seat)} spends a token: the {state.book.name(kind, state.turn)}'s"
            f" adventure effect ({state.book.effect_text(kind)})")


UNLOCK = Move("unlock", "move",
              lambda s: f"Spend a token: unlock an adventure effect ({s.tokens[s.turn]} left)",
              _refusal, _run, _text, _params, check=_check)
