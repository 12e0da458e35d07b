"""``dead_revealed``: at a table dealt by hand, the table tells the companion a dead player's
ID and parasite cards once they are turned face up."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.burkes_gambit.moves import flow
from companion.games.burkes_gambit.moves.common import (
    PARASITES,
    TEAMS,
    fixed_label,
    table_only,
    too_many_face_up,
)
from companion.games.burkes_gambit.state import INFECTED, State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = table_only("reveal", "turn", "cancel", "vote")(state, seat)
    if reason:
        return reason
    return None if state.awaiting_reveal else "no dead player's cards wait to be turned over"


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (Param("target", "seat", "The dead player", choices=tuple(state.awaiting_reveal)),
            Param("team", "choice", "Their ID card", choices=TEAMS),
            Param("parasite", "choice", "Their parasite card", choices=PARASITES))


def _check(state: State, seat: int | None, params: Params) -> str | None:
    """No more ID cards of a team face up than the player count has (public cards only)."""
    return too_many_face_up(state, params.get("team"))


def _run(state: State, seat: int | None, params: Params) -> None:
    target = int(params["target"])
    player = state.players[target]
    known, known_team = player.parasite, player.team  # the deal's cards (None: not known)
    told = player.id_told
    player.team, player.parasite, player.revealed = str(params["team"]), \
        str(params["parasite"]), True
    state.awaiting_reveal.remove(target)
    state.emit("cards_shown", seat=target, team=player.team, parasite=player.parasite)
    # The card face up may belie the ID cards given: one of them is wrong, and the companion
    # cannot say which, so it rules from none (each seat may tell its own again), as from a
    # parasite card the deal gave wrong. The deal's are said in the log; cards the seats
    # told are their secrets (how many told a team is too), so those go unsaid.
    dealt = [p for p in state.players if not p.revealed and p.team and not p.id_told]
    if (known_team not in (None, player.team) and not told) or state.overfull(dealt):
        for other in dealt:
            other.team = None
        state.emit("ids_contradicted", seat=target)
    hidden = [p for p in state.players if not p.revealed and p.team]
    if state.overfull(hidden):
        for other in hidden:
            other.team, other.id_told = None, False
    if player.parasite == INFECTED and state.living():
        # The real cards are dealt again, unseen: older scans are stale, the cards unknown.
        flow.deal_parasites(state, "reinfect", keep_infected=True)
        state.emit("reinfected")
    elif known is not None and known != player.parasite:
        # The card face up is not the deal's: the deal was told wrong, and the companion
        # never rules from it again (the infected card it named is not where it said).
        for other in state.living():
            other.parasite = None
        state.emit("deal_contradicted", seat=target)
    flow.check_crew_dead(state)
    if not state.awaiting_reveal and state.phase == "reveal":
        state.phase = "turn"
        if not state.players[state.turn].alive or state.die is None:
            flow.end_turn(state)


def _text(state: State, seat: int | None, params: Params) -> str:
    return (f"{state.name(params.get('target'))}'s cards: {params.get('team')},"
            f" {params.get('parasite')}")


MOVE = Move("dead_revealed", "table", fixed_label("Turn the dead player's cards face up"),
            _refusal, _run, _text, _params, _check)
