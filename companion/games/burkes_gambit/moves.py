"""Every action of Burke's Gambit: when it is allowed, its parameters, what it does and its
log line. Dice are never simulated: a roll is an observation ("Ann rolled Quarantine"), from
the camera or a phone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.engine import Move, MoveSet, Outcome, Param, Params, shuffled
from companion.games.burkes_gambit.book import FACES
from companion.games.burkes_gambit.state import (
    CLEAN,
    CREW,
    INFECTED,
    SPECIALIST,
    Die,
    Look,
    Pending,
    State,
)

TEAMS = (CREW, SPECIALIST)
PARASITES = (INFECTED, CLEAN)
NAMES = {CREW: "Salvage Crew", SPECIALIST: "Acquisition Support Specialist"}
WINNERS = {CREW: "the Salvage Crew", SPECIALIST: "the Acquisition Support Specialists"}


def who(state: State, seat: int | None) -> str:
    return "the table" if seat is None else f"seat {seat} ({state.players[seat].name})"


def _fixed(text: str) -> Callable[[State], str]:
    return lambda state: text


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
                f" {len(voters(state))} have voted)")
    if state.phase == "tiebreak":
        return "a tied vote: the Captain decides"
    if state.outcome:
        team = winning_team(state)
        return f"game over: {WINNERS[team]} win" if team else "game over"
    return state.phase


def voters(state: State) -> list[int]:
    return [p.seat for p in state.living() if state.book.role_votes(p.role)
            and (state.book.quarantined_vote or p.seat not in state.quarantine)]


def winning_team(state: State) -> str | None:
    outcome = state.outcome
    if outcome is None:
        return None
    return CREW if outcome.reason == "infected_ejected" else SPECIALIST


# --- common refusals ------------------------------------------------------------------------

def _acting(state: State, seat: int | None) -> str | None:
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


def _my_turn(state: State, seat: int | None, die: bool | None) -> str | None:
    reason = _acting(state, seat)
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


def _table_only(*phases: str) -> Callable[[State, int | None], str | None]:
    def refusal(state: State, seat: int | None) -> str | None:
        if seat is not None:
            return "only the table (its host) does this"
        if state.phase not in phases:
            return f"not now: {status(state)}"
        return None
    return refusal


# --- roles and IDs (cards dealt by hand) ----------------------------------------------------

def _role_seen_refusal(state: State, seat: int | None) -> str | None:
    if seat is None:
        return "each seat tells its own role"
    if state.phase != "roles":
        return "the roles are known"
    if state.players[seat].role is not None:
        return "you have told your role"
    return None


def _free_roles(state: State, seat: int | None) -> tuple[Param, ...]:
    taken = {p.role for p in state.players}
    return (Param("role", "choice", "Your role card",
                  choices=tuple(r for r in state.book.roles() if r not in taken)),)


def _role_seen_check(state: State, seat: int | None, params: Params) -> str | None:
    unknown = [p for p in state.players if p.role is None]
    if len(unknown) == 1 and state.captain() is None and params.get("role") != "captain":
        return "the Captain is always in play: the last role must be the Captain"
    return None


def _role_seen_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.players[seat].role = str(params["role"])
    if all(p.role for p in state.players):
        captain = state.captain()
        assert captain is not None
        state.turn = captain.seat
        state.phase = "heads_down"
        state.emit("roles_known")


def _id_seen_refusal(state: State, seat: int | None) -> str | None:
    if seat is None:
        return "each seat tells its own ID card"
    if state.dealt:
        return "the companion dealt the ID cards: it knows yours"
    if state.players[seat].team is not None:
        return "you have told your ID card"
    return None  # also after the end, so the winners can be named


def _id_seen_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.players[seat].team = str(params["team"])
    if state.outcome is not None:  # the end is known: name this seat among the winners, or not
        team = winning_team(state)
        state.outcome = Outcome(tuple(p.seat for p in state.players if p.team == team),
                                state.outcome.reason)
    _check_crew_dead(state)


def _end_heads_down_run(state: State, seat: int | None, params: Params) -> None:
    state.phase = "turn"
    state.emit("play_started", seat=state.turn)


# --- a turn ---------------------------------------------------------------------------------

def _face_param(label: str) -> Callable[[State, int | None], tuple[Param, ...]]:
    return lambda state, seat: (Param("face", "choice", label, choices=FACES),)


def _roll_refusal(state: State, seat: int | None) -> str | None:
    return _my_turn(state, seat, die=False) or (
        None if state.bag_left() > 0 else "the bag is empty: use your reserved die or pass")


def _pass_refusal(state: State, seat: int | None) -> str | None:
    reason = _my_turn(state, seat, die=False)
    if reason:
        return reason
    return None if state.bag_left() <= 0 else "draw a die: the bag is not empty"


def _pass_run(state: State, seat: int | None, params: Params) -> None:
    state.emit("passed", seat=seat)
    _end_turn(state)


def _roll_run(state: State, seat: int | None, params: Params) -> None:
    state.die = Die(str(params["face"]))
    state.emit("rolled", seat=seat, face=state.die.face)
    if state.die.face == "engine":
        _power_up(state)


def _reserve_refusal(state: State, seat: int | None) -> str | None:
    reason = _my_turn(state, seat, die=False)
    if reason:
        return reason
    assert seat is not None
    return None if state.players[seat].reserve else "you have no reserved die"


def _use_reserve_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    player = state.players[seat]
    assert player.reserve is not None
    state.die, player.reserve = Die(player.reserve), None
    state.emit("used_reserve", seat=seat, face=state.die.face)


def _reroll_refusal(state: State, seat: int | None) -> str | None:
    reason = _my_turn(state, seat, die=True)
    if reason:
        return reason
    assert state.die is not None
    return "you have rerolled this die once already" if state.die.rerolled else None


def _reroll_run(state: State, seat: int | None, params: Params) -> None:
    assert state.die is not None
    state.die = Die(str(params["face"]), rerolled=True)
    state.emit("rerolled", seat=seat, face=state.die.face)
    if state.die.face == "engine":
        _power_up(state)


def _return_run(state: State, seat: int | None, params: Params) -> None:
    state.emit("returned", seat=seat)
    _end_turn(state)


def _reserve_die_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None and state.die is not None
    player = state.players[seat]
    player.reserve, state.die = state.die.face, None
    state.emit("reserved", seat=seat, face=player.reserve)
    _end_turn(state)


def _power_up(state: State) -> None:
    """An engine face: it cannot be rerolled or cancelled; the turn ends."""
    state.die = None
    if state.stalls:
        state.stalls -= 1
        state.centre -= 1
        state.emit("engine_stalled", engines=state.engines, to_earth=state.to_earth)
    else:
        state.engines += 1
        state.centre += 1
        state.emit("engine_powered", engines=state.engines, to_earth=state.to_earth)
    if state.engines >= state.to_earth:
        state.phase = "vote"
        state.emit("earth_reached")
        _check_vote_done(state)
    else:
        _end_turn(state)


# --- resolving a face -----------------------------------------------------------------------

def _living_choices(state: State, seat: int | None, kind: str) -> tuple[int, ...]:
    living = [p.seat for p in state.living()]
    if kind == "any":
        return tuple(living)
    if kind == "other":
        return tuple(s for s in living if s != seat)
    if kind == "neighbour" and seat is not None:
        return tuple(sorted({_neighbour(state, seat, -1), _neighbour(state, seat, 1)} - {seat}))
    return ()


def _neighbour(state: State, seat: int, step: int) -> int:
    count = len(state.players)
    for distance in range(1, count):
        other = (seat + step * distance) % count
        if state.players[other].alive:
            return other
    return seat


def _cancel_targets(state: State, seat: int | None, with_window: bool) -> tuple[str, ...]:
    """What a Cancel can stop now: the die action waiting, a Stall in the centre, a
    quarantine."""
    out: list[str] = []
    pending = state.pending
    if with_window and state.phase == "cancel" and pending is not None:
        own_action = seat == pending.actor and not pending.cancelled
        last_canceller = pending.cancels[-1] if pending.cancels else None
        if not own_action and seat != last_canceller:
            out.append("waiting")
    if state.stalls:
        out.append("stall")
    out += [f"quarantine:{s}" for s in sorted(state.quarantine)]
    return tuple(out)


def _resolve_params(state: State, seat: int | None) -> tuple[Param, ...]:
    die = state.die
    if die is None:
        return ()
    target = state.book.face(die.face)["target"]
    params: list[Param] = []
    if die.face == "cancel":
        params.append(Param("what", "choice", "Cancel what",
                            choices=_cancel_targets(state, seat, with_window=False)))
    elif target != "none":
        params.append(Param("target", "seat", "Whom",
                            choices=_living_choices(state, seat, target)))
    if die.face == "damage_heal":
        params.append(Param("choice", "choice", "Damage or heal", choices=("damage", "heal")))
    return tuple(params)


def _resolve_refusal(state: State, seat: int | None) -> str | None:
    reason = _my_turn(state, seat, die=True)
    if reason:
        return reason
    assert state.die is not None
    if state.die.face == "cancel" and not _cancel_targets(state, seat, with_window=False):
        return "nothing to cancel now: return the die or reserve it"
    if any(p.kind == "seat" and not p.choices for p in _resolve_params(state, seat)):
        return "there is nobody to use it on"
    return None


def _resolve_check(state: State, seat: int | None, params: Params) -> str | None:
    assert state.die is not None
    face, target = state.die.face, params.get("target")
    hurts = face == "insta_kill" or (face == "damage_heal" and params.get("choice") == "damage")
    if hurts and target in state.quarantine:
        return f"{who(state, target)} is in quarantine and cannot be hurt"
    if face == "quarantine" and target in state.quarantine:
        return f"{who(state, target)} is in quarantine already"
    return None


def _resolve_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None and state.die is not None
    face = state.die.face
    choice = params.get("what") if face == "cancel" else params.get("choice")
    state.die = None
    _open_window(state, Pending(seat, face, params.get("target"), choice))


def _open_window(state: State, pending: Pending) -> None:
    """A die action waits while anyone holding a Cancel may answer (none: it happens)."""
    state.pending = pending
    state.phase = "cancel"
    state.emit("resolving", seat=pending.actor, face=pending.face, target=pending.target)
    if not _can_answer(state):
        _carry_out(state)


def _can_answer(state: State) -> bool:
    """Whether any seat could Cancel what is waiting (the table need not wait otherwise)."""
    return any(p.reserve == "cancel" and _acting(state, p.seat) is None
               and "waiting" in _cancel_targets(state, p.seat, with_window=True)
               for p in state.players)


def _cancel_refusal(state: State, seat: int | None) -> str | None:
    reason = _acting(state, seat)
    if reason:
        return reason
    assert seat is not None
    if state.phase in ("roles", "heads_down", "vote", "tiebreak", "over", "reveal",
                       "reveal_ejected"):
        return f"not now: {status(state)}"
    if state.players[seat].reserve != "cancel":
        return "you have no Cancel die in reserve"
    if not _cancel_targets(state, seat, with_window=True):
        return "there is nothing to cancel"
    return None


def _cancel_params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (Param("what", "choice", "Cancel what",
                  choices=_cancel_targets(state, seat, with_window=True)),)


def _cancel_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.players[seat].reserve = None  # the Cancel die goes back to the bag
    what = str(params["what"])
    state.emit("cancelled", seat=seat, what=what)
    if what == "waiting":
        assert state.pending is not None
        state.pending.cancels.append(seat)
        if not _can_answer(state):
            _carry_out(state)
    else:  # a Stall or a quarantine: this Cancel, too, may be cancelled
        _open_window(state, Pending(seat, "cancel", None, what, ends_turn=False))


def _cancel_standing(state: State, what: str) -> None:
    if what == "stall":
        state.stalls -= 1
        state.centre -= 1
    else:
        state.quarantine.pop(int(what.split(":")[1]), None)


def _carry_out_refusal(state: State, seat: int | None) -> str | None:
    if state.phase != "cancel" or state.pending is None:
        return "nothing is waiting"
    if seat != state.pending.actor:
        return f"{state.name(state.pending.actor)} goes on when nobody cancels"
    return None


def _carry_out_run(state: State, seat: int | None, params: Params) -> None:
    _carry_out(state)


def _carry_out(state: State) -> None:
    pending = state.pending
    assert pending is not None
    state.pending = None
    state.phase = "turn"
    if pending.cancelled:
        state.emit("action_cancelled", seat=pending.actor, face=pending.face)
        if pending.ends_turn:
            _end_turn(state)
        return
    face, actor, target = pending.face, pending.actor, pending.target
    if face == "cancel":
        _cancel_standing(state, str(pending.choice))
        state.emit("cancel_done", what=pending.choice)
        if pending.ends_turn:
            _end_turn(state)
        return
    if face == "damage_heal" and target is not None:
        player = state.players[target]
        if not player.alive or (pending.choice == "damage" and target in state.quarantine):
            state.emit("fizzled", seat=actor)
        elif pending.choice == "heal":
            player.health = min(state.book.health, player.health + 1)
            state.emit("healed", seat=target, health=player.health)
        else:
            player.health -= 1
            state.emit("damaged", seat=target, health=player.health)
            if player.health <= 0:
                _kill(state, target, actor)
    elif face == "insta_kill" and target is not None:
        if state.players[target].alive and target not in state.quarantine:
            _kill(state, target, actor)
    elif face in ("scan_neighbour", "scan_any", "id_check") and target is not None:
        _look(state, actor, target, "id" if face == "id_check" else "parasite")
    elif face == "quarantine" and target is not None:
        state.quarantine[target] = actor
        state.emit("quarantined", seat=target, by=actor)
    elif face == "stall":
        state.stalls += 1
        state.centre += 1
        state.emit("stall_placed", stalls=state.stalls)
    elif face == "reshuffle":
        _deal_parasites(state, "reshuffle", keep_infected=True)
        state.emit("reshuffled")
    if state.phase == "turn":
        _end_turn(state)


# --- deaths, parasites, the end -------------------------------------------------------------

def _kill(state: State, seat: int, by: int | None) -> None:
    player = state.players[seat]
    player.alive, player.health = False, 0
    player.reserve = None
    state.votes.pop(seat, None)  # the dead do not vote, and are not voted out:
    for voter, target in list(state.votes.items()):  # whoever voted for them votes again
        if target == seat:
            del state.votes[voter]
    state.quarantine.pop(seat, None)
    for quarantined, quarantiner in list(state.quarantine.items()):
        if quarantiner == seat:  # it lasted until their next turn, which will not come
            del state.quarantine[quarantined]
    state.emit("died", seat=seat, by=by)
    if state.dealt:
        player.revealed = True
        state.emit("cards_shown", seat=seat, team=player.team, parasite=player.parasite)
        if player.parasite == INFECTED and state.living():
            _deal_parasites(state, "reinfect", keep_infected=True)
            state.emit("reinfected")
        _check_crew_dead(state)
    else:
        state.awaiting_reveal.append(seat)
        if state.phase == "turn":
            state.phase = "reveal"
    _check_vote_done(state)


def _deal_parasites(state: State, label: str, keep_infected: bool) -> None:
    """A new deal of the living players' parasite cards (seeded), one infected among them.
    After the infected player's death, one clean card is put aside (re-infection)."""
    state.epoch += 1
    living = state.living()
    if not state.dealt or not living:
        return
    cards = [INFECTED] + [CLEAN] * (len(living) - 1)
    for player, card in zip(living, shuffled(cards, state.seed, label, state.epoch),
                            strict=True):
        player.parasite = card


