"""Tables of the three board games as the camera sees them: which sticker stands on each cell of
each board (following the companion's own states, as players move the real pieces), laid out
on a table and rendered by tools/synthetic_board.py with the real stickers
(companion.stickers.printed_modules) at their printed sizes.

Board sizes, piece sizes and looks are guesses at the real games (none is published in text):
Gambit of Kings' 10x10 board of 40 mm squares and 30 mm pieces 25 mm high, Gambit (6x6)'s
45 mm squares and 32 mm pieces 15 mm high, Captain Flip's boards of 42 mm spaces and 38 mm
tiles 2.5 mm thick. Change them here to render another set.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import companion.games  # noqa: F401  (registers the games)
from companion.engine import BoardShape, Component, GameRules, components_of
from companion.engine.components import REGISTRY
from companion.stickers import printed_modules, sticker_mm
from tools.synthetic_board import Board, Hand, Light, Piece, Sticker, TableScene, View, render

Placement = dict[str, dict[str, Component]]  # board shape -> cell -> the sticker on top


@dataclass(frozen=True)
class Look:
    cell_mm: float
    style: str
    piece_width_mm: float
    square: bool
    colours: tuple[tuple[int, int, int], tuple[int, int, int]] = ((190, 205, 215), (110, 140, 160))
    owner_colours: tuple[tuple[int, int, int], ...] = ((215, 215, 205), (45, 40, 50),
                                                      (60, 60, 170), (50, 140, 60))


LOOKS = {
    "gambit-of-kings": Look(40.0, "checker", 30.0, False, ((170, 200, 215), (70, 110, 140))),
    "gambit-6x6": Look(45.0, "plain", 32.0, False, ((200, 210, 205), (200, 210, 205))),
    "captain-flip": Look(42.0, "art", 38.0, True, ((205, 225, 235), (80, 110, 150)),
                         ((225, 235, 240),) * 5),
}


def sticker(component: Component, spin: float = 0.0) -> Sticker:
    return Sticker(np.array(printed_modules(component), np.uint8), sticker_mm(component), spin)


def _stable(*parts: object) -> random.Random:
    """A random source fixed by what it is for (a piece's place on its cell stays put)."""
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


class Physical:
    """The stickers on the real table, following the companion's states: which piece of the
    box stands where (a Gambit of Kings piece keeps its sticker as it moves; a promoted
    Soldier gets a spare Knight sticker on top)."""

    def __init__(self, rules: GameRules) -> None:
        self.rules = rules
        self.slug = rules.info.slug
        self._stickers: dict[str, Component] = {}  # Gambit of Kings: piece id -> sticker

    def placement(self, state: Any) -> Placement:
        if self.slug == "gambit-of-kings":
            return {"board": {sq: self._kings(p) for sq, p in state.board.items()}}
        if self.slug == "gambit-6x6":
            shape = f"{state.layout.cols}X{state.layout.rows}"
            return {shape: {cell: _find(f"G6/PIECE/{ids[-1][0]}/{ids[-1][1:]}")
                            for cell, ids in state.stacks.items() if ids}}
        if self.slug == "captain-flip":
            return {f"{state.board}{p.seat + 1}": {
                cell: _find(f"CF/TILE/{tile.number:02d}/{tile.up.upper()}")
                for cell, tile in p.spaces.items()} for p in state.players}
        raise ValueError(f"no board scenes for {self.slug}")

    def _kings(self, piece: Any) -> Component:
        side = "LIGHT" if piece.side == 0 else "DARK"
        kept = self._stickers.get(piece.id)
        mark = f"{side.lower()} {piece.kind}"
        if kept is not None and self.rules.board_mark(kept) == mark:
            return kept
        used = set(self._stickers.values())
        for component in components_of("GK"):
            if component.kind == "PIECE" and component not in used \
                    and self.rules.board_mark(component) == mark:
                self._stickers[piece.id] = component
                return component
        raise ValueError(f"no sticker left for a {mark}")


def _find(component_id: str) -> Component:
    found = REGISTRY.find(component_id)
    if found is None:
        raise ValueError(f"no component {component_id}")
    return found


def _corner_reach_mm(shape: BoardShape) -> float:
    """How far a board's corner stickers reach out from its grid, a rim included."""
    return sticker_mm(_find(shape.corners[0])) + 5


@dataclass
class Layout:
    """Where each board lies on the table (mm, its centre) and how it is turned."""

    at: dict[str, tuple[float, float, float]] = field(default_factory=dict)  # x, y, angle
    seed: int = 0  # how stickers were stuck on and pieces set down (the same all game)


def lay_out(shapes: list[BoardShape], look: Look, rng: random.Random,
            spread: float = 1.0) -> Layout:
    """Boards on the table: one in the middle, or a row of them facing their players (the
    far ones turned round), each a little off square."""
    layout = Layout(seed=rng.randrange(10**6))
    width = max(s.cols for s in shapes) * look.cell_mm + 200
    if len(shapes) == 1:
        layout.at[shapes[0].name] = (rng.uniform(-30, 30), rng.uniform(-20, 20),
                                     rng.uniform(-12, 12))
        return layout
    per_row = math.ceil(len(shapes) / 2) if len(shapes) > 2 else len(shapes)
    for index, shape in enumerate(shapes):
        row, col = divmod(index, per_row)
        x = (col - (per_row - 1) / 2) * width * spread
        y = 0.0 if len(shapes) <= 2 else (0.5 - row) * width * spread
        far = len(shapes) > 2 and row == 0
        layout.at[shape.name] = (x + rng.uniform(-15, 15), y + rng.uniform(-15, 15),
                                 (180.0 if far else 0.0) + rng.uniform(-8, 8))
    return layout


def table_scene(rules: GameRules, placement: Placement, view: View, light: Light,
                layout: Layout, hands: list[Hand] | None = None, seed: int = 0,
                held: Mapping[str, set[str]] | None = None) -> TableScene:
    """The scene of ``placement`` (``held``: cells whose piece is lifted off, in a hand)."""
    look = LOOKS[rules.info.slug]
    shapes = {s.name: s for s in rules.physical_boards()}
    boards = []
    for name, cells in placement.items():
        shape = shapes[name]
        x, y, angle = layout.at.get(name, (0.0, 0.0, 0.0))
        where = {cell: (row, col) for cell, row, col in shape.cells}
        holes = {(r, c) for r in range(shape.rows) for c in range(shape.cols)} - set(where.values())
        corners: list[Sticker | None] = [
            sticker(_find(c), 90.0 * _stable(c, layout.seed).randrange(4))
            for c in shape.corners]
        board = Board(shape.rows, shape.cols, look.cell_mm, (x, y), angle, corners,
                      holes=holes, style=look.style, colours=look.colours,
                      margin_mm=max(60.0, _corner_reach_mm(shape)),
                      seed=_stable(name, layout.seed).randrange(1000))
        for cell, component in cells.items():
            if cell in (held or {}).get(name, set()):
                continue
            row, col = where[cell]
            place = _stable(component.id, cell, layout.seed)
            owner = 0 if "LIGHT" in component.id or "/A/" in component.id else \
                1 if "DARK" in component.id or "/B/" in component.id else \
                2 if "/C/" in component.id else 3 if "/D/" in component.id else 0
            slack = (look.cell_mm - look.piece_width_mm) / 2 * 0.9
            board.pieces.append(Piece(
                row, col, sticker(component, place.uniform(0, 360) if not look.square
                                  else angle + place.choice((0, 90, 180, 270))
                                  + place.uniform(-6, 6)),
                height_mm=shape.height_mm, width_mm=look.piece_width_mm,
                colour=look.owner_colours[owner % len(look.owner_colours)], square=look.square,
                offset_mm=(place.uniform(-slack, slack), place.uniform(-slack, slack))))
        boards.append(board)
    return TableScene(view, boards, hands=list(hands or []), light=light, seed=seed,
                      table_seed=layout.seed)


def in_view(view: View, rules: GameRules, layout: Layout, names: list[str],
            margin_px: float = 8.0) -> bool:
    """Whether every board ``names`` lies wholly in the camera's view, corner stickers and all."""
    look = LOOKS[rules.info.slug]
    shapes = {s.name: s for s in rules.physical_boards()}
    homography = view.plane(0.0)
    width, height = view.size
    for name in names:
        shape = shapes[name]
        x, y, angle = layout.at.get(name, (0.0, 0.0, 0.0))
        half_w = shape.cols * look.cell_mm / 2 + _corner_reach_mm(shape)
        half_h = shape.rows * look.cell_mm / 2 + _corner_reach_mm(shape)
        turn = math.radians(angle)
        for u, v in ((-half_w, -half_h), (half_w, -half_h), (half_w, half_h), (-half_w, half_h)):
            point = np.array([x + u * math.cos(turn) - v * math.sin(turn),
                              y + u * math.sin(turn) + v * math.cos(turn), 1.0])
            px = homography @ point
            if px[2] <= 0:
                return False
            px_x, px_y = px[0] / px[2], px[1] / px[2]
            if not (margin_px <= px_x <= width - margin_px
                    and margin_px <= px_y <= height - margin_px):
                return False
    return True


def fitting_view(rules: GameRules, layout: Layout, names: list[str], rng: random.Random,
                 size: tuple[int, int], distance: tuple[float, float],
                 tilt: tuple[float, float] = (0.0, 35.0)) -> View:
    """A camera that sees the boards whole: angles drawn at random, then the nearest distance
    in range at which they fit (turned less if none does)."""
    for attempt in range(40):
        spread = 1.0 - attempt / 40
        hfov = rng.uniform(58, 72)
        tilt_deg = rng.uniform(tilt[0], tilt[0] + (tilt[1] - tilt[0]) * spread)
        yaw = rng.uniform(-20, 20) * spread
        low = rng.uniform(*distance)
        for step in range(12):
            far = low + (distance[1] - low) * step / 11
            view = View(size, hfov, far, tilt_deg, yaw)
            if in_view(view, rules, layout, names):
                return view
    return View(size, 65.0, distance[1], 0.0, 0.0)


def hand_over(rules: GameRules, layout: Layout, shape_name: str, cell: str, rng: random.Random,
              reach_deg: float = -90.0) -> Hand:
    """A hand above a cell of a board, its arm from ``reach_deg``."""
    look = LOOKS[rules.info.slug]
    shape = next(s for s in rules.physical_boards() if s.name == shape_name)
    row, col = next((r, c) for n, r, c in shape.cells if n == cell)
    x, y, angle = layout.at.get(shape_name, (0.0, 0.0, 0.0))
    u = (col + 0.5 - shape.cols / 2) * look.cell_mm
    v = (shape.rows / 2 - row - 0.5) * look.cell_mm
    turn = math.radians(angle)
    return Hand(x + u * math.cos(turn) - v * math.sin(turn) + rng.uniform(-10, 10),
                y + u * math.sin(turn) + v * math.cos(turn) + rng.uniform(-10, 10),
                rng.uniform(50, 110), reach_deg + rng.uniform(-25, 25), rng.uniform(0.9, 1.15),
                rng.choice([(120, 150, 200), (90, 120, 170), (60, 85, 130), (150, 175, 215)]))


def frame_of(scene: TableScene) -> np.ndarray:
    return render(scene)
