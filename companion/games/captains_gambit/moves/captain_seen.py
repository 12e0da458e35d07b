"""``captain_seen``: at a table dealt by hand, a seat privately tells the companion its
captain."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.captains_gambit import captains, flow
from companion.games.captains_gambit.moves.common import fixed_label, not_hand_dealt, told_text
from companion.games.captains_gambit.state import State

# Phases in which a captain told late, that has already lost, dies at once, and what
# follows. In the others (a bluff call, Diplomatic Immunity, a save window: each waits for
# one seat's answer) its death comes with the next settling of deaths, at the latest when
# the turn ends.
_DIES_AT_ONCE = {"income": "stay", "action": "stay", "reaction": "reaction"}


def _refusal(state: State, seat: int | None) -> str | None:
    reason = not_hand_dealt(state, seat)
    if reason or seat is None:
        return reason
    if state.players[seat].captain is not None:
        return ("the companion already knows this seat's captain (to change it: undo that input, or"
                " the host's ruling Forget what a player told)")
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
    player = state.players[seat]
    player.captain = params["captain"]
    if state.phase in ("mulligan", "prologue"):
        return
    # Judged as if the companion had known it all along: a captain that has already lost
    # (Prospero after his round-11 turn, Romeo after Juliet's death) loses now, and dies.
    lost, credit = captains.lost_when_told(state, seat) if player.alive else (False, None)
    if lost:
        state.doomed[seat] = credit
        state.emit("lost", seat=seat)
    if state.phase == "ending":  # the game has ended: settle the death, then who wins
        if lost:
            flow.settle(state)
        flow.decide_ending(state)
        return
    then = _DIES_AT_ONCE.get(state.phase)
    if lost and then is not None:
        state.resume_phase = state.phase if then == "stay" else None
        flow.after_harm(state, then)
    else:
        flow.check_end(state)


MOVE = Move("captain_seen", "input", fixed_label("Tell the companion your captain"), _refusal,
            _run, told_text("captain"), _params, private=True)
