"""``reveal``: a captain with a Reveal on their turn (Prospero, Lady Macbeth, Richard III)
shows their card and uses it."""

from __future__ import annotations

from companion.engine import Move, Params, listed
from companion.games.captains_gambit import flow
from companion.games.captains_gambit.moves.common import fixed_label, not_in_phase, who
from companion.games.captains_gambit.state import State

REVEALERS = ("prospero", "lady_macbeth", "richard_iii")


def _refusal(state: State, seat: int | None) -> str | None:
    """Offered to every living seat on its turn until it has revealed (a public fact), whatever
    its captain: a Reveal button only Richard III's phone showed, turn after turn, would tell
    a neighbour who he is (decisions.md, "a neighbour sees the buttons too"). Whether this
    captain can reveal now is judged when the seat asks (``_check``)."""
    reason = not_in_phase(state, seat, "action", state.turn)
    if reason or seat is None:
        return reason
    if state.players[seat].revealed:
        return f"{who(state, seat)} has already revealed"
    return None


def _check(state: State, seat: int | None, params: Params) -> str | None:
    if seat is None:
        return None
    player = state.players[seat]
    captain = player.captain
    if captain is None:
        return "the companion has not been told this seat's captain"
    data = state.book.captain(captain)
    # The same words whatever the captain, and why: a refusal naming energy or blood named
    # Prospero or Lady Macbeth on a phone a neighbour may see (a blind review).
    if captain not in REVEALERS \
            or captain == "prospero" and player.energy < int(data["reveal_energy"]) \
            or captain == "lady_macbeth" and player.blood < int(data["reveal_blood"]):
        return f"your captain cannot Reveal now. {_note(state, seat)}"
    return None


def _note(state: State, seat: int | None) -> str:
    """The same words on every seat's button: who in this game's pool may reveal, and with
    what (the pool is public)."""
    def named(captain: str) -> str:
        data = state.book.captain(captain)
        need = (f" (with {data['reveal_energy']} energy)" if captain == "prospero"
                else f" (with {data['reveal_blood']} blood)" if captain == "lady_macbeth"
                else "")
        return f"{data['label']}{need}"

    who_may = [named(c) for c in REVEALERS if c in state.pool]
    if not who_may:
        return "No captain in this game reveals on their turn."
    verb = "reveals" if len(who_may) == 1 else "reveal"
    return (f"Only {listed(who_may)} {verb} on their turn, before their action; a Reveal does"
            " not use up the action.")


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    player = state.players[seat]
    captain = player.captain
    assert captain is not None
    data = state.book.captain(captain)
    player.revealed = True
    state.emit("revealed", seat=seat, captain=captain)
    if captain == "prospero":
        if data["reveal_spends_energy"]:
            player.energy -= int(data["reveal_energy"])
        player.ascending = True
    elif captain == "lady_macbeth":
        player.ascending = True
    elif captain == "richard_iii":
        threshold = player.energy
        if data["reveal_spends_energy"]:
            player.energy = 0
        for other in state.living():
            if other.seat != seat and other.health < threshold:
                flow.damage(state, other.seat, int(data["reveal_damage"]), seat, "reveal")
        flow.after_harm(state, "action")


def _text(state: State, seat: int | None, params: Params) -> str:
    captain = state.players[seat].captain if seat is not None else None
    return f"{state.name(seat)} reveals {state.book.label(captain or 'captain')}"


MOVE = Move("reveal", "move", fixed_label("Reveal your captain"), _refusal, _run, _text,
            check=_check, note=_note)
