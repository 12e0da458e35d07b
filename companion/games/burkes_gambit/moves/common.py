"""What several of Burke's Gambit's actions share: the teams, how a seat is named, what the
game is waiting for, the usual refusals and the die's face."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.engine import Param, Params
from companion.games.burkes_gambit.book import FACES
from companion.games.burkes_gambit.state import CLEAN, CREW, INFECTED, SPECIALIST, State

TEAMS = (CREW, SPECIALIST)
PARASITES = (INFECTED, CLEAN)
NAMES = {CREW: "Salvage Crew", SPECIALIST: "Acquisition Support Specialist"}
WINNERS = {CREW: "the Salvage Crew", SPECIALIST: "the Acquisition Support Specialists"}


def who(state: State, seat: int | None) -> str:
    return "the table" if seat is None else f"seat {seat} ({state.players[seat].name})"


def a_seat(state: State, value: Any) -> bool:
    """Whether a parameter's value is a seat of this table (else its own check names it)."""
    return isinstance(value, int) and not isinstance(value, bool) \
        and 0 <= value < len(state.players)


def target_problem(state: State, seat: int | None, target: Any, kind: str) -> str | None:
    """Why a seat number cannot be aimed at, in the rules' words (``kind``: any, other or
    neighbour, as the data's faces say); None for what the parameter's own check names."""
    if not a_seat(state, target):
        return None
    if not state.players[target].alive:
        return f"{who(state, target)} is dead"
    if target == seat and kind in ("other", "neighbour"):
        return "not on yourself: on another living player"
    return None


def fixed_label(text: str) -> Callable[[State], str]:
    """An action's label that does not depend on the state."""
    return lambda state: text


def said(template: str) -> Callable[[State, int | None, Params], str]:
    """A log line that only names the acting seat: ``said("{who} has voted")``."""
    return lambda state, seat, params: template.format(who=state.name(seat))


# --- what the game waits for ----------------------------------------------------------------

def waiting_for(state: State) -> list[int]:
    if state.phase == "roles":
        return [p.seat for p in state.players if p.role is None]
    if state.phase in ("turn",):
        return [state.turn]
    if state.phase == "cancel" and state.pending:
        return [state.pending.actor]
    if state.phase == "vote":
        return [s for s in voters(state) if s not in state.votes]
    if state.phase == "tiebreak":
        captain = state.captain()
        return [captain.seat] if captain else []
    return []


def status(state: State) -> str:
    if state.phase == "roles":
        return "each player tells the companion the role card in front of them"
    if state.phase == "heads_down":
        return "heads down: the specialists learn each other (the host ends it)"
    if state.phase == "turn":
        die = state.die
        if die is None and state.bag_left() <= 0:
            return _empty_bag(state)
        doing = (f"has rolled {state.book.face_label(die.face)}" if die else "rolls a die")
        return f"{state.name(state.turn)} {doing}"
    if state.phase == "cancel" and state.pending:
        pending = state.pending
        verb = "cancelled" if pending.cancelled else "about to happen"
        return (f"{state.name(pending.actor)}'s {state.book.face_label(pending.face)} is"
                f" {verb}: a reserved Cancel may answer")
    if state.phase == "reveal":
        return "the table turns the dead player's ID and parasite cards face up"
    if state.phase == "reveal_ejected":
        return "the table turns the ejected player's parasite card face up"
    if state.phase == "vote":
        return (f"the ship reaches Earth: vote whom to eject ({len(state.votes)} of"
                f" {len(voters(state))} have voted{_not_voting(state)})")
    if state.phase == "tiebreak":
        return "a tied vote: the Captain decides"
    if state.outcome:
        team = winning_team(state)
        return f"game over: {WINNERS[team]} win" if team else "game over"
    return state.phase


def _not_voting(state: State) -> str:
    """The living who have no vote, and why, so that no one wonders why they are not asked
    (roles lie face up and quarantine is public)."""
    voting = voters(state)
    names = []
    for player in state.living():
        if player.seat not in voting:
            role = voteless_role(state, player.seat)
            names.append(f"{player.name} ({f'the {role}' if role else 'in quarantine'})")
    return f"; not voting: {', '.join(names)}" if names else ""


def voteless_role(state: State, seat: int) -> str | None:
    """The seat's role's name when that role has no vote (the Stowaway), else None."""
    role = state.players[seat].role
    return state.book.role_label(role) if role is not None and not state.book.role_votes(role) \
        else None


