"""``choose_corpse``: Viola privately chooses a dead captain to play as. Only her phone is
offered it, the moment someone dies: its button is covered with her secrets, never in the
answer alert a neighbour would see."""

from __future__ import annotations

from companion.engine import Move, Param, Params, listed
from companion.games.captains_gambit import captains, flow
from companion.games.captains_gambit.moves.common import fixed_label, not_living, waiting_text
from companion.games.captains_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = not_living(state, seat)
    if reason or seat is None:
        return reason
    if state.phase == "ending":  # the choice is made while the game runs, not at its end
        return f"not now: {waiting_text(state)}"
    player = state.players[seat]
    if player.captain != "viola":
        return "only Viola chooses a dead captain to play as"
    if player.copies_seat is not None:
        return "Viola has already chosen"
    if not any(captains.can_copy(state, seat, p.seat) for p in state.players):
        return _none_to_choose(state, seat)
    return None


def _none_to_choose(state: State, seat: int) -> str:
    """Why no dead captain can be chosen: from what the table sees (who died, and the
    captains shown at their deaths), never from a secret."""
    dead = [p for p in state.players if not p.alive and p.seat != seat]
    if not dead:
        return "nobody has died yet: Viola chooses among the dead"
    untold = [p.name for p in dead if p.captain is None]
    never = listed([state.book.label(c) for c in captains.NOT_COPYABLE])
    reason = (f"no dead captain can be chosen: {never} never can" if len(untold) < len(dead)
              else "no dead captain can be chosen")
    if untold:
        reason += (f"; the companion has not been told the captain of {listed(untold)}"
                   " (captain_seen)")
    return reason


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    choices = tuple(p.seat for p in state.players
                    if seat is not None and captains.can_copy(state, seat, p.seat))
    return (Param("target", "seat", "Dead captain", choices=choices),)


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.players[seat].copies_seat = params["target"]
    state.players[seat].copied_at = len(state.deaths)
    flow.check_end(state)


def _text(state: State, seat: int | None, params: Params) -> str:
    return f"{state.name(seat)} chose to play as {state.name(params.get('target'))}"


MOVE = Move("choose_corpse", "input", fixed_label("Choose a dead captain to play as"), _refusal,
            _run, _text, _params, private=True, covered=True)
