"""Detect: instead of moving, a piece claimed to be a Detective learns the powers of one
other team's piece on the eight squares around it, once nobody challenges the claim."""

from __future__ import annotations

from companion.engine import Move, Param
from companion.games.gambit_6x6 import flow
from companion.games.gambit_6x6.moves.common import Params, fixed, on_squares, on_turn
from companion.games.gambit_6x6.state import Claim, Pending, State


def suspects(state: State, seat: int | None) -> dict[str, tuple[str, ...]]:
    """The seat's pieces with other teams' pieces around them, and those pieces."""
    found = {}
    for piece in state.team(seat) if seat is not None else []:
        cell = state.where(piece.id)
        assert cell is not None
        near = tuple(p for c in state.layout.around(cell) for p in state.stacks.get(c, [])
                     if state.pieces[p].seat != seat)
        if near:
            found[piece.id] = tuple(sorted(near))
    return found


def _refusal(state: State, seat: int | None) -> str | None:
    reason = on_turn(state, seat)
    if reason is None and not suspects(state, seat):
        return "no other team's piece stands next to any of yours"
    return reason


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    options = suspects(state, seat)
    every = tuple(sorted({p for near in options.values() for p in near}))
    detectives = tuple(sorted(options))
    return (Param("piece", "choice", "Your Detective", choices=detectives,
                  labels=on_squares(state, detectives)),
            Param("target", "choice", "The piece to look at", choices=every,
                  labels=on_squares(state, every),
                  depends_on="piece", choices_by=tuple(sorted(options.items()))))


def _check(state: State, seat: int | None, params: Params) -> str | None:
    piece, target = params.get("piece"), params.get("target")
    options = suspects(state, seat)
    if isinstance(piece, str) and piece in options and isinstance(target, str) \
            and target not in options[piece]:
        return (f"a Detective looks at another team's piece on the eight squares around it:"
                f" {target} is not next to {piece}")
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    piece, target = params["piece"], params["target"]
    state.emit("detecting", seat=seat, piece=piece, target=target)
    before = {c: list(s) for c, s in state.stacks.items()}
    flow.open_window(state, Pending(seat, "detect", piece, before,
                                    [Claim(seat, piece, "detective")], target=target))


def _text(state: State, seat: int | None, params: Params) -> str:
    return (f"{state.name(seat)} claims {params.get('piece')} is a Detective, to look at"
            f" {params.get('target')}")


MOVE = Move("detect", "move", fixed("Look with a Detective"), _refusal, _run, _text, _params,
            _check)
