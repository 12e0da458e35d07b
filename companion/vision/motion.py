"""A settled roll: the dice reader runs only once the roll zone has stopped moving.

Reading dice costs most of a camera frame's time on a Pi, and tumbling dice or a hand over
them can never be read anyway. So each frame is compared with the one before, small and grey
(inside the roll zone when one is set): while pixels change, no dice are read (and none are
reported: moving dice are no roll); once the zone has been still for ``STILL_FRAMES`` frames,
the reader runs on the next ``READS`` frames (the tracker wants three alike), and then rests,
repeating its last reading, until something moves again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import cv2
import numpy as np

from companion.vision.images import Image, to_gray
from companion.vision.tracker import DieReading
from companion.vision.zone import RollZone

SIDE = 320  # frames are compared at this long side
CHANGED_LEVELS = 25  # a pixel changed by this much (of 255) has moved
MOVING_SHARE = 0.001  # this share of changed pixels is movement (a 10 px die at SIDE is 0.2%)
STILL_FRAMES = 2
READS = 4


class SettleGate:
    """Decides, frame by frame, whether the dice reader runs."""

    def __init__(self, zone: RollZone | None = None) -> None:
        self.zone = zone
        self._last: Image | None = None
        self._still = 0
        self._reads_left = READS  # read at the start: dice may lie there already
        self._reading: list[DieReading] | None = None

    def moving(self, frame: Image) -> bool:
        """Whether the zone moved since the last frame (and remember this one)."""
        small = self._small(frame)
        last, self._last = self._last, small
        if last is None or last.shape != small.shape:
            return False
        changed = cv2.absdiff(small, last) > CHANGED_LEVELS
        return bool(changed.mean() > MOVING_SHARE)

    def wants_read(self, frame: Image) -> bool:
        """Look at this frame: whether the dice reader is to run on it (then call
        ``result``)."""
        if self.moving(frame):
            self._still, self._reads_left, self._reading = 0, READS, []
            return False
        self._still += 1
        return self._reading is None or (self._still >= STILL_FRAMES and self._reads_left > 0)

    def result(self, read_now: bool, read: Callable[[], list[DieReading]]) -> list[DieReading]:
        """The dice of the frame ``wants_read`` looked at: ``read()`` if it said so, else none while
        moving and the last reading repeated while nothing moves."""
        if read_now:
            self._reads_left -= 1
            self._reading = read()
        return list(self._reading or [])

    def dice(self, frame: Image, read: Callable[[], list[DieReading]]) -> list[DieReading]:
        """The dice of this frame: none while moving, ``read()`` once settled, and the last
        reading repeated while nothing moves."""
        return self.result(self.wants_read(frame), read)

    def _small(self, frame: Image) -> Image:
        grey = to_gray(frame)
        if self.zone is not None:
            polygon = self.zone.polygon(grey.shape[1], grey.shape[0]).reshape(-1, 2)
            x0, y0 = np.floor(polygon.min(0)).astype(int)
            x1, y1 = np.ceil(polygon.max(0)).astype(int)
            grey = grey[max(0, y0):max(y0 + 1, y1), max(0, x0):max(x0 + 1, x1)]
        scale = SIDE / max(grey.shape[:2])
        size = (max(1, round(grey.shape[1] * scale)), max(1, round(grey.shape[0] * scale)))
        return cast(Image, cv2.resize(grey, size, interpolation=cv2.INTER_AREA))