def _check_crew_dead(state: State) -> None:
    """The specialists win when every crew member is dead (known when all IDs are)."""
    if state.outcome is not None or any(p.team is None for p in state.players):
        return
    if not any(p.alive and p.team == CREW for p in state.players):
        _finish(state, SPECIALIST, "crew_dead")


def _finish(state: State, team: str, reason: str) -> None:
    winners = tuple(p.seat for p in state.players if p.team == team)
    state.outcome = Outcome(winners, reason)
    state.phase = "over"
    state.die, state.pending = None, None
    for player in state.players:
        player.revealed = player.revealed or state.dealt
    state.emit("game_over", team=team, reason=reason)


def _end_turn(state: State) -> None:
    if state.phase != "turn" or state.outcome is not None:
        return
    state.die = None
    count = len(state.players)
    for distance in range(1, count + 1):
        seat = (state.turn + distance) % count
        if not state.players[seat].alive:
            continue
        for quarantined, quarantiner in list(state.quarantine.items()):
            if quarantiner == seat:  # it lasts until the start of their next turn
                del state.quarantine[quarantined]
                state.emit("quarantine_over", seat=quarantined)
        if seat in state.quarantine:
            state.emit("skipped", seat=seat)
            continue
        state.turn = seat
        state.emit("turn", seat=seat)
        return


