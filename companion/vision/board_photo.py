"""Boards in one photo, read whole, and a game's score from them (`companion scan --score GAME`,
and the camera tab's score sheet from what the camera sees).

A photo has no time budget: its codes get the upscaled passes when a board's corners are not
all read at first, and every cell of every board is read. A cell that cannot be read, or that
carries a sticker of another game, is unread; the game says which boards it can score
(``GameRules.score_photo``) and which cells keep it from scoring the others.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from companion.engine import BoardShape, GameRules, PhotoScore, RulesError
from companion.engine.components import REGISTRY
from companion.vision.boards import BoardRead, Placed, place_boards, read_cells
from companion.vision.images import Image
from companion.vision.qr import read_codes


def read_photo_boards(image: Image, shapes: Sequence[BoardShape], fewest_corners: int = 3
                      ) -> tuple[list[tuple[Placed, BoardRead]], list[str]]:
    """Every board of ``shapes`` placed in the photo, each read whole, and what keeps any
    other board from being placed. A photo will not come again, so a board with a corner
    sticker unread (under a coin, in glare, blurred) is placed from the other three when the
    slower passes do not read it (``fewest_corners``: 4 where a later frame may do better)."""
    size = (int(image.shape[1]), int(image.shape[0]))
    placed, problems = place_boards(read_codes(image, thorough=False), shapes, size)
    if problems:  # a corner not read at first: the slower passes, and three corners will do
        placed, problems = place_boards(read_codes(image, thorough=True, zbar=False), shapes,
                                        size, fewest_corners=fewest_corners)
    return [(p, read_cells(image, p)) for p in placed], problems


def marks_of(rules: GameRules, readings: Mapping[str, Mapping[str, str | None]]
             ) -> tuple[dict[str, dict[str, str]], dict[str, list[str]], list[str]]:
    """Board readings (shape -> cell -> component id, "" empty, None unread) as the game's
    marks: (marks read, unread cells, problems). A sticker of another game, or one read on
    two cells, leaves its cells unread."""
    problems: list[str] = []
    twice = Counter(cid for cells in readings.values() for cid in cells.values() if cid)
    marks: dict[str, dict[str, str]] = {}
    unread: dict[str, list[str]] = {}
    for name, cells in readings.items():
        marks[name], unread[name] = {}, []
        for cell, cid in cells.items():
            if cid is None:
                unread[name].append(cell)
                continue
            if not cid:
                marks[name][cell] = ""
                continue
            component = REGISTRY.find(cid)
            mark = rules.board_mark(component) if component is not None else None
            if mark is None or twice[cid] > 1:
                problems.append(f"{cell} of {name}: " + ("one sticker read in two places"
                                                        if mark else "not a sticker of this game"))
                unread[name].append(cell)
            else:
                marks[name][cell] = mark
    return marks, unread, problems


def score_photo(image: Image, rules: GameRules) -> dict[str, Any]:
    """Each board in the photo (its grid of marks), and the game's score of them."""
    found, problems = read_photo_boards(image, rules.physical_boards())
    readings = {p.shape.name: r.cells for p, r in found}
    return scored(rules, [p.shape for p, _ in found], readings, problems)


def scored(rules: GameRules, shapes: Sequence[BoardShape],
           readings: Mapping[str, Mapping[str, str | None]],
           problems: Sequence[str] = ()) -> dict[str, Any]:
    """Boards read (by shape) as the game scores them: each board's grid, the score sheet of
    those read whole, and the cells that keep the others from being scored (a game with no
    score from its boards: the grids alone, ``sheet`` None)."""
    marks, unread, more = marks_of(rules, readings)
    try:
        score = rules.score_photo(marks, unread)
    except RulesError:
        score = PhotoScore(None, {k: tuple(v) for k, v in unread.items() if v})
    boards = []
    for shape in shapes:
        cells: dict[str, str | None] = {c: None for c in unread.get(shape.name, [])}
        cells.update(marks.get(shape.name, {}))
        boards.append({"board": shape.name, "title": shape.title, "seat": shape.seat,
                       "rows": shape.rows, "cols": shape.cols,
                       "cells": [{"id": c, "row": r, "col": k, "mark": cells.get(c)}
                                 for c, r, k in shape.cells],
                       "unread": sorted(score.unread.get(shape.name, ()))})
    return {"boards": boards, "sheet": score.sheet.to_dict() if score.sheet else None,
            "notes": list(score.notes), "problems": [*problems, *more]}
