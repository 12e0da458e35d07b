"""How a game of Burke's Gambit moves on, whichever action set it off: the next turn, the
engines, deaths and re-infection, a look at a card, the vote's count, the end.

Every function here changes the state it is given (a fresh copy made by the rules).
"""

from __future__ import annotations

from companion.engine import Outcome, shuffled
from companion.games.burkes_gambit.moves.common import voters
from companion.games.burkes_gambit.state import CLEAN, CREW, INFECTED, SPECIALIST, Look, State


def end_turn(state: State) -> None:
    if state.phase != "turn" or state.outcome is not None:
        return
    state.die = None
    count = len(state.players)
    # Two rounds at most: a player skipped in quarantine may be freed later in the same
    # round (their quarantiner's seat comes after theirs); if nobody could play in the first
    # round (the rest dead or in quarantine), the second finds them, every quarantine over.
    for distance in range(1, 2 * count + 1):
        seat = (state.turn + distance) % count
        for quarantined, quarantiner in list(state.quarantine.items()):
            # It lasts until the start of their next turn: a round, even if they died since.
            if quarantiner == seat:
                del state.quarantine[quarantined]
                state.emit("quarantine_over", seat=quarantined)
        if not state.players[seat].alive:
            continue
        if seat in state.quarantine:
            state.emit("skipped", seat=seat)
            continue
        state.turn = seat
        state.emit("turn", seat=seat)
        return


def engine_power(state: State) -> None:
    """An engine power-up takes effect (a waiting Stall takes it instead); at Earth, the vote.
    The caller ends the turn (``end_turn`` does nothing once the vote has begun)."""
    if state.stalls:
        state.stalls -= 1
        state.centre -= 1
        state.emit("engine_stalled", engines=state.engines, to_earth=state.to_earth)
    else:
        state.engines += 1
        state.centre += 1
        state.powered_up = state.turn
        state.emit("engine_powered", engines=state.engines, to_earth=state.to_earth)
    if state.engines >= state.to_earth:
        state.phase = "vote"
        state.emit("earth_reached")
        check_vote_done(state)


def look(state: State, looker: int, target: int, card: str) -> None:
    """``looker`` sees ``target``'s ID ("id") or parasite card, on their phone only."""
    other = state.players[target]
    result = other.team if card == "id" else other.parasite
    if card == "id" and other.id_told:  # its holder's own word, not the card: never passed on
        result = None
    state.players[looker].looks.append(Look(card, target, result, state.epoch))
    state.emit("looked", seat=looker, target=target, card=card)


# --- deaths, parasites, the end -------------------------------------------------------------

def kill(state: State, seat: int, by: int | None) -> None:
    player = state.players[seat]
    player.alive, player.health = False, 0
    player.reserve = None
    # The dead neither vote nor are voted out: everyone votes again (dropping only the votes
    # for the dead would show the table who had cast them).
    restarted = bool(state.votes)
    state.votes.clear()
    state.quarantine.pop(seat, None)  # one they placed lasts the round (``end_turn``)
    state.emit("died", seat=seat, by=by)
    if state.dealt:
        player.revealed = True
        state.emit("cards_shown", seat=seat, team=player.team, parasite=player.parasite)
        if player.parasite == INFECTED and state.living():
            deal_parasites(state, "reinfect", keep_infected=True)
            state.emit("reinfected")
        check_crew_dead(state)
    else:
        state.awaiting_reveal.append(seat)
        if state.phase == "turn":
            state.phase = "reveal"
    if restarted and state.phase == "vote" and len(state.living()) > 1 and voters(state):
        state.emit("vote_restarted")
    check_vote_done(state)