# --- revealing cards the companion did not deal --------------------------------------------

def _reveal_params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (Param("target", "seat", "The dead player", choices=tuple(state.awaiting_reveal)),
            Param("team", "choice", "Their ID card", choices=TEAMS),
            Param("parasite", "choice", "Their parasite card", choices=PARASITES))


def _reveal_refusal(state: State, seat: int | None) -> str | None:
    reason = _table_only("reveal", "turn", "cancel", "vote")(state, seat)
    if reason:
        return reason
    return None if state.awaiting_reveal else "no dead player's cards wait to be turned over"


def _reveal_run(state: State, seat: int | None, params: Params) -> None:
    target = int(params["target"])
    player = state.players[target]
    player.team, player.parasite, player.revealed = str(params["team"]), \
        str(params["parasite"]), True
    state.awaiting_reveal.remove(target)
    state.emit("cards_shown", seat=target, team=player.team, parasite=player.parasite)
    if player.parasite == INFECTED:
        state.epoch += 1  # the real cards are dealt again: older scans are stale
        state.emit("reinfected")
    _check_crew_dead(state)
    if not state.awaiting_reveal and state.phase == "reveal":
        state.phase = "turn"
        if not state.players[state.turn].alive or state.die is None:
            _end_turn(state)


# --- the vote -------------------------------------------------------------------------------

