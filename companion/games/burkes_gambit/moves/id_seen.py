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
    too_many_face_up,
    winning_team,
)
from companion.games.burkes_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    if seat is None:
        return "each seat tells its own ID card"
    player = state.players[seat]
    if not state.by_hand:
        return "the companion dealt the ID cards: it knows yours"
    if player.revealed and player.team is not None:
        return "your ID card is face up"
    if player.id_told and state.outcome is None:  # after the end a word told wrong is put
        return "you have told your ID card"        # right: the cards are face up then
    if player.team is not None and not player.id_told:
        return "the deal gave your ID card"
    return None  # also after the end, so the winners can be named


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (Param("team", "choice", "Your ID card", choices=TEAMS,
                  labels=tuple(NAMES[team] for team in TEAMS)),)


def _check(state: State, seat: int | None, params: Params) -> str | None:
    """Not a card whose every copy lies face up on the dead (public cards only)."""
    return too_many_face_up(state, params.get("team"), seat)


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    player = state.players[seat]
    player.team, player.id_told = str(params["team"]), True
    outcome = state.outcome
    if outcome is not None:  # the end is known: name this seat among the winners, or not
        team = winning_team(state)
        assert team is not None
        state.outcome = Outcome(flow.winners(state, team), outcome.reason, outcome.details)


MOVE = Move("id_seen", "input", fixed_label("Tell the companion your ID card"), _refusal, _run,
            said("{who} told the companion their ID card"), _params, _check, private=True)
