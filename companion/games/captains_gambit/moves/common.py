"""What several of Captain's Gambit's actions share: how a seat is named, what the game is
waiting for, the notes on what followed an action, the usual refusals, targets and hands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.engine import Event, Param, Params, listed
from companion.engine.actions import as_json
from companion.games.captains_gambit.book import PERMITS, WILDCARDS
from companion.games.captains_gambit.state import State


def who(state: State, seat: int | None) -> str:
    if seat is None:
        return "the table"
    return f"seat {seat} ({state.players[seat].name})"


def fixed_label(text: str) -> Callable[[State], str]:
    """An action's label that does not depend on the state."""
    return lambda state: text


def said(template: str) -> Callable[[State, int | None, Params], str]:
    """A log line that only names the acting seat: ``said("{who} declares Shield")``."""
    return lambda state, seat, params: template.format(who=state.name(seat))


# --- what the game is waiting for ----------------------------------------------------------

def waiting_text(state: State) -> str:
    """What the table waits for, as every phone's status line says it: by names (a seat's
    number is for transcripts)."""
    pending = state.pending
    if state.phase == "mulligan":
        return "the permit mulligan is under way"
    if state.phase == "prologue":
        return "the Prologue is under way"
    if state.phase == "income":
        return f"{state.name(state.turn)} first takes the turn's energy or a loyalty"
    if state.phase == "action":
        return f"it is {state.name(state.turn)}'s turn"
    if state.phase == "reaction" and pending:
        action = f"{state.name(pending.actor)}'s {state.book.label(pending.name)}"
        if pending.shield_by is not None and pending.shield_open:  # who claims what, in sight
            return f"{state.name(pending.shield_by)} Shields {action}; it awaits reactions"
        return f"{action} awaits reactions"
    if state.phase == "bluff" and pending and pending.challenge:
        return f"{state.name(pending.challenge[1])} must show the permit or concede"
    if state.phase == "immunity" and state.immunity:
        return f"{state.name(state.immunity[0])} must choose whether to use Diplomatic Immunity"
    if state.phase == "save":
        return f"the save window is open for {state.name(state.saving)}"
    if state.phase == "ending":
        return f"the game has ended: {untold_text(state)}"
    return "the game is over"


def prompt(state: State, seat: int | None) -> str:
    """What the game asks of ``seat`` now, addressed to it, when that is not a plain turn (a
    phone's turn card says it instead of "Your turn"); "" otherwise. Public words only."""
    if seat is None or seat not in waiting_for(state):
        return ""
    pending = state.pending
    if state.phase == "mulligan":
        return "Before play: the permit mulligan: swap any of your permits, or keep them"
    if state.phase == "income":
        return "Your turn: first take the turn's energy or a loyalty"
    if state.phase == "reaction" and pending is not None:
        return (f"Your {state.book.label(pending.name)} is declared: let it resolve once nobody"
                " else answers")
    if state.phase == "bluff" and pending is not None and pending.challenge is not None:
        caller, _, on = pending.challenge
        claim = state.book.label(pending.name if on == "action" else "shield")
        return f"{state.name(caller)} calls your {claim} a bluff: show the permit, or concede"
    if state.phase == "immunity":
        return "You lost a bluff call: reveal Diplomatic Immunity, or take the bluff damage"
    if state.phase == "save":
        return "You are dying: make a last stand (reveal), or let the death stand"
    if state.phase == "ending":
        return "Tell the companion your captain, so the game can end"
    return ""


def untold_text(state: State) -> str:
    """Who must tell the companion their captain before it can say who won."""
    names = [state.name(p.seat) for p in state.players if p.captain is None]
    if len(names) == 1:
        return f"{names[0]} must tell the companion their captain"
    return f"{listed(names)} must tell the companion their captains"


