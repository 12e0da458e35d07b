"""Square markers on pieces and tiles: found by OpenCV's ArUco detector in the family the
stickers print (engine MARKER_FAMILY), each named by the registry.

A marker is accepted when all but at most 2 of its 36 bits match a code of the family: any two
codes differ in at least 11 bits, so a blurred marker is missed rather than read as another.
A number no sticker of ours carries is dropped.

Motion blur of a few pixels smears a small marker past that detector: the white margin runs
into a dark piece, so no square is found, or the bits do not threshold. Where a board says a
sticker of known size may stand, ``find_blurred`` looks for it by its shape (a white square
with a black frame), then reads it by likeness: the grey levels of its cells correlated with
every marker of the board's game, as a maximum-likelihood decoder reads, instead of
thresholded bits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import cast

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.engine import MARKER_CELLS, MARKER_FAMILY, MARKER_MARGIN, marker_component
from companion.vision.images import Image, to_gray
from companion.vision.qr import CodeReading, Point

Quad = tuple[Point, Point, Point, Point]


@dataclass(frozen=True)
class MarkerScan:
    """What one look found: markers read (payload and corners) and squares that looked like a
    marker but did not read (a sticker too blurred, glared or hidden to trust)."""

    codes: list[CodeReading]
    unread: list[Quad]


# Up to 2 of a marker's 36 bits may be corrected, as AprilTag's own detector does by default
# for this family: any two codes differ in at least 11 bits, so a misread needs 9 bits wrong.
# Exact codes only (0.0) left a quarter of the markers in a soft or tilted frame unread
# (bench_boards positions, development seeds: a 10x10 board of 20 mm markers 0.83 -> 0.93, none
# on a wrong cell).
CORRECTION_RATE = 0.4  # of the family's 5 correctable bits: 2


@cache
def _dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, MARKER_FAMILY))


@cache
def _detector(window: int) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.errorCorrectionRate = CORRECTION_RATE
    if window:  # one threshold window, sized for markers of a known scale (a board's cells)
        params.adaptiveThreshWinSizeMin = window
        params.adaptiveThreshWinSizeMax = window
        params.adaptiveThreshWinSizeStep = 10
    return cv2.aruco.ArucoDetector(_dictionary(), params)


def _quad(points: np.ndarray) -> Quad:
    p = [(float(x), float(y)) for x, y in points.reshape(4, 2)]
    return p[0], p[1], p[2], p[3]


def scan_markers(image: Image, window: int = 0) -> MarkerScan:
    """Every marker of ours in ``image``, and the marker-like squares that did not read.
    ``window``: the threshold window in pixels when the markers' size is known (0: several)."""
    corners, ids, rejected = _detector(window).detectMarkers(to_gray(image))
    codes = []
    for quad, number in zip(corners, [] if ids is None else ids.ravel(), strict=False):
        component = marker_component(int(number))
        if component is not None:
            codes.append(CodeReading(component.payload, _quad(quad)))
    return MarkerScan(codes, [_quad(q) for q in rejected])


def read_markers(image: Image, thorough: bool = False) -> list[CodeReading]:
    """Markers of ours in a whole image; ``thorough`` also looks at a 2x upscale (small
    stickers in a photo), as the QR reader does."""
    found = scan_markers(image).codes
    if thorough:
        gray = to_gray(image)
        big = cast(Image, cv2.resize(gray, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC))
        texts = {c.text for c in found}
        for code in scan_markers(big).codes:
            if code.text not in texts:
                corners = tuple((x / 2, y / 2) for x, y in code.corners)
                found.append(CodeReading(code.text, corners))  # type: ignore[arg-type]
    return found


# --- a blurred marker, read by likeness -------------------------------------------------------
# Thresholds from development frames (bench_boards' scenes, seeds 5000-6029, 2-5 px of motion
# blur): where a sticker stood its whole pattern correlated 0.67 or more, on empty cells at
# most 0.58; no code accepted was wrong with the bits 0.10 ahead, and 0.15 keeps a margin (3
# fewer of 195 blurred stickers read). docs/vision.md, Decisions.
STICKER_LIKENESS = 0.65  # the whole sticker (margin, black frame, bits): below, no sticker
BITS_LIKENESS = 0.6  # the bits and the best of the codes tried
BITS_GAP = 0.15  # ... ahead of any other code, or the same code turned
QUICK_LIKENESS = 0.45  # at the first guess of the square: below, the cell is not searched
STICKER_CELLS = MARKER_CELLS + 2 * MARKER_MARGIN  # 10 across: margin, frame, 6 bits...
SAMPLE_PX = 6  # pixels a marker cell when sampled; the middle 4 x 4 of each is averaged
ANGLE_STEP = math.radians(2)  # finding a sticker's place needs its turn only roughly
REFINE_TRIES = 64  # squares tried at most when fitting one (8 a step)
TEMPLATE_SIDES = STICKER_CELLS / MARKER_CELLS * 1.5  # the finding template's width in marker
# sides: the sticker turned any way fits in it
Vector = NDArray[np.float32]