def _vote_refusal(state: State, seat: int | None) -> str | None:
    if state.phase != "vote":
        return f"not now: {status(state)}"
    if seat is None or seat not in voters(state):
        return "only the living vote (not the Stowaway)"
    if seat in state.votes:
        return "you have voted"
    return None


def _vote_params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (Param("target", "seat", "Eject whom",
                  choices=tuple(p.seat for p in state.living() if p.seat != seat)),)


def _vote_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.votes[seat] = int(params["target"])
    state.emit("voted", seat=seat)
    _check_vote_done(state)


def _check_vote_done(state: State) -> None:
    if state.phase == "vote" and len(state.living()) <= 1:
        # Nobody to vote out: the last survivor carries the parasite to Earth.
        state.emit("no_one_ejected")
        _finish(state, SPECIALIST, "infected_reaches_earth")
        return
    if state.phase != "vote" or any(s not in state.votes for s in voters(state)):
        return
    tally: dict[int, int] = {}
    for target in state.votes.values():
        tally[target] = tally.get(target, 0) + 1
    state.emit("votes_shown", votes=dict(state.votes))
    if not tally:  # nobody could vote
        _finish(state, SPECIALIST, "tie_captain_dead")
        return
    top = max(tally.values())
    leaders = sorted(s for s, n in tally.items() if n == top)
    if len(leaders) == 1:
        _eject(state, leaders[0])
        return
    captain = state.captain()
    if captain is not None and captain.alive:
        state.tied = leaders
        state.phase = "tiebreak"
    else:
        state.emit("no_one_ejected")
        _finish(state, SPECIALIST, "tie_captain_dead")


