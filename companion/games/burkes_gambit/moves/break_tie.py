"""``break_tie``: after a tied vote, the Captain ejects one of the tied players."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.burkes_gambit.moves import flow
from companion.games.burkes_gambit.moves.common import a_seat, fixed_label
from companion.games.burkes_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    if state.phase != "tiebreak":
        return "there is no tie to break"
    captain = state.captain()
    if seat is None or captain is None or seat != captain.seat:
        return "the Captain breaks the tie"
    return None


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (Param("target", "seat", "Eject whom", choices=tuple(state.tied)),)


def _check(state: State, seat: int | None, params: Params) -> str | None:
    target = params.get("target")
    if a_seat(state, target) and target not in state.tied:
        tied = ", ".join(state.name(s) for s in state.tied)
        return f"{state.name(target)} is not among the tied ({tied})"
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    flow.eject(state, int(params["target"]))


def _text(state: State, seat: int | None, params: Params) -> str:
    return f"The Captain ejects {state.name(params.get('target'))}"


MOVE = Move("break_tie", "move", fixed_label("Break the tie"), _refusal, _run, _text, _params,
            _check)
