"""Render camera frames of boards on a table: corner stickers, pieces and tiles carrying their
stickers, seen by a pinhole camera from any height and angle, with light, glare, blur, noise,
JPEG and hands. For fixtures, tests and benchmarks (no camera is at hand where this project is
built; recorded frames from a real table are welcome beside them).

Geometry is real 3D: the table is the plane z = 0 (millimetres, x east, y north, z up); a
piece's top lies ``height_mm`` above its board, so a camera at an angle sees it shifted
towards the far side, as a real one does. A board's cells are drawn with row 0 at its north
edge when ``angle_deg`` is 0. Every sticker is drawn from the bitmap that is printed
(``companion.stickers.printed_modules``), at its printed size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
Matrix = NDArray[np.float64]
SUPERSAMPLE = 2  # drawn at twice the size, then shrunk: edges come out anti-aliased


@dataclass(frozen=True)
class View:
    """The camera: ``distance_mm`` from the point it looks at, ``tilt_deg`` from straight down
    (leaning back towards the south edge of the table), ``yaw_deg`` turned about the vertical."""

    size: tuple[int, int] = (1280, 720)
    hfov_deg: float = 65.0
    distance_mm: float = 750.0
    tilt_deg: float = 0.0
    yaw_deg: float = 0.0
    look_at: tuple[float, float] = (0.0, 0.0)

    def matrices(self, scale: float = 1.0) -> tuple[Matrix, Matrix, Matrix]:
        """K (intrinsics), R (world to camera) and C (the camera's position)."""
        width, height = self.size[0] * scale, self.size[1] * scale
        focal = (width / 2) / math.tan(math.radians(self.hfov_deg) / 2)
        k = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]])
        tilt, yaw = math.radians(self.tilt_deg), math.radians(self.yaw_deg)
        back = np.array([math.sin(yaw) * math.sin(tilt), -math.cos(yaw) * math.sin(tilt),
                         math.cos(tilt)])
        target = np.array([self.look_at[0], self.look_at[1], 0.0])
        centre = target + self.distance_mm * back
        forward = -back
        north = np.array([-math.sin(yaw), math.cos(yaw), 0.0])
        down = -north - np.dot(-north, forward) * forward
        down /= np.linalg.norm(down)
        right = np.cross(down, forward)
        return k, np.stack([right, down, forward]), centre

    def plane(self, z: float, scale: float = 1.0) -> Matrix:
        """The homography from the plane at height ``z`` (x, y in mm) to pixels."""
        k, r, c = self.matrices(scale)
        return k @ np.column_stack([r[:, 0], r[:, 1], r[:, 2] * z - r @ c])


@dataclass
class Sticker:
    """A printed sticker: its modules (1 dark, quiet zone included) and its side in mm."""

    modules: NDArray[np.uint8]
    size_mm: float
    spin_deg: float = 0.0  # as it was stuck on


@dataclass
class Piece:
    """Something standing on a cell: a round piece (``square`` False) or a flat tile."""

    row: int
    col: int
    sticker: Sticker | None
    height_mm: float = 20.0
    width_mm: float = 30.0
    colour: tuple[int, int, int] = (60, 90, 150)
    square: bool = False
    offset_mm: tuple[float, float] = (0.0, 0.0)  # off the cell's centre
    label: str = ""  # what the truth calls it (a payload)


@dataclass
class Board:
    rows: int
    cols: int
    cell_mm: float
    centre: tuple[float, float] = (0.0, 0.0)
    angle_deg: float = 0.0
    corners: list[Sticker | None] = field(default_factory=list)  # top-left, clockwise
    corner_labels: list[str] = field(default_factory=list)
    holes: set[tuple[int, int]] = field(default_factory=set)  # (row, col) of no cell
    style: str = "checker"  # checker, plain, art
    colours: tuple[tuple[int, int, int], tuple[int, int, int]] = ((190, 205, 215),
                                                                 (110, 140, 160))
    margin_mm: float = 60.0
    pieces: list[Piece] = field(default_factory=list)
    seed: int = 0

    def to_world(self) -> Matrix:
        """Board millimetres (u east along the columns, v south along the rows, from the
        grid's top-left corner) to table millimetres."""
        angle = math.radians(self.angle_deg)
        cos, sin = math.cos(angle), math.sin(angle)
        width, height = self.cols * self.cell_mm, self.rows * self.cell_mm
        shift = np.array([[1, 0, -width / 2], [0, -1, height / 2], [0, 0, 1]])
        turn = np.array([[cos, -sin, self.centre[0]], [sin, cos, self.centre[1]], [0, 0, 1]])
        return turn @ shift