def _tiebreak_refusal(state: State, seat: int | None) -> str | None:
    if state.phase != "tiebreak":
        return "there is no tie to break"
    captain = state.captain()
    if seat is None or captain is None or seat != captain.seat:
        return "the Captain breaks the tie"
    return None


def _tiebreak_run(state: State, seat: int | None, params: Params) -> None:
    _eject(state, int(params["target"]))


def _eject(state: State, seat: int) -> None:
    state.ejected = seat
    state.emit("ejected", seat=seat)
    player = state.players[seat]
    if player.parasite is None:
        state.phase = "reveal_ejected"
        return
    player.revealed = True
    _finish(state, CREW if player.parasite == INFECTED else SPECIALIST,
            "infected_ejected" if player.parasite == INFECTED else "clean_ejected")


def _ejected_card_run(state: State, seat: int | None, params: Params) -> None:
    assert state.ejected is not None
    player = state.players[state.ejected]
    player.parasite, player.revealed = str(params["parasite"]), True
    infected = player.parasite == INFECTED
    _finish(state, CREW if infected else SPECIALIST,
            "infected_ejected" if infected else "clean_ejected")


# --- roles and the table's tools ------------------------------------------------------------

def _use_role_refusal(state: State, seat: int | None) -> str | None:
    reason = _acting(state, seat)
    if reason:
        return reason
    assert seat is not None
    player = state.players[seat]
    if state.phase in ("roles", "heads_down", "over"):
        return f"not now: {status(state)}"
    if player.role in (None, "captain", "stowaway"):
        return "your role has no ability to use" if player.role else "tell your role first"
    if player.role_used:
        return "you have used your role"
    return None


