"""Boards in a picture: placed by their four corner stickers, their cells read from the markers
on the pieces and tiles standing on them. Pure functions over one image; the camera loop's
memory of boards across frames is board_watch.py.

Placing a board: each corner sticker's QR code gives the sticker's square; the sticker's
corner nearest the board lies on the grid's corner (engine/boards.py), so the four give the
homography from grid units (columns, rows) to pixels on the board's surface. A marker on a
piece lies ``height_mm`` above it and a camera at an angle sees it displaced towards the far
side: the camera's focal length is estimated from the same homography (the principal point at
the image's centre), the board's scale in mm from the corner stickers' printed size, and the
plane of the stickers gets a homography of its own. A board whose corners are seen mirrored
(upside down), out of order, or only some of them, is not placed: what is wrong is said. A
photo (no later frame to wait for) may place a board from three corners: the three stickers'
twelve corners, each sticker's square lying along the board's edges, give the homography, and
any cell not wholly in the picture is unread.

Reading cells: the stickers' plane is resampled to about 5 pixels per marker cell (small
stickers read better upscaled, bench_codes.py) and searched for markers. A marker sits on the
cell its centre falls in, unless that centre is within a tenth of a cell of a border (then
neither cell is read: never a piece on the wrong cell), or the marker is not the size a
sticker on a piece is there (a tile held up in a hand). A cell with no marker is empty unless
a marker-like square there did not read: then it is unread, and the stickers get a second,
sharper look (a blurred frame), which may read a marker the first did not, then a search: each
cell still unread or empty is looked at for a sticker by its shape, read by likeness
(markers.find_blurred), as motion blur smears a small marker past the square detector.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import cast

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.engine import (
    CORNER_CODE_SHARE,
    MARKER_CELLS,
    BoardShape,
    Component,
)
from companion.engine.components import REGISTRY
from companion.vision.images import Image, to_gray
from companion.vision.markers import STICKER_CELLS, find_blurred, scan_markers
from companion.vision.qr import CodeReading, Point

Matrix = NDArray[np.float64]
PX_PER_MARKER_CELL = 5.0
SHARPEN = 1.5  # unsharp mask on the resampled stickers, of a blur of 0.6 marker cell: a soft
SHARPEN_CELLS = 0.6  # focus or a little blur reads (bench_boards positions: 0.73 -> 0.94)
SHARPER = 3.0  # a second look where a marker-like square did not read: motion blur (0.60 ->
# 0.69 of the 20 mm markers in blurred frames of a 10x10 board, development seeds)
# A blurred sticker is looked for in its cell and this far (in cells) past its sides: the
# template finding it must fit inside, so with 20 mm stickers on 40 mm cells a sticker's
# centre up to 0.37 cell off the cell's middle is found (wider windows read fewer: development
# seeds 6000, the whole cell 0.971 against 0.979; the detector reads sharp ones to 0.4 off).
SEARCH_REACH = 0.25
EDGE = 0.1  # a marker centre this close to a cell's border (in cells) is on no cell
SIZE_TOLERANCE = 0.35  # a marker more than this far from a sticker's expected size is not one
DEFAULT_FOCAL = 0.78  # focal length / image width of a 65-degree webcam, when not estimable


def payload_id(text: str) -> str:
    """A payload's component id (the payload without GC1/)."""
    return text.split("/", 1)[1] if text.startswith("GC1/") else text


@dataclass(frozen=True)
class Placed:
    """A board placed in an image."""

    shape: BoardShape
    corners: tuple[Point, Point, Point, Point]  # the grid's corners in the image, TL first
    floor: Matrix  # grid units (column, row) on the board's surface -> pixels
    top: Matrix  # grid units on the plane of its pieces' stickers -> pixels
    cell_mm: float

    @property
    def px_per_cell(self) -> float:
        """The resampling for reading its markers: about 5 pixels per marker cell."""
        sticker_cells = self.shape.sticker_mm / self.cell_mm
        return PX_PER_MARKER_CELL * STICKER_CELLS / max(sticker_cells, 0.05)

    def cells(self) -> dict[str, tuple[int, int]]:
        return {name: (row, col) for name, row, col in self.shape.cells}


