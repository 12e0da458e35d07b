"""The roll zone: where dice are rolled on this table. Nothing outside it is read as a die.

The host marks it once: with corner stickers (two at opposite corners, or four; payloads
``GC1/ZONE/MARK/1`` to ``4``, printed by ``companion dice zone --stickers``), seen in the
camera's picture, or with corners given as fractions of the picture (``companion dice zone
--corners``). A zone is kept as fractions of the picture's width and height, so it holds at
any resolution of the same camera. Stickers seen in a frame mark the zone for that frame (the
camera may have moved); otherwise the stored zone holds.

An empty-zone reference (a picture of the zone with no dice, taken when the table is set up)
can also be kept: a candidate die whose place looks as it did then (normalised correlation
``UNCHANGED`` or more) is part of the table, not a die (see the model card for what it does).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import cv2
import numpy as np

from companion.errors import CompanionError
from companion.vision.images import Image, ImageError, load_image, to_gray
from companion.vision.qr import CodeReading
from companion.vision.stored import write_atomically

MARK_PREFIX = "GC1/ZONE/MARK/"
UNCHANGED = 0.8  # correlation with the empty zone above which a place has not changed
REFERENCE_SIDE = 640  # the reference is kept and compared at this long side
GRID = 5  # a box's share outside the zone is counted on GRID x GRID points


class ZoneError(CompanionError, ValueError):
    """A zone that cannot be used: too few corners, a degenerate shape, an unreadable file."""


@dataclass(frozen=True)
class RollZone:
    """A polygon of 3 or more corners, as (x, y) fractions of the picture's width and height."""

    corners: tuple[tuple[float, float], ...]

    def __post_init__(self) -> None:
        if len(self.corners) < 3:
            raise ZoneError("a roll zone needs at least 3 corners (or 2 opposite ones)")
        if any(not (0.0 <= v <= 1.0) for corner in self.corners for v in corner):
            raise ZoneError("zone corners are fractions of the picture: 0 to 1")
        if cv2.contourArea(np.array(self.corners, np.float32).reshape(-1, 1, 2)) < 1e-3:
            raise ZoneError("the zone's corners enclose (almost) nothing")

    @classmethod
    def from_points(cls, points: list[tuple[float, float]]) -> RollZone:
        """Two points are opposite corners of an upright rectangle; more are corners in any
        order (the zone is the shape round them)."""
        if len(points) == 2:
            (x0, y0), (x1, y1) = points
            points = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        if len(points) < 3:
            raise ZoneError("a roll zone needs 2 opposite corners, or 3 or more corners")
        hull = cv2.convexHull(np.array(points, np.float32).reshape(-1, 1, 2)).reshape(-1, 2)
        # one order for one shape: clockwise on the picture, from the corner nearest its top left
        middle = hull.mean(0)
        hull = hull[np.argsort(np.arctan2(hull[:, 1] - middle[1], hull[:, 0] - middle[0]))]
        hull = np.roll(hull, -int(np.argmin(hull.sum(1))), axis=0)
        return cls(tuple((round(float(x), 4), round(float(y), 4)) for x, y in hull))

    def polygon(self, width: int, height: int) -> np.ndarray:
        scale = np.array([width, height], np.float32)
        return (np.array(self.corners, np.float32) * scale).reshape(-1, 1, 2)

    def outside(self, box: Any, width: int, height: int) -> float:
        """The share of a box ([x, y, w, h], pixels) outside the zone; 1.0 when its centre is."""
        polygon = self.polygon(width, height)
        x, y, w, h = (float(v) for v in box[:4])
        if cv2.pointPolygonTest(polygon, (x + w / 2, y + h / 2), False) < 0:
            return 1.0
        steps = (np.arange(GRID) + 0.5) / GRID
        out = sum(cv2.pointPolygonTest(polygon, (x + a * w, y + b * h), False) < 0
                  for a in steps for b in steps)
        return out / GRID**2

    def to_dict(self) -> dict[str, Any]:
        return {"corners": [list(c) for c in self.corners]}


def corner_number(code: CodeReading) -> int | None:
    """Which zone corner a sticker marks (1 to 4), or None for any other sticker."""
    if not code.text.startswith(MARK_PREFIX):
        return None
    tail = code.text[len(MARK_PREFIX):]
    return int(tail) if tail in ("1", "2", "3", "4") else None