@dataclass(frozen=True)
class Likeness:
    """How a square reads by likeness: the best of the codes tried, its turn (the square's corners
    shifted by it put the code's own first corner first), and the correlations."""

    number: int
    turn: int
    sticker: float  # of the whole sticker's pattern with the best code's
    bits: float  # of the bits with the best code's
    gap: float  # bits: ahead of the next best code or turn

    @property
    def read(self) -> bool:
        return (self.sticker >= STICKER_LIKENESS and self.bits >= BITS_LIKENESS
                and self.gap >= BITS_GAP)


def _centred(patterns: NDArray[np.float32]) -> Vector:
    out = patterns - patterns.mean(axis=-1, keepdims=True)
    return cast(Vector, out / np.linalg.norm(out, axis=-1, keepdims=True))


@cache
def _codes(numbers: tuple[int, ...]) -> tuple[Vector, Vector]:
    """Our codes in their four turns: bits only (n, 4, 36) and whole stickers (n, 4, 100),
    each centred and of unit length, so a dot product is a correlation."""
    whole = np.ones((len(numbers), 4, STICKER_CELLS, STICKER_CELLS), np.float32)
    for i, number in enumerate(numbers):
        drawn = cv2.aruco.generateImageMarker(_dictionary(), number, MARKER_CELLS)
        for turn in range(4):
            whole[i, turn, 1:-1, 1:-1] = np.rot90(drawn > 127, turn)
    bits = whole[:, :, 2:-2, 2:-2].reshape(len(numbers), 4, -1)
    return _centred(bits), _centred(whole.reshape(len(numbers), 4, -1))


