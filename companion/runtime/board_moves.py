"""From a board the camera read to the move that was made.

A stable reading of a board (which sticker stands on each cell, board_watch.py) is compared
with the companion's own position (``GameRules.boards_in_play``), mark by mark
(``GameRules.board_mark``). A difference is explained by the rules alone: the legal actions of
one seat whose cell parameters are the cells that changed, or that the game says a sticker
stands for (``GameRules.suggest``: a tile drawn), tried in sequences of up to three, applied
by the engine; the one shortest sequence that leaves the board as the camera sees it, and the
other boards as they were, is the candidate move, offered to that seat for one tap. Nothing is
offered when two different sequences fit, when a cell could not be read, or when the board
shows stickers it cannot show (another game's, one piece on two cells).

When no legal sequence fits, the physical move (a piece that left one cell for another) is
tried as that seat's action on what the whole table knows, and the engine's refusal is the
rule it breaks, shown on every phone. The camera never applies anything.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.engine import (
    Action,
    ActionSpec,
    BoardInPlay,
    BoardShape,
    Component,
    GameRules,
    RulesError,
    UnknownGameError,
    get_game,
    title_of,
)
from companion.engine.components import REGISTRY

MAX_STEPS = 3
MAX_NODES = 60  # states kept per step of the search


@dataclass(frozen=True)
class BoardCheck:
    """A board the camera reads, against the companion's position. ``verdict``: ``same``,
    ``move`` (``steps`` explain it), ``illegal`` (``text`` names the rule), ``differs`` (no
    move explains it), ``problem`` (what the camera sees cannot be a position)."""

    board: str  # the board's shape name
    title: str
    seat: int | None
    verdict: str
    text: str
    cells: tuple[str, ...] = ()  # the cells that differ, or that a problem is on
    steps: tuple[Action, ...] = ()
    view_board: str = ""  # the table view's board id

    def to_dict(self) -> dict[str, Any]:
        return {"board": self.view_board or self.board, "title": self.title, "seat": self.seat,
                "verdict": self.verdict, "text": self.text, "cells": list(self.cells)}


@dataclass
class _Seen:
    marks: dict[str, str]  # cell -> the mark its sticker stands for
    components: dict[str, Component]  # cell -> the sticker's component
    problems: list[str] = field(default_factory=list)
    problem_cells: list[str] = field(default_factory=list)


def check_boards(rules: GameRules, state: Any, readings: Mapping[str, Mapping[str, Any]],
                 changed_at: Mapping[str, float] | None = None) -> list[BoardCheck]:
    """Each board read (by shape name: its last stable reading, ``at`` when) against the
    position. A reading older than the last change of the companion's own position of that
    board (``changed_at``: a move entered on a phone) may not show that change yet: it is
    said to differ, and never taken for a move or an illegal one."""
    in_play = {b.shape: b for b in rules.boards_in_play(state)}
    shapes = {s.name: s for s in rules.physical_boards()}
    titles = {name: shape.title for name, shape in shapes.items()}
    out = []
    everywhere = Counter(cid for r in readings.values() for cid in r["cells"].values() if cid)
    seats: dict[int | None, str] = {}
    for name, reading in sorted(readings.items()):
        title = titles.get(name, str(reading.get("title", name)))
        board = in_play.get(name)
        if board is None:
            playing = ", ".join(titles.get(b, b) for b in in_play) or "none"
            out.append(BoardCheck(name, title, reading.get("seat"), "problem",
                                  f"{title} is not a board this table plays on ({playing})"))
            continue
        if board.seat is not None and board.seat in seats:
            out.append(BoardCheck(name, title, board.seat, "problem",
                                  f"two boards claim one seat: {title} and {seats[board.seat]}"))
            continue
        seats[board.seat] = title
        stale = reading.get("at", 0.0) < (changed_at or {}).get(name, float("-inf"))
        out.append(_check(rules, state, board, shapes[name], reading, everywhere, stale))
    return out


def _seen(rules: GameRules, board: BoardInPlay, reading: Mapping[str, Any],
          everywhere: Counter[str]) -> _Seen:
    seen = _Seen({}, {})
    for cell, cid in reading["cells"].items():
        if not cid:
            if cell in board.marks:
                seen.marks[cell] = ""
            continue
        component = REGISTRY.find(cid)
        mark = None if component is None else rules.board_mark(component)
        if component is None or mark is None:
            seen.problems.append(f"a sticker of {_game_of(component)} is on {cell}")
            seen.problem_cells.append(cell)
            continue
        if cell not in board.marks:
            seen.problems.append(f"{_word(mark)} stands on {cell}, which is not a cell of this"
                                 " board now")
            seen.problem_cells.append(cell)
            continue
        if everywhere[cid] > 1:
            seen.problems.append(f"one {_word(mark)} sticker is read in two places at once"
                                 f" ({cell} and another)")
            seen.problem_cells.append(cell)
            continue
        seen.marks[cell] = mark
        seen.components[cell] = component
    for cid in reading.get("strays", ()):
        component = REGISTRY.find(cid)
        mark = rules.board_mark(component) if component else None
        seen.problems.append(f"{_word(mark) if mark else 'a sticker'} stands on the board but"
                             " on no cell of it")
    return seen


def _word(mark: str) -> str:
    """A mark as players read it ("light knight" -> "Light Knight")."""
    return title_of(mark.replace("_", " "))


def _game_of(component: Component | None) -> str:
    if component is None:
        return "no game the companion knows"
    try:
        return get_game(component.game).info.title
    except UnknownGameError:
        return component.game


def _check(rules: GameRules, state: Any, board: BoardInPlay, shape: BoardShape,
           reading: Mapping[str, Any], everywhere: Counter[str], stale: bool) -> BoardCheck:
    seen = _seen(rules, board, reading, everywhere)
    title = shape.title

    def verdict(kind: str, text: str, cells: Sequence[str] = (),
                steps: Sequence[Action] = ()) -> BoardCheck:
        return BoardCheck(board.shape, title, board.seat, kind, text, tuple(cells), tuple(steps),
                          board.board)

    if seen.problems:
        return verdict("problem", "; ".join(seen.problems), seen.problem_cells)
    changed = sorted(c for c in board.marks if seen.marks.get(c, "") != board.marks[c])
    if not changed:
        return verdict("same", f"{title}: as the companion has it")
    if _turned(board, shape, seen.marks):
        return verdict("problem", f"{title} lies turned round: turn it back", changed)
    if stale:
        what = _what_changed(rules, state, board, seen, changed, None)
        return verdict("differs", f"{what}: set the pieces as the companion has them", changed)
    found = _explanations(rules, state, board, seen, changed)
    if len(found) == 1:
        steps = found[0]
        return verdict("move", _said(rules, state, steps), changed, steps)
    if len(found) > 1:
        return verdict("differs", f"{title} changed, and more than one move fits it: enter it"
                       " on a phone", changed)
    moved = _physical_move(board, seen.marks, changed)
    refusal = _refusal(rules, state, board, moved) if moved else None
    what = _what_changed(rules, state, board, seen, changed, moved)
    if refusal is not None:
        return verdict("illegal", f"{what}: {refusal}. Put it back as it was", changed)
    return verdict("differs", f"{what}, which the game does not expect now", changed)


def _turned(board: BoardInPlay, shape: BoardShape, marks: Mapping[str, str]) -> bool:
    """Whether the board reads as the companion's position turned half round (and not as
    the position itself): a board laid the wrong way round between the players."""
    if not any(marks.values()):
        return False
    at = {(r, c): n for n, r, c in shape.cells}
    turned = {}
    for name, row, col in shape.cells:
        if name in board.marks:
            other = at.get((shape.rows - 1 - row, shape.cols - 1 - col))
            if other is None or other not in board.marks:
                return False
            turned[other] = board.marks[name]
    return turned == {n: marks.get(n, "") for n in turned} and turned != dict(board.marks)


# --- the search ------------------------------------------------------------------------------

def _board_marks(rules: GameRules, state: Any) -> dict[str, Mapping[str, str]]:
    return {b.shape: b.marks for b in rules.boards_in_play(state)}


def _explanations(rules: GameRules, state: Any, board: BoardInPlay, seen: _Seen,
                  changed: Sequence[str]) -> list[tuple[Action, ...]]:
    """The shortest sequences of one seat's legal actions that leave the board as seen."""
    target = {c: seen.marks.get(c, "") for c in board.marks}
    before = _board_marks(rules, state)
    frontier: list[tuple[tuple[Action, ...], Any]] = [((), state)]
    for _ in range(MAX_STEPS):
        found: list[tuple[Action, ...]] = []
        following: list[tuple[tuple[Action, ...], Any]] = []
        for steps, current in frontier:
            seat = steps[0].seat if steps else None
            for action in _candidates(rules, current, board, seen, changed, seat, bool(steps)):
                try:
                    after = rules.apply(current, action).state
                except RulesError:
                    continue
                marks = _board_marks(rules, after)
                if any(marks.get(k) != v for k, v in before.items() if k != board.shape):
                    continue  # another board would change: not this move
                here = marks.get(board.shape, {})
                if dict(here) == target:
                    found.append((*steps, action))
                elif _no_worse(here, before[board.shape], target):
                    following.append(((*steps, action), after))
        if found:
            unique = {json.dumps([a.to_dict() for a in f], sort_keys=True): f for f in found}
            return _simplest(list(unique.values()))
        frontier = following[:MAX_NODES]
        if not frontier:
            break
    return _waiting_on_input(rules, state, board, seen, changed)


