"""The board's shape: squares named like chess ("a1" is the bottom left as seen from the
first seat), holes that do not exist, and each side's home row, far row and left-right line."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

FILES = "abcdefghij"
ORTHOGONAL = ((0, 1), (0, -1), (1, 0), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
AROUND = ORTHOGONAL + DIAGONAL

Point = tuple[int, int]


@dataclass(frozen=True)
class Layout:
    """One board: ``cols`` files by ``rows`` ranks, less its holes."""

    name: str
    label: str
    cols: int
    rows: int
    holes: frozenset[str]

    @classmethod
    def from_data(cls, name: str, data: Mapping[str, Any]) -> Layout:
        return cls(name, str(data["label"]), int(data["cols"]), int(data["rows"]),
                   frozenset(data["holes"]))

    def cell(self, point: Point) -> str | None:
        """The square at (file, rank) counted from 0, or None off the board or in a hole."""
        x, y = point
        if not (0 <= x < self.cols and 0 <= y < self.rows):
            return None
        name = f"{FILES[x]}{y + 1}"
        return None if name in self.holes else name

    def point(self, cell: str) -> Point:
        return FILES.index(cell[0]), int(cell[1:]) - 1

    def cells(self) -> Iterator[str]:
        """Every square, rank by rank from the top as drawn."""
        for y in range(self.rows - 1, -1, -1):
            for x in range(self.cols):
                name = self.cell((x, y))
                if name is not None:
                    yield name

    def around(self, cell: str) -> list[str]:
        """The (up to) eight squares around ``cell``."""
        x, y = self.point(cell)
        return [c for dx, dy in AROUND if (c := self.cell((x + dx, y + dy))) is not None]

    def home(self, side: str) -> list[str]:
        """The side's own edge row, where its team starts, in board order (files a to f, or
        ranks from 1 up): its pieces are numbered in this order."""
        return self._edge(side, far=False)

    def far(self, side: str) -> list[str]:
        """The edge row opposite the side: where its pieces score."""
        return self._edge(side, far=True)

    def _edge(self, side: str, far: bool) -> list[str]:
        last_x, last_y = self.cols - 1, self.rows - 1
        line: list[Point]
        if side in ("south", "north"):
            y = 0 if (side == "south") != far else last_y
            line = [(x, y) for x in range(self.cols)]
        else:
            x = 0 if (side == "west") != far else last_x
            line = [(x, y) for y in range(self.rows)]
        return [c for p in line if (c := self.cell(p)) is not None]

    def is_lateral(self, side: str, step: Point) -> bool:
        """Whether a step runs along the side's left-right line (the Sidewinder's)."""
        return (step[1] == 0) if side in ("south", "north") else (step[0] == 0)

    def wrapped(self, point: Point) -> Point:
        """A point off the left or right edge, brought back on the other side."""
        return point[0] % self.cols, point[1] % self.rows