def _cells(gray: Image, quad: NDArray[np.float64]) -> NDArray[np.float32]:
    """The mean grey of each of a sticker's 10 x 10 cells, its marker's corners ``quad``."""
    k = SAMPLE_PX
    far = (STICKER_CELLS - 1) * k
    inner = np.array([[k, k], [far, k], [far, far], [k, far]], np.float32)
    warp = cv2.getPerspectiveTransform(quad.astype(np.float32), inner)
    side = STICKER_CELLS * k
    seen = cv2.warpPerspective(gray, warp, (side, side), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    middles = seen.reshape(STICKER_CELLS, k, STICKER_CELLS, k)[:, 1:-1, :, 1:-1]
    return cast(NDArray[np.float32], middles.mean(axis=(1, 3)))


def likeness(gray: Image, quad: NDArray[np.float64], numbers: tuple[int, ...]
             ) -> Likeness | None:
    """How the square ``quad`` (a marker's four corners) reads against the codes ``numbers``."""
    if not numbers:
        return None
    bits, whole = _codes(numbers)
    cells = _cells(gray, quad)
    seen_whole = cells.ravel() - cells.mean()
    seen_bits = cells[2:-2, 2:-2].ravel()
    seen_bits = seen_bits - seen_bits.mean()
    norm_whole, norm_bits = np.linalg.norm(seen_whole), np.linalg.norm(seen_bits)
    if norm_whole < 1e-3 or norm_bits < 1e-3:
        return None  # one flat grey: nothing to read
    of_bits = ((bits @ seen_bits) / norm_bits).ravel()
    best = int(np.argmax(of_bits))
    runner_up = float(np.partition(of_bits, -2)[-2])
    code, turn = divmod(best, 4)
    sticker = float(whole[code, turn] @ seen_whole / norm_whole)  # the best code's only
    return Likeness(numbers[code], turn, sticker, float(of_bits[best]),
                    float(of_bits[best]) - runner_up)


def _square(centre: tuple[float, float], side: float, angle: float) -> NDArray[np.float64]:
    half = side / 2
    c, s = math.cos(angle), math.sin(angle)
    corners = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    return cast(NDArray[np.float64], corners @ np.array([[c, s], [-s, c]]) + centre)


def _edge_angle(gray: Image, centre: tuple[float, float], side: float) -> float:
    """A square's turn (modulo 90 degrees) from the gradients around ``centre``: its edges'
    directions, counted four times round so that all four sides agree."""
    half = int(side * 0.65)
    x0, y0 = max(int(centre[0]) - half, 0), max(int(centre[1]) - half, 0)
    window = gray[y0:y0 + 2 * half, x0:x0 + 2 * half].astype(np.float32)
    if window.shape[0] < 3 or window.shape[1] < 3:
        return 0.0
    gx = cv2.Sobel(window, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(window, cv2.CV_32F, 0, 1)
    total = ((gx * gx + gy * gy) * np.exp(4j * np.arctan2(gy, gx))).sum()
    return float(np.angle(total) / 4)


@lru_cache(maxsize=256)
def _sticker_template(side: float, angle: float) -> tuple[NDArray[np.float32], Image]:
    """A sticker at half scale (white, its marker's frame black, the bits a mid grey) turned
    by ``angle``, and the mask of where it lies."""
    half_side = side / 2
    n = int(math.ceil(half_side * TEMPLATE_SIDES)) | 1
    picture = np.zeros((n, n), np.float32)
    mask = np.zeros((n, n), np.uint8)
    bits = (MARKER_CELLS - 2) / MARKER_CELLS
    for share, grey in ((STICKER_CELLS / MARKER_CELLS, 1.0), (1.0, 0.0), (bits, 0.5)):
        corners = np.round(_square((n / 2, n / 2), half_side * share, angle) * 16).astype(np.int32)
        cv2.fillConvexPoly(picture, corners, grey, cv2.LINE_AA, 4)
        if grey == 1.0:
            cv2.fillConvexPoly(mask, corners, 255, cv2.LINE_AA, 4)
    return picture, cast(Image, mask)


def _best_place(small: Image, side: float, angles: Sequence[float]) -> tuple[float, float, float]:
    """Where in ``small`` (at half scale) a sticker of ``side`` (full scale) turned by one of
    ``angles`` matches best: centre at full scale, and the match."""
    best = (-2.0, 0.0, 0.0)
    for angle in angles:
        picture, mask = _sticker_template(round(side), round(angle / ANGLE_STEP) * ANGLE_STEP)
        if picture.shape[0] >= min(small.shape):
            break
        match = cv2.matchTemplate(small, picture, cv2.TM_CCOEFF_NORMED, mask=mask)
        # a flat patch (blown-out glare, outside the picture) gives NaN or infinity: no match
        _, value, _, (x, y) = cv2.minMaxLoc(np.where(np.isfinite(match), match, -1.0))
        if value > best[0]:
            n = picture.shape[0]
            best = (value, (x + n / 2) * 2, (y + n / 2) * 2)
    return best[1], best[2], best[0]


def find_blurred(gray: Image, box: tuple[int, int, int, int], side: float,
                 numbers: tuple[int, ...]) -> CodeReading | None:
    """A marker of ``numbers`` (a game's: no other can stand there) whose side is about
    ``side`` pixels, somewhere in ``box`` (x0, y0, x1, y1) of ``gray``, read by likeness;
    None when nothing there reads as one of them."""
    x0, y0, x1, y1 = box
    window = gray[max(y0, 0):y1, max(x0, 0):x1]
    if min(window.shape[:2]) < side:
        return None
    small = cv2.resize(window, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    small = cast(Image, small.astype(np.float32))
    x, y, _ = _best_place(small, side, [math.radians(d) for d in (0, 22.5, 45, 67.5)])
    origin = (max(x0, 0), max(y0, 0))
    angle = _edge_angle(window, (x, y), side)
    x, y, _ = _best_place(small, side, [angle])
    angle = _edge_angle(window, (x, y), side)
    guess = (x, y, angle, side)
    first = likeness(window, _square((x, y), side, angle), numbers)
    if first is None or first.sticker < QUICK_LIKENESS:
        return None
    best, found = _refine(window, guess, first, numbers)
    if not found.read:
        return None
    corners = np.roll(_square(best[:2], best[3], best[2]), found.turn, axis=0) + origin
    component = marker_component(found.number)
    if component is None:
        return None
    return CodeReading(component.payload, _quad(corners))


def _refine(gray: Image, start: tuple[float, float, float, float], first: Likeness,
            numbers: tuple[int, ...]) -> tuple[tuple[float, float, float, float], Likeness]:
    """The square (x, y, angle, side) near ``start`` whose sticker likeness is highest, by
    steps along each of the four, halved when no step helps."""
    steps = [2.0, 2.0, 0.06, start[3] * 0.04]
    best, found = start, first
    tries = 0
    for _ in range(3):
        moved = True
        while moved and tries + 8 <= REFINE_TRIES:
            moved = False
            tries += 8
            for axis in range(4):
                for sign in (-1.0, 1.0):
                    trial = list(best)
                    trial[axis] += sign * steps[axis]
                    square = (trial[0], trial[1], trial[2], trial[3])
                    seen = likeness(gray, _square(square[:2], square[3], square[2]), numbers)
                    if seen is not None and seen.sticker > found.sticker:
                        best, found, moved = square, seen, True
        steps = [step / 2 for step in steps]
    return best, found
