"""What a screen shows of a Burke's Gambit table: the engine's typed table view."""

from __future__ import annotations

from companion.engine import (
    Counter,
    Ending,
    Fact,
    GameInfo,
    PlayerView,
    TableView,
    Vote,
    Votes,
    listed,
)
from companion.games.burkes_gambit import moves
from companion.games.burkes_gambit.state import CREW, Pending, Player, State

PHASES = {"roles": "Roles", "heads_down": "Heads down", "turn": "Turns", "cancel": "A Cancel?",
          "reveal": "Cards face up", "reveal_ejected": "Cards face up", "vote": "The vote",
          "tiebreak": "The Captain breaks the tie", "over": "Game over"}
GOALS = {CREW: "Eject the infected player when the ship reaches Earth.",
         "specialist": "Get a clean player ejected, or nobody, or the whole crew killed."}
ENDINGS = {"infected_ejected": "the infected player was ejected",
           "clean_ejected": "a clean player was ejected",
           "tie_captain_dead": "a tied vote with the Captain dead ejects nobody",
           "crew_dead": "the whole crew is dead",
           "infected_reaches_earth": "the infected player reached Earth"}
VOTE_SHOWN = ("tiebreak", "over", "reveal_ejected")


def _shown(state: State, p: Player) -> bool:
    """ID and parasite cards face up: dead, ejected, or at the end of a game dealt by the
    companion."""
    return p.revealed or (state.outcome is not None and state.dealt)


def _player(state: State, p: Player) -> PlayerView:
    book = state.book
    facts = []
    if p.role:
        facts.append(Fact("role", "Role", book.role_label(p.role)))
    if p.role_used:
        facts.append(Fact("role_used", "Role used"))
    if p.reserve:
        facts.append(Fact("reserve", "Reserved die", book.face_label(p.reserve)
                          + (" (rerolled)" if p.reserve_rerolled else "")))
    if p.seat in state.quarantine:
        facts.append(Fact("quarantined", "In quarantine"))
    if _shown(state, p) and p.team:
        facts.append(Fact("team", "ID card", moves.NAMES[p.team]))
    if _shown(state, p) and p.parasite:
        facts.append(Fact("parasite", "Parasite card", p.parasite))
    counters = (Counter("health", "Health", p.health, book.health),)
    return PlayerView(p.seat, p.name, counters, tuple(facts), p.alive)


def _look(state: State, look: dict[str, object]) -> Fact:
    card = "ID card" if look["card"] == "id" else "parasite card"
    result = look["result"]
    shown = "look at the real card" if result is None else \
        moves.NAMES.get(str(result), str(result))
    stale = " (before the cards were dealt again)" if look["stale"] else ""
    return Fact(f"look:{look['seat']}:{look['card']}", f"{look['name']}'s {card}",
                f"{shown}{stale}")


def _secrets(state: State, seat: int) -> tuple[Fact, ...]:
    me = state.players[seat]
    out = []
    if me.team is None:
        out.append(Fact("team", "Your ID card", "not told to the companion yet"))
    else:
        out.append(Fact("team", "Your ID card", moves.NAMES[me.team], GOALS[me.team]))
    # Never your own parasite card: nobody may look at their own.
    out += [_look(state, look) for look in moves.own_looks(state, seat)]
    return tuple(out)


def _votes(state: State) -> Votes | None:
    if state.phase != "vote" and not state.votes:
        return None
    if state.phase not in VOTE_SHOWN:
        return Votes("Eject whom?", voted=tuple(sorted(state.votes)))
    shown = tuple(Vote(voter, choice) for voter, choice in sorted(state.votes.items()))
    if state.ejected is not None:
        result = f"{state.name(state.ejected)} is ejected."
    elif state.tied and state.phase == "tiebreak":
        result = "A tie: the Captain decides."
    else:
        result = "Nobody is ejected."
    return Votes("Eject whom?", voted=tuple(sorted(state.votes)), shown=shown, result=result)


def _waiting(state: State, pending: Pending) -> str:
    cancels = f", cancelled by {', '.join(state.name(s) for s in pending.cancels)}" \
        if pending.cancels else ""
    return moves.action_name(state, pending.actor, pending.face, pending.target,
                             pending.choice) + cancels


def _table_facts(state: State) -> tuple[Fact, ...]:
    book = state.book
    facts = [Fact("bag", "Dice in the bag", str(state.bag_left()))]
    if state.stalls:
        facts.append(Fact("stalls", "Stalls waiting", str(state.stalls)))
    if state.die:
        rerolled = " (rerolled)" if state.die.rerolled else ""
        facts.append(Fact("die", "Die rolled", f"{book.face_label(state.die.face)}{rerolled}"))
    if state.pending is not None:
        facts.append(Fact("pending", "About to happen", _waiting(state, state.pending)))
    if state.held:  # the next to wait again first
        facts.append(Fact("held", "Then waits again", "; ".join(
            _waiting(state, held) for held in reversed(state.held))))
    return tuple(facts)


def _ending(state: State) -> Ending | None:
    outcome = state.outcome
    team = moves.winning_team(state)
    if outcome is None or team is None:
        return None
    why = (f"the table's ruling: {outcome.details['why']}" if outcome.reason == "declared"
           else ENDINGS.get(outcome.reason, outcome.reason))
    winners = moves.WINNERS[team]
    # At a table dealt by hand the winners are named as their ID cards become known; how
    # many the team has is public (the player count's), who they are may not be yet.
    unknown = state.team_size(team) - len(outcome.winners)
    if not outcome.winners:
        names = "who they are is not known yet (each player may tell their ID card)"
    else:
        names = listed([state.name(s) for s in outcome.winners])
        if unknown > 0:
            names += f", and {unknown} not known yet"
    return Ending(outcome.winners, f"Game over: {winners} win ({why}): {names}")


def prompt(state: State, seat: int | None) -> str:
    """What the game asks of ``seat`` now, addressed to it, when that is not a plain turn (a
    phone's turn card says it instead of "Your turn"); "" otherwise."""
    if seat is None or state.outcome is not None or seat not in moves.waiting_for(state):
        return ""
    pending = state.pending
    if state.phase == "roles":
        return "Before play: tell the companion the role card in front of you"
    if state.phase == "cancel" and pending is not None:
        face = state.book.face_label(pending.face)
        if pending.cancelled:
            return f"Your {face} is cancelled: go on once nobody else answers"
        return f"Your {face} is about to happen: go on once nobody cancels it"
    if state.phase == "vote":
        return "The ship reaches Earth: vote whom to eject"
    if state.phase == "tiebreak":
        return "The vote is tied: you are the Captain, break the tie"
    return ""


def table_view(state: State, seat: int | None, info: GameInfo) -> TableView:
    vote_secret = state.phase not in VOTE_SHOWN
    return TableView(
        game=info.slug, title=info.title, seat=seat,
        phase=state.phase, phase_label=PHASES.get(state.phase, state.phase),
        status=moves.status(state),
        headline=f"Engines {state.engines} of {state.to_earth}",
        turn=moves.turn_shown(state),
        waiting_for=tuple(moves.waiting_for(state)),
        prompt=prompt(state, seat),
        players=tuple(_player(state, p) for p in state.players),
        facts=_table_facts(state),
        secrets=_secrets(state, seat) if seat is not None else (),
        votes=_votes(state),
        your_vote=state.votes.get(seat) if seat is not None and vote_secret else None,
        ending=_ending(state),
    )