@dataclass
class Hand:
    """A hand (and its arm, reaching in from ``reach_deg``) held ``height_mm`` above the table."""

    x: float
    y: float
    height_mm: float = 80.0
    reach_deg: float = -90.0  # the arm comes from this direction (-90: the south edge)
    size: float = 1.0
    tone: tuple[int, int, int] = (120, 150, 200)


@dataclass
class Light:
    brightness: float = 1.0
    uneven: float = 0.0  # 0 to 1: one side darker
    glare: list[tuple[float, float]] = field(default_factory=list)  # table mm of glare spots
    glare_strength: float = 200.0
    blur_px: float = 0.0  # defocus (Gaussian sigma)
    motion_px: float = 0.0  # motion blur length
    motion_deg: float = 0.0
    noise: float = 2.0
    jpeg_quality: int = 85


@dataclass
class TableScene:
    view: View = field(default_factory=View)
    boards: list[Board] = field(default_factory=list)
    loose: list[tuple[float, float, float, Sticker]] = field(default_factory=list)  # x, y, z
    hands: list[Hand] = field(default_factory=list)
    light: Light = field(default_factory=Light)
    seed: int = 0  # this frame's noise
    table_seed: int = 0  # the table's texture (the same in every frame of a scene)


# --- textures ------------------------------------------------------------------------------

