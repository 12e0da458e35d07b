"""Boards across camera frames: which are in view, what stands on each cell, and a board's
reading reported once it is stable. The board side of the tracker (tracker.py has cards and
dice); boards.py does the work on one image.

A still table shows the same thing frame after frame, so the work per frame stays small: a
board is looked at in a coarse picture of its stickers' plane (12 pixels a cell), and a cell
is read (its markers decoded) only when it looks different from when it was last read, once it
has stopped changing; it is taken for empty only in a frame where nothing on the board moves
(a blurred frame hides markers, and the cell may then look as it did). A board whose corners
do not move keeps its place; a corner sticker not decoded in a frame counts as there if its
square still looks as it did when it was read (normalised correlation), so that one missed
decode does not lose the board, while a hand over a corner does.

A reading is reported only when it is complete and still: every cell read (empty, or a
marker), nothing changing for ``settle_frames`` frames, all four corners in view, and nothing
lying over the board: a cell that looks different from the last report although its reading
did not change, away from the cells whose reading did (a hand, an arm, a shadow), holds the
report back until it is gone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.engine import BoardShape
from companion.vision.boards import (
    Placed,
    corner_owners,
    payload_id,
    place_boards,
    read_cells,
    resample,
)
from companion.vision.images import Image, to_gray
from companion.vision.qr import CodeReading

COARSE_PX = 12  # pixels a cell in the coarse picture
MOVING = 0.06  # a cell's mean change between two frames (of the mean brightness) that is motion
CHANGED = 0.08  # a cell's change since it was read that calls for reading it again
CORNER_LIKE = 0.7  # correlation at which an unread corner sticker still counts as there
POSE_PX = 3.0  # a corner that moved more than this: the board was moved, read it afresh
POSE_SHARE = 0.06  # of a corner code's diagonal: its decoded corners wander by a module or so
# from frame to frame (3-4 px on a near 90 px code), which is not the board moving
CORNER_MEAN_OF = 8  # decodes a still corner's place is the running mean of
DECODE_BUDGET_PX = 80_000  # resampled pixels decoded per frame, over all boards (about 4 ms)
Grid = NDArray[np.float32]
DICE_GROWTH = 1.3  # how much the dice reader grows a code's square (vision/dice.py on_code)


@dataclass
class _Corner:
    code: CodeReading  # where the sticker is: the mean of its decodes since it last moved
    template: NDArray[np.float32]
    decodes: int = 1

    def seen_again(self, code: CodeReading) -> None:
        """Another decode of the unmoved sticker: the mean of the last few is steadier than
        any one of them (a module's wander)."""
        self.decodes = min(self.decodes + 1, CORNER_MEAN_OF)
        weight = 1.0 / self.decodes
        self.code = CodeReading(self.code.text, cast(Any, tuple(
            (x + weight * (nx - x), y + weight * (ny - y))
            for (x, y), (nx, ny) in zip(self.code.corners, code.corners, strict=True))))


@dataclass
class _Board:
    pose: Placed  # where it was placed: its cells' pictures are compared in this one
    cells: dict[str, str | None]  # component id, "" empty, None not read yet
    steadier: Placed | None = None  # the same from its corners' running mean: cells read here
    doubt: set[str] = field(default_factory=set)  # changed since read: not to be trusted now
    strays: list[str] = field(default_factory=list)
    previous: Grid | None = None  # the last frame's coarse picture
    reference: Grid | None = None  # each cell as it looked when it was read
    reported: dict[str, str] | None = None
    reported_look: Grid | None = None  # the coarse picture at the last report
    still: int = 0  # frames in a row with nothing moving on the board
    disturbed: bool = True  # something moved on it since the last report


def _square(gray: Image, code: CodeReading) -> NDArray[np.float32]:
    """A code's square, resampled to 24 x 24 and normalised (for correlation)."""
    target = np.array([[0, 0], [23, 0], [23, 23], [0, 23]], np.float32)
    matrix = cv2.getPerspectiveTransform(np.array(code.corners, np.float32), target)
    patch = cv2.warpPerspective(gray, matrix, (24, 24)).astype(np.float32)
    patch -= patch.mean()
    return patch / (float(np.linalg.norm(patch)) + 1e-6)


def _diff(a: Grid, b: Grid) -> Grid:
    return cast(Grid, cv2.absdiff(a, b))


def _per_cell(difference: Grid, rows: int, cols: int) -> Grid:
    """The mean of a coarse difference picture over each cell: rows x cols."""
    return cast(Grid, cv2.resize(difference, (cols, rows), interpolation=cv2.INTER_AREA))


class BoardWatch:
    """Feed it every frame with the QR codes read in it; it returns reports: a board's stable
    reading (``board``) and, when it changes, what is in view (``boards_seen``)."""

    def __init__(self, shapes: Sequence[BoardShape] = (), settle_frames: int = 3) -> None:
        self.settle_frames = settle_frames
        self.shapes: list[BoardShape] = []
        self._owners: dict[str, tuple[BoardShape, int]] = {}
        self._corners: dict[str, _Corner] = {}
        self._boards: dict[str, _Board] = {}
        self._seen: tuple[tuple[str, ...], tuple[str, ...]] | None = None
        self._wanted: list[BoardShape] = list(shapes)
        self._use(self._wanted)

    def look_for(self, shapes: Sequence[BoardShape]) -> None:
        """The boards to look for from the next frame on (the game at the table's); what it
        saw of others is forgotten. Safe to call from another thread than ``update``'s."""
        if list(shapes) != self._wanted:
            self._wanted = list(shapes)

    @property
    def looking(self) -> bool:
        """Whether it looks for any board (a game without boards: none)."""
        return bool(self._wanted)

    def _use(self, shapes: list[BoardShape]) -> None:
        self.shapes = shapes
        self._owners = corner_owners(self.shapes)
        self._corners.clear()
        self._boards.clear()
        self._seen = None

    def areas(self) -> list[CodeReading]:
        """Where the boards in view lie (the plane of their pieces' tops, half a cell beyond
        the grid), as squares of codes: a die is not read there (a marker on a piece looks
        like pips to the dice reader, which leaves out what lies on a code's square grown by
        DICE_GROWTH)."""
        out = []
        for name in (self._seen or ((), ()))[0]:
            board = self._boards.get(name)
            if board is None:
                continue
            shape = board.pose.shape
            margin = 0.5
            grid = np.array([[-margin, -margin], [shape.cols + margin, -margin],
                             [shape.cols + margin, shape.rows + margin],
                             [-margin, shape.rows + margin]], np.float64).reshape(-1, 1, 2)
            quad = cv2.perspectiveTransform(grid, board.pose.top).reshape(-1, 2)
            middle = quad.mean(axis=0)
            quad = (quad - middle) / DICE_GROWTH + middle
            out.append(CodeReading(f"board {name}", tuple(  # type: ignore[arg-type]
                (float(x), float(y)) for x, y in quad)))
        return out

    def is_corner(self, code: CodeReading) -> bool:
        """Whether a code is a corner sticker of a board it looks for (not a card)."""
        return payload_id(code.text) in self._owners

    def update(self, frame: Image, codes: Sequence[CodeReading]) -> list[dict[str, Any]]:
        if self._wanted is not self.shapes:
            self._use(self._wanted)
        if not self.shapes:
            return []
        gray = to_gray(frame)
        size = (gray.shape[1], gray.shape[0])
        placed, problems = place_boards(self._corners_now(gray, codes), self.shapes, size)
        reports: list[dict[str, Any]] = []
        in_view = {p.shape.name for p in placed}
        budget = [DECODE_BUDGET_PX]
        for p in placed:
            board = self._boards.get(p.shape.name)
            if board is None or _moved(board.pose, p):
                board = _Board(p, {name: None for name, _, _ in p.shape.cells})
                self._boards[p.shape.name] = board
            else:  # read cells where the mean of the corners' decodes puts them; the
                # pictures compared each frame stay on the first pose (moving it by a
                # sub-pixel each frame made cells look changed: re-reads, 3x the work)
                board.steadier = p
            report = self._watch(board, frame, gray, budget)
            if report is not None:
                reports.append(report)
        for name, board in self._boards.items():
            if name not in in_view:
                board.still = 0  # out of view (or a corner hidden): nothing settles
        seen = (tuple(sorted(in_view)), tuple(problems))
        if seen != self._seen:
            self._seen = seen
            reports.insert(0, {"type": "boards_seen", "boards": list(seen[0]),
                               "problems": list(seen[1])})
        return reports

    # --- corners ------------------------------------------------------------------------
    def _corners_now(self, gray: Image, codes: Sequence[CodeReading]) -> list[CodeReading]:
        """The corner stickers in this frame: those read now, and those read before whose
        square still looks the same. Two codes of one corner are both passed on (two boards
        carry its stickers)."""
        ours: list[CodeReading] = []
        for code in codes:  # one reading per sticker: two passes may both read it
            if payload_id(code.text) in self._owners and not any(
                    c.text == code.text and _distance(c, code) < code.size() for c in ours):
                ours.append(code)
        twice = {k for k, n in Counter(payload_id(c.text) for c in ours).items() if n > 1}
        now: list[CodeReading] = []
        for code in ours:
            key = payload_id(code.text)
            kept = self._corners.get(key)
            if key in twice:
                now.append(code)
                continue
            if kept is None or _distance(kept.code, code) > max(POSE_PX,
                                                                POSE_SHARE * code.size()):
                kept = self._corners[key] = _Corner(code, _square(gray, code))
            else:
                kept.seen_again(code)
            now.append(kept.code)
        read = {payload_id(c.text) for c in ours}
        for key, kept in self._corners.items():
            if key not in read and float((_square(gray, kept.code) * kept.template).sum()) \
                    >= CORNER_LIKE:
                now.append(kept.code)
        return now

    # --- one board ------------------------------------------------------------------------
    def _watch(self, board: _Board, frame: Image, gray: Image,
               budget: list[int]) -> dict[str, Any] | None:
        shape = board.pose.shape
        coarse, _ = resample(gray, board.pose.top, (0, 0, shape.cols, shape.rows), COARSE_PX)
        look = coarse.astype(np.float32)
        look /= max(float(look.mean()), 1.0)  # the same board in brighter light looks the same
        where = {name: (row, col) for name, row, col in shape.cells}
        moving = np.zeros((shape.rows, shape.cols), bool)
        if board.previous is not None:
            moving = _per_cell(_diff(look, board.previous), shape.rows, shape.cols) > MOVING
        board.previous = look
        if board.reference is None:
            board.reference = look.copy()
        changed = _per_cell(_diff(look, board.reference), shape.rows, shape.cols) > CHANGED
        to_read = []
        for name, (row, col) in where.items():
            if moving[row, col]:
                board.doubt.add(name)
            elif board.cells[name] is None or changed[row, col]:
                to_read.append(name)
            else:
                board.doubt -= {name}  # back as it was when read: what was there still is
        if moving.any():
            board.still = 0
            board.disturbed = True
        else:
            board.still += 1
        self._read(board, frame, look, to_read, where, budget, calm=not moving.any())
        return self._settled(board, look, where)

    def _read(self, board: _Board, frame: Image, look: Grid, names: list[str],
              where: dict[str, tuple[int, int]], budget: list[int], calm: bool) -> None:
        """Read cells (row by row), as many as the frame's budget allows. A cell is taken
        for empty only in a ``calm`` frame (nothing on the board moving): a shaken or
        blurred frame can hide a marker whose cell then looks as it did, and stays unread.
        Only a calm frame gets the search for blurred markers (about 2 ms a cell), and only
        on cells that held a piece: a moving frame is read again once calm."""
        if not names or budget[0] <= 0:
            return
        scale = board.pose.px_per_cell
        cells_allowed = max(1, int(budget[0] / (scale * scale * 2.0)))
        names.sort(key=lambda n: where[n])
        chosen = names[:cells_allowed]
        rows = [where[n][0] for n in chosen]
        cols = [where[n][1] for n in chosen]
        budget[0] -= int((max(rows) - min(rows) + 2) * (max(cols) - min(cols) + 2) * scale * scale)
        # searched for a blurred sticker: a cell that held a piece, in a calm frame (were its
        # marker lost there, the piece would be read as gone)
        lost = [n for n in chosen if board.cells[n]] if calm else []
        result = read_cells(frame, board.steadier or board.pose, chosen, search=lost)
        assert board.reference is not None
        for name, value in result.cells.items():
            if value == "" and not calm:
                value = None  # read again in a calm frame
            board.cells[name] = value
            if value is not None:
                board.doubt -= {name}
                row, col = where[name]
                px = slice(row * COARSE_PX, (row + 1) * COARSE_PX), \
                    slice(col * COARSE_PX, (col + 1) * COARSE_PX)
                board.reference[px] = look[px]
            else:
                board.doubt.add(name)
        board.strays = sorted(set(board.strays) | set(result.strays))

    def _settled(self, board: _Board, look: Grid,
                 where: dict[str, tuple[int, int]]) -> dict[str, Any] | None:
        if board.still < self.settle_frames or board.doubt \
                or any(v is None for v in board.cells.values()):
            return None
        cells = {name: value or "" for name, value in board.cells.items()}
        if board.reported is not None and board.reported_look is not None:
            if _covered(board, cells, look, where):
                return None
            if cells == board.reported and not board.disturbed:
                board.reported_look = look.copy()  # light drifts: keep the picture fresh
                return None
        board.reported = cells
        board.reported_look = look.copy()
        board.disturbed = False
        shape = board.pose.shape
        return {"type": "board", "board": shape.name, "title": shape.title, "seat": shape.seat,
                "cells": dict(cells), "strays": list(board.strays)}


def _covered(board: _Board, cells: dict[str, str], look: Grid,
             where: dict[str, tuple[int, int]]) -> bool:
    """Whether something lies over the board: cells that look different from the last report
    though their reading is the same, away from every cell whose reading changed."""
    assert board.reported is not None and board.reported_look is not None
    shape = board.pose.shape
    differs = _per_cell(_diff(look, board.reported_look), shape.rows, shape.cols) > CHANGED
    moved = [where[n] for n, v in cells.items() if v != board.reported.get(n)]
    for name, (row, col) in where.items():
        if not differs[row, col] or cells[name] != board.reported.get(name):
            continue
        if not any(abs(row - r) <= 1 and abs(col - c) <= 1 for r, c in moved):
            return True
    return False


def _distance(a: CodeReading, b: CodeReading) -> float:
    return max(float(np.hypot(p[0] - q[0], p[1] - q[1])) for p, q in zip(a.corners, b.corners,
                                                                         strict=True))


def _moved(before: Placed, after: Placed) -> bool:
    return max(float(np.hypot(p[0] - q[0], p[1] - q[1]))
               for p, q in zip(before.corners, after.corners, strict=True)) > POSE_PX

