"""A still table seen many times: the running average of what has not moved.

A camera over a table sees each card in many frames. Sensor noise and JPEG blocks differ from
frame to frame while the card does not, so the average of the frames of a still part of the
table shows its codes cleaner than any one frame does (the noise falls as the square root of
the frames averaged). Where something moves (a hand, a card put down), the average starts
again from the new frame, so a moving thing is never smeared into a code. The camera loop
reads the careful (upscaled) pass on this average instead of the raw frame
(benchmarks/vision/bench_qr.py --frames-per-scene measures what it adds).
"""

from __future__ import annotations

from typing import cast

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.images import Image, to_gray

BLOCK = 16  # pixels: motion is judged per block
MOVED = 12.0  # a block's mean change (grey levels) that is motion, not noise
WEIGHT = 0.25  # each new frame's share of the average (about the last 7 frames)


class StillAverage:
    """Feed it every frame (grey or BGR); ``image`` is the average of the still parts."""

    def __init__(self) -> None:
        self._sum: NDArray[np.float32] | None = None
        self._blocks: Image | None = None  # the last frame, one pixel a block

    def add(self, frame: Image) -> Image:
        gray = to_gray(frame)
        height, width = gray.shape
        blocks = cast(Image, cv2.resize(gray, (max(1, width // BLOCK), max(1, height // BLOCK)),
                                        interpolation=cv2.INTER_AREA))
        if self._sum is None or self._sum.shape != gray.shape or self._blocks is None:
            self._sum = gray.astype(np.float32)
            self._blocks = blocks
            return gray
        changed = (cv2.absdiff(blocks, self._blocks) > MOVED).astype(np.uint8)
        self._blocks = blocks
        moved = cv2.resize(cv2.dilate(changed, np.ones((3, 3), np.uint8)), (width, height),
                           interpolation=cv2.INTER_NEAREST)
        cv2.accumulateWeighted(gray, self._sum, WEIGHT, mask=1 - moved)
        cv2.accumulateWeighted(gray, self._sum, 1.0, mask=moved)  # what moved starts again
        return self.image()

    def image(self) -> Image:
        assert self._sum is not None
        return cast(Image, cv2.convertScaleAbs(self._sum))
