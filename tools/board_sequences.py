"""Recorded games of the three board games as the camera sees them, frame by frame: a game
played at random by the rules, its pieces moved on the rendered table under hands, the
camera's readings fed to the companion's own board pipeline (QR passes, BoardWatch,
check_boards), and every move the camera offers tapped as a player would, or the true move
entered by phone when the camera offers none. What it counts: moves offered correctly,
missed, offered that did not happen; illegal physical moves shown with their rule; pieces on
a wrong cell in a stable reading; the cost of the board work per frame.

A scene is fixed by a seed: the same seed renders the same frames, so a short scene is a
test fixture (tests/vision/test_board_sequences.py) and many are the benchmark
(benchmarks/vision/bench_boards.py).
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import cv2

from companion.engine import Action, GameSetup, RulesError, TableSession, get_game
from companion.engine.random_play import random_action
from companion.runtime.board_moves import BoardCheck, check_boards
from companion.vision.board_watch import BoardWatch
from companion.vision.qr import read_codes, read_codes_in_tile
from tools.board_scenes import (
    LOOKS,
    Physical,
    Placement,
    fitting_view,
    hand_over,
    lay_out,
    table_scene,
)
from tools.synthetic_board import Light, render

SEATS = ("Ann", "Ben", "Cat", "Dan", "Eve")


@dataclass
class Tally:
    moves: int = 0  # moves on a board the camera should offer
    offered: int = 0  # of those, offered correctly
    missed: int = 0
    false_offers: int = 0  # offers of something that did not happen
    illegal: int = 0  # illegal physical moves made
    illegal_shown: int = 0  # of those, shown with the rule they break
    readings: int = 0  # stable readings reported
    cells_read: int = 0  # pieces and tiles in them
    wrong_cell: int = 0  # a piece reported on a cell it is not on
    missing: int = 0  # a piece on the board reported absent
    frames: int = 0
    board_ms: list[float] = field(default_factory=list)  # BoardWatch.update per frame
    loop_ms: list[float] = field(default_factory=list)  # QR passes and boards per frame
    notes: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in ("moves", "offered", "missed", "false_offers", "illegal", "illegal_shown",
                     "readings", "cells_read", "wrong_cell", "missing", "frames"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.board_ms += other.board_ms
        self.loop_ms += other.loop_ms
        self.notes += other.notes


def _visible(action: Action) -> str:
    """An action as the camera can tell it: flags (claims) left out."""
    return json.dumps([action.name, action.seat, sorted(
        (k, v) for k, v in action.params.items() if not isinstance(v, bool))])


class Camera:
    """The companion's board pipeline on rendered frames, with a frame clock."""

    def __init__(self, game: str, settle_frames: int = 3) -> None:
        self.rules = get_game(game)
        self.watch = BoardWatch(self.rules.physical_boards(), settle_frames)
        self.readings: dict[str, dict[str, Any]] = {}
        self.changed_at: dict[str, float] = {}
        self.clock = 0.0
        self.seen: list[dict[str, Any]] = []  # boards_seen reports

    def feed(self, frame: Any, tally: Tally, truth: Placement) -> None:
        self.clock += 1
        started = time.perf_counter()
        codes = read_codes(frame, thorough=False) + read_codes_in_tile(frame, int(self.clock) % 4)
        middle = time.perf_counter()
        reports = self.watch.update(frame, codes)
        done = time.perf_counter()
        tally.frames += 1
        tally.board_ms.append((done - middle) * 1000)
        tally.loop_ms.append((done - started) * 1000)
        for report in reports:
            if report["type"] == "boards_seen":
                self.seen.append(report)
                continue
            self.readings[report["board"]] = {**report, "at": self.clock}
            tally.readings += 1
            where = {c.id: cell for cell, c in truth.get(report["board"], {}).items()}
            for cell, cid in report["cells"].items():
                if cid:
                    tally.cells_read += 1
                    if where.get(cid) != cell:
                        tally.wrong_cell += 1
                        tally.notes.append(f"frame {self.clock}: {cid} read on {cell}, is on"
                                           f" {where.get(cid)}")
            read = {cid for cid in report["cells"].values() if cid}
            tally.missing += sum(1 for cid in where if cid not in read)

    def moved(self, before: TableSession, marks_before: dict[str, Any]) -> None:
        """The table's position changed (a move entered): note when, per board."""
        for board in self.rules.boards_in_play(before.state):
            if marks_before.get(board.shape) != dict(board.marks):
                self.changed_at[board.shape] = self.clock + 0.5

    def checks(self, session: TableSession) -> list[BoardCheck]:
        return check_boards(self.rules, session.state, self.readings, self.changed_at)


OFFER_FRAMES = 20  # frames after a move's last change within which it must be offered


@dataclass
class Scene:
    """One recorded game: the game, its options, the camera and how many moves."""

    game: str
    seed: int
    players: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    moves: int = 12
    size: tuple[int, int] = (1280, 720)
    distance_mm: tuple[float, float] = (600.0, 900.0)
    tilt_deg: tuple[float, float] = (0.0, 30.0)
    illegal_every: int = 5  # an illegal physical move before every Nth move (0: none)
    settle: int = 3