@dataclass
class BoardRead:
    """The cells of one board read in an image: a component id, "" (empty) or None (could
    not be read), and markers lying on the board but on no cell of it."""

    cells: dict[str, str | None] = field(default_factory=dict)
    strays: list[str] = field(default_factory=list)


def corner_owners(shapes: Sequence[BoardShape]) -> dict[str, tuple[BoardShape, int]]:
    """Each corner sticker's component id -> its board and which corner it is."""
    return {corner: (shape, index) for shape in shapes for index, corner in
            enumerate(shape.corners)}


def _sticker_corner(code: CodeReading, towards: Point) -> Point:
    """The corner of the code's sticker nearest ``towards`` (the board's middle)."""
    cx, cy = code.centre
    grown = [(cx + (x - cx) / CORNER_CODE_SHARE, cy + (y - cy) / CORNER_CODE_SHARE)
             for x, y in code.corners]
    return min(grown, key=lambda p: math.hypot(p[0] - towards[0], p[1] - towards[1]))


def _signed_area(points: Sequence[Point]) -> float:
    n = len(points)
    return 0.5 * sum(points[i][0] * points[(i + 1) % n][1] - points[(i + 1) % n][0] * points[i][1]
                     for i in range(n))


def place_boards(codes: Sequence[CodeReading], shapes: Sequence[BoardShape],
                 size: tuple[int, int], fewest_corners: int = 4
                 ) -> tuple[list[Placed], list[str]]:
    """The boards of ``shapes`` whose corners were read among ``codes`` (an image of ``size``
    width, height), four or at least ``fewest_corners`` (3 for a photo), and, in words, what
    keeps any other from being placed."""
    owners = corner_owners(shapes)
    found: dict[str, list[CodeReading | None]] = {}
    problems: list[str] = []
    seen_twice: set[str] = set()
    for code in codes:
        owner = owners.get(payload_id(code.text))
        if owner is None:
            continue
        shape, index = owner
        slots: list[CodeReading | None] = found.setdefault(shape.name, [None] * 4)
        if slots[index] is not None:
            seen_twice.add(shape.name)
        slots[index] = code
    placed = []
    for shape in shapes:
        kept = found.get(shape.name)
        if kept is None:
            continue
        slots = kept
        if shape.name in seen_twice:
            problems.append(f"two boards carry the corner stickers of {shape.title}")
            continue
        have = [c for c in slots if c is not None]
        if len(have) < max(3, min(4, fewest_corners)):
            problems.append(f"only {len(have)} of the 4 corners of {shape.title} were read:"
                            " the whole board must be in view")
            continue
        middle = (sum(c.centre[0] for c in have) / len(have),
                  sum(c.centre[1] for c in have) / len(have))
        grid = [_sticker_corner(c, middle) for c in have]
        area = _signed_area(grid)
        if area < 0:
            problems.append(f"{shape.title} is seen mirrored (upside down): is the camera set"
                            " to mirror its picture?")
            continue
        hull = np.array(grid, np.float32).reshape(-1, 1, 2)
        if area < (400 if len(have) == 4 else 200) or not cv2.isContourConvex(hull):
            problems.append(f"the corner stickers of {shape.title} are not at its corners in"
                            " order (top-left, top-right, bottom-right, bottom-left)")
            continue
        if len(have) == 4:
            floor = cast(Matrix, cv2.getPerspectiveTransform(_units(shape),
                                                             np.array(grid, np.float32)))
        else:
            floor = _from_three(shape, have, [i for i, c in enumerate(slots) if c is not None],
                                grid)
        placed.append(_placed(shape, have, floor, size))
    return placed, problems


def _units(shape: BoardShape) -> NDArray[np.float32]:
    """The grid's corners in grid units (column, row), in CORNERS order."""
    return np.array([[0, 0], [shape.cols, 0], [shape.cols, shape.rows], [0, shape.rows]],
                    np.float32)


def _grown(code: CodeReading) -> NDArray[np.float64]:
    """A corner sticker's four corners in the image (its code's, grown to the sticker's)."""
    cx, cy = code.centre
    return np.array([[cx + (x - cx) / CORNER_CODE_SHARE, cy + (y - cy) / CORNER_CODE_SHARE]
                     for x, y in code.corners], np.float64)