def _simplest(found: list[tuple[Action, ...]]) -> list[tuple[Action, ...]]:
    """Of sequences that differ only in flags the camera cannot see (a claim), the one found
    first, which keeps the flags at their defaults; others are left as they are."""
    def visible(steps: tuple[Action, ...]) -> str:
        return json.dumps([[a.name, a.seat, sorted((k, v) for k, v in a.params.items()
                                                   if not isinstance(v, bool))] for a in steps])
    kept: dict[str, tuple[Action, ...]] = {}
    for steps in found:
        kept.setdefault(visible(steps), steps)
    return list(kept.values())


def _no_worse(now: Mapping[str, str], before: Mapping[str, str],
              target: Mapping[str, str]) -> bool:
    """A step that leaves the board no further from the reading (a draw, a flip in hand)."""
    return sum(now.get(c) != v for c, v in target.items()) <= \
        sum(before.get(c) != v for c, v in target.items())


def _candidates(rules: GameRules, state: Any, board: BoardInPlay, seen: _Seen,
                changed: Sequence[str], seat: int | None, later: bool,
                exact: bool = False) -> Iterator[Action]:
    """Actions that may explain the change: each seat's (or, after a first step, that seat's)
    legal actions with their cells among the changed ones (``exact``: those cells in that
    order) and no other choice to make, and what the game says a new sticker on a changed
    cell stands for."""
    seats = [seat] if later else [*range(_players(rules, state))]
    pieces = _pieces_on(rules, state, board)
    for who in seats:
        for spec in rules.legal_actions(state, who):
            if spec.ruling or spec.kind == "input":
                continue
            yield from _filled(spec, who, board, changed, exact, pieces)
    for cell in () if exact else changed:
        component = seen.components.get(cell)
        if component is not None:
            for action in rules.suggest(state, component):
                if not later or action.seat == seat:
                    yield action