def _marks(session: TableSession) -> dict[str, Any]:
    return {b.shape: dict(b.marks) for b in session.rules.boards_in_play(session.state)}


def play(scene: Scene, tally: Tally | None = None, keep: list[Any] | None = None) -> Tally:
    """Play ``scene``: returns what was counted (``keep`` collects every frame rendered)."""
    tally = tally or Tally()
    rng = random.Random(scene.seed)
    rules = get_game(scene.game)
    session = TableSession(GameSetup(scene.game, SEATS[:scene.players], scene.options,
                                     seed=scene.seed))
    physical = Physical(rules)
    shapes = [s for s in rules.physical_boards()
              if s.name in {b.shape for b in rules.boards_in_play(session.state)}]
    layout = lay_out(shapes, LOOKS[scene.game], rng)
    view = fitting_view(rules, layout, [s.name for s in shapes], rng, scene.size,
                        scene.distance_mm, scene.tilt_deg)
    camera = Camera(scene.game, scene.settle)
    light = Light(uneven=rng.uniform(0, 0.4), noise=rng.uniform(1, 3.5),
                  jpeg_quality=rng.randint(75, 92), blur_px=rng.uniform(0, 0.5))
    frame_no = [scene.seed * 1000]

    def show(placement: Placement, hands: list[Any] | None = None,
             held: dict[str, set[str]] | None = None, moving: bool = False) -> None:
        frame_no[0] += 1
        shown = Light(**{**light.__dict__, "motion_px": rng.uniform(2, 6) if moving else 0.0,
                         "motion_deg": rng.uniform(0, 180)})
        frame = render(table_scene(rules, placement, view, shown, layout, hands,
                                   seed=frame_no[0], held=held))
        if keep is not None:
            keep.append(frame)
        camera.feed(frame, tally, placement)

    show(physical.placement(session.state))
    for _ in range(20):  # the first reading of a whole board
        if len(camera.readings) == len(shapes):
            break
        show(physical.placement(session.state))
    made = 0
    while made < scene.moves and session.outcome is None:
        before_state = session.state
        before = physical.placement(before_state)
        found = _next(session, rng)
        if found is None:
            break
        action, next_state = found
        after = physical.placement(next_state)
        if after == before:  # a phone's action: dice, a draw, a claim, an answer
            _enter(session, camera, action)
            continue
        made += 1
        seat = action.seat if action.seat is not None else 0
        changed = sorted({(b, c) for b in after for c in set(after[b]) | set(before.get(b, {}))
                          if after[b].get(c) != before.get(b, {}).get(c)})
        board_name, cell = changed[0]
        reach = -90.0 if seat % 2 == 0 else 90.0
        if scene.illegal_every and made % scene.illegal_every == 0:
            _illegal(scene, rng, session, physical, before, camera, show, tally, layout,
                     reach, after if len(changed) == 1 else None)
        if not _camera_move(action, session):
            _enter(session, camera, action)  # entered first, then the pieces are moved
            show(after, [hand_over(rules, layout, board_name, cell, rng, reach)], moving=True)
            for _ in range(scene.settle + 2):
                show(after)
            continue
        tally.moves += 1
        lifted = {b: {c for bb, c in changed if bb == b and c in before.get(b, {})}
                  for b in before}
        show(before, [hand_over(rules, layout, board_name, cell, rng, reach)], held=lifted,
             moving=True)
        show(after, [hand_over(rules, layout, board_name, changed[-1][1], rng, reach)],
             moving=True)
        offered = None
        # About two seconds of a 10 fps camera: the next player is still reaching for a piece.
        # The board is decoded a part per frame (the frame budget), so a move can take that.
        for _ in range(scene.settle + OFFER_FRAMES):
            show(after)
            moves = [c for c in camera.checks(session) if c.verdict == "move"]
            if moves:
                offered = moves[0].steps
                break
        if offered is None:
            tally.missed += 1
            tally.notes.append(f"missed {action.to_dict()}: "
                               f"{[c.text for c in camera.checks(session)]}")
        elif [_visible(a) for a in offered[:1]] == [_visible(action)]:
            tally.offered += 1  # tapped: its sheet carries the player's claims
        else:
            tally.false_offers += 1
            tally.notes.append(f"offered {[a.to_dict() for a in offered]} for"
                               f" {action.to_dict()}")
        _enter(session, camera, action)  # by the tap, or on a phone
    return tally


def _enter(session: TableSession, camera: Camera, action: Action) -> None:
    """The table enters ``action``; the camera notes when the position changed."""
    marks = _marks(session)
    session.submit(action)
    camera.moved(session, marks)


def _next(session: TableSession, rng: random.Random) -> tuple[Action, Any] | None:
    """A random legal action of a seat that can act, and the state after it (not kept)."""
    seats: list[int | None] = [None, *range(len(session.setup.seats))]
    choices = [(seat, spec) for seat in seats for spec in session.legal_actions(seat)
               if not spec.ruling and all(p.choices or p.kind in ("number", "text", "flag")
                                          for p in spec.params)]
    for _ in range(20 if choices else 0):
        seat, spec = rng.choice(choices)
        action = random_action(spec, seat, rng)
        try:
            return action, session.rules.apply(session.state, action).state
        except RulesError:
            continue
    return None


