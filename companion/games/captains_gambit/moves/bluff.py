"""A bluff call under way, as its two answers (``show_permit``, ``concede``) and the rules'
automatic answer see it: the card under call, the seat that must answer, and the damage
the loser of the call takes."""

from __future__ import annotations

from companion.games.captains_gambit import flow
from companion.games.captains_gambit.state import State


def claimed_card(state: State) -> str:
    pending = state.pending
    assert pending is not None and pending.challenge is not None
    return "shield" if pending.challenge[2] == "shield" else pending.name


def challenged(state: State) -> int | None:
    pending = state.pending
    return pending.challenge[1] if pending and pending.challenge else None


def bluff_damage(state: State, victim: int, credit: int | None, then: str) -> None:
    """3 damage for a lost bluff call, unless Diplomatic Immunity is (or may be) used."""
    state.resume = then
    if victim in state.immune:
        state.emit("immune", seat=victim)
        flow.carry_on(state)
        return
    if state.wildcards:
        # Asked of everyone, holder or not: asking only holders would tell the table.
        state.immunity = (victim, credit)
        state.phase = "immunity"
        return
    flow.damage(state, victim, int(state.book.setup("bluff_damage")), credit, "bluff")
    flow.after_harm(state, then)
