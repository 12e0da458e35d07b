"""Where a piece may go, and which powers that takes: every square a move reaches with no
power or with any one power, held or not (a bluff is a move like any other)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.gambit_6x6.board import DIAGONAL, FILES, ORTHOGONAL, Point
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


def routes(state: State, cell: str, any_sit: bool = False) -> dict[str, Route]:
    """Every square the piece on top of ``cell`` may move to, with the least it must claim
    (``any_sit``: as if it might sit on its own pieces, whatever the table's rule)."""
    mover = state.top(cell)
    assert mover is not None
    side = state.sides[mover.seat]
    found: dict[str, Route] = {}

    def add(to: str | None, power: str | None) -> None:
        if to is None or to == cell:
            return
        sits = to in state.stacks
        top = state.top(to)
        if sits and top is not None and top.seat == mover.seat and not any_sit \
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


def why_not(state: State, cell: str, to: str) -> str:
    """Why no power moves the piece on top of ``cell`` to ``to``: the squares and the table's
    rules only (never the powers any piece holds)."""
    layout = state.layout
    if to in layout.holes:
        return f"{to} is blocked on this board: no piece moves onto it"
    if to not in set(layout.cells()):
        return f"{to!r} is not a square of this board"
    mover = state.top(cell)
    under = state.top(to)
    if mover is not None and under is not None and under.seat == mover.seat \
            and to in routes(state, cell, any_sit=True):
        return (f"{to} holds your own {under.id}: by this table's rule a Sitter sits only on"
                " another team's piece")
    double = _two_powers(state, cell).get(to)
    if double is not None:
        return (f"a piece holds one Movement power: {cell} to {to} would need"
                f" {state.book.label(double[0])} and {state.book.label(double[1])}")
    here, there = layout.point(cell), layout.point(to)
    dx, dy = there[0] - here[0], there[1] - here[1]
    if max(abs(dx), abs(dy)) == 2 and (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
        middle = _step(here, (dx // 2, dy // 2))
        name = f"{FILES[middle[0]]}{middle[1] + 1}"
        if name in layout.holes:
            return (f"{name} is blocked on this board: no piece moves across it, not even a"
                    " Ghost")
    sidewinder = ("across the left or right edge" if state.book.rule("moves", "sidewinder")
                  == "wrap" else "from a row's far left square to its far right one")
    return (f"no power moves a piece from {cell} to {to}: a piece moves 1 or 2 squares"
            " in a straight line, a Diagonal 1 or 2 diagonally, a Ghost through pieces,"
            f" a Sidewinder {sidewinder}, a Sitter onto a piece")


def _two_powers(state: State, cell: str) -> dict[str, tuple[str, str]]:
    """Squares only two Movement powers would reach (a piece holds one): a Diagonal, or a
    Sidewinder across the edge, through a piece (as a Ghost)."""
    layout = state.layout
    here = layout.point(cell)
    found: dict[str, tuple[str, str]] = {}
    for direction in DIAGONAL:
        first = layout.cell(_step(here, direction))
        second = layout.cell(_step(here, direction, 2))
        if first is not None and first in state.stacks and second is not None:
            found[second] = ("diagonal", "ghost")
    mover = state.top(cell)
    if mover is None or state.book.rule("moves", "sidewinder") != "wrap":
        return found
    for direction in ORTHOGONAL:
        if not layout.is_lateral(state.sides[mover.seat], direction):
            continue
        one, two = _step(here, direction), _step(here, direction, 2)
        if not (_off_board(state, one) or _off_board(state, two)):
            continue
        first = layout.cell(layout.wrapped(one))
        second = layout.cell(layout.wrapped(two))
        if first is not None and first in state.stacks and second is not None:
            found.setdefault(second, ("sidewinder", "ghost"))
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


def push_refusal(state: State, cell: str, target: str) -> str | None:
    """Why the piece on ``cell`` cannot push the piece on ``target`` (public facts only:
    the squares and the table's rules); None if the push is on the board."""
    layout = state.layout
    if target not in layout.around(cell) or target in _diagonals(state, cell):
        return (f"a Bulldozer pushes a piece on a square next to it (not diagonally) one"
                f" square on, into an empty square: it cannot push from {cell} to {target}")
    if target not in state.stacks:
        return f"there is no piece on {target} to push"
    here, there = layout.point(cell), layout.point(target)
    beyond_point = _step(there, (there[0] - here[0], there[1] - here[1]))
    beyond = layout.cell(beyond_point)
    if beyond is None:
        where = "onto a blocked square" if not _off_board(state, beyond_point) \
            else "off the board"
        return (f"the piece on {target} would be pushed {where}: a Bulldozer pushes into an"
                " empty square")
    if beyond in state.stacks:
        return (f"{beyond}, beyond {target}, is not empty: a Bulldozer pushes into an empty"
                " square")
    if len(state.stacks[target]) > 1 and not state.book.rule("moves", "push_stacks"):
        return (f"{target} holds a stack: by this table's rule a Bulldozer pushes only a lone"
                " piece")
    return None


def _diagonals(state: State, cell: str) -> list[str]:
    here = state.layout.point(cell)
    return [c for d in DIAGONAL if (c := state.layout.cell(_step(here, d))) is not None]


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


def moated(state: State, cell: str, seat: int | None,
           moves: tuple[str, str] | None = None) -> str | None:
    """A Moat that already stopped this turn's move and guards ``cell`` (None: none).
    ``moves``: (from, to), a Bulldozer's push of the stack on ``from`` to ``to``: a Moat in
    that stack guards from where the push takes it, so a Moat pushed and sent back once
    cannot be pushed the same way again."""
    for piece in state.moated:
        where = state.where(piece)
        if moves is not None and where == moves[0]:
            where = moves[1]
        if where is not None and cell in state.layout.around(where) \
                and state.pieces[piece].seat != seat:
            return piece
    return None
