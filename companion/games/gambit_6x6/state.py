"""Gambit (6x6) state: plain data, copied before every change so that old states stay valid.

The secrets are the pieces' powers (``Piece.movement`` and ``Piece.action``), each seat's
powers still to place (``hands``), its rolled new powers (``rolls``) and what it has learned
(``notes``); ``GameRules.as_known_to`` blanks them for everyone else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.engine import Event, Outcome, copied
from companion.games.gambit_6x6.board import Layout
from companion.games.gambit_6x6.book import Book

TEAMS = "ABCD"


@dataclass
class Piece:
    id: str  # "A3": team A's piece 3
    seat: int
    movement: str | None = None  # its Movement power (secret)
    action: str | None = None  # its Action power (secret)
    lost: bool = False
    counts: bool = True  # a loss that counts towards the losses that lose (see Kamikaze)

    def powers(self) -> list[str]:
        return [p for p in (self.movement, self.action) if p]


@dataclass
class Claim:
    """A seat's word that a piece holds a power, open to a challenge until settled."""

    seat: int
    piece: str
    power: str
    needed: bool = True  # the action cannot stand if the claim is false
    status: str = "open"  # open, true, false


@dataclass
class Pending:
    """An action done and claimed, waiting for the other seats' answers."""

    actor: int
    kind: str  # move, bulldoze, detect, sensei
    piece: str  # the piece that acts (Sensei: the one that gives)
    before: dict[str, list[str]]  # the board before it, to undo it
    claims: list[Claim]
    start: str | None = None  # move and bulldoze: the square left
    end: str | None = None  # move and bulldoze: the square reached
    target: str | None = None  # detect: the piece looked at; sensei: the one that receives
    stage: str = "open"  # open: the others answer; moat, kamikaze: the actor answers
    reaction: Claim | None = None  # the Moat or Kamikaze the actor answers
    passed: list[int] = field(default_factory=list)
    used: list[str] = field(default_factory=list)  # reactions made: moat, kamikaze
    undone: bool = False  # taken back (a bluff caught, a Moat); what is owed is still settled

    def copy(self) -> Pending:
        return copied(self, before={c: list(s) for c, s in self.before.items()},
                       claims=[copied(c) for c in self.claims],
                       reaction=None if self.reaction is None else copied(self.reaction),
                       passed=list(self.passed), used=list(self.used))

    def open_claims(self) -> list[Claim]:
        return [c for c in self.claims if c.status == "open"]


@dataclass
class Owed:
    """Something a challenge left to do: a piece to give up, or a new power to place."""

    kind: str  # lose, reassign
    seat: int  # who does it
    loser: int | None = None  # lose: whose piece goes
    group: str | None = None  # reassign: the new power's group


@dataclass
class State:
    book: Book
    seed: int | str | None
    names: list[str]
    layout: Layout
    sides: tuple[str, ...]
    roll_powers: bool
    player_powers_on: bool
    roll_player_powers: bool
    powers_per_group: int
    far_row: int  # pieces on the far row that win
    losses: int  # pieces lost that lose
    pieces: dict[str, Piece]
    stacks: dict[str, list[str]]  # square -> piece ids, bottom first (only squares with pieces)
    hands: list[list[str] | None]  # per seat: powers to place (secret); None: not chosen yet
    placed: list[bool]
    first_seat: int
    phase: str = "placing"  # placing, turn, answering, settling, earn, juggernaut, over
    turn: int = 0
    turns: int = 0  # turns begun
    quiet: int = 0  # turns since a piece was lost
    pending: Pending | None = None
    owed: list[Owed] = field(default_factory=list)
    then: str = "next"  # after the owed things: window, remake, next, finish
    moated: list[str] = field(default_factory=list)  # Moats that stopped this turn's move
    remake: bool = False  # the turn's move was sent back by a Moat
    held_powers: list[list[str]] = field(default_factory=list)  # Player Powers (public)
    earning: list[int] = field(default_factory=list)  # Player Powers to take, by seat
    skip: list[str | None] = field(default_factory=list)  # the Player Power spending the next turn
    juggernaut: tuple[int, int] | None = None  # (winner, mover): a Juggernaut move under way
    asked: list[int] = field(default_factory=list)  # Juggernaut holders who let the win stand
    rolls: list[list[str]] = field(default_factory=list)  # per seat: new powers rolled (secret)
    notes: list[list[str]] = field(default_factory=list)  # per seat: what it learned (secret)
    dice: int = 0  # dice rolled so far: each roll's label
    outcome: Outcome | None = None
    events: list[Event] = field(default_factory=list)  # this action's events only

    def copy(self) -> State:
        """A copy whose changes never touch this state (book and layout never change)."""
        return copied(
            self,
            names=list(self.names),
            pieces={k: copied(p) for k, p in self.pieces.items()},
            stacks={c: list(s) for c, s in self.stacks.items()},
            hands=[None if h is None else list(h) for h in self.hands],
            placed=list(self.placed),
            pending=None if self.pending is None else self.pending.copy(),
            owed=[copied(o) for o in self.owed],
            moated=list(self.moated),
            held_powers=[list(h) for h in self.held_powers],
            earning=list(self.earning),
            skip=list(self.skip),
            asked=list(self.asked),
            rolls=[list(r) for r in self.rolls],
            notes=[list(n) for n in self.notes],
            events=[],
        )

    def emit(self, kind: str, **data: Any) -> None:
        self.events.append({"type": kind, **data})

    def name(self, seat: int | None) -> str:
        return "the table" if seat is None else self.names[seat]

    def where(self, piece: str) -> str | None:
        """The square a piece stands on (None: lost)."""
        return next((c for c, stack in self.stacks.items() if piece in stack), None)

    def top(self, cell: str) -> Piece | None:
        stack = self.stacks.get(cell)
        return self.pieces[stack[-1]] if stack else None

    def is_free(self, piece: str) -> bool:
        """On the board with nothing sitting on it."""
        cell = self.where(piece)
        return cell is not None and self.stacks[cell][-1] == piece

    def team(self, seat: int) -> list[Piece]:
        """The seat's pieces still on the board."""
        return [p for p in self.pieces.values() if p.seat == seat and not p.lost]

    def lost_count(self, seat: int) -> int:
        return sum(1 for p in self.pieces.values() if p.seat == seat and p.lost and p.counts)

    def in_game(self, seat: int) -> bool:
        return self.lost_count(seat) < self.losses and bool(self.team(seat))

    def scoring(self, seat: int) -> list[str]:
        """The seat's pieces that count on its far row: there, and not sat on."""
        found = []
        for cell in self.layout.far(self.sides[seat]):
            top = self.top(cell)
            if top is not None and top.seat == seat:
                found.append(top.id)
        return found

    def place(self, piece: str, cell: str) -> None:
        self.stacks.setdefault(cell, []).append(piece)

    def lift(self, cell: str) -> list[str]:
        """Take the whole stack off a square."""
        return self.stacks.pop(cell, [])

    def take_off(self, piece: str) -> None:
        """Lift a piece off its square (if it is on one); pieces sitting on it settle onto
        the square."""
        cell = self.where(piece)
        if cell is None:
            return
        self.stacks[cell].remove(piece)
        if not self.stacks[cell]:
            del self.stacks[cell]

    def remove(self, piece: str) -> None:
        """A piece leaves the board, lost."""
        if self.where(piece) is not None:
            self.take_off(piece)
            self.pieces[piece].lost = True