def _from_three(shape: BoardShape, codes: list[CodeReading], which: list[int],
                grid: list[Point]) -> Matrix:
    """The board's homography from three corner stickers: an affine guess from the grid's
    three corners, then, twice, each sticker's four corners matched to its square (its side in
    grid units measured through the guess, laid outwards along the board's edges) and the
    homography of all twelve."""
    units = _units(shape)
    floor = np.vstack([cv2.getAffineTransform(units[which], np.array(grid, np.float32)),
                       [0, 0, 1]])
    for _ in range(2):
        back = np.linalg.inv(floor)
        seen = [(_grown(code), cv2.perspectiveTransform(_grown(code).reshape(-1, 1, 2),
                                                         back).reshape(-1, 2), index)
                for code, index in zip(codes, which, strict=True)]
        side = float(np.median([np.mean([np.linalg.norm(u[k] - u[(k + 1) % 4])
                                         for k in range(4)]) for _, u, _ in seen]))
        source, target = [], []
        for pixels, in_units, index in seen:
            gx, gy = units[index]
            out_x, out_y = (-side if gx == 0 else side), (-side if gy == 0 else side)
            square = [(gx + dx * out_x, gy + dy * out_y) for dx in (0, 1) for dy in (0, 1)]
            for point, pixel in zip(in_units, pixels, strict=True):
                source.append(min(square, key=lambda q: math.dist(q, point)))
                target.append(pixel)
        floor, _ = cv2.findHomography(np.array(source, np.float32),
                                      np.array(target, np.float32), 0)
    return cast(Matrix, floor.astype(np.float64))


def _placed(shape: BoardShape, codes: list[CodeReading], floor: Matrix,
            size: tuple[int, int]) -> Placed:
    """A board placed by ``floor`` (grid units to pixels), its corner stickers ``codes``."""
    floor = floor.astype(np.float64)
    cell_mm = _cell_mm(codes, floor)
    height = shape.height_mm / cell_mm if cell_mm > 0 else 0.0
    top = raised(floor, height, size) if height else floor
    grid = cv2.perspectiveTransform(_units(shape).reshape(-1, 1, 2).astype(np.float64),
                                    floor).reshape(-1, 2)
    corners = cast(tuple[Point, Point, Point, Point],
                   tuple((float(x), float(y)) for x, y in grid))
    return Placed(shape, corners, floor, top, cell_mm)


def _cell_mm(codes: list[CodeReading], floor: Matrix) -> float:
    """The board's cell in mm: the corner stickers' printed side over their side in cells."""
    back = np.linalg.inv(floor)
    ratios = []
    for code in codes:
        component: Component | None = REGISTRY.find(payload_id(code.text))
        if component is None or component.size_mm is None:
            continue
        units = cv2.perspectiveTransform(_grown(code).reshape(-1, 1, 2), back).reshape(-1, 2)
        side = float(np.mean([np.linalg.norm(units[i] - units[(i + 1) % 4]) for i in range(4)]))
        if side > 0:
            ratios.append(component.size_mm / side)
    return float(np.median(ratios)) if ratios else 0.0


def focal_length(floor: Matrix, size: tuple[int, int]) -> float:
    """The camera's focal length (in image widths) from a plane's homography, with square
    pixels and the principal point at the image's centre; a typical webcam's when the view is
    too square-on to tell."""
    width, height = size
    norm = np.array([[1 / width, 0, -0.5], [0, 1 / width, -height / (2 * width)], [0, 0, 1]])
    h = norm @ floor
    h1, h2 = h[:, 0], h[:, 1]
    a = np.array([h1[0] * h2[0] + h1[1] * h2[1],
                  (h1[0] ** 2 + h1[1] ** 2) - (h2[0] ** 2 + h2[1] ** 2)])
    b = np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
    if not a @ a:
        return DEFAULT_FOCAL
    inverse_square = -float(a @ b) / float(a @ a)  # least squares for 1 / f^2
    if inverse_square <= 0:
        return DEFAULT_FOCAL
    focal = 1 / math.sqrt(inverse_square)
    return focal if 0.35 <= focal <= 2.0 else DEFAULT_FOCAL


