"""What a screen shows of a Captain's Gambit table: the engine's typed table view."""

from __future__ import annotations

from companion.engine import Counter, Ending, Fact, GameInfo, PlayerView, TableView, listed
from companion.games.captains_gambit import moves
from companion.games.captains_gambit.book import Book
from companion.games.captains_gambit.state import Player, State

PHASES = {"mulligan": "Permit mulligan", "prologue": "The Prologue", "income": "Income",
          "action": "Action", "reaction": "Reactions", "bluff": "A bluff call",
          "immunity": "Diplomatic Immunity?", "save": "The save window",
          "ending": "The end: captains to tell", "over": "Game over"}
ENDINGS = {"win": "a win", "all_dead": "everyone's death", "round_limit": "the end of round"}


def _permits(book: Book, cards: list[str | None]) -> str:
    return ", ".join(book.label(c) if c else "not told yet" for c in cards) or "none"


def _player(state: State, p: Player) -> PlayerView:
    book = state.book
    counters = [Counter("health", "Health", p.health), Counter("energy", "Energy", p.energy),
                Counter("blood", "Blood", p.blood), Counter("loyalty", "Loyalty", p.loyalty)]
    facts = []
    if p.revealed and p.captain:
        facts.append(Fact("captain", "Captain", book.label(p.captain)))
    if p.alive:
        counters.append(Counter("permits", "Permits", len(p.permits)))
    else:
        facts.append(Fact("permits", "Permits", _permits(book, p.permits)))
        death = state.death_of(p.seat)
        if death is not None and death.killer is not None:
            facts.append(Fact("killer", "Killed by", state.name(death.killer)))
    if p.ascending and p.alive:  # dead, the reveal came to nothing: no stale promise
        facts.append(Fact("ascending", "Revealed: wins at the start of their next turn if alive"))
    if p.seat in state.immune:
        facts.append(Fact("immune", "Immune to bluff damage this turn"))
    return PlayerView(p.seat, p.name, tuple(counters), tuple(facts), p.alive)


def _secrets(state: State, seat: int) -> tuple[Fact, ...]:
    book = state.book
    me = state.players[seat]
    out = []
    if me.captain is None:
        out.append(Fact("captain", "Your captain", "not told to the companion yet"))
    else:
        lose = book.captain_text(me.captain, "lose") or "None."
        detail = book.captain_text(me.captain, "win") + ("" if lose.startswith("None")
                                                         else f" {lose}")
        out.append(Fact("captain", "Your captain", book.label(me.captain), detail))
    if me.original_captain:
        out.append(Fact("original_captain", "Your captain before the swap",
                        book.label(me.original_captain)))
    partner = state.partner_of(seat)
    if partner is not None:
        out.append(Fact("partner", "Your partner", f"{state.name(partner)}"
                        f" ({book.label(state.players[partner].captain or 'captain')})",
                        "You saw each other in the Prologue."))
    if me.permits:
        detail = " ".join(f"{book.label(c)}: {book.action_text(c)}" if c in book.data["actions"]
                          else f"{book.label(c)}: {book.data['wildcards'][c]['text']}"
                          for c in dict.fromkeys(me.permits) if c)
        out.append(Fact("permits", "Your permits", _permits(book, me.permits), detail))
    if seat in state.marks:
        out.append(Fact("mark", "Your mark", state.name(state.marks[seat])))
    if state.hamlet_token == seat:
        out.append(Fact("hamlet_token", "Hamlet's token", "in your hand",
                        "Hamlet marked you in the Prologue: someone wants you dead."))
    if me.copies_seat is not None:
        copied = state.players[me.copies_seat]
        out.append(Fact("plays_as", "You play as", f"{copied.name}'s"
                        f" {book.label(copied.captain or 'captain')}"))
    return tuple(out)


def _ending(state: State) -> Ending | None:
    outcome = state.outcome
    if outcome is None:
        return None
    ending = ENDINGS.get(outcome.reason, outcome.reason)
    if outcome.reason == "round_limit":
        ending += f" {state.book.setup('rounds')}"
    # each winner with the captain that won (every card is face up at the end, when known)
    names = [state.name(s) + (f" ({state.book.label(c)})" if (c := state.players[s].captain)
                              else "") for s in outcome.winners]
    text = f"Game over by {ending}: {listed(names)} {'win' if len(names) > 1 else 'wins'}"
    if outcome.details.get("comedy"):
        text += " (a comedy: everyone wins)"
    elif outcome.details.get("tragedy"):
        text += " (a tragedy)"
    return Ending(outcome.winners, text)


def _table_facts(state: State) -> tuple[Fact, ...]:
    book = state.book
    facts = [Fact("pool", "Captains in play", ", ".join(book.label(c) for c in state.pool))]
    if state.deck is not None:
        facts.append(Fact("deck", "Permit deck", f"{len(state.deck)} cards"))
    if state.wildcards:
        facts.append(Fact("wildcards", "Wildcards are in the permit deck"))
    pending = state.pending
    if pending is not None:
        target = f" on {state.name(pending.target)}" if pending.target is not None else ""
        shield = f"; {state.name(pending.shield_by)} Shields it" if pending.shield_by is not None \
            else ""
        facts.append(Fact("pending", "Declared", f"{state.name(pending.actor)}'s"
                          f" {book.label(pending.name)}{target}{shield}"))
    return tuple(facts)


def _status(state: State) -> str:
    """What every phone's turn card says the table waits for. At the end of a game dealt by
    hand, which captains are still needed and how a table whose player has left finishes
    (docs/decisions.md, "Cards dealt by hand")."""
    status = moves.waiting_text(state)
    if state.phase != "ending":
        return status
    untold = [state.name(p.seat) for p in state.players if p.captain is None]
    who = f"{untold[0]} has" if len(untold) == 1 else "one of them has"
    whose = f"{untold[0]}'s" if len(untold) == 1 else "their"
    return (f"{status} before the winners are known. If {who} left the table, the host frees"
            f" {whose} seat, takes it and tells the captain for them.")


def table_view(state: State, seat: int | None, info: GameInfo) -> TableView:
    rounds = int(state.book.setup("rounds"))
    in_play = state.phase not in ("mulligan", "prologue", "ending", "over")
    return TableView(
        game=info.slug, title=info.title, seat=seat,
        phase=state.phase, phase_label=PHASES.get(state.phase, state.phase),
        status=_status(state),
        headline=f"Round {state.round} of {rounds}" if state.round else "Before the first round",
        turn=state.turn if in_play else None,
        waiting_for=tuple(moves.waiting_for(state)),
        prompt=moves.prompt(state, seat),
        players=tuple(_player(state, p) for p in state.players),
        facts=_table_facts(state),
        secrets=_secrets(state, seat) if seat is not None else (),
        ending=_ending(state),
    )
