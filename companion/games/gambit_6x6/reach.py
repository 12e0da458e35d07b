"""Where a piece may go, and which powers that takes: every square a move reaches with no
power or with any one power, held or not (a bluff is a move like any other)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.gambit_6x6.board import DIAGONAL, ORTHOGONAL, Point
from companion.games.gambit_6x6.state import State

# When two ways reach a square, the one that claims least is meant.
_PREFERENCE = (None, "diagonal", "ghost", "sidewinder")


@dataclass(frozen=True)
class Route:
    """A way to a square: the Movement power it needs (None: a plain move) and whether it
    ends on another piece (it then needs Sitting too)."""

    to: str
    power: str | None
    sits: bool

    def claims(self) -> list[str]:
        return [p for p in (self.power, "sitting" if self.sits else None) if p]


def _step(a: Point, b: Point, times: int = 1) -> Point:
    return a[0] + b[0] * times, a[1] + b[1] * times


def routes(state: State, cell: str) -> dict[str, Route]:
    """Every square the piece on top of ``cell`` may move to, with the least it must claim."""
    mover = state.top(cell)
    assert mover is not None
    side = state.sides[mover.seat]
    found: dict[str, Route] = {}

    def add(to: str | None, power: str | None) -> None:
        if to is None or to == cell:
            return
        sits = to in state.stacks
        top = state.top(to)
        if sits and top is not None and top.seat == mover.seat \
                and not state.book.rule("moves", "sit_on_own"):
            return
        old = found.get(to)
        if old is None or _PREFERENCE.index(power) < _PREFERENCE.index(old.power):
            found[to] = Route(to, power, sits)

    layout = state.layout
    here = layout.point(cell)
    for direction in ORTHOGONAL:
        first = layout.cell(_step(here, direction))
        add(first, None)
        second = layout.cell(_step(here, direction, 2))
        if first is not None:
            add(second, "ghost" if first in state.stacks else None)
        if not state.book.rule("moves", "straight") and first is not None:
            for turn in ORTHOGONAL:
                if turn[0] * direction[0] + turn[1] * direction[1] == 0:
                    add(layout.cell(_step(_step(here, direction), turn)),
                        "ghost" if first in state.stacks else None)
    for direction in DIAGONAL:
        first = layout.cell(_step(here, direction))
        add(first, "diagonal")
        if first is not None and first not in state.stacks:
            add(layout.cell(_step(here, direction, 2)), "diagonal")
    for to in _sidewinder(state, here, side):
        add(to, "sidewinder")
    return found


def _sidewinder(state: State, here: Point, side: str) -> list[str]:
    """Squares reached across the left or right edge of the board (the side's own): one or
    two squares on ("wrap"), or only from the edge square to the far one ("edge")."""
    layout = state.layout
    found = []
    for direction in ORTHOGONAL:
        if not layout.is_lateral(side, direction):
            continue
        one, two = _step(here, direction), _step(here, direction, 2)
        if not (_off_board(state, one) or _off_board(state, two)):
            continue  # crosses no edge: a plain move
        first = layout.cell(layout.wrapped(one))
        if first is None:
            continue
        if _off_board(state, one):
            found.append(first)
        if state.book.rule("moves", "sidewinder") == "wrap" and first not in state.stacks:
            second = layout.cell(layout.wrapped(two))
            if second is not None:
                found.append(second)
    return found


def _off_board(state: State, point: Point) -> bool:
    """Beyond the board's edge (not a hole inside it)."""
    x, y = point
    return not (0 <= x < state.layout.cols and 0 <= y < state.layout.rows)


def pushes(state: State, cell: str) -> dict[str, str]:
    """A Bulldozer on ``cell``: the squares it may push from, each with where the pushed
    piece (or stack) goes. The square beyond must exist and be empty."""
    layout = state.layout
    here = layout.point(cell)
    found = {}
    for direction in ORTHOGONAL:
        target = layout.cell(_step(here, direction))
        beyond = layout.cell(_step(here, direction, 2))
        if target is None or beyond is None or target not in state.stacks \
                or beyond in state.stacks:
            continue
        if len(state.stacks[target]) > 1 and not state.book.rule("moves", "push_stacks"):
            continue
        found[target] = beyond
    return found


def guards(state: State, cell: str, seat: int) -> list[str]:
    """Other teams' pieces on the squares around ``cell``: the pieces that could be a Moat
    against ``seat``'s piece finishing there (sat-on pieces still guard)."""
    found = []
    for near in state.layout.around(cell):
        for piece in state.stacks.get(near, []):
            owner = state.pieces[piece].seat
            if owner != seat and state.in_game(owner):
                found.append(piece)
    return found


def moated(state: State, cell: str, seat: int | None) -> str | None:
    """A Moat that already stopped this turn's move and guards ``cell`` (None: none)."""
    for piece in state.moated:
        where = state.where(piece)
        if where is not None and cell in state.layout.around(where) \
                and state.pieces[piece].seat != seat:
            return piece
    return None
