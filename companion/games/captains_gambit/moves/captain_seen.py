"""``captain_seen``: at a table dealt by hand, a seat privately tells the companion its
captain."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.captains_gambit import flow
from companion.games.captains_gambit.moves.common import fixed_label, not_hand_dealt, told_text
from companion.games.captains_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = not_hand_dealt(state, seat)
    if reason or seat is None:
        return reason
    if state.players[seat].captain is not None:
        return "the companion already knows this seat's captain (undo that input to change it)"
    return None


def _captain_choices(state: State) -> tuple[str, ...]:
    """Every captain that can be dealt. Never narrowed by what other seats told the
    companion: the choices (and any refusal) would show them to this seat."""
    centre = state.book.centre_captains()  # public: Juliet or Mercutio lies in the centre
    return tuple(c for c in state.pool if c not in centre)


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    choices = _captain_choices(state)
    return (Param("captain", "choice", "Your captain", choices=choices,
                  labels=tuple(state.book.label(c) for c in choices)),)


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.players[seat].captain = params["captain"]
    if state.phase not in ("mulligan", "prologue"):
        flow.check_end(state)


MOVE = Move("captain_seen", "input", fixed_label("Tell the companion your captain"), _refusal,
            _run, told_text("captain"), _params, private=True)