def _pieces_on(rules: GameRules, state: Any, board: BoardInPlay) -> dict[str, str]:
    """The table view's id of the piece on top of each cell of the board."""
    return {cell.id: cell.pieces[-1].id for b in rules.table_view(state, None).boards
            if b.id == board.board for cell in b.cells if cell.pieces}


def _players(rules: GameRules, state: Any) -> int:
    return len(rules.table_view(state, None).players)


def _filled(spec: ActionSpec, seat: int | None, board: BoardInPlay, changed: Sequence[str],
            exact: bool = False, pieces: Mapping[str, str] | None = None) -> Iterator[Action]:
    """The spec with its parameters taken from the changed cells: a cell parameter of this
    board one of them, a choice of the pieces shown on the board (their table-view ids) the
    piece that stood on one of them; a flag at its default, or at the other value (tried
    after); every other parameter at its default. Nothing when another value must be chosen.
    ``exact``: the cell parameters take ``changed`` in that order."""
    on_cells = {cell: piece for cell, piece in (pieces or {}).items() if cell in changed}
    filled = []
    for p in spec.params:
        if (p.kind == "cell" and p.board == board.board) or (
                p.kind == "choice" and p.default is None and on_cells
                and set(on_cells.values()) & set(p.choices)):
            filled.append(p)
        elif p.default is None and p.asked:
            return
    if not filled:
        return
    flags = [p for p in spec.params if p.kind == "flag" and p.default is not None]
    defaults = {p.name: p.default for p in spec.params if p not in filled and p.asked}
    orders = [tuple(changed)] if exact else itertools.permutations(changed, len(filled))
    for values in orders:
        if len(values) != len(filled):
            continue
        params = dict(defaults)
        fits = True
        for param, cell in zip(filled, values, strict=True):
            value = cell if param.kind == "cell" else on_cells.get(cell)
            params[param.name] = value
            if value is None or value not in param.allowed(params):
                fits = False
                break
        if fits:
            yield Action(spec.name, seat, params)
            for flag in flags:  # a claim the camera cannot see, only if the default is refused
                yield Action(spec.name, seat, {**params, flag.name: not flag.default})