def waiting_for(state: State) -> list[int]:
    """The seats whose answer the game needs before it can go on."""
    pending = state.pending
    if state.phase == "mulligan":
        return [p.seat for p in state.players if not p.mulliganed]
    if state.phase in ("action", "income"):
        return [state.turn]
    if state.phase == "reaction" and pending:
        return [pending.actor]
    if state.phase == "bluff" and pending and pending.challenge:
        return [pending.challenge[1]]
    if state.phase == "immunity" and state.immunity:
        return [state.immunity[0]]
    if state.phase == "save" and state.saving is not None:
        return [state.saving]
    if state.phase == "ending":
        return [p.seat for p in state.players if p.captain is None]
    return []


def event_notes(state: State, events: tuple[Event, ...]) -> tuple[str, ...]:
    """What followed an action, in public words, for the log."""
    notes = []
    for event in events:
        kind = event["type"]
        seat = event.get("seat")
        if kind == "damaged":
            notes.append(f"{state.name(seat)} takes {event['amount']} damage")
        elif kind == "gained":
            source = event.get("source")
            whence = "" if source is None else f" from {state.name(source)}"
            notes.append(f"{state.name(seat)} gains {event['amount']} {event['counter']}{whence}")
        elif kind == "died":
            captain = state.book.label(event["captain"]) if event["captain"] else "unknown"
            how = "loses and dies" if event["cause"] == "lost" else "dies"
            by = f", kill credit to {state.name(event['killer'])}" if event["killer"] is not None \
                else ""
            notes.append(f"{state.name(seat)} ({captain}) {how}{by}")
        elif kind == "card_shown":
            notes.append(f"{state.name(seat)} shuffles the {state.book.label(event['card'])} back"
                         " and draws a new permit")
        elif kind == "resolved" and event.get("shield_by") is not None:
            notes.append(f"{state.name(event['shield_by'])}'s Shield blocks it")
        elif kind == "immune":
            notes.append(f"{state.name(seat)} is immune to bluff damage this turn")
        elif kind == "save_window":
            notes.append(f"The save window opens for {state.name(seat)}")
        elif kind == "round_started":
            notes.append(f"Round {event['round']} begins")
        elif kind == "ending":
            notes.append(f"The game ends: {untold_text(state)} before the winners are known")
        elif kind == "game_over":
            names = ", ".join(state.name(s) for s in event["winners"]) or "nobody"
            verb = "win" if len(event["winners"]) > 1 else "wins"
            notes.append(f"Game over: {names} {verb}")
    return tuple(notes)


# --- refusals ------------------------------------------------------------------------------

def not_living(state: State, seat: int | None) -> str | None:
    """Why ``seat`` cannot act at all: the game is over, it is the table, or it is dead."""
    if state.phase == "over":
        return "the game is over"
    if seat is None:
        return "this needs a seat, not the table"
    if not state.players[seat].alive:
        return f"{who(state, seat)} is dead"
    return None


def not_in_phase(state: State, seat: int | None, phase: str, expected: int | None) -> str | None:
    """Refusal unless the game is in ``phase`` waiting for ``expected`` (None: anyone)."""
    reason = not_living(state, seat)
    if reason:
        return reason
    if state.phase != phase:
        return f"not now: {waiting_text(state)}"
    if expected is not None and seat != expected:
        if phase in ("action", "income"):
            return f"not your turn: it is {who(state, expected)}'s turn"
        return f"not yours to answer: {waiting_text(state)}"
    return None


def not_prologue_step(state: State, seat: int | None, roles: tuple[str, ...]) -> str | None:
    """Refusal unless a living seat whose captain is one of ``roles`` acts in the Prologue."""
    reason = not_living(state, seat)
    if reason or seat is None:
        return reason
    if state.phase != "prologue":
        return f"not now: {waiting_text(state)}"
    captain = state.players[seat].captain
    if captain not in roles:
        in_play = [r for r in roles if r in state.pool] or list(roles)  # the public pool's
        only = "only " + " or ".join(state.book.label(r) for r in in_play) + " does this"
        if captain is None:  # dealt by hand, and this seat has not said which it holds
            return f"tell the companion your captain first (captain_seen): {only}"
        return only
    return None


# --- targets -------------------------------------------------------------------------------

