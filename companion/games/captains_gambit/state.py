"""Captain's Gambit state: plain data, copied before every change so that old states stay valid."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.engine import Event, Outcome, copied
from companion.games.captains_gambit.book import Book


@dataclass
class Player:
    seat: int
    name: str
    captain: str | None  # None: not yet known (cards dealt by hand)
    permits: list[str | None]  # None: a card the companion has not been told
    health: int
    energy: int
    blood: int = 0
    loyalty: int = 0
    alive: bool = True
    revealed: bool = False  # captain face-up for everyone
    original_captain: str | None = None  # the captain given away in the Prologue swap
    ascending: bool = False  # revealed Prospero / Lady Macbeth, waiting for their next turn
    ascended: bool = False
    mulliganed: bool = False
    copies_seat: int | None = None  # Viola: the dead captain she plays as
    copied_at: int = 0  # Viola: how many had died when she chose (later deaths are hers)
    last_stand_done: bool = False
    last_turn_round: int = 0  # the round of this seat's last finished turn (0: none yet)


@dataclass(frozen=True)
class Death:
    """A death, with what Portia and Othello need to judge it afterwards."""

    seat: int
    killer: int | None  # kill credit; None when nobody holds it
    cause: str  # "damage" or "lost"
    blood: tuple[int, ...]  # everyone's blood just before the death
    loyalty: tuple[int, ...]
    alive: tuple[bool, ...]  # who was alive just before
    blow: int  # deaths settled together (one blow and its chain) share this number


@dataclass
class Pending:
    """A declared action waiting for its reaction window to close."""

    actor: int
    name: str
    target: int | None
    amount: int
    stolen: bool  # done through Identity Theft: cannot be bluff-called
    claim_open: bool  # a permit claim that can still be bluff-called
    shield_by: int | None = None
    shield_open: bool = False  # the Shield claim can still be bluff-called
    shield_stolen: bool = False  # the Shield was done through Identity Theft: never a claim
    challenge: tuple[int, int, str] | None = None  # (caller, challenged, "action" | "shield")

    def to_public(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "actor": self.actor,
            "action": self.name,
            "target": self.target,
            "via": "identity_theft" if self.stolen else "claim",
            "claim_open": self.claim_open,
            "shield_by": self.shield_by,
        }
        if self.name == "donate":
            out["amount"] = self.amount
        if self.challenge:
            caller, challenged, on = self.challenge
            out["challenge"] = {"caller": caller, "challenged": challenged, "on": on}
        return out


@dataclass
class State:
    book: Book
    seed: int | str | None
    players: list[Player]
    pool: tuple[str, ...]
    wildcards: bool
    loyalty_income: bool  # King Lear and Othello in the pool
    companion_dealt: bool  # False: cards dealt by hand, hands partly unknown
    deck: list[str] | None  # the permit deck (None when dealt by hand)
    centre: str | None  # the face-down captain in the centre (Juliet / Mercutio)
    first_seat: int
    # mulligan, prologue, income, action, reaction, bluff, immunity, save, ending, over
    phase: str
    round: int = 0
    completed_rounds: int = 0
    turn: int = 0
    shuffles: int = 0
    blows_settled: int = 0
    pending: Pending | None = None
    marks: dict[int, int] = field(default_factory=dict)  # marker seat -> marked seat
    hamlet_token: int | None = None  # the seat holding Hamlet's token (only it knows)
    swapped: bool = False
    deaths: list[Death] = field(default_factory=list)
    blows: dict[int, int | None] = field(default_factory=dict)  # last damage source per seat
    doomed: dict[int, int | None] = field(default_factory=dict)  # lost, dying, with credit
    immune: set[int] = field(default_factory=set)  # Diplomatic Immunity for this turn
    immunity: tuple[int, int | None] | None = None  # (victim, credit) awaiting a choice
    saving: int | None = None  # seat in the save window
    resume: str | None = None  # what follows once damage is settled
    resume_phase: str | None = None
    outcome: Outcome | None = None
    # The game has ended but waits for captains the companion was never told (phase
    # "ending"): how it ended, and who had won then.
    ending: tuple[str, frozenset[int]] | None = None
    events: list[Event] = field(default_factory=list)  # this action's events only

    def copy(self) -> State:
        """A copy whose changes never touch this state (the book is shared: it never changes)."""
        return copied(
            self,
            players=[copied(p, permits=list(p.permits)) for p in self.players],
            deck=None if self.deck is None else list(self.deck),
            pending=None if self.pending is None else copied(self.pending),
            marks=dict(self.marks),
            deaths=list(self.deaths),
            blows=dict(self.blows),
            doomed=dict(self.doomed),
            immune=set(self.immune),
            events=[],
        )

    def emit(self, kind: str, **data: Any) -> None:
        self.events.append({"type": kind, **data})

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "the table"
        return self.players[seat].name

    def living(self) -> list[Player]:
        return [p for p in self.players if p.alive]

    def death_of(self, seat: int | None) -> Death | None:
        for death in self.deaths:
            if death.seat == seat:
                return death
        return None

    def partner_of(self, seat: int) -> int | None:
        """The seat holding the partner of ``seat``'s captain (Romeo's Juliet, Tybalt's
        Mercutio, and back), if one does."""
        captain = self.players[seat].captain
        partner = self.book.captain(captain).get("partner") if captain else None
        return self.seat_of(partner, other_than=seat) if partner else None

    def seat_of(self, captain: str, other_than: int | None = None) -> int | None:
        for p in self.players:
            if p.captain == captain and p.seat != other_than:
                return p.seat
        return None
