"""Win and lose conditions of the 19 captains, one small function per rule.

Each condition is judged for ``seat`` playing as captain ``as_captain`` with the marks and
partner of ``source``. Normally ``source == seat``; Viola plays as a dead captain, so she
is judged with the dead captain's marks and partner (``source`` is the dead captain's seat).
"""

from __future__ import annotations

from collections.abc import Callable

from companion.games.captains_gambit.state import Death, State

ASCENSION = ("prospero", "lady_macbeth")
MARKERS = ("hamlet", "cordelia", "brutus")
ASSASSINS_BY_MARK = ("hamlet", "brutus")
SWAPPERS = ("romeo", "tybalt")
# Viola cannot play as these: their wins need their own Reveal, or are her own.
NOT_COPYABLE = (*ASCENSION, "viola")


def _credited(state: State, seat: int) -> list[Death]:
    """The deaths whose kill credit may win for ``seat``: every one, but for Viola only those
    after her choice (she wins as the dead captain would from then on), unless the book
    counts the earlier ones too."""
    player = state.players[seat]
    if player.captain == "viola" and player.copies_seat is not None \
            and not state.book.captain("viola")["earlier_deaths_count"]:
        return state.deaths[player.copied_at:]
    return state.deaths


def _killed_by(state: State, victim: int | None, seat: int) -> bool:
    return any(d.seat == victim and d.killer == seat for d in _credited(state, seat))


def _others_dead(state: State, seat: int) -> bool:
    return all(not p.alive for p in state.players if p.seat != seat)


def _killed_mark(state: State, seat: int, source: int) -> bool:
    return _killed_by(state, state.marks.get(source), seat)


def _killed_most_blood(state: State, seat: int, source: int) -> bool:
    for d in _credited(state, seat):
        if d.killer != seat or d.seat == seat:
            continue
        others = [b for i, b in enumerate(d.blood) if i != seat]
        least = int(state.book.captain("portia")["victim_least_blood"])
        if d.blood[d.seat] >= least and d.blood[d.seat] == max(others):
            return True
    return False


def _killed_least_loyal(state: State, seat: int, source: int) -> bool:
    for d in _credited(state, seat):
        if d.killer != seat or d.seat == seat:
            continue
        living = [lo for i, lo in enumerate(d.loyalty) if d.alive[i] and i != seat]
        if d.loyalty[d.seat] == min(living):
            return True
    return False


def _killed_partner(state: State, seat: int, source: int) -> bool:
    return _killed_by(state, state.partner_of(source), seat)


def _ascended(state: State, seat: int, source: int) -> bool:
    return state.players[seat].ascended


def _last_alive(state: State, seat: int, source: int) -> bool:
    return state.players[seat].alive and _others_dead(state, seat)


def _everyone_else_dead(state: State, seat: int, source: int) -> bool:
    """Titus: every other captain dead, and Titus alive or dead in that same blow."""
    if not _others_dead(state, seat):
        return False
    mine = state.death_of(seat)
    return mine is None or mine.blow == max(d.blow for d in state.deaths)


def _lovers_last(state: State, seat: int, source: int) -> bool:
    partner = state.partner_of(source)
    if partner is None:
        return False
    return {p.seat for p in state.living()} == {seat, partner}


def _rosalind_alone(state: State, seat: int, source: int) -> bool:
    rounds = int(state.book.captain("rosalind")["alone_round"])
    return state.players[seat].alive and state.completed_rounds >= rounds and not state.deaths


Condition = Callable[[State, int, int], bool]

# Wins that end the game the moment they hold.
INSTANT_WINS: dict[str, Condition] = {
    "hamlet": _killed_mark,
    "brutus": _killed_mark,
    "portia": _killed_most_blood,
    "othello": _killed_least_loyal,
    "tybalt": _killed_partner,
    "mercutio": _killed_partner,
    "prospero": _ascended,
    "lady_macbeth": _ascended,
    "richard_iii": _last_alive,
    "titus": _everyone_else_dead,
    "romeo": _lovers_last,
    "juliet": _lovers_last,
    "rosalind": _rosalind_alone,
}


def _most_blood(state: State, seat: int) -> bool:
    mine = state.players[seat].blood
    return all(p.blood < mine for p in state.players if p.seat != seat)


def _wants_dead(state: State, winner: int, seat: int) -> bool:
    captain, source = _played_as(state, winner)
    return captain in ASSASSINS_BY_MARK and state.marks.get(source) == seat


