"""Captain Flip's state: plain data, copied before every change so old states stay valid."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.engine import Event, Outcome, copied
from companion.games.captain_flip.book import Book, Layout

# Phases: a draw is awaited (the turn's, or a Parrot's), a drawn tile is kept or flipped and
# placed, a Monkey chooses the tile it flips, the game is over.
DRAW, PLACE, MONKEY, OVER = "draw", "place", "monkey", "over"


@dataclass
class Tile:
    """One tile, showing ``up``. ``number`` (which tells its back) and ``down`` are None for
    whoever may not know them: the back stays unseen until the tile is turned over.
    ``number_told`` False: a tile drawn by its side alone, whose number only stands in for it
    (bag.py) and whose back nobody knows, the companion included, until it is turned over;
    every view keeps it, as it says nothing of the back."""

    number: int | None
    up: str
    down: str | None
    both_seen: bool = False  # turned over in front of the table: both sides are known
    number_told: bool = True


@dataclass
class Player:
    seat: int
    name: str
    coins: int = 0
    spaces: dict[str, Tile] = field(default_factory=dict)  # cell -> the tile on it


@dataclass
class Step:
    """Work left in a turn, last in first out: the space ``bonus`` of a placed tile (applied
    once its Character's effect is done), a ``monkey`` waiting to flip a neighbour of
    ``cell``, a ``parrot`` waiting for its extra tile."""

    kind: str
    cell: str | None = None


@dataclass
class State:
    book: Book
    board: str  # the Adventure board every player uses: A, B, C or D
    players: list[Player]
    companion_draws: bool  # the companion draws (seeded) instead of a real bag
    seed: int | str | None
    bag: list[int | None]  # tiles in the bag (companion draws: in draw order); None: unknown
    drawn: int = 0  # tiles drawn so far
    hand: Tile | None = None  # the tile drawn, not yet placed
    flipped: bool = False  # the tile in hand was flipped (it must now be placed as it is)
    steps: list[Step] = field(default_factory=list)
    map_holder: int | None = None  # who holds the Treasure Map (None: the centre)
    turn: int = 0
    round: int = 1
    ended_by: int | None = None  # who first completed the columns that end the game
    phase: str = DRAW
    outcome: Outcome | None = None
    events: list[Event] = field(default_factory=list)

    def copy(self) -> State:
        return copied(
            self,
            players=[copied(p, spaces={c: copied(t) for c, t in p.spaces.items()})
                     for p in self.players],
            bag=list(self.bag),
            hand=None if self.hand is None else copied(self.hand),
            steps=[copied(s) for s in self.steps],
            events=[],
        )

    @property
    def layout(self) -> Layout:
        return self.book.layout(self.board)

    def emit(self, kind: str, **data: Any) -> None:
        self.events.append({"type": kind, **data})

    def name(self, seat: int | None) -> str:
        return "the table" if seat is None else self.players[seat].name

    def last_seat(self) -> int:
        """The player to the right of the first (seat 0 holds the pirate flag)."""
        return len(self.players) - 1

    # --- a player's board ---------------------------------------------------------------
    def faces(self, seat: int) -> dict[str, str]:
        return {cell: tile.up for cell, tile in self.players[seat].spaces.items()}

    def lowest_empty(self, seat: int, column: int) -> str | None:
        """Where a tile placed in ``column`` goes: its lowest empty space (None: it is full)."""
        taken = self.players[seat].spaces
        return next((c for c in self.layout.columns[column] if c not in taken), None)

    def complete_columns(self, seat: int) -> int:
        return sum(1 for column in range(len(self.layout.columns))
                   if self.lowest_empty(seat, column) is None)

    def open_cells(self, seat: int) -> list[str]:
        """The spaces a tile may go to now: each column's lowest empty space, a space with a
        cost only when the player has the coins."""
        out = []
        for column in range(len(self.layout.columns)):
            cell = self.lowest_empty(seat, column)
            if cell is not None and self.layout.spaces[cell].cost <= self.players[seat].coins:
                out.append(cell)
        return out

    def tiles_next_to(self, seat: int, cell: str) -> list[str]:
        taken = self.players[seat].spaces
        return [c for c in self.layout.neighbours(cell) if c in taken]