@lru_cache(maxsize=8)
def _table_texture(seed: int, px_per_mm: float = 1.0, extent_mm: int = 2400) -> Image:
    rng = np.random.default_rng(seed)
    size = int(extent_mm * px_per_mm)
    base = np.array(rng.integers(60, 170, 3), dtype=np.float32)
    grain = cv2.GaussianBlur(rng.normal(0, 16, (size, size)).astype(np.float32), (0, 0), 2)
    streaks = cv2.resize(rng.normal(0, 12, (4, size // 10)).astype(np.float32), (size, size))
    return np.clip(base + (grain + streaks)[:, :, None], 0, 255).astype(np.uint8)


def _sticker_image(sticker: Sticker, px_per_mm: float) -> NDArray[np.float32]:
    """The sticker's grey levels at ``px_per_mm`` (a print: black is not quite black)."""
    side = max(8, int(round(sticker.size_mm * px_per_mm)))
    modules = (1 - sticker.modules.astype(np.float32)) * 235 + 12
    return cv2.resize(modules, (side, side), interpolation=cv2.INTER_NEAREST)


def _sticker_source(sticker: Sticker, px_per_mm: float) -> tuple[Image, NDArray[np.uint8]]:
    grey = _sticker_image(sticker, px_per_mm).astype(np.uint8)
    return np.repeat(grey[:, :, None], 3, axis=2), np.full(grey.shape, 255, np.uint8)


def _sticker_placement(sticker: Sticker, x: float, y: float, px_per_mm: float,
                       flip_y: bool = False) -> Matrix:
    """Sticker pixels to plane mm: centred on (x, y), turned by its spin."""
    half = sticker.size_mm / 2
    spin = math.radians(sticker.spin_deg)
    cos, sin = math.cos(spin), math.sin(spin)
    to_mm = np.array([[1 / px_per_mm, 0, -half], [0, 1 / px_per_mm, -half], [0, 0, 1]])
    turn = np.array([[cos, -sin, 0], [sin, cos, 0], [0, 0, 1]])
    flip = np.diag([1.0, -1.0 if flip_y else 1.0, 1.0])
    return np.array([[1, 0, x], [0, 1, y], [0, 0, 1]]) @ flip @ turn @ to_mm


def _paste(target: NDArray[np.float32], patch: NDArray[np.float32], x: int, y: int) -> None:
    """Grey ``patch`` (-1: transparent) onto an RGB float image at (x, y)."""
    h, w = patch.shape
    region = target[y:y + h, x:x + w]
    inside = patch[:region.shape[0], :region.shape[1]] >= 0
    region[inside] = patch[:region.shape[0], :region.shape[1]][inside][:, None]


def _board_texture(board: Board, px_per_mm: float) -> tuple[Image, Matrix]:
    """The board's top, with its corner stickers, and the map from board mm to its pixels."""
    rng = np.random.default_rng(board.seed)
    margin = board.margin_mm
    width = board.cols * board.cell_mm + 2 * margin
    height = board.rows * board.cell_mm + 2 * margin
    w, h = int(width * px_per_mm), int(height * px_per_mm)
    light, dark = (np.array(c, np.float32) for c in board.colours)
    edge = np.array(rng.integers(40, 120, 3), np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = edge
    cell = board.cell_mm * px_per_mm
    origin = margin * px_per_mm
    art = None
    if board.style == "art":
        noise = rng.normal(0, 1, (max(2, board.rows * 3), max(2, board.cols * 3), 3))
        art = cv2.resize(noise.astype(np.float32), (int(board.cols * cell), int(board.rows * cell)),
                         interpolation=cv2.INTER_CUBIC) * 35 + dark
    for r in range(board.rows):
        for c in range(board.cols):
            x0, y0 = int(origin + c * cell), int(origin + r * cell)
            x1, y1 = int(origin + (c + 1) * cell), int(origin + (r + 1) * cell)
            if (r, c) in board.holes:
                colour = edge * 0.6 if art is None else None
            elif board.style == "checker":
                colour = light if (r + c) % 2 == 0 else dark
            else:
                colour = light
            if colour is None and art is not None:
                img[y0:y1, x0:x1] = art[int(r * cell):int(r * cell) + y1 - y0,
                                        int(c * cell):int(c * cell) + x1 - x0]
            else:
                img[y0:y1, x0:x1] = colour
            if (r, c) not in board.holes:
                cv2.rectangle(img, (x0, y0), (x1 - 1, y1 - 1), (50, 50, 50),
                              max(1, int(px_per_mm * 0.6)))
    # Corner stickers: each outside its corner of the grid, its inner corner on the grid's.
    grid = [(0.0, 0.0), (board.cols * board.cell_mm, 0.0),
            (board.cols * board.cell_mm, board.rows * board.cell_mm),
            (0.0, board.rows * board.cell_mm)]
    outward = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    for sticker, (gx, gy), (ox, oy) in zip(board.corners, grid, outward, strict=False):
        if sticker is None:
            continue
        patch = np.rot90(_sticker_image(sticker, px_per_mm), int(sticker.spin_deg // 90) % 4)
        side = patch.shape[0]
        cx = (margin + gx) * px_per_mm + ox * side / 2
        cy = (margin + gy) * px_per_mm + oy * side / 2
        _paste(img, patch, int(round(cx - side / 2)), int(round(cy - side / 2)))
    to_pixels = np.array([[px_per_mm, 0, margin * px_per_mm], [0, px_per_mm, margin * px_per_mm],
                          [0, 0, 1]])
    return np.clip(img, 0, 255).astype(np.uint8), to_pixels


# --- drawing ---------------------------------------------------------------------------------

def _warp_onto(canvas: NDArray[np.float32], source: Image, homography: Matrix,
               mask: NDArray[np.uint8] | None = None) -> None:
    """``source`` through ``homography`` onto ``canvas``, only where it lands (or ``mask``)."""
    h, w = canvas.shape[:2]
    corners = np.float32([[0, 0], [source.shape[1], 0], [source.shape[1], source.shape[0]],
                          [0, source.shape[0]]]).reshape(-1, 1, 2)
    projected = cv2.perspectiveTransform(corners, homography).reshape(-1, 2)
    x0, y0 = np.floor(projected.min(axis=0)).astype(int)
    x1, y1 = np.ceil(projected.max(axis=0)).astype(int)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(source, shift @ homography, size, flags=cv2.INTER_LINEAR)
    alpha = mask if mask is not None else np.full(source.shape[:2], 255, np.uint8)
    inside = cv2.warpPerspective(alpha, shift @ homography, size, flags=cv2.INTER_LINEAR) > 127
    region = canvas[y0:y1, x0:x1]
    region[inside] = warped[inside]


def _polygon(view: View, scale: float, points: NDArray[np.float64], z: float) -> NDArray[np.int32]:
    h = view.plane(z, scale)
    pts = cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), h)
    return np.round(pts.reshape(-1, 2)).astype(np.int32)


def _piece_outline(piece: Piece, centre: NDArray[np.float64], angle: float) -> NDArray[np.float64]:
    half = piece.width_mm / 2
    if piece.square:
        pts = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
        cos, sin = math.cos(angle), math.sin(angle)
        pts = pts @ np.array([[cos, sin], [-sin, cos]])
    else:
        t = np.linspace(0, 2 * math.pi, 36, endpoint=False)
        pts = np.column_stack([np.cos(t), np.sin(t)]) * half
    return pts + centre


def _draw_piece(canvas: NDArray[np.float32], view: View, scale: float, board: Board,
                piece: Piece, px_per_mm: float) -> None:
    u = (piece.col + 0.5) * board.cell_mm + piece.offset_mm[0]
    v = (piece.row + 0.5) * board.cell_mm + piece.offset_mm[1]
    world = board.to_world() @ np.array([u, v, 1.0])
    centre = world[:2]
    angle = math.radians(board.angle_deg)
    outline = _piece_outline(piece, centre, angle)
    colour = np.array(piece.colour, np.float32)
    bottom = _polygon(view, scale, outline, 0.0)
    top = _polygon(view, scale, outline, piece.height_mm)
    hull = cv2.convexHull(np.vstack([bottom, top]))
    cv2.fillConvexPoly(canvas, hull, (colour * 0.6).tolist(), lineType=cv2.LINE_AA)
    cv2.fillPoly(canvas, [top], colour.tolist(), lineType=cv2.LINE_AA)
    if piece.sticker is None:
        return
    source, mask = _sticker_source(piece.sticker, px_per_mm)
    homography = (view.plane(piece.height_mm, scale) @ board.to_world()
                  @ _sticker_placement(piece.sticker, u, v, px_per_mm))
    _warp_onto(canvas, source, homography, mask)


def _draw_hand(canvas: NDArray[np.float32], view: View, scale: float, hand: Hand,
               rng: np.random.Generator) -> None:
    reach = math.radians(hand.reach_deg)
    direction = np.array([math.cos(reach), math.sin(reach)])
    side = np.array([-direction[1], direction[0]])
    centre = np.array([hand.x, hand.y])
    s = hand.size
    palm = [centre + direction * 20 * s + side * 40 * s,
            centre - direction * 45 * s + side * 38 * s,
            centre - direction * 55 * s, centre - direction * 45 * s - side * 38 * s,
            centre + direction * 20 * s - side * 40 * s]
    arm = [centre + direction * 10 * s + side * 35 * s, centre + direction * 900 + side * 50 * s,
           centre + direction * 900 - side * 50 * s, centre + direction * 10 * s - side * 35 * s]
    tone = np.array(hand.tone, np.float32)
    shadow_shift = np.array([25.0, -35.0]) * hand.height_mm / 80
    parts = ((np.array(arm), hand.height_mm + 40, tone * 0.85),
             (np.array(palm), hand.height_mm, tone))
    mask = np.zeros(canvas.shape[:2], np.uint8)
    for points, _, _ in parts:
        cv2.fillPoly(mask, [_polygon(view, scale, points + shadow_shift, 0.0)], 255)
    canvas[mask > 0] *= 0.55
    for points, z, colour in parts:
        cv2.fillPoly(canvas, [_polygon(view, scale, points, z)], colour.tolist(),
                     lineType=cv2.LINE_AA)
    for finger in range(4):  # fingers towards the far side of the palm
        offset = side * (finger - 1.5) * 19 * s
        base = centre - direction * 50 * s + offset
        tip = base - direction * (55 + 10 * math.sin(finger)) * s
        pts = np.array([base + side * 8 * s, tip + side * 7 * s, tip - side * 7 * s,
                        base - side * 8 * s])
        cv2.fillPoly(canvas, [_polygon(view, scale, pts, hand.height_mm - 10)],
                     (tone * rng.uniform(0.9, 1.05)).tolist(), lineType=cv2.LINE_AA)


def motion_kernel(length: int, degrees: float) -> NDArray[np.float32]:
    """A straight smear ``length`` pixels long at ``degrees``, summing to 1 (motion blur)."""
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    turn = cv2.getRotationMatrix2D((length / 2 - .5, length / 2 - .5), degrees, 1)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    return kernel / max(float(kernel.sum()), 1e-6)


def render(scene: TableScene) -> Image:
    """One camera frame of ``scene`` (BGR, as decoded from its JPEG)."""
    view, light = scene.view, scene.light
    rng = np.random.default_rng(scene.seed)
    scale = SUPERSAMPLE
    width, height = view.size[0] * scale, view.size[1] * scale
    canvas = np.zeros((height, width, 3), np.float32)
    table = _table_texture(scene.table_seed % 4)
    extent = table.shape[0]
    table_to_mm = np.array([[1, 0, -extent / 2], [0, -1, extent / 2], [0, 0, 1]], np.float64)
    _warp_onto(canvas, table, view.plane(0.0, scale) @ table_to_mm)
    px_per_mm = 6.0
    for board in scene.boards:
        texture, to_pixels = _board_texture(board, px_per_mm)
        homography = view.plane(0.0, scale) @ board.to_world() @ np.linalg.inv(to_pixels)
        _warp_onto(canvas, texture, homography)
    _, _, camera = view.matrices()
    drawn = [(board, piece) for board in scene.boards for piece in board.pieces]
    # Far pieces first: a near piece hides what is behind it.
    drawn.sort(key=lambda bp: -float(np.linalg.norm(
        (bp[0].to_world() @ np.array([(bp[1].col + .5) * bp[0].cell_mm,
                                      (bp[1].row + .5) * bp[0].cell_mm, 1.0]))[:2]
        - camera[:2])))
    for board, piece in drawn:
        _draw_piece(canvas, view, scale, board, piece, px_per_mm)
    for x, y, z, sticker in scene.loose:
        source, mask = _sticker_source(sticker, px_per_mm)
        placement = _sticker_placement(sticker, x, y, px_per_mm, flip_y=True)
        _warp_onto(canvas, source, view.plane(z, scale) @ placement, mask)
    for hand in scene.hands:
        _draw_hand(canvas, view, scale, hand, rng)
    canvas *= light.brightness
    if light.uneven:
        ramp = np.linspace(1 - 0.6 * light.uneven, 1.0, width, dtype=np.float32)
        canvas *= ramp[None, :, None]
    for gx, gy in light.glare:  # a soft bright spot, where a lamp shines back off the table
        point = cv2.perspectiveTransform(np.float64([[[gx, gy]]]), view.plane(0.0, scale))[0, 0]
        sigma = width * 0.012
        reach = int(3 * sigma)
        x0, y0 = int(point[0]) - reach, int(point[1]) - reach
        ys, xs = np.mgrid[max(y0, 0):min(y0 + 2 * reach, height),
                          max(x0, 0):min(x0 + 2 * reach, width)]
        if ys.size:
            spot = np.exp(-((xs - point[0]) ** 2 + (ys - point[1]) ** 2) / (2 * sigma ** 2))
            canvas[ys[:, 0][:, None], xs[0][None, :]] += (spot * light.glare_strength)[:, :, None]
    if light.motion_px:
        length = max(3, int(round(light.motion_px * scale)))
        canvas = cv2.filter2D(canvas, -1, motion_kernel(length, light.motion_deg))
    if light.blur_px:
        canvas = cv2.GaussianBlur(canvas, (0, 0), light.blur_px * scale)
    frame = cv2.resize(canvas, view.size, interpolation=cv2.INTER_AREA)
    if light.noise:
        frame += rng.normal(0, light.noise, frame.shape).astype(np.float32)
    frame8 = np.clip(frame, 0, 255).astype(np.uint8)
    ok, encoded = cv2.imencode(".jpg", frame8, [cv2.IMWRITE_JPEG_QUALITY, light.jpeg_quality])
    assert ok
    return np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR), dtype=np.uint8)


def sticker_in_view(view: View, board: Board, piece: Piece) -> NDArray[np.float64]:
    """The four image corners of a piece's sticker (for truths and for hands)."""
    assert piece.sticker is not None
    u = (piece.col + 0.5) * board.cell_mm + piece.offset_mm[0]
    v = (piece.row + 0.5) * board.cell_mm + piece.offset_mm[1]
    half = piece.sticker.size_mm / 2
    square = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    spin = math.radians(piece.sticker.spin_deg)
    turn = np.array([[math.cos(spin), math.sin(spin)], [-math.sin(spin), math.cos(spin)]])
    square = square @ turn + np.array([u, v])
    homography = view.plane(piece.height_mm) @ board.to_world()
    return cv2.perspectiveTransform(square.reshape(-1, 1, 2), homography).reshape(-1, 2)


def hand_polygon(view: View, hand: Hand) -> NDArray[np.float64]:
    """Roughly where a hand (palm and fingers) is in the image, to tell what it hides."""
    reach = math.radians(hand.reach_deg)
    direction = np.array([math.cos(reach), math.sin(reach)])
    side = np.array([-direction[1], direction[0]])
    centre = np.array([hand.x, hand.y])
    s = hand.size
    pts = np.array([centre + direction * 900 + side * 50 * s, centre + side * 45 * s,
                    centre - direction * 115 * s + side * 40 * s,
                    centre - direction * 115 * s - side * 40 * s, centre - side * 45 * s,
                    centre + direction * 900 - side * 50 * s])
    corners = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), view.plane(hand.height_mm))
    return corners.reshape(-1, 2)


