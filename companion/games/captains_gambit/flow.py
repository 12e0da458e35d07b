"""How a game of Captain's Gambit moves on: damage, deaths, chain deaths, turns, rounds, the end.

Every function here changes the state it is given (a fresh copy made by the rules).
Damage may pause the flow for a decision (Diplomatic Immunity, a save window); what
follows is kept in ``state.resume`` and run by ``carry_on`` once the decision is made.
"""

from __future__ import annotations

from companion.engine import Outcome, shuffled
from companion.games.captains_gambit import captains
from companion.games.captains_gambit.state import Death, Player, State


def damage(state: State, seat: int, amount: int, credit: int | None, cause: str) -> None:
    player = state.players[seat]
    if not player.alive or amount <= 0:
        return
    player.health -= amount
    state.blows[seat] = credit
    state.emit("damaged", seat=seat, amount=amount, source=credit, cause=cause)


def after_harm(state: State, then: str) -> None:
    """Settle deaths after damage, then go on with ``then`` unless a decision is awaited."""
    state.resume = then
    if not settle(state):
        carry_on(state)


def ended(state: State) -> bool:
    """Whether the game has ended: over, or waiting for captains it was never told."""
    return state.outcome is not None or state.phase == "ending"


def carry_on(state: State) -> None:
    """Run what was waiting for damage to settle."""
    if ended(state):
        return
    step, state.resume = state.resume, None
    _CONTINUATIONS[step or "stay"](state)


def _can_be_saved(state: State, seat: int) -> bool:
    player = state.players[seat]
    return player.captain == "titus" and not player.last_stand_done


def settle(state: State) -> bool:
    """Deaths, lose conditions and chain deaths until nothing changes, then the win check.

    Returns True when it paused for a save window (``state.phase == "save"``).
    """
    state.blows_settled += 1
    while True:
        dying = [p for p in state.players if p.alive and (p.health <= 0 or p.seat in state.doomed)]
        if not dying:
            break
        for player in dying:
            if _can_be_saved(state, player.seat):
                state.saving = player.seat
                state.phase = "save"
                state.emit("save_window", seat=player.seat)
                return True
        _fired_before_dying(state, dying)
        blood = tuple(p.blood for p in state.players)
        loyalty = tuple(p.loyalty for p in state.players)
        alive = tuple(p.alive for p in state.players)
        for player in dying:
            lost = player.seat in state.doomed
            killer = state.doomed.pop(player.seat) if lost else state.blows.get(player.seat)
            player.alive = False
            player.health = 0
            player.revealed = True
            state.deaths.append(Death(player.seat, killer, "lost" if lost else "damage",
                                      blood, loyalty, alive, state.blows_settled))
            state.emit("died", seat=player.seat, captain=player.captain, killer=killer,
                       cause="lost" if lost else "damage")
            _settle_claims_of_the_dead(state, player.seat)
        for player in state.living():
            if player.seat in state.doomed:
                continue
            lost, credit = captains.loses_now(state, player.seat)
            if lost:
                state.doomed[player.seat] = credit
                state.emit("lost", seat=player.seat)
    check_end(state)
    return False


def _fired_before_dying(state: State, dying: list[Player]) -> None:
    """An attacker killed in their own attack's window (a wrong call on a real Shield) had
    fired: the attack is cancelled, but its blood is theirs ("for firing your cannons, not
    for causing damage"), earned before the death and so in its record. Not for an action
    conceded (it goes on to end the turn) nor for a captain who had lost all along."""
    pending = state.pending
    if pending is None or state.resume != "reaction":
        return
    if any(p.seat == pending.actor and p.seat not in state.doomed for p in dying):
        state.players[pending.actor].blood += _blood(state, pending.name)


def _blood(state: State, action: str) -> int:
    return int(state.book.action(action).get("blood", 0))


def _settle_claims_of_the_dead(state: State, seat: int) -> None:
    """A Shield whose declarer dies is judged by the cards the dead show: it stands if they
    held a Shield (or a card the companion was never told), and falls if they did not."""
    pending = state.pending
    if pending is None or pending.shield_by != seat or not pending.shield_open:
        return
    pending.shield_open = False
    permits = state.players[seat].permits
    if "shield" not in permits and None not in permits:
        pending.shield_by = None


def check_end(state: State) -> None:
    """End the game if someone's win condition holds or everyone is dead."""
    if ended(state):
        return
    winners = {p.seat for p in state.players if captains.wins_now(state, p.seat)}
    if winners:
        finish(state, "win", winners)
    elif not state.living():
        finish(state, "all_dead", set())


def untold(state: State) -> list[int]:
    """The seats whose captain the companion was never told (cards dealt by hand)."""
    return [p.seat for p in state.players if p.captain is None]