def _use_role_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.players[seat].role_used = True
    state.emit("role_used", seat=seat, role=state.players[seat].role)


def _correct_params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (Param("counter", "choice", "What", choices=("health", "engines")),
            Param("target", "seat", "Player (for health)",
                  choices=tuple(p.seat for p in state.living()), default=state.turn),
            Param("value", "number", "New value", minimum=0, maximum=9),
            Param("reason", "text", "Reason", maximum=200))


def _correct_check(state: State, seat: int | None, params: Params) -> str | None:
    if isinstance(params.get("reason"), str) and not params["reason"].strip():
        return "a correction needs a reason"
    if params.get("counter") == "health" and isinstance(params.get("value"), int) \
            and params["value"] > state.book.health:
        return f"health is at most {state.book.health}"
    if params.get("counter") == "engines" and isinstance(params.get("value"), int) \
            and params["value"] >= state.to_earth:
        return f"set engines below {state.to_earth} (reaching Earth takes a power-up)"
    return None


def _correct_run(state: State, seat: int | None, params: Params) -> None:
    value = int(params["value"])
    if params["counter"] == "engines":
        state.engines = value
    else:
        target = int(params["target"])
        state.players[target].health = value
        if value == 0:
            _kill(state, target, None)
            if target == state.turn and state.phase == "turn":
                state.die = None  # the player whose turn it was is dead: on to the next
                _end_turn(state)
    state.emit("corrected", counter=params["counter"], value=value)


def _look_params(state: State, seat: int | None) -> tuple[Param, ...]:
    seats = tuple(p.seat for p in state.living())
    return (Param("looker", "seat", "Who looks", choices=seats),
            Param("card", "choice", "At which card", choices=("parasite", "id")),
            Param("target", "seat", "Whose card", choices=tuple(p.seat for p in state.players)),
            Param("reason", "text", "Why (the role used)", maximum=200))


def _look_check(state: State, seat: int | None, params: Params) -> str | None:
    if params.get("looker") == params.get("target") and params.get("card") == "parasite":
        return "nobody may look at their own parasite card"
    return None


def _look_run(state: State, seat: int | None, params: Params) -> None:
    _look(state, int(params["looker"]), int(params["target"]), str(params["card"]))


def _look(state: State, looker: int, target: int, card: str) -> None:
    """``looker`` sees ``target``'s ID ("id") or parasite card, on their phone only."""
    other = state.players[target]
    result = other.team if card == "id" else other.parasite
    state.players[looker].looks.append(Look(card, target, result, state.epoch))
    state.emit("looked", seat=looker, target=target, card=card)


