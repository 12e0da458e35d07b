"""The board: squares named like chess (files a to j, ranks 1 to 10; light starts on ranks 1
and 2), the pieces on them, and positions: the starting layout or one a table writes down
(to resume a paused game, follow a diagram or report a bug)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from companion.engine import SetupError, typed_square
from companion.games.gambit_of_kings.book import CASTLE, DIRECTIONS, SIDES, Book

FILES = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Piece:
    """One piece: ``id`` stays with it for the whole game (a promoted Soldier keeps its id);
    ``side`` is its owner's seat (0 light, 1 dark)."""

    id: str
    side: int
    kind: str


Board = dict[str, Piece]  # square -> the piece on it


@cache
def square(file: int, rank: int) -> str:
    """``square(0, 1)`` is "a1"; ``rank`` counts from 1."""
    return f"{FILES[file]}{rank}"


@cache
def coords(name: str) -> tuple[int, int]:
    """"e4" -> (4, 4): the file index from 0, the rank from 1."""
    return FILES.index(name[0]), int(name[1:])


def on_board(name: Any, size: int) -> bool:
    if not isinstance(name, str) or len(name) < 2 or name[0] not in FILES[:size]:
        return False
    rank = name[1:]
    return rank.isascii() and rank.isdigit() and rank == str(int(rank)) and 1 <= int(rank) <= size


def squares(size: int) -> list[str]:
    """Every square, the top row (the dark side's back rank) first, as the board is drawn."""
    return [square(f, r) for r in range(size, 0, -1) for f in range(size)]


def step(side: int, direction: str) -> tuple[int, int]:
    """The (file, rank) step of one of the owner's directions: forward is up for light."""
    df, dr = DIRECTIONS[direction]
    return (df, dr) if side == 0 else (-df, -dr)


def far_rank(side: int, size: int) -> int:
    """The farthest row from the side's start: where its Soldiers are promoted."""
    return size if side == 0 else 1


def starting(book: Book, layout: str) -> Board:
    """The named layout: light on ranks 1 and 2, dark mirrored on ranks ``size`` and below."""
    back, front = book.layout(layout)
    board: Board = {}
    for side in (0, 1):
        back_rank, front_rank = (1, 2) if side == 0 else (book.size, book.size - 1)
        for rank, row in ((back_rank, back), (front_rank, front)):
            for file, kind in enumerate(row):
                board[square(file, rank)] = Piece("", side, kind)
    return numbered(board, book.size)


def numbered(board: Board, size: int) -> Board:
    """The pieces given ids in board order: L1, L2, ... for light, D1, ... for dark."""
    counts = [0, 0]
    out: Board = {}
    for name in sorted(board, key=lambda s: (coords(s)[1], coords(s)[0])):
        piece = board[name]
        counts[piece.side] += 1
        out[name] = Piece(f"{'LD'[piece.side]}{counts[piece.side]}", piece.side, piece.kind)
    return out


def _entries(given: Any) -> list[tuple[str, str]]:
    """A written position as (square, piece name) pairs: a mapping {"e1": "light castle"},
    text "e1 light castle, e10 dark castle, d4 knight" (commas or new lines between), or a list
    of such entries (what a replay's view shows)."""
    if isinstance(given, Mapping):
        pairs = []
        for key, value in given.items():
            if not isinstance(value, str):
                raise SetupError(f"position: the piece on {key!r} must be named in words,"
                                 f" not {value!r}")
            pairs.append((str(key), value))
        return pairs
    if isinstance(given, list) and all(isinstance(entry, str) for entry in given):
        given = ",".join(given)
    if not isinstance(given, str):
        raise SetupError("the option \"pieces\" must be a text (\"e1 light castle, ...\"), a"
                         " list of such entries, or a mapping of squares to pieces")
    pairs = []
    for entry in given.replace("\n", ",").split(","):
        if entry.strip():
            where, _, name = entry.strip().partition(" ")
            pairs.append((where, name))
    return pairs


def written(book: Book, given: Any) -> Board:
    """A position a table writes down, checked: every square on the board and used once, every
    name a piece of a side, one Castle a side, no Soldier left on its far row."""
    board: Board = {}
    for where, name in _entries(given):
        where = typed_square(where)  # as a move reads a square: "D4 " is d4
        if not on_board(where, book.size):
            last = square(book.size - 1, book.size)
            raise SetupError(f"position: {where!r} is not a square of the board (a1 to {last})")
        if not name.strip():
            raise SetupError(f"position: no piece named on {where} (write it as"
                             f" \"{where} light knight\")")
        found = book.kind_named(name)
        side_word, _, rest = name.strip().partition(" ")
        other = book.kind_named(rest) if side_word.lower() in SIDES else None
        if found is None and other is not None and other[0] is not None:
            raise SetupError(f"position: {name.strip()!r} on {where}: the"
                             f" {book.name(other[1], other[0])} is a {SIDES[other[0]]} piece")
        if found is None:
            raise SetupError(f"position: {name.strip()!r} on {where} is not a piece of either side"
                             " (say \"light castle\", \"dark knight\", \"Dragon\", ...)")
        side, kind = found
        if side is None:
            raise SetupError(f"position: say whose {book.name(kind, 0)} is on {where}"
                             f" (\"light {kind}\" or \"dark {kind}\")")
        if where in board:
            raise SetupError(f"position: two pieces on {where}")
        board[where] = Piece("", side, kind)
    for side in (0, 1):
        castles = [s for s, p in board.items() if p.side == side and p.kind == CASTLE]
        if len(castles) != 1:
            raise SetupError(f"position: the {SIDES[side]} side needs exactly one Castle, not"
                             f" {len(castles)}")
        promotes = [s for s, p in board.items() if p.side == side and book.promotes_to(p.kind)
                    and coords(s)[1] == far_rank(side, book.size)]
        if promotes:
            kind = board[promotes[0]].kind
            raise SetupError(f"position: a {book.name(kind, side)} on {promotes[0]}, its"
                             " farthest row, would already be promoted")
    return numbered(board, book.size)


def written_out(book: Book, board: Board) -> list[str]:
    """The position as a table writes it, from a1 rank by rank (the option "pieces" takes it
    back): ["a1 light griffin", ..., "j9 dark orc"]."""
    return [f"{name} {SIDES[p.side]} {book.name(p.kind, p.side).lower()}"
            for name, p in sorted(board.items(), key=lambda item: (coords(item[0])[1],
                                                                   coords(item[0])[0]))]
