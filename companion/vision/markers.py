"""Square markers on pieces and tiles: found by OpenCV's ArUco detector in the family the
stickers print (engine MARKER_FAMILY), each named by the registry.

A marker is accepted when all but at most 2 of its 36 bits match a code of the family: any two
codes differ in at least 11 bits, so a blurred marker is missed rather than read as another.
A number no sticker of ours carries is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import cast

import cv2
import numpy as np

from companion.engine import MARKER_FAMILY, marker_component
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
def _detector(window: int) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.errorCorrectionRate = CORRECTION_RATE
    if window:  # one threshold window, sized for markers of a known scale (a board's cells)
        params.adaptiveThreshWinSizeMin = window
        params.adaptiveThreshWinSizeMax = window
        params.adaptiveThreshWinSizeStep = 10
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, MARKER_FAMILY))
    return cv2.aruco.ArucoDetector(dictionary, params)


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