def inside_frame(view: View, points: NDArray[np.float64], margin: float = 2.0) -> bool:
    w, h = view.size
    return bool(np.all((points[:, 0] >= margin) & (points[:, 0] <= w - margin)
                       & (points[:, 1] >= margin) & (points[:, 1] <= h - margin)))


def hidden_by_hands(view: View, hands: list[Hand], points: NDArray[np.float64]) -> bool:
    for hand in hands:
        polygon = hand_polygon(view, hand).astype(np.float32)
        if any(cv2.pointPolygonTest(polygon, (float(x), float(y)), False) >= 0
               for x, y in points):
            return True
    return False


def sticker_close_up(cells: NDArray[np.uint8], spin: float, blur_cells: float, seed: int,
                     cell_px: int = 5, side: int = 200,
                     spot: tuple[float, float, float] | None = None) -> Image:
    """A square marker (``cells``: 1 = dark, its border included) with its one-cell white
    margin on a dark piece, ``cell_px`` pixels a cell as the board reader resamples it, turned
    by ``spin`` degrees, smeared by ``blur_cells`` cells of motion, with noise, in a ``side``
    square; ``spot``: a soft spot over the marker, about a third of its width across, of that
    brightness (glare, above 0; a shadow, below), off its middle by (x, y) pixels."""
    sticker = np.pad(np.where(cells == 1, 0, 235).astype(np.uint8), 1, constant_values=235)
    big = cv2.resize(sticker, None, fx=cell_px * 4, fy=cell_px * 4, interpolation=cv2.INTER_NEAREST)
    canvas = np.full((side * 4, side * 4), 50, np.uint8)
    at = (canvas.shape[0] - big.shape[0]) // 2
    canvas[at:at + big.shape[0], at:at + big.shape[1]] = big
    turn = cv2.getRotationMatrix2D((side * 2, side * 2), spin, 1.0)
    canvas = cv2.warpAffine(canvas, turn, canvas.shape[::-1], borderValue=50)
    length = max(1, int(blur_cells * cell_px * 4))
    smeared = cv2.filter2D(canvas.astype(np.float32), -1,
                           motion_kernel(length, seed * 37.0 % 180))
    small = cv2.resize(smeared, (side, side), interpolation=cv2.INTER_AREA)
    rng = np.random.default_rng(seed)
    if spot is not None:
        strength, dx, dy = spot
        ys, xs = np.mgrid[0:side, 0:side]
        width = 0.3 * cells.shape[0] * cell_px
        small += strength * np.exp(-((xs - side / 2 - dx) ** 2 + (ys - side / 2 - dy) ** 2)
                                   / (2 * width ** 2))
    noisy = small + rng.normal(0, 3, small.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)