def _waiting_on_input(rules: GameRules, state: Any, board: BoardInPlay, seen: _Seen,
                      changed: Sequence[str]) -> list[tuple[Action, ...]]:
    """A piece moved onto a cell where what happens next is for dice to say (a fight): the
    move itself, when after it no one has anything to do on the board (only what the camera
    cannot read)."""
    moved = _physical_move(board, seen.marks, changed)
    if moved is None or len(moved) != 2:
        return []
    found: list[tuple[Action, ...]] = []
    for action in _candidates(rules, state, board, seen, moved, None, False, exact=True):
        try:
            after = rules.apply(state, action).state
        except RulesError:
            continue
        players = _players(rules, after)
        if all(all(p.kind != "cell" for p in spec.params)
               for who in range(players) for spec in rules.legal_actions(after, who)) and \
                rules.outcome(after) is None:
            found.append((action,))
    return found


def _physical_move(board: BoardInPlay, marks: Mapping[str, str],
                   changed: Sequence[str]) -> tuple[str, ...] | None:
    """The physical move, as cells: (from, to) when exactly one mark left one cell and is now
    on another; (cell,) when the only change is a new mark on an empty cell (a tile laid)."""
    pairs = [(a, b) for a in changed for b in changed if a != b and board.marks[a]
             and marks.get(b, "") == board.marks[a] and marks.get(a, "") != board.marks[a]]
    if len(pairs) == 1:
        return pairs[0]
    laid = [c for c in changed if not board.marks[c] and marks.get(c)]
    return (laid[0],) if len(changed) == 1 and laid else None


def _refusal(rules: GameRules, state: Any, board: BoardInPlay,
             moved: tuple[str, ...]) -> str | None:
    """What the engine says of the physical move, tried as an action with that many cells of
    the seat whose piece it is first (out of turn: "it is Ben's turn"), then of the seats the
    game waits for, on what the whole table knows (a refusal shown to everyone must not tell
    a secret)."""
    public = rules.as_known_to(state, None)
    view = rules.table_view(public, None)
    owner = next((c.pieces[-1].owner for b in view.boards if b.id == board.board
                  for c in b.cells if c.id == moved[0] and c.pieces), None)
    everyone = range(len(view.players))
    specs = {spec.name: spec for seat in everyone for spec in rules.legal_actions(public, seat)
             if not spec.ruling and len([p for p in spec.params if p.kind == "cell"
                                         and p.board == board.board]) == len(moved)
             and all(p.kind == "cell" or p.default is not None or not p.asked
                     for p in spec.params)}
    seats = [s for s in dict.fromkeys([owner, *view.waiting_for, *everyone]) if s is not None]
    for seat in seats:
        for spec in specs.values():
            cells = [p for p in spec.params if p.kind == "cell"]
            params = {p.name: p.default for p in spec.params if p.kind != "cell" and p.asked}
            params.update({p.name: cell for p, cell in zip(cells, moved, strict=True)})
            try:
                rules.apply(public, Action(spec.name, seat, params))
            except RulesError as exc:
                return _reason(str(exc))
    return None


def _reason(message: str) -> str:
    """The rule in a refusal ("cannot move by Ann: the Knight moves ...")."""
    return message.split(": ", 1)[1] if message.startswith("cannot ") and ": " in message \
        else message


def _what_changed(rules: GameRules, state: Any, board: BoardInPlay, seen: _Seen,
                  changed: Sequence[str], moved: tuple[str, ...] | None) -> str:
    """The difference in words, with what the whole table may know (the companion's pieces as
    its table view shows them, the camera's as their marks: never a sticker's number)."""
    pieces = {c.id: p.title for b in rules.table_view(rules.as_known_to(state, None), None).boards
              if b.id == board.board for c in b.cells for p in c.pieces[-1:]}
    if moved is not None and len(moved) == 2:
        return f"{pieces.get(moved[0], _word(seen.marks.get(moved[1], 'a piece')))} went from" \
               f" {moved[0]} to {moved[1]}"
    if moved is not None:
        return f"{_word(seen.marks.get(moved[0], 'a piece'))} was laid on {moved[0]}"
    parts = []
    for cell in changed:
        now = seen.marks.get(cell, "")
        had = pieces.get(cell)
        parts.append(f"{cell} shows {_word(now) if now else 'nothing'}"
                     + (f" (the companion has {had})" if had else " (empty for the companion)"))
    return "The camera sees " + "; ".join(parts)


def _said(rules: GameRules, state: Any, steps: Sequence[Action]) -> str:
    """The steps as the log will say them."""
    words = []
    for action in steps:
        words.append(rules.describe(state, action))
        state = rules.apply(state, action).state
    return ", then ".join(words)
