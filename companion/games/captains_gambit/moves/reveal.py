"""``reveal``: a captain with a Reveal on their turn (Prospero, Lady Macbeth, Richard III)
shows their card and uses it."""

from __future__ import annotations

from companion.engine import Move, Params
from companion.games.captains_gambit import flow
from companion.games.captains_gambit.moves.common import fixed_label, not_in_phase, who
from companion.games.captains_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = not_in_phase(state, seat, "action", state.turn)
    if reason or seat is None:
        return reason
    player = state.players[seat]
    captain = player.captain
    if captain is None:
        return "the companion has not been told this seat's captain"
    if player.revealed:
        return f"{who(state, seat)} has already revealed"
    data = state.book.captain(captain)
    if captain == "prospero" and player.energy < int(data["reveal_energy"]):
        return (f"Prospero reveals with {data['reveal_energy']} energy; {who(state, seat)} has"
                f" {player.energy}")
    if captain == "lady_macbeth" and player.blood < int(data["reveal_blood"]):
        return (f"Lady Macbeth reveals with {data['reveal_blood']} blood; {who(state, seat)} has"
                f" {player.blood}")
    if captain not in ("prospero", "lady_macbeth", "richard_iii"):
        return f"{data['label']} has no Reveal on their turn"
    return None


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


MOVE = Move("reveal", "move", fixed_label("Reveal your captain"), _refusal, _run, _text)