def _wins_at_end(state: State, seat: int, captain: str, source: int, winners: set[int],
                 reason: str) -> bool:
    alive = state.players[seat].alive
    others_win = bool(winners - {seat})
    if captain == "iago":
        return _most_blood(state, seat)
    if captain == "puck":
        # alive when the last round ends, whatever ended the game then (Rosalind's win at
        # the end of that round too)
        return alive and state.completed_rounds >= int(state.book.setup("rounds"))
    if captain == "cordelia":
        return state.marks.get(source) in winners
    if captain == "rosalind":
        return (alive and others_win) or _rosalind_alone(state, seat, source)
    if captain == "imogen":
        return alive and others_win and not any(_wants_dead(state, w, seat) for w in winners)
    if captain == "king_lear":
        loyalties = {p.seat: p.loyalty for p in state.players if p.seat != seat}
        top = max(loyalties.values(), default=0)
        leaders = [s for s, lo in loyalties.items() if lo == top]
        return len(leaders) == 1 and leaders[0] in winners
    check = INSTANT_WINS.get(captain)
    return check is not None and check(state, seat, source)


def _played_as(state: State, seat: int) -> tuple[str | None, int]:
    """The captain whose conditions judge ``seat``, and whose marks and partner they use."""
    player = state.players[seat]
    if player.captain == "viola":
        source = player.copies_seat
        if source is None:
            return None, seat
        return state.players[source].captain, source
    return player.captain, seat


def _may_win(state: State, seat: int, captain: str) -> bool:
    """Dying means you lose, but for the captains who can win while dead."""
    return state.players[seat].alive or captain in state.book.setup("dead_can_win")


def wins_now(state: State, seat: int) -> bool:
    """Whether ``seat``'s win condition holds now, which ends the game."""
    captain, source = _played_as(state, seat)
    check = INSTANT_WINS.get(captain) if captain else None
    return (check is not None and captain is not None and _may_win(state, seat, captain)
            and check(state, seat, source))


def winners_at_end(state: State, reason: str, first: set[int]) -> set[int]:
    """Everyone who wins when the game ends: ``first`` plus all who share, to a fixed point."""
    winners = set(first)
    changed = True
    while changed:
        changed = False
        for p in state.players:
            if p.seat in winners:
                continue
            captain, source = _played_as(state, p.seat)
            if (captain and _may_win(state, p.seat, captain)
                    and _wins_at_end(state, p.seat, captain, source, winners, reason)):
                winners.add(p.seat)
                changed = True
    return winners


def _by_another_hand(state: State, captain: str, seat: int, killer: int | None) -> bool:
    """Whether a death with this kill credit is by someone else's hand: a death nobody holds
    credit for (a lose condition) only if the book says so (``loses_without_killer``)."""
    if killer is None:
        return bool(state.book.captain(captain)["loses_without_killer"])
    return killer != seat


def loses_now(state: State, seat: int) -> tuple[bool, int | None]:
    """Whether a living ``seat`` has met its lose condition, and who holds the kill credit."""
    player = state.players[seat]
    captain = player.captain
    if captain in ASSASSINS_BY_MARK:
        death = state.death_of(state.marks.get(seat))
        if death is not None and _by_another_hand(state, captain, seat, death.killer):
            return True, death.killer
    elif captain in ("romeo", "juliet", "tybalt", "mercutio"):
        death = state.death_of(state.partner_of(seat))
        duel = captain in ("tybalt", "mercutio")
        if death is not None and (not duel or _by_another_hand(state, captain, seat,
                                                                death.killer)):
            return True, death.killer
    elif captain == "rosalind":
        nth = int(state.book.captain("rosalind")["loses_at_death"])
        if len(state.deaths) >= nth:
            return True, state.deaths[nth - 1].killer
    return False, None


def past_deadline(state: State, seat: int) -> bool:
    """Prospero or Lady Macbeth who has not revealed by the end of their own turn in their
    deadline round (or a later one): they have lost."""
    player = state.players[seat]
    captain = player.captain
    return (captain in ASCENSION and not (player.ascending or player.ascended)
            and player.last_turn_round >= int(state.book.captain(captain)["deadline_round"]))


def lost_when_told(state: State, seat: int) -> tuple[bool, int | None]:
    """For a captain the companion is told late: whether it has already lost, and who holds
    the kill credit. It is judged as if it had been known all along: a Prospero told after
    his round-11 turn has lost, a Romeo told after Juliet's death has lost."""
    if past_deadline(state, seat):
        return True, None
    return loses_now(state, seat)


def can_copy(state: State, viola: int, corpse: int) -> bool:
    """Whether Viola may choose to play as the dead captain at ``corpse``."""
    dead = state.players[corpse]
    return (corpse != viola and not dead.alive and dead.captain is not None
            and dead.captain not in NOT_COPYABLE)