def _declare_run(state: State, seat: int | None, params: Params) -> None:
    team = SPECIALIST if params["winner"] == "specialists" else CREW
    _finish(state, team, "infected_ejected" if team == CREW else "crew_dead")


# --- log lines ------------------------------------------------------------------------------

def _face(state: State, params: Params) -> str:
    return state.book.face_label(str(params.get("face")))


def _resolve_text(state: State, seat: int | None, params: Params) -> str:
    die = state.die
    face = state.book.face_label(die.face) if die else "?"
    target = params.get("target")
    on = f" on {state.name(target)}" if isinstance(target, int) else ""
    what = params.get("what")
    if isinstance(what, str):
        on = f": {cancelled_name(state, what)}"
    choice = f" ({params['choice']})" if params.get("choice") else ""
    return f"{state.name(seat)} uses {face}{choice}{on}"


def cancelled_name(state: State, what: str) -> str:
    if what == "waiting" and state.pending:
        if state.pending.cancels:  # the last Cancel is what a new one stops
            return f"{state.name(state.pending.cancels[-1])}'s Cancel"
        return f"{state.name(state.pending.actor)}'s {state.book.face_label(state.pending.face)}"
    if what == "stall":
        return "the Stall in the centre"
    if what.startswith("quarantine:"):
        return f"{state.name(int(what.split(':')[1]))}'s quarantine"
    return what


def _correct_text(state: State, seat: int | None, params: Params) -> str:
    if params.get("counter") == "engines":
        return (f"Table correction: engines {state.engines} -> {params.get('value')}"
                f" ({params.get('reason')})")
    target = params.get("target")
    old = state.players[target].health if isinstance(target, int) else "?"
    return (f"Table correction: {state.name(target)}'s health {old} -> {params.get('value')}"
            f" ({params.get('reason')})")


def _carry_out_text(state: State, seat: int | None, params: Params) -> str:
    pending = state.pending
    if pending is None:
        return f"{state.name(seat)} goes on"
    face = state.book.face_label(pending.face)
    return f"{state.name(seat)}'s {face} " + ("stays cancelled" if pending.cancelled
                                             else "goes ahead")


def _said(template: str) -> Callable[[State, int | None, Params], str]:
    return lambda state, seat, params: template.format(who=state.name(seat))


