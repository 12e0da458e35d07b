"""``id_seen``: at a table dealt by hand, a seat privately tells the companion its ID card
(also after the end, so the winners can be named)."""

from __future__ import annotations

from companion.engine import Move, Outcome, Param, Params
from companion.games.burkes_gambit.moves import flow
from companion.games.burkes_gambit.moves.common import (
    NAMES,
    TEAMS,
    fixed_label,
    said,
    winning_team,
)
from companion.games.burkes_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    if seat is None:
        return "each seat tells its own ID card"
    if state.dealt:
        return "the companion dealt the ID cards: it knows yours"
    if state.players[seat].team is not None:
        return "you have told your ID card"
    return None  # also after the end, so the winners can be named


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (Param("team", "choice", "Your ID card", choices=TEAMS,
                  labels=tuple(NAMES[team] for team in TEAMS)),)


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.players[seat].team = str(params["team"])
    if state.outcome is not None:  # the end is known: name this seat among the winners, or not
        team = winning_team(state)
        state.outcome = Outcome(tuple(p.seat for p in state.players if p.team == team),
                                state.outcome.reason)
    flow.check_crew_dead(state)


MOVE = Move("id_seen", "input", fixed_label("Tell the companion your ID card"), _refusal, _run,
            said("{who} told the companion their ID card"), _params, private=True)