def _empty_bag(state: State) -> str:
    """The turn with the bag empty: pass, or use a reserved die; with every die in the centre
    and a Stall among them, nothing can move until the table takes a Stall back."""
    player = state.players[state.turn]
    if player.reserve:
        text = f"{player.name} uses the reserved die or passes: the bag is empty"
    else:
        text = f"{player.name} can only pass: the bag is empty"
    if state.stalls and state.centre >= state.book.dice:
        text += ("; every die is in the centre: the table may take a Stall back (correct"
                 " stalls)")
    return text


def turn_shown(state: State) -> int | None:
    """Whose turn a screen shows: none in the vote (a Cancel's window in it included)."""
    if state.phase == "cancel" and state.pending is not None and state.pending.resume == "vote":
        return None
    return state.turn if state.phase in ("turn", "cancel", "reveal") else None


def voters(state: State) -> list[int]:
    return [p.seat for p in state.living() if state.book.role_votes(p.role)
            and (state.book.quarantined_vote or p.seat not in state.quarantine)]


def winning_team(state: State) -> str | None:
    outcome = state.outcome
    if outcome is None:
        return None
    if outcome.reason == "declared":  # the table's ruling names the team
        return str(outcome.details["team"])
    return CREW if outcome.reason == "infected_ejected" else SPECIALIST


def own_looks(state: State, seat: int) -> list[dict[str, Any]]:
    """The seat's own looks, for its view only."""
    return [{"card": look.card, "seat": look.seat, "name": state.name(look.seat),
             "result": look.result, "stale": look.card == "parasite" and look.epoch != state.epoch}
            for look in state.players[seat].looks]


# --- refusals -------------------------------------------------------------------------------

def too_many_face_up(state: State, team: object, seat: int | None = None) -> str | None:
    """Why ``team`` cannot be one more ID card (``seat``'s, or a dead player's): every card of
    that team the player count has lies face up already. Face-up cards only: public."""
    if team not in TEAMS:
        return None  # the parameter's own check names the values
    size = state.team_size(str(team))
    up = [p for p in state.face_up(str(team)) if p.seat != seat]
    if len(up) < size:
        return None
    cards = f"{size} {team} ID card{'s' * (size != 1)}"
    names = ", ".join(f"{p.name}'s" for p in up)
    return (f"{len(state.players)} players have {cards}, and"
            f" {'it is' if size == 1 else 'all are'} face up already ({names})")


def cannot_act(state: State, seat: int | None) -> str | None:
    """Why this seat cannot act on the table now (None: it can)."""
    if seat is None:
        return "a seat acts here, not the table"
    player = state.players[seat]
    if not player.alive:
        return f"{who(state, seat)} is dead"
    if seat in state.quarantine:
        return f"{who(state, seat)} is in quarantine until {state.name(state.quarantine[seat])}'s" \
               " next turn"
    return None


def not_my_turn(state: State, seat: int | None, die: bool | None) -> str | None:
    """Refusal unless it is ``seat``'s turn and it holds a rolled die (``die=True``), holds
    none (``die=False``) or either (``None``)."""
    reason = cannot_act(state, seat)
    if reason:
        return reason
    if state.phase != "turn":
        return f"not now: {status(state)}"
    if seat != state.turn:
        return f"it is {state.name(state.turn)}'s turn"
    if die is True and state.die is None:
        return "roll a die first"
    if die is False and state.die is not None:
        return "deal with the die you rolled first"
    return None


def table_only(*phases: str) -> Callable[[State, int | None], str | None]:
    """The refusal of a table's action: only the table, and only in ``phases``."""
    def refusal(state: State, seat: int | None) -> str | None:
        if seat is not None:
            return "only the table (its host) does this"
        if state.phase not in phases:
            return f"not now: {status(state)}"
        return None
    return refusal


# --- the die's face -------------------------------------------------------------------------

def face_param(label: str) -> Callable[[State, int | None], tuple[Param, ...]]:
    """The face a seat saw on its die (dice are observed, never simulated)."""
    return lambda state, seat: (Param("face", "choice", label, choices=FACES, labels=tuple(
        state.book.face_label(face) for face in FACES)),)


def face_label(state: State, params: Params) -> str:
    return state.book.face_label(str(params.get("face")))