def finish(state: State, reason: str, first: set[int]) -> None:
    """The game ends. Who wins is decided now if the companion knows every captain;
    otherwise the game waits, in phase ``ending``, until the seats it was never told tell it
    (``captain_seen``): it never guesses a captain, and the unknown may win or share."""
    if untold(state):
        state.ending = (reason, frozenset(first))
        state.phase = "ending"
        state.pending = None
        state.immunity = None
        state.saving = None
        state.resume = state.resume_phase = None
        for player in state.players:
            player.revealed = True  # every captain is turned face-up at the end
        state.emit("ending", untold=untold(state), reason=reason)
        return
    _decide(state, reason, first)


def decide_ending(state: State) -> None:
    """In phase ``ending``, once every captain is known: who wins. Those whose win held when
    the game ended, and those whose win holds now that every captain is known (a captain
    told at the end is judged as one told late: see ``captain_seen``), then all who share."""
    if state.phase != "ending" or state.ending is None or untold(state):
        return
    reason, first = state.ending
    state.ending = None
    winners = set(first) | {p.seat for p in state.players if captains.wins_now(state, p.seat)}
    if winners:
        reason = "win"
    elif not state.living():
        reason = "all_dead"
    _decide(state, reason, winners)


def _decide(state: State, reason: str, first: set[int]) -> None:
    winners = captains.winners_at_end(state, reason, first)
    count = len(state.players)
    state.outcome = Outcome(tuple(sorted(winners)), reason,
                            {"comedy": len(winners) == count, "tragedy": not winners})
    state.phase = "over"
    state.pending = None
    for player in state.players:
        player.revealed = True
    state.emit("game_over", winners=sorted(winners), reason=reason)


def begin_play(state: State) -> None:
    state.round = 1
    state.turn = state.first_seat
    state.emit("round_started", round=1)
    start_turn(state)


def start_turn(state: State) -> None:
    player = state.players[state.turn]
    state.immune = set()
    state.emit("turn_started", seat=player.seat, round=state.round)
    if player.ascending:
        player.ascending = False
        player.ascended = True
        check_end(state)
        if ended(state):
            return
    if state.loyalty_income:
        state.phase = "income"
    else:
        player.energy += int(state.book.setup("income_energy"))
        state.phase = "action"


def end_turn(state: State) -> None:
    """After the turn's action: deadline losses (and a loss told while a window was open,
    see ``captain_seen``), then the next living seat."""
    state.pending = None
    player = state.players[state.turn]
    player.last_turn_round = state.round
    if player.alive and player.seat not in state.doomed and captains.past_deadline(state,
                                                                                  player.seat):
        state.doomed[player.seat] = None
        state.emit("lost", seat=player.seat)
    if state.doomed:
        after_harm(state, "advance")
        return
    advance(state)


def advance(state: State) -> None:
    count = len(state.players)
    seat = state.turn
    new_round = False
    for _ in range(count):
        seat = (seat + 1) % count
        if seat == state.first_seat:
            new_round = True  # the round counter passes at the first player's place
        if state.players[seat].alive:
            break
    else:
        check_end(state)
        return
    if new_round:
        state.completed_rounds = state.round
        check_end(state)
        if ended(state):
            return
        if state.round >= int(state.book.setup("rounds")):
            finish(state, "round_limit", set())
            return
        state.round += 1
        state.emit("round_started", round=state.round)
    state.turn = seat
    start_turn(state)


def shuffle_back(state: State, seat: int, card: str) -> None:
    """A shown card goes back into the deck and its owner draws a replacement face-down."""
    player = state.players[seat]
    slot = player.permits.index(card) if card in player.permits else player.permits.index(None)
    if state.deck is None:
        player.permits[slot] = None  # dealt by hand: the new card is the player's secret
    else:
        state.shuffles += 1
        state.deck = shuffled([*state.deck, card], state.seed, "reshuffle", state.shuffles)
        player.permits[slot] = state.deck.pop()
    state.emit("card_shown", seat=seat, card=card)


def _attack_done(state: State) -> None:
    pending = state.pending
    if pending is not None:
        # Blood for firing, even if Shielded; never for an attack that ended the game.
        state.players[pending.actor].blood += _blood(state, pending.name)
    end_turn(state)


def _reaction(state: State) -> None:
    pending = state.pending
    if pending is None or not state.players[pending.actor].alive:
        end_turn(state)  # an action whose actor died is cancelled (its blood: settle)
    else:
        state.phase = "reaction"


def _action(state: State) -> None:
    if state.players[state.turn].alive:
        state.phase = "action"
    else:
        end_turn(state)


def _stay(state: State) -> None:
    phase = state.resume_phase or state.phase
    state.resume_phase = None
    if phase in ("action", "income") and not state.players[state.turn].alive:
        end_turn(state)
    else:
        state.phase = phase


_CONTINUATIONS = {
    "attack_done": _attack_done,
    "end_turn": end_turn,
    "advance": advance,
    "reaction": _reaction,
    "action": _action,
    "stay": _stay,
}