MOVES: dict[str, Move] = {m.name: m for m in (
    Move("role_seen", "input", _fixed("Tell the companion your role card"), _role_seen_refusal,
         _role_seen_run, lambda s, seat, p: f"{s.name(seat)}'s role is"
         f" {s.book.role_label(str(p.get('role')))}", _free_roles, _role_seen_check),
    Move("id_seen", "input", _fixed("Tell the companion your ID card"), _id_seen_refusal,
         _id_seen_run, _said("{who} told the companion their ID card"),
         lambda s, seat: (Param("team", "choice", "Your ID card", choices=TEAMS),),
         private=True),
    Move("end_heads_down", "table", _fixed("Everyone lifts their head"), _table_only("heads_down"),
         _end_heads_down_run, _said("Heads up: the game begins")),
    Move("roll", "move", _fixed("Draw and roll a die"), _roll_refusal, _roll_run,
         lambda s, seat, p: f"{s.name(seat)} rolled {_face(s, p)}", _face_param("Face rolled")),
    Move("pass_turn", "move", _fixed("Pass (the bag is empty)"), _pass_refusal, _pass_run,
         _said("{who} passes: the bag is empty")),
    Move("use_reserve", "move", _fixed("Use your reserved die"), _reserve_refusal,
         _use_reserve_run, lambda s, seat, p: f"{s.name(seat)} uses the reserved"
         f" {s.book.face_label(s.players[seat].reserve or 'cancel') if seat is not None else ''}"),
    Move("reroll", "move", _fixed("Reroll (once)"), _reroll_refusal, _reroll_run,
         lambda s, seat, p: f"{s.name(seat)} rerolled: {_face(s, p)}", _face_param("New face")),
    Move("resolve", "move", lambda s: f"Use {s.book.face_label(s.die.face)}" if s.die
         else "Use the die", _resolve_refusal, _resolve_run, _resolve_text, _resolve_params,
         _resolve_check),
    Move("return_die", "move", _fixed("Return the die to the bag"),
         lambda s, seat: _my_turn(s, seat, die=True), _return_run,
         _said("{who} returns the die to the bag")),
    Move("reserve_die", "move", _fixed("Reserve the die on your card"),
         lambda s, seat: _my_turn(s, seat, die=True), _reserve_die_run,
         lambda s, seat, p: f"{s.name(seat)} reserves"
         f" {s.book.face_label(s.die.face) if s.die else 'the die'}"),
    Move("cancel", "reaction", _fixed("Cancel (reserved die)"), _cancel_refusal, _cancel_run,
         lambda s, seat, p: f"{s.name(seat)} cancels"
         f" {cancelled_name(s, str(p.get('what')))}", _cancel_params),
    Move("carry_out", "reaction", _fixed("Nobody cancels: go on"), _carry_out_refusal,
         _carry_out_run, _carry_out_text),
    Move("use_role", "move", lambda s: "Use your role (once)", _use_role_refusal, _use_role_run,
         lambda s, seat, p: f"{s.name(seat)} uses the"
         f" {s.book.role_label(s.players[seat].role or 'captain') if seat is not None else ''}"
         " role: the table applies it"),
    Move("vote", "move", _fixed("Vote: eject whom?"), _vote_refusal, _vote_run,
         _said("{who} has voted"), _vote_params, secret=("target",)),
    Move("break_tie", "move", _fixed("Break the tie"), _tiebreak_refusal, _tiebreak_run,
         lambda s, seat, p: f"The Captain ejects {s.name(p.get('target'))}",
         lambda s, seat: (Param("target", "seat", "Eject whom", choices=tuple(s.tied)),)),
    Move("dead_revealed", "table", _fixed("Turn the dead player's cards face up"),
         _reveal_refusal, _reveal_run,
         lambda s, seat, p: f"{s.name(p.get('target'))}'s cards: {p.get('team')},"
         f" {p.get('parasite')}", _reveal_params),
    Move("ejected_revealed", "table", _fixed("Turn the ejected player's parasite card"),
         _table_only("reveal_ejected"), _ejected_card_run,
         lambda s, seat, p: f"The ejected player's parasite card: {p.get('parasite')}",
         lambda s, seat: (Param("parasite", "choice", "Parasite card", choices=PARASITES),)),
    Move("correct", "table", _fixed("Correct health or engines"),
         _table_only("turn", "vote"), _correct_run, _correct_text, _correct_params,
         _correct_check, ruling=True),
    Move("grant_look", "table", _fixed("Let a player look at a card (a role)"),
         _table_only("turn", "cancel", "vote"), _look_run,
         lambda s, seat, p: f"The table lets {s.name(p.get('looker'))} look at"
         f" {s.name(p.get('target'))}'s {'ID' if p.get('card') == 'id' else 'parasite'} card"
         f" ({p.get('reason')})", _look_params, _look_check, ruling=True),
    Move("declare_winner", "table", _fixed("Declare the winner (the table's ruling)"),
         _table_only("turn", "cancel", "vote", "tiebreak", "reveal", "reveal_ejected"),
         _declare_run, lambda s, seat, p: f"The table declares the {p.get('winner')} the"
         f" winners ({p.get('reason')})",
         lambda s, seat: (Param("winner", "choice", "Who won", choices=("crew", "specialists")),
                          Param("reason", "text", "Why", maximum=200)), ruling=True),
)}


def public_looks(state: State, seat: int) -> list[dict[str, Any]]:
    """The seat's own looks, for its view only."""
    return [{"card": look.card, "seat": look.seat, "name": state.name(look.seat),
             "result": look.result, "stale": look.card == "parasite" and look.epoch != state.epoch}
            for look in state.players[seat].looks]


MOVE_SET = MoveSet("Burke's Gambit", MOVES.values(), who)