def deal_parasites(state: State, label: str, keep_infected: bool) -> None:
    """A new deal of the living players' parasite cards, one infected among them (after the
    infected player's death, one clean card is put aside: re-infection). The companion deals
    them by its seed when it knows every card; real cards dealt again at the table are
    unseen, so it forgets them until they are turned face up (a lone survivor's can only be
    the infected card)."""
    state.epoch += 1
    living = state.living()
    if not living:
        return
    if not state.dealt:
        for player in living:
            player.parasite = INFECTED if len(living) == 1 else None
        return
    cards = [INFECTED] + [CLEAN] * (len(living) - 1)
    for player, card in zip(living, shuffled(cards, state.seed, label, state.epoch),
                            strict=True):
        player.parasite = card


def check_crew_dead(state: State) -> None:
    """The specialists win when every crew member is dead: when as many crew ID cards lie
    face up on the dead as the player count has (public: the cards are face up)."""
    if state.outcome is None and len(state.face_up(CREW)) >= state.team_size(CREW):
        finish(state, SPECIALIST, "crew_dead")


def known_teams(state: State) -> list[str | None]:
    """Each seat's ID card as the companion knows it, and where the counts fix the others
    (every specialist card known: the rest are crew; every crew card: specialists), as
    they must be."""
    given = [p for p in state.players if not p.revealed and p.team]
    over = state.overfull(given)  # seats' words belie the count: only face-up cards are sure
    teams = [None if p in given and p.team in over else p.team for p in state.players]
    if None in teams:
        for team, other in ((SPECIALIST, CREW), (CREW, SPECIALIST)):
            if teams.count(team) >= state.team_size(team):
                return [t or other for t in teams]
    return teams


def winners(state: State, team: str) -> tuple[int, ...]:
    """The seats of ``team``, dead or alive, as far as they are known."""
    return tuple(seat for seat, t in enumerate(known_teams(state)) if t == team)


def finish(state: State, team: str, reason: str, why: str | None = None) -> None:
    """The game ends, ``team`` winning; ``why``: the table's words, when it is its ruling."""
    state.outcome = Outcome(winners(state, team), reason,
                            {} if why is None else {"team": team, "why": why})
    state.phase = "over"
    state.die, state.pending = None, None
    for player in state.players:
        player.revealed = player.revealed or state.dealt
    state.emit("game_over", team=team, reason=reason)


def call_off_vote(state: State) -> None:
    """The table's correction puts the ship back short of Earth: the votes cast are set aside
    unseen and play goes on after the player whose power-up had brought it there."""
    state.votes.clear()
    state.emit("vote_called_off")
    if state.awaiting_reveal:  # a death in the vote whose cards wait to be turned
        state.phase = "reveal"
        return
    state.phase = "turn"
    end_turn(state)


# --- the vote -------------------------------------------------------------------------------

def check_vote_done(state: State) -> None:
    if state.phase == "vote" and len(state.living()) <= 1:
        # Nobody to vote out: the last survivor carries the parasite to Earth.
        state.emit("no_one_ejected")
        finish(state, SPECIALIST, "infected_reaches_earth")
        return
    if state.phase != "vote" or any(s not in state.votes for s in voters(state)):
        return
    tally: dict[int, int] = {}
    for target in state.votes.values():
        tally[target] = tally.get(target, 0) + 1
    state.emit("votes_shown", votes=dict(state.votes))
    if tally:
        top = max(tally.values())
        leaders = sorted(s for s, n in tally.items() if n == top)
    else:  # nobody may vote: every living player stands at 0 votes, a tie
        leaders = [p.seat for p in state.living()]
    if len(leaders) == 1:
        eject(state, leaders[0])
        return
    captain = state.captain()
    if captain is not None and captain.alive:
        state.tied = leaders
        state.phase = "tiebreak"
    else:
        state.emit("no_one_ejected")
        finish(state, SPECIALIST, "tie_captain_dead")


def eject(state: State, seat: int) -> None:
    state.ejected = seat
    state.emit("ejected", seat=seat)
    player = state.players[seat]
    if player.parasite is None:
        state.phase = "reveal_ejected"
        return
    player.revealed = True
    finish(state, CREW if player.parasite == INFECTED else SPECIALIST,
           "infected_ejected" if player.parasite == INFECTED else "clean_ejected")