def zone_from_codes(codes: list[CodeReading], width: int, height: int) -> RollZone | None:
    """The zone the corner stickers in a picture mark (two opposite ones, or all four), or
    None when they do not mark one."""
    centres = {n: code.centre for code in codes if (n := corner_number(code)) is not None}
    if len(centres) not in (2, 4):
        return None
    points = [(min(1.0, max(0.0, x / width)), min(1.0, max(0.0, y / height)))
              for x, y in centres.values()]
    try:
        return RollZone.from_points(points)
    except ZoneError:
        return None  # stickers in a line, or one on another: no zone


@dataclass
class EmptyReference:
    """The zone with no dice on it, as the camera saw it when the table was set up."""

    image: Image  # grey, long side REFERENCE_SIDE

    @classmethod
    def from_frame(cls, frame: Image) -> EmptyReference:
        return cls(_small_grey(frame))

    def unchanged(self, frame: Image, boxes: list[Any]) -> list[bool]:
        """For each box ([x, y, w, h] in ``frame``'s pixels), whether its place looks as it did
        in the empty zone: a mark, a corner or the art of the table, not a die put there."""
        now = _small_grey(frame)
        if now.shape != self.image.shape:
            return [False] * len(boxes)  # another camera or framing: nothing to compare
        scale = now.shape[1] / frame.shape[1]
        return [self._same(now, [float(v) * scale for v in box[:4]]) for box in boxes]

    def _same(self, now: Image, box: list[float]) -> bool:
        x, y, w, h = box
        grow = 0.1 * max(w, h)  # a little of the table round it: a die changes that too
        x0, y0 = max(0, int(x - grow)), max(0, int(y - grow))
        x1, y1 = min(now.shape[1], int(x + w + grow) + 1), min(now.shape[0], int(y + h + grow) + 1)
        if x1 - x0 < 4 or y1 - y0 < 4:
            return False
        a = now[y0:y1, x0:x1].astype(np.float32)
        b = self.image[y0:y1, x0:x1].astype(np.float32)
        if abs(float(a.mean()) - float(b.mean())) > 40:  # much lighter or darker: changed
            return False
        a, b = a - a.mean(), b - b.mean()
        norm = float(np.sqrt((a * a).sum() * (b * b).sum()))
        if norm < 1e-3:  # two flat patches of about one brightness
            return True
        return float((a * b).sum()) / norm >= UNCHANGED


def _small_grey(frame: Image) -> Image:
    grey = to_gray(frame)
    scale = REFERENCE_SIDE / max(grey.shape[:2])
    size = (max(1, round(grey.shape[1] * scale)), max(1, round(grey.shape[0] * scale)))
    small = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    return cast(Image, cv2.GaussianBlur(small, (0, 0), 1.0))  # forgives a pixel of shake


# --- kept in the data directory -----------------------------------------------------------
def zone_path(data: Path) -> Path:
    return data / "dice" / "zone.json"


def reference_path(data: Path) -> Path:
    return data / "dice" / "zone-empty.png"


def save_zone(data: Path, zone: RollZone) -> Path:
    return write_atomically(zone_path(data), json.dumps(zone.to_dict()).encode())


def load_zone(data: Path) -> RollZone | None:
    """The stored zone, or None when none is set; raises ZoneError for a damaged file."""
    path = zone_path(data)
    if not path.is_file():
        return None
    try:
        corners = json.loads(path.read_text())["corners"]
        return RollZone(tuple((float(x), float(y)) for x, y in corners))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ZoneError(f"the roll zone in {path} cannot be read ({exc}); set it again")\
            from None


def save_reference(data: Path, frame: Image) -> Path:
    ok, encoded = cv2.imencode(".png", EmptyReference.from_frame(frame).image)
    if not ok:
        raise ZoneError("could not encode the empty-zone picture")
    return write_atomically(reference_path(data), encoded.tobytes())


def load_reference(data: Path) -> EmptyReference | None:
    path = reference_path(data)
    if not path.is_file():
        return None
    try:
        return EmptyReference(to_gray(load_image(path)))
    except ImageError as exc:
        raise ZoneError(f"the empty-zone picture cannot be read ({exc}); take it again")\
            from None