def _camera_move(action: Action, session: TableSession) -> bool:
    """Whether the camera is to offer ``action``: a step on a board that the seat's own hand
    makes (a piece moved, a tile placed or flipped), not an outcome a phone decides."""
    spec = next((s for s in session.legal_actions(action.seat) if s.name == action.name), None)
    if spec is None:
        return False
    boards = {b.id for b in session.table_view(None).boards}
    pieces = {p.id for b in session.table_view(None).boards for c in b.cells for p in c.pieces}
    return any((p.kind == "cell" and p.board in boards) or (
        p.kind == "choice" and set(p.choices) & pieces and action.params.get(p.name) in pieces)
        for p in spec.params)


def _illegal(scene: Scene, rng: random.Random, session: TableSession, physical: Physical,
             before: Placement, camera: Camera, show: Any, tally: Tally, layout: Any,
             reach: float, laid: Placement | None) -> None:
    """A piece of the seat to move put where the rules do not allow (or, ``laid``: the tile
    about to be laid put on a space it may not go to); the camera must say so and offer
    nothing; then the table puts it back."""
    rules = session.rules
    view = session.table_view(None)
    seat = view.turn
    if seat is None:
        return
    if laid is not None:
        for board_name, cells in laid.items():
            new = [c for c in cells if c not in before.get(board_name, {})]
            if not new:
                continue
            shape = next(s for s in rules.physical_boards() if s.name == board_name)
            spaces = [c for c, _, _ in shape.cells if c not in cells]
            rng.shuffle(spaces)
            for target in spaces:
                moved = {b: dict(c) for b, c in before.items()}
                moved[board_name][target] = cells[new[0]]
                if _legal_somehow(session, seat, target, None):
                    continue
                _show_illegal(scene, rng, session, before, moved, camera, show, tally, layout,
                              reach, board_name, target, f"a tile laid on {target}")
                return
        return
    for board_name, cells in before.items():
        shape = next(s for s in rules.physical_boards() if s.name == board_name)
        empty = [c for c, _, _ in shape.cells if c not in cells
                 and c in next(b.marks for b in rules.boards_in_play(session.state)
                               if b.shape == board_name)]
        own = [c for c, comp in cells.items()
               if rules.board_mark(comp) and _owner(session, board_name, c) == seat]
        rng.shuffle(own)
        rng.shuffle(empty)
        for origin in own[:6]:
            for target in empty[:12]:
                if _legal_somehow(session, seat, origin, target):
                    continue
                moved = {b: dict(c) for b, c in before.items()}
                moved[board_name][target] = moved[board_name].pop(origin)
                _show_illegal(scene, rng, session, before, moved, camera, show, tally, layout,
                              reach, board_name, target, f"{origin}-{target}")
                return


def _show_illegal(scene: Scene, rng: random.Random, session: TableSession, before: Placement,
                  moved: Placement, camera: Camera, show: Any, tally: Tally, layout: Any,
                  reach: float, board_name: str, cell: str, what: str) -> None:
    rules = session.rules
    tally.illegal += 1
    show(moved, [hand_over(rules, layout, board_name, cell, rng, reach)], moving=True)
    shown = False
    for _ in range(scene.settle + 6):
        show(moved)
        checks = camera.checks(session)
        if any(c.verdict == "move" for c in checks):
            tally.false_offers += 1
            tally.notes.append(f"offered a move for the illegal {what}")
            break
        if any(c.verdict == "illegal" for c in checks):
            shown = True
            break
    if shown:
        tally.illegal_shown += 1
    else:
        tally.notes.append(f"illegal {what} not shown: {[c.text for c in camera.checks(session)]}")
    show(before, [hand_over(rules, layout, board_name, cell, rng, reach)], moving=True)
    for _ in range(scene.settle + 2):
        show(before)


def _owner(session: TableSession, board_id_or_shape: str, cell: str) -> int | None:
    for board in session.table_view(None).boards:
        for c in board.cells:
            if c.id == cell and c.pieces:
                return c.pieces[-1].owner
    return None


def _legal_somehow(session: TableSession, seat: int, origin: str, target: str | None) -> bool:
    """Whether some action of the seat with these cells is legal now (True when the seat
    has no such action at all: nothing to make illegal)."""
    wanted = [origin] if target is None else [origin, target]
    specs = [s for s in session.legal_actions(seat)
             if len([p for p in s.params if p.kind == "cell"]) == len(wanted)]
    for spec in specs:
        cells = [p for p in spec.params if p.kind == "cell"]
        params = {p.name: p.default for p in spec.params if p.kind != "cell"}
        params.update({p.name: c for p, c in zip(cells, wanted, strict=True)})
        try:
            session.rules.apply(session.state, Action(spec.name, seat, params))
            return True
        except RulesError:
            continue
    return not specs


def save_frames(frames: list[Any], folder: str) -> None:
    for index, frame in enumerate(frames):
        cv2.imwrite(f"{folder}/{index:04d}.jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 85])
