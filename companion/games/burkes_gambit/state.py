"""Burke's Gambit state: plain data, copied before every change so old states stay valid."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.engine import Event, Outcome, copied
from companion.games.burkes_gambit.book import Book

CREW, SPECIALIST = "crew", "specialist"
INFECTED, CLEAN = "infected", "clean"


@dataclass
class Look:
    """A private look: at a parasite card or an ID card, and what it showed (None: a real card
    the companion was not told of)."""

    card: str  # parasite | id
    seat: int
    result: str | None
    epoch: int  # parasite deal it was taken in (a reshuffle makes older looks stale)


@dataclass
class Player:
    seat: int
    name: str
    team: str | None  # crew | specialist; None: not known (cards dealt by hand)
    parasite: str | None  # infected | clean; None: not known
    role: str | None  # face up; None until told (cards dealt by hand)
    health: int
    alive: bool = True
    role_used: bool = False
    reserve: str | None = None  # the face of the die reserved on this card (face up)
    reserve_rerolled: bool = False  # that die was rerolled before it was reserved
    looks: list[Look] = field(default_factory=list)
    revealed: bool = False  # ID and parasite card face up (dead, or ejected)
    id_told: bool = False  # the seat told its ID card itself (``id_seen``): its secret


@dataclass
class Die:
    face: str
    rerolled: bool = False


@dataclass
class Pending:
    """A resolved die action, waiting while the others may Cancel it (and Cancel a Cancel)."""

    actor: int
    face: str
    target: int | None
    choice: str | None  # damage | heal for Damage or heal; what a Cancel stops
    cancels: list[int] = field(default_factory=list)  # seats, in order; odd: it is cancelled
    ends_turn: bool = True  # a die used on a turn; a reserved Cancel played out of turn: no
    resume: str = "turn"  # the phase the window closes back to (a Cancel played in the vote)

    @property
    def cancelled(self) -> bool:
        return len(self.cancels) % 2 == 1

    def copy(self) -> Pending:
        return copied(self, cancels=list(self.cancels))


@dataclass
class State:
    book: Book
    seed: int | str | None
    players: list[Player]
    to_earth: int
    dealt: bool  # the companion knows every card: it dealt them, or was given the whole deal
    phase: str  # roles, heads_down, turn, cancel, reveal, vote, tiebreak, over
    turn: int = 0
    die: Die | None = None
    pending: Pending | None = None
    # Actions whose window waits under a Cancel of a Stall or a quarantine played in it
    # (the innermost last).
    held: list[Pending] = field(default_factory=list)
    engines: int = 0
    stalls: int = 0  # Stall dice waiting in the centre
    centre: int = 0  # dice in the centre (engine power-ups and stalls)
    quarantine: dict[int, int] = field(default_factory=dict)  # quarantined seat -> by whom
    epoch: int = 0  # parasite deals so far (reshuffles and re-infections)
    votes: dict[int, int] = field(default_factory=dict)
    tied: list[int] = field(default_factory=list)
    ejected: int | None = None
    awaiting_reveal: list[int] = field(default_factory=list)  # dead, cards not yet told
    outcome: Outcome | None = None
    events: list[Event] = field(default_factory=list)
    by_hand: bool = False  # the setup gave a deal (real cards dealt at the table)
    # The seat whose engine power-up the last action was (None: it was something else): a
    # Cancel tried right after it is told why it cannot stop it.
    powered_up: int | None = None

    def copy(self) -> State:
        return copied(
            self,
            players=[copied(p, looks=list(p.looks)) for p in self.players],
            die=None if self.die is None else copied(self.die),
            pending=None if self.pending is None else self.pending.copy(),
            held=[p.copy() for p in self.held],
            quarantine=dict(self.quarantine),
            votes=dict(self.votes),
            tied=list(self.tied),
            awaiting_reveal=list(self.awaiting_reveal),
            events=[],
        )

    def emit(self, kind: str, **data: Any) -> None:
        self.events.append({"type": kind, **data})

    def name(self, seat: int | None) -> str:
        return "the table" if seat is None else self.players[seat].name

    def living(self) -> list[Player]:
        return [p for p in self.players if p.alive]

    def team_size(self, team: str) -> int:
        """How many ID cards of ``team`` the player count has (the seed's table)."""
        specialists = self.book.specialists(len(self.players))
        return specialists if team == SPECIALIST else len(self.players) - specialists

    def face_up(self, team: str) -> list[Player]:
        """The dead whose ID card lies face up showing ``team`` (public)."""
        return [p for p in self.players if not p.alive and p.revealed and p.team == team]

    def overfull(self, given: list[Player]) -> list[str]:
        """The teams of which the ID cards turned up (the dead's, the ejected's) and those
        ``given`` (the deal's or told, not turned up) hold more cards than the player count
        has: one of them is wrong."""
        return [team for team in (CREW, SPECIALIST)
                if sum(p.team == team for p in self.players if p.revealed)
                + sum(p.team == team for p in given) > self.team_size(team)]

    def captain(self) -> Player | None:
        for p in self.players:
            if p.role == "captain":
                return p
        return None

    def dice_out(self) -> int:
        """Dice not in the bag: reserved, in hand, in the centre, and the dice of actions
        waiting in a Cancel window with the Cancels played on them (back once settled)."""
        waiting = ([self.pending] if self.pending else []) + self.held
        return (sum(1 for p in self.players if p.reserve) + (1 if self.die else 0)
                + self.centre + sum(1 + len(p.cancels) for p in waiting))

    def bag_left(self) -> int:
        """Dice still in the bag."""
        return self.book.dice - self.dice_out()
