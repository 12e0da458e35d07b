"""Sensei (a Player Power, a whole turn): move powers you name from one of your pieces to
another. Naming them claims the giver holds them: each may be challenged. A power named
but not held moves nothing."""

from __future__ import annotations

from companion.engine import Move, Param
from companion.games.gambit_6x6 import flow
from companion.games.gambit_6x6.moves.common import (
    Params,
    fixed,
    on_squares,
    on_turn,
    own_pieces,
    unknown_power,
)
from companion.games.gambit_6x6.state import Claim, Pending, State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = on_turn(state, seat)
    if reason is None and "sensei" not in state.held_powers[seat or 0]:
        return "you hold no Sensei"
    if reason is None and len(own_pieces(state, seat)) < 2:
        return "a Sensei needs two of your pieces"
    return reason


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    pieces = own_pieces(state, seat)
    return (Param("piece", "choice", "From your piece", choices=pieces,
                  labels=on_squares(state, pieces)),
            Param("to", "choice", "To your piece", choices=pieces, depends_on="piece",
                  labels=on_squares(state, pieces),
                  choices_by=tuple((p, tuple(q for q in pieces if q != p)) for p in pieces)),
            Param("powers", "choices", "The powers it passes on", choices=state.book.powers(),
                  minimum=1, maximum=2))


def _check(state: State, seat: int | None, params: Params) -> str | None:
    piece, to = params.get("piece"), params.get("to")
    if isinstance(piece, str) and piece == to:
        return (f"a Sensei passes powers from one of your pieces to another: {piece} cannot"
                " pass them to itself")
    powers = params.get("powers")
    if powers == []:
        return "name the powers to pass on: one or two (one of each group)"
    if not isinstance(powers, list):
        return None
    for power in powers:
        if unknown_power(state, power):
            return unknown_power(state, power)
    groups = [state.book.group(p) for p in powers]
    if len(set(groups)) != len(groups):
        return "a piece holds at most one power of each group: name one Movement and one Action"
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.held_powers[seat].remove("sensei")
    claims = [Claim(seat, params["piece"], power) for power in params["powers"]]
    state.emit("sensei", seat=seat, piece=params["piece"], to=params["to"],
               powers=list(params["powers"]))
    before = {c: list(s) for c, s in state.stacks.items()}
    flow.open_window(state, Pending(seat, "sensei", params["piece"], before, claims,
                                    target=params["to"]))


def _text(state: State, seat: int | None, params: Params) -> str:
    powers = params.get("powers")
    named = " and ".join(state.book.label(p) for p in powers if isinstance(p, str)) \
        if isinstance(powers, list) else "powers"
    return (f"{state.name(seat)} uses the Sensei: {params.get('piece')} passes {named} on to"
            f" {params.get('to')}")


MOVE = Move("sensei", "move", fixed("Sensei: pass powers on"), _refusal, _run, _text, _params,
            _check)
