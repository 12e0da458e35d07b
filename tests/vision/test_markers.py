"""Square markers: a marker with a bit or two damaged (a speck, a blurred corner) still reads as
itself; one damaged more is missed, never read as another sticker."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from companion.engine import marker_component
from companion.stickers import marker_matrix
from companion.vision.markers import scan_markers

CELL_PX = 12


def drawn(number: int, flipped: int, seed: int) -> np.ndarray:
    """Marker ``number`` on white, ``flipped`` of its 36 inner bits inverted, 12 px a cell."""
    cells = np.array(marker_matrix(number), np.uint8)
    inner = [(r, c) for r in range(1, 7) for c in range(1, 7)]
    for r, c in random.Random(seed).sample(inner, flipped):
        cells[r, c] ^= 1
    image = np.where(cells == 1, 0, 255).astype(np.uint8)
    image = cv2.resize(image, None, fx=CELL_PX, fy=CELL_PX, interpolation=cv2.INTER_NEAREST)
    return cv2.copyMakeBorder(image, 3 * CELL_PX, 3 * CELL_PX, 3 * CELL_PX, 3 * CELL_PX,
                              cv2.BORDER_CONSTANT, value=255)


NUMBERS = [n for n in range(0, 240, 7) if marker_component(n) is not None][:12]


@pytest.mark.parametrize("flipped", [0, 1, 2])
def test_a_marker_with_up_to_two_bits_damaged_reads_as_itself(flipped: int) -> None:
    for seed, number in enumerate(NUMBERS):
        found = scan_markers(drawn(number, flipped, seed)).codes
        assert [c.text for c in found] == [marker_component(number).payload], (number, flipped)


@pytest.mark.parametrize("flipped", [3, 4, 5, 8])
def test_a_marker_damaged_more_is_missed_never_read_as_another(flipped: int) -> None:
    for seed, number in enumerate(NUMBERS):
        found = scan_markers(drawn(number, flipped, seed)).codes
        assert found == [], (number, flipped, [c.text for c in found])
