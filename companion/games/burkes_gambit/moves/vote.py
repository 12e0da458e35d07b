"""``vote``: once the ship reaches Earth, each voter secretly chooses whom to eject; the
votes are shown when the last is in."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.burkes_gambit.moves import flow
from companion.games.burkes_gambit.moves.common import (
    fixed_label,
    said,
    status,
    target_problem,
    voteless_role,
    voters,
    who,
)
from companion.games.burkes_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    if state.phase != "vote":
        return f"not now: {status(state)}"
    if seat is None or seat not in voters(state):
        return _not_a_voter(state, seat)
    if seat in state.votes:
        return "you have voted"
    return None


def _not_a_voter(state: State, seat: int | None) -> str:
    """Why ``seat`` has no vote, in the players' words."""
    if seat is None:
        return "a seat acts here, not the table"
    player = state.players[seat]
    if not player.alive:
        return "the dead do not vote"
    role = voteless_role(state, seat)
    if role is not None:
        return f"the {role} does not vote"
    return f"{who(state, seat)} is in quarantine and does not vote at this table"


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    anyone = state.book.vote_for_yourself
    return (Param("target", "seat", "Eject whom",
                  choices=tuple(p.seat for p in state.living() if anyone or p.seat != seat)),)


def _check(state: State, seat: int | None, params: Params) -> str | None:
    target = params.get("target")
    anyone = state.book.vote_for_yourself
    reason = target_problem(state, seat, target, "any" if anyone else "other")
    if reason is None:
        return None
    if target == seat:
        return "you vote for another living player, not yourself"
    return f"you vote for {'a' if anyone else 'another'} living player: {reason}"


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.votes[seat] = int(params["target"])
    state.emit("voted", seat=seat)
    flow.check_vote_done(state)


MOVE = Move("vote", "move", fixed_label("Vote: eject whom?"), _refusal, _run,
            said("{who} has voted"), _params, _check, secret=("target",))