def target_problem(state: State, seat: int | None, target: Any, kind: str) -> str | None:
    """Why ``target`` cannot be the target of ``seat``'s action of target ``kind``."""
    if not isinstance(target, int) or isinstance(target, bool):
        return f"target must be a seat number, not {as_json(target)}"
    if not 0 <= target < len(state.players):
        return f"there is no seat {target}"
    if not state.players[target].alive:
        return f"the target, {who(state, target)}, is dead"
    if kind in ("opponent", "other") and target == seat:
        return "you cannot target yourself"
    return None


def living_targets(state: State, seat: int | None, kind: str) -> tuple[int, ...]:
    return tuple(p.seat for p in state.players
                 if target_problem(state, seat, p.seat, kind) is None)


def has_living_target(state: State, seat: int | None, kind: str) -> bool:
    """Whether any target fits (the first one found will do: asked on every move)."""
    return any(target_problem(state, seat, p.seat, kind) is None for p in state.players)


def target_param(state: State, seat: int | None, kind: str, label: str = "Target") -> Param:
    return Param("target", "seat", label, choices=living_targets(state, seat, kind))


def other_player_params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (target_param(state, seat, "other", "Player"),)


def check_target(kind: str) -> Callable[[State, int | None, Params], str | None]:
    def check(state: State, seat: int | None, params: Params) -> str | None:
        if "target" in params:
            return target_problem(state, seat, params["target"], kind)
        return None
    return check


# --- hands ---------------------------------------------------------------------------------

def may_hold(state: State, seat: int, card: str) -> bool:
    """Whether ``seat`` holds ``card`` or might (a card the companion was not told)."""
    permits = state.players[seat].permits
    if card in permits:
        return True
    if None not in permits:
        return False
    return state.wildcards or card not in WILDCARDS


def identity_theft_problem(state: State, seat: int) -> str | None:
    """Why ``seat`` cannot act through Identity Theft (None: it may)."""
    if not state.wildcards:
        return "Identity Theft is not in play: the wildcards are off (option wildcards)"
    if not may_hold(state, seat, "identity_theft"):
        return f"{who(state, seat)} holds no Identity Theft"
    return None


def hand_choices(state: State, seat: int) -> tuple[str, ...]:
    """The cards a hand may hold: the known ones, and any card for each unknown slot."""
    permits = state.players[seat].permits
    known = tuple(c for c in permits if c is not None)
    kinds = PERMITS + (WILDCARDS if state.wildcards else ())
    return known + kinds * permits.count(None)


# --- private inputs at a table dealt by hand -----------------------------------------------

def not_hand_dealt(state: State, seat: int | None) -> str | None:
    """Refusal unless a seat may tell the companion a card it was dealt by hand."""
    if state.phase == "over":
        return "the game is over"
    if seat is None:
        return "this needs a seat, not the table"
    if state.companion_dealt:
        return "the companion dealt this game and already knows every card"
    return None


def told_text(what: str) -> Callable[[State, int | None, Params], str]:
    """The log line of a seat telling the companion its ``what`` (a card or a list of them)."""
    def text(state: State, seat: int | None, params: Params) -> str:
        value = params.get(what)
        shown = ", ".join(map(state.book.label, value)) if isinstance(value, list) else (
            state.book.label(value) if isinstance(value, str) else value)
        return f"{state.name(seat)} told the companion their {what}: {shown}"
    return text


def claim_note(state: State, seat: int | None, card: str, effect: str = "") -> str:
    """For a claim of ``card`` by ``seat``: ``effect``, then what a lost call costs (offered
    on every move of every seat: made once, see Book.text). The same words whether the seat
    holds the card or not: a phone's buttons are seen by its neighbours too (its permits
    are under "Your permits")."""
    if seat is None:
        return effect
    key = (card, effect)
    found = state.book.notes.get(key)
    if found is None:
        label = state.book.label(card)
        damage = int(state.book.setup("bluff_damage"))
        claim = f"If called and you hold no {label}, you take {damage} damage."
        # what it does first: a button shows its first lines only
        found = state.book.notes[key] = f"{effect} {claim}".strip()
    return found
