"""QR codes in a frame, with their corners: zxing-cpp first, then harder passes where needed.

Measured on rendered table frames (../shared/design/VISION-NOTES.md and benchmarks/vision):
zxing-cpp reads small modules far better than ZBar and in a few milliseconds; a contrast-
equalised, sharpened 2x upscale recovers codes of about 2 px per module, at ten times the
cost, so it runs only when asked (a single photo) or on one tile of a camera frame at a time.
ZBar is the second decoder, on the upscaled image of a single photo: it adds a few codes
that zxing-cpp misses, at a high cost, so the camera loop leaves it out.
No decoder invents payloads; a text outside the registry is reported as unknown upstream.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np
import zxingcpp

from companion.vision.images import Image, to_gray

Point = tuple[float, float]
_QR_ONLY = zxingcpp.barcode_formats_from_str("QRCode")


@dataclass(frozen=True)
class CodeReading:
    """One QR code: its text and corners (top-left, top-right, bottom-right, bottom-left)."""

    text: str
    corners: tuple[Point, Point, Point, Point]

    @property
    def centre(self) -> Point:
        xs = [p[0] for p in self.corners]
        ys = [p[1] for p in self.corners]
        return sum(xs) / 4, sum(ys) / 4

    def size(self) -> float:
        (x0, y0), (x1, y1) = self.corners[0], self.corners[2]
        return float(np.hypot(x1 - x0, y1 - y0))


def _zxing(gray: Image, scale: float = 1.0, offset: Point = (0.0, 0.0)) -> list[CodeReading]:
    out = []
    for code in zxingcpp.read_barcodes(gray, formats=_QR_ONLY):
        if not code.valid or not code.text:
            continue
        pos = code.position
        corners = tuple((p.x / scale + offset[0], p.y / scale + offset[1])
                        for p in (pos.top_left, pos.top_right, pos.bottom_right, pos.bottom_left))
        out.append(CodeReading(code.text, corners))  # type: ignore[arg-type]
    return out


def _zbar(gray: Image, scale: float = 1.0, offset: Point = (0.0, 0.0)) -> list[CodeReading]:
    from pyzbar import pyzbar  # imported here: libzbar0 may be missing, and is checked by doctor

    out = []
    for code in pyzbar.decode(gray, symbols=[pyzbar.ZBarSymbol.QRCODE]):
        try:
            text = code.data.decode("ascii")
        except UnicodeDecodeError:
            continue
        points = list(code.polygon)
        if len(points) != 4:
            continue
        corners = tuple((p.x / scale + offset[0], p.y / scale + offset[1]) for p in points)
        out.append(CodeReading(text, corners))  # type: ignore[arg-type]
    return out


def enhance(gray: Image, scale: float = 2.0) -> Image:
    """Contrast-equalised (CLAHE) and sharpened upscale: small, glared or blurred codes."""
    clahe = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(8, 8))
    big = cv2.resize(clahe.apply(gray), None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    blurred = cv2.GaussianBlur(big, (0, 0), 2.0)
    return cast(Image, cv2.addWeighted(big, 1.6, blurred, -0.6, 0))


def sharpened(gray: Image, scale: float = 2.0) -> Image:
    """A plain upscale, strongly sharpened: reads some codes the equalised one misses (soft
    focus, a little blur), and misses others; the camera loop takes turns with the two."""
    big = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    blurred = cv2.GaussianBlur(big, (0, 0), 1.5)
    return cast(Image, cv2.addWeighted(big, 2.0, blurred, -1.0, 0))


CAREFUL = (enhance, sharpened)  # the careful pass's looks, taken in turn


def _merge(readings: Iterable[CodeReading]) -> list[CodeReading]:
    """One reading per code: the same text at the same place, found by two passes, is one."""
    kept: list[CodeReading] = []
    for reading in readings:
        cx, cy = reading.centre
        if any(k.text == reading.text and np.hypot(k.centre[0] - cx, k.centre[1] - cy)
               < max(k.size(), 8.0) for k in kept):
            continue
        kept.append(reading)
    return kept


def read_codes(image: Image, thorough: bool = True, zbar: bool = True) -> list[CodeReading]:
    """Every QR code in ``image``. ``thorough`` adds the upscaled pass, and ``zbar`` ZBar on it."""
    gray = to_gray(image)
    found = _zxing(gray)
    if thorough:
        big = enhance(gray)
        found += _zxing(big, scale=2.0)
        found += _zxing(sharpened(gray), scale=2.0)
        if zbar:
            found += _zbar(big, scale=2.0)
    return _merge(found)


def read_codes_in_tile(image: Image, tile: int, tiles: int = 4,
                       look: int = 0) -> list[CodeReading]:
    """The thorough passes on one of ``tiles`` horizontal bands (with overlap) of a frame,
    with the careful look ``look`` (an index into CAREFUL).

    A camera loop calls this with a different tile each frame, and the next look each time
    round, so that the whole table gets the slow pass every few frames, in each look in turn,
    while each frame stays cheap. ZBar is left out here: on an upscaled band it costs five
    times zxing-cpp (benchmarks/vision/bench_qr.py).
    """
    gray = to_gray(image)
    height = gray.shape[0]
    band = height // tiles
    overlap = band // 3
    top = max(0, tile * band - overlap)
    bottom = min(height, (tile + 1) * band + overlap)
    big = CAREFUL[look % len(CAREFUL)](np.ascontiguousarray(gray[top:bottom]))
    return _merge(_zxing(big, 2.0, (0.0, float(top))))
