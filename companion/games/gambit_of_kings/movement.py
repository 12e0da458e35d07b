"""Where a piece may go, and, for any other square, why not: in words naming the piece, the
squares and the rule ("the Knight moves up to 3 squares orthogonally, in one direction; e4 to
e8 is 4 squares forward").

A piece goes along the patterns of its data (book.Pattern); it may not pass over a piece
unless it flies, a flier may not pass over a Giant unless its flight can't be stopped, it may
never end on its own side's piece, and it ends on an enemy piece only where the pattern lets it
attack.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

from companion.games.gambit_of_kings.board import Board, coords, square, step
from companion.games.gambit_of_kings.book import GIANT, Book, Pattern

Path = tuple[str, ...]  # the squares passed over on the way, in order
Owners = Callable[[int], str]  # a side's owner, for messages: "Ben"

# After the straight square of a turning move, the diagonals that keep going the same way.
ONWARD = {"F": ("FL", "FR"), "B": ("BL", "BR"), "L": ("FL", "BL"), "R": ("FR", "BR")}
_DIAGONALS = ("FL", "FR", "BL", "BR")


@dataclass(frozen=True)
class Powers:
    """What a piece may do now beyond its standard movement: its adventure effect's extra
    moves, flight, flight that can't be stopped, the squares it may hunt (pieces that moved
    during the last turn), and whether it may attack at all."""

    extra: tuple[Pattern, ...] = ()
    fly: bool = False
    unstoppable: bool = False
    hunt: frozenset[str] = frozenset()
    attack: bool = True
    giant_safe: bool = False  # AV II: a lesser piece can't destroy a Giant


STANDARD = Powers()


Problem = tuple[str, str] | None  # why not: a reason's code and the square it is about


@dataclass(frozen=True)
class _Reached:
    target: str
    path: Path
    problem: Problem  # None: the piece may end here


class Mover:
    """One piece about to move on ``board``, with its powers this turn."""

    def __init__(self, book: Book, board: Board, origin: str, powers: Powers,
                 owners: Owners) -> None:
        self.book, self.board, self.origin, self.powers = book, board, origin, powers
        self.piece = board[origin]
        self.owners = owners
        self.flies = book.flies(self.piece.kind) or powers.fly
        self.size = book.size

    @property
    def name(self) -> str:
        return self.book.name(self.piece.kind, self.piece.side)

    def destinations(self) -> dict[str, Path]:
        """Every square it may end on, with the path it takes there."""
        out: dict[str, Path] = {}
        for reached in self._reach(explain=False):
            if reached.problem is None and reached.target not in out:
                out[reached.target] = reached.path
        return out

    def refusal(self, target: str) -> str | None:
        """Why it may not end on ``target`` (None: it may). The first reason found, but a
        second move's "can't attack" before any other: a way that could attack is barred by
        it alone (an even roll's Soldier goes 2 forward attacking)."""
        problems = [r.problem for r in self._reach(explain=True) if r.target == target]
        if None in problems:
            return None
        if ("second", target) in problems:
            return self._words("second", target)
        shape = ("shape", target)
        first = next((p for p in problems if p is not None and p != shape), shape)
        return self._words(*first)

    # --- walking the patterns ---------------------------------------------------------------

    def _reach(self, explain: bool) -> Iterator[_Reached]:
        for pattern in (*self.book.moves(self.piece.kind), *self.powers.extra):
            if pattern.then_high:
                yield from self._turning(pattern, explain)
            else:
                for direction in pattern.dirs:
                    hunts = bool(self.powers.hunt) and direction in _DIAGONALS
                    yield from self._ray(self.origin, direction, (), pattern, explain, hunts,
                                         pattern.low, pattern.high)

    def _turning(self, pattern: Pattern, explain: bool) -> Iterator[_Reached]:
        """One straight square, then on along a diagonal (the Dire Wolf)."""
        size = self.size
        for direction in pattern.dirs:
            corner = _next(self.origin, self.piece.side, direction, size)
            if corner is None:
                continue
            blocked = self._in_the_way(corner)
            for diagonal in ONWARD.get(direction, ()):
                if blocked:
                    if explain:  # the squares beyond share the reason
                        for target, path in _line(corner, self.piece.side, diagonal, size):
                            yield _Reached(target, (corner, *path), blocked)
                    continue
                yield from self._ray(corner, diagonal, (corner,), pattern, explain,
                                     bool(self.powers.hunt), pattern.then_low, pattern.then_high)

    def _ray(self, start: str, direction: str, before: Path, pattern: Pattern, explain: bool,
             hunts: bool, low: int, high: int) -> Iterator[_Reached]:
        """Along one line from ``start``: each square with the reason it is not a
        destination (``explain``: on to the edge, past where the piece must stop)."""
        blocked: Problem = None
        for distance, (target, path) in enumerate(
                _line(start, self.piece.side, direction, self.size), start=1):
            beyond = bool(high) and distance > high
            if (beyond and not hunts or blocked) and not explain:
                return
            problem: Problem
            if beyond and not hunts:
                problem = ("shape", target)  # too far says more than a piece in the way
            elif blocked is not None:
                problem = blocked
            elif beyond:
                problem = self._hunt_problem(target)
            elif distance < low:
                problem = ("shape", target)
            else:
                problem = self._landing_problem(target, pattern)
            yield _Reached(target, (*before, *path), problem)
            if blocked is None:
                blocked = self._in_the_way(target)

    # --- the reasons ------------------------------------------------------------------------

    def _in_the_way(self, passed: str) -> Problem:
        """Why a piece on ``passed`` stops the mover from going past it (None: it does not)."""
        other = self.board.get(passed)
        if other is None:
            return None
        if not self.flies:
            return ("jump", passed)
        if self.book.blocks_flight(other.kind) and not self.powers.unstoppable:
            return ("flight", passed)
        return None

    def _landing_problem(self, target: str, pattern: Pattern) -> Problem:
        other = self.board.get(target)
        if other is None:
            return None
        if other.side == self.piece.side:
            return ("own", target)
        if not pattern.capture:
            return ("peaceful", target)
        if not self.powers.attack:
            return ("second", target)
        if self.powers.giant_safe and other.kind == GIANT \
                and not self.book.greater(self.piece.kind):
            return ("giant_safe", target)
        return None

    def _hunt_problem(self, target: str) -> Problem:
        """Beyond its normal reach: allowed only to hunt a piece that moved last turn."""
        other = self.board.get(target)
        if other is not None and other.side == self.piece.side:
            return ("own", target)
        if other is None or target not in self.powers.hunt:
            return ("hunt_only", target)
        return self._landing_problem(target, Pattern((), 1, 0))

    def _words(self, code: str, where: str) -> str:
        """A reason in words, naming the piece, the squares and the rule."""
        name, origin = self.name, self.origin
        other = self.board.get(where)
        whose = "" if other is None else \
            f"{self.owners(other.side)}'s {self.book.name(other.kind, other.side)}"
        shape = describe_shape(origin, where, self.piece.side)
        rule = f"the {name} moves {movement_text(self.book, self.piece.kind)}"
        if code == "jump":
            return f"the {name} cannot jump over pieces: {whose} stands on {where}, in the way"
        if code == "flight":
            assert other is not None
            giant = self.book.name(other.kind, other.side)
            return f"the {name} cannot fly over the {giant} on {where}: {article(giant)} {giant}" \
                   " can't be flown over"
        if code == "own":
            return f"the {name} cannot end on its own side's piece: {whose} is on {where}"
        if code == "peaceful":
            return f"the {name} may not attack going {shape}: {origin} to {where} would attack" \
                   f" {whose}"
        if code == "second":
            return f"the second piece moved can't attack: {origin} to {where} would attack" \
                   f" {whose}"
        if code == "giant_safe":
            return f"a lesser piece can't destroy a Giant or an Ogre (AV II): the {name} cannot" \
                   f" attack {whose} on {where}"
        if code == "hunt_only":
            why = f"{where} is empty" if other is None else f"{whose} did not move then"
            return f"the {name} reaches {where} from {origin} only by going on diagonally, to" \
                   f" attack a piece moved during the last turn: {why}"
        return f"{rule}; {origin} to {where} is {shape}"


@cache
def _next(start: str, side: int, direction: str, size: int) -> str | None:
    """The square one step from ``start`` in the owner's ``direction`` (None: off the board)."""
    file, rank = coords(start)
    df, dr = step(side, direction)
    file, rank = file + df, rank + dr
    return square(file, rank) if 0 <= file < size and 1 <= rank <= size else None


def _line(start: str, side: int, direction: str, size: int) -> Iterator[tuple[str, Path]]:
    """The squares from ``start`` (not included) to the edge, each with those passed before."""
    passed: tuple[str, ...] = ()
    here = _next(start, side, direction, size)
    while here is not None:
        yield here, passed
        passed = (*passed, here)
        here = _next(here, side, direction, size)


def article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def movement_text(book: Book, kind: str) -> str:
    text = book.movement(kind)
    return text.replace("up to ", "exactly ") if book.exact(kind) else text


def describe_shape(origin: str, target: str, side: int) -> str:
    """How far and which way ``target`` is from ``origin``, in the owner's words."""
    (f0, r0), (f1, r1) = coords(origin), coords(target)
    files, ranks = f1 - f0, r1 - r0
    if side == 1:
        files, ranks = -files, -ranks
    if files == ranks == 0:
        return "no move at all"
    way = "forward" if ranks > 0 else "backward"
    if files == 0 or ranks == 0:
        count = abs(files or ranks)
        where = "sideways" if ranks == 0 else way
        return f"{count} square{'s' * (count != 1)} {where}"
    if abs(files) == abs(ranks):
        count = abs(files)
        return f"{count} square{'s' * (count != 1)} diagonally {way}"
    return (f"not a straight line ({abs(files)} file{'s' * (abs(files) != 1)} across,"
            f" {abs(ranks)} rank{'s' * (abs(ranks) != 1)} {way})")
