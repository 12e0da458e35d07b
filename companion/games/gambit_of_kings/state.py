"""Gambit of Kings state: plain data, copied before every change so old states stay valid."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from companion.engine import Event, Outcome, copied
from companion.games.gambit_of_kings.board import Board, Piece
from companion.games.gambit_of_kings.book import SIDES, Book, Mode, book_for

T = TypeVar("T")

# Phases: laying (players lay out their card rows), roll (the movement roll), move, combat (an
# attack waits for dice, or for the loser to re-roll or accept), second (AV I: a second piece
# may move), over.
PHASES = ("laying", "roll", "move", "combat", "second", "over")


@dataclass(frozen=True)
class Die:
    """One combat die: ``id`` is what its roller taps ("knight_d8", "d6_for_the_orc",
    "extra_d8"), ``seat`` who rolls it, ``text`` what it is ("Knight d8", "d6 for the Orc"),
    ``value`` None until rolled."""

    id: str
    seat: int
    sides: int
    text: str
    value: int | None = None


@dataclass
class Combat:
    """An attack: ``piece`` moved from ``origin`` over ``path`` onto ``target``."""

    origin: str
    target: str
    path: tuple[str, ...]
    piece: Piece
    defender: Piece
    dice: list[Die]
    loser: int | None = None  # once every die is in: the seat losing now, if it may re-roll

    def copy(self) -> Combat:
        return copied(self, dice=list(self.dice))

    def missing(self, seat: int | None = None) -> list[Die]:
        return [d for d in self.dice if d.value is None and seat in (None, d.seat)]

    def scores(self, compare: str) -> tuple[int, int]:
        """The attacker's and the defender's score: best single die, or the sum."""
        totals = []
        for side in (self.piece.side, self.defender.side):
            values = [d.value or 0 for d in self.dice if d.seat == side]
            totals.append(max(values) if compare == "highest" else sum(values))
        return totals[0], totals[1]


class Memo(dict[str, tuple[Any, Any]]):
    """Results worth keeping while a state stays the same (the moves open, the board drawn),
    each with the key it was found for: a change of the key makes it stale. Not a field of
    the state (equality ignores it), and a deep copy starts empty."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Memo:
        return Memo()


@dataclass
class State:
    house: dict[str, Any] | None  # the table's house overrides of the rule book
    mode: Mode
    seed: int | str | None
    names: list[str]
    companion_dice: bool  # the companion rolls every die (else the table's dice are entered)
    board: Board
    cards: list[list[str]]  # each seat's card row, kinds in slot order (empty: none laid yet)
    tokens: list[int]
    phase: str
    turn: int
    first: int
    coin: bool  # the companion's coin chose who moves first
    laying: list[list[str]] = field(default_factory=lambda: [[], []])  # cards laid so far
    lost: list[list[str]] = field(default_factory=lambda: [[], []])  # kinds destroyed, by seat
    turns: int = 0  # turns completed
    quiet: int = 0  # turns in a row with no piece destroyed
    roll: int | None = None  # this turn's movement roll
    unlocked: str | None = None  # the kind whose adventure effect is unlocked this turn
    own_effects: bool = False  # an even roll, any piece moving: each mover has its own effect
    free_reroll: bool = False  # a re-roll effect (the Paladin's) unlocked and not used
    moved: list[str] = field(default_factory=list)  # ids of the pieces moved this turn
    last_moved: list[str] = field(default_factory=list)  # ids moved during the last turn
    last_move: list[tuple[str, str]] = field(default_factory=list)  # for screens
    destroyed: bool = False  # a piece was destroyed this turn
    combat: Combat | None = None
    rolls: int = 0  # dice the companion has rolled: each draw's label
    outcome: Outcome | None = None
    events: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.memo = Memo()

    def remember(self, name: str, key: Any, make: Callable[[], T]) -> T:
        """``make()``, kept in the memo under ``name`` while ``key`` stays the same."""
        kept = self.memo.get(name)
        if kept is not None and kept[0] == key:
            found: T = kept[1]
            return found
        made = make()
        self.memo[name] = (key, made)
        return made

    def copy(self) -> State:
        new = copied(
            self, board=dict(self.board), cards=[list(row) for row in self.cards],
            tokens=list(self.tokens), laying=[list(row) for row in self.laying],
            lost=[list(kinds) for kinds in self.lost],
            moved=list(self.moved), last_moved=list(self.last_moved),
            last_move=list(self.last_move),
            combat=None if self.combat is None else self.combat.copy(), events=[])
        new.memo.update(self.memo)  # each result is checked against its key before use
        return new

    @property
    def book(self) -> Book:
        return book_for(self.house)

    def emit(self, what: str, /, **data: Any) -> None:
        self.events.append({"type": what, **data})

    def name(self, seat: int | None) -> str:
        return "the table" if seat is None else self.names[seat]

    def side_word(self, seat: int) -> str:
        return SIDES[seat]

    def piece_name(self, piece: Piece) -> str:
        return self.book.name(piece.kind, piece.side)

    def whose(self, piece: Piece) -> str:
        """"Ben's Orc"."""
        return f"{self.names[piece.side]}'s {self.piece_name(piece)}"

    def find(self, piece_id: str) -> str | None:
        """The square of the piece with that id (None: destroyed)."""
        return next((sq for sq, p in self.board.items() if p.id == piece_id), None)

    def die_name(self, die: Die) -> str:
        """"Ann's d6 for the Orc"."""
        return f"{self.names[die.seat]}'s {die.text}"

    def card(self, seat: int, roll: int) -> str | None:
        """The kind on card ``roll`` of the seat's row (None: no such card)."""
        row = self.cards[seat]
        return row[roll - 1] if 1 <= roll <= len(row) else None