def raised(floor: Matrix, height: float, size: tuple[int, int]) -> Matrix:
    """The homography of the plane ``height`` (in grid units) above the one ``floor`` maps."""
    width, image_height = size
    focal = focal_length(floor, size)
    k = np.array([[focal * width, 0, width / 2], [0, focal * width, image_height / 2], [0, 0, 1]])
    m = np.linalg.inv(k) @ floor
    scale = (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1])) / 2
    r1, r2, t = m[:, 0] / scale, m[:, 1] / scale, m[:, 2] / scale
    if t[2] < 0:
        r1, r2, t = -r1, -r2, -t
    normal = np.cross(r1, r2)
    normal /= np.linalg.norm(normal)
    if normal @ -t < 0:  # the side of the board the camera is on
        normal = -normal
    return cast(Matrix, k @ np.column_stack([r1, r2, t + height * normal]))


def resample(gray: Image, plane: Matrix, box: tuple[float, float, float, float],
             px_per_cell: float) -> tuple[Image, Matrix]:
    """The part ``box`` (columns and rows: u0, v0, u1, v1) of a plane, ``px_per_cell``
    pixels to a cell, and the map from its pixels back to grid units."""
    u0, v0, u1, v1 = box
    width = max(1, int(round((u1 - u0) * px_per_cell)))
    height = max(1, int(round((v1 - v0) * px_per_cell)))
    to_units = np.array([[1 / px_per_cell, 0, u0], [0, 1 / px_per_cell, v0], [0, 0, 1]])
    patch = cv2.warpPerspective(gray, plane @ to_units, (width, height),
                                flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return cast(Image, patch), cast(Matrix, to_units)


@cache
def _window(px_per_module: float) -> int:
    return int(px_per_module * 3) | 1


def _cells_near(quad: Sequence[Point], to_units: Matrix,
                at: dict[tuple[int, int], str]) -> set[str]:
    pts = np.array(quad, np.float64).reshape(-1, 1, 2)
    u, v = cv2.perspectiveTransform(pts.mean(axis=0, keepdims=True), to_units)[0, 0]
    return {name for du in (-EDGE, 0, EDGE) for dv in (-EDGE, 0, EDGE)
            if (name := at.get((math.floor(v + dv), math.floor(u + du)))) is not None}


def read_cells(image: Image, placed: Placed, names: Iterable[str] | None = None,
               search: Collection[str] | None = None) -> BoardRead:
    """The cells ``names`` of a placed board (None: all of them), read in ``image``. Those of
    ``search`` (None: all of them) that the looks leave unread or empty are searched for a
    blurred sticker by its shape."""
    layout = placed.cells()
    wanted = list(layout) if names is None else [n for n in names if n in layout]
    if not wanted:
        return BoardRead()
    rows = [layout[n][0] for n in wanted]
    cols = [layout[n][1] for n in wanted]
    margin = 0.5  # a piece stands off its cell's centre; its sticker reaches past the cell
    box = (min(cols) - margin, min(rows) - margin, max(cols) + 1 + margin, max(rows) + 1 + margin)
    scale = placed.px_per_cell
    patch, to_units = resample(to_gray(image), placed.top, box, scale)
    soft = cv2.GaussianBlur(patch, (0, 0), SHARPEN_CELLS * PX_PER_MARKER_CELL)
    window = _window(scale * placed.shape.sticker_mm / placed.cell_mm / STICKER_CELLS)
    at = {(r, c): n for n, (r, c) in layout.items()}
    expected = placed.shape.sticker_mm / placed.cell_mm * scale * MARKER_CELLS / STICKER_CELLS

    def where(quad: Sequence[Point]) -> tuple[str | None, bool, float]:
        """The cell under a square's centre, whether that is clear of the borders, its size
        (in expected sides)."""
        pts = np.array(quad, np.float64).reshape(-1, 1, 2)
        centre = cv2.perspectiveTransform(pts.mean(axis=0, keepdims=True), to_units)[0, 0]
        u, v = float(centre[0]), float(centre[1])
        side = float(np.mean([np.linalg.norm(np.subtract(quad[i], quad[(i + 1) % 4]))
                              for i in range(4)]))
        clear = min(u - math.floor(u), math.ceil(u) - u, v - math.floor(v),
                    math.ceil(v) - v) >= EDGE
        return at.get((math.floor(v), math.floor(u))), clear, side / expected

    def look(sharpen: float) -> _Look:
        """The cells read in the patch sharpened by ``sharpen``."""
        seen = _Look(BoardRead({name: "" for name in wanted}))
        scan = scan_markers(cast(Image, cv2.addWeighted(patch, 1 + sharpen, soft, -sharpen, 0)),
                            window)
        for code in scan.codes:
            seen.ids.add(payload_id(code.text))
            cell, clear, size = where(code.corners)
            if abs(size - 1) > SIZE_TOLERANCE:
                continue  # not a sticker on a piece of this board (held up, or lying elsewhere)
            if not clear:  # on a border: neither cell it may stand on is read
                for near in _cells_near(code.corners, to_units, at):
                    if near in seen.read.cells:
                        seen.read.cells[near] = None
                        seen.refused.add(near)
            elif cell is None:
                seen.read.strays.append(payload_id(code.text))
            elif cell in seen.read.cells:
                if seen.read.cells[cell]:  # two markers on one cell
                    seen.refused.add(cell)
                seen.read.cells[cell] = None if seen.read.cells[cell] else payload_id(code.text)
        for quad in scan.unread:
            cell, _, size = where(quad)
            if cell in seen.read.cells and seen.read.cells[cell] == "" \
                    and abs(size - 1) <= SIZE_TOLERANCE:
                seen.read.cells[cell] = None
        return seen

    first = look(SHARPEN)
    out, ids, refused = first.read, first.ids, first.refused
    if None in out.cells.values():  # a marker-like square did not read: a blurred frame?
        second = look(SHARPER)
        for name, cid in second.read.cells.items():
            if cid and not out.cells[name] and name not in refused and cid not in ids:
                out.cells[name] = cid  # read only when sharpened more: never one read twice
        ids |= second.ids
    outside = set(_outside(placed, wanted, image.shape[1], image.shape[0]))
    reach = int(scale * SEARCH_REACH)
    numbers = _game_markers(placed.shape)
    for name in wanted:
        if out.cells[name] or name in refused or name in outside \
                or (search is not None and name not in search):
            continue
        row, col = layout[name]
        x0, y0 = int((col - box[0]) * scale) - reach, int((row - box[1]) * scale) - reach
        size = int(scale) + 2 * reach
        code = find_blurred(patch, (x0, y0, x0 + size, y0 + size), expected, numbers)
        if code is None or payload_id(code.text) in ids:
            continue
        cell, clear, fits = where(code.corners)
        if cell == name and clear and abs(fits - 1) <= SIZE_TOLERANCE:
            out.cells[name] = payload_id(code.text)
            ids.add(payload_id(code.text))
    for name in outside:
        out.cells[name] = None  # not seen is not empty
    return out


@dataclass
class _Look:
    """One look at a board's stickers: the cells read, every marker it read wherever it lay,
    and the cells it left unread on purpose (a marker on a border, two on one cell)."""

    read: BoardRead
    ids: set[str] = field(default_factory=set)
    refused: set[str] = field(default_factory=set)


def _game_markers(shape: BoardShape) -> tuple[int, ...]:
    """The markers of the game whose corner stickers the board carries: no other game's piece
    stands on it (one that does is read by the detector alone, and shown as foreign)."""
    component = REGISTRY.find(shape.corners[0])
    return REGISTRY.marker_numbers(component.game) if component is not None else ()


def _outside(placed: Placed, names: list[str], width: int, height: int) -> list[str]:
    """The cells ``names`` of a placed board not wholly in a ``width`` x ``height`` picture,
    on the board or on its pieces' stickers' plane."""
    layout = placed.cells()
    squares = np.array([[(col + dc, row + dr) for dc, dr in ((0, 0), (1, 0), (1, 1), (0, 1))]
                        for row, col in (layout[n] for n in names)], np.float64)
    outside = np.zeros(len(names), bool)
    for plane in (placed.floor, placed.top):
        pixels = cv2.perspectiveTransform(squares.reshape(-1, 1, 2), plane).reshape(-1, 4, 2)
        outside |= ((pixels < 0) | (pixels > (width - 1, height - 1))).any(axis=(1, 2))
    return [name for name, out in zip(names, outside, strict=True) if out]
