"""Square markers: a marker with a bit or two damaged (a speck, a blurred corner) still reads as
itself; one damaged more is missed, never read as another sticker. A marker smeared past the
detector by motion blur is found by its shape and read by likeness, never as another; nothing
unlike a sticker reads as one."""

from __future__ import annotations

import math
import random

import cv2
import numpy as np
import pytest

from companion.engine import marker_component
from companion.engine.components import REGISTRY
from companion.stickers import marker_matrix
from companion.vision.markers import find_blurred, scan_markers
from tools.synthetic_board import sticker_close_up

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


# --- a blurred marker, found by its shape and read by likeness ---------------------------------

BLUR_CELL_PX = 5  # as the board reader resamples a sticker
MARKER_SIDE = 8 * BLUR_CELL_PX
BOX = (50, 50, 150, 150)  # where a board's cell would be: the sticker somewhere in it


def game_of(number: int) -> tuple[int, ...]:
    """The markers of the game whose sticker carries ``number``: what a board searches."""
    return REGISTRY.marker_numbers(marker_component(number).game)


def test_a_blurred_marker_the_detector_misses_reads_by_likeness() -> None:
    detected = 0
    for seed, number in enumerate(NUMBERS):
        cells = np.array(marker_matrix(number), np.uint8)
        spin = 11.0 + 29.0 * seed
        image = sticker_close_up(cells, spin, blur_cells=2.0, seed=seed)
        detected += len(scan_markers(image).codes)
        found = find_blurred(image, BOX, MARKER_SIDE, game_of(number))
        assert found is not None and found.text == marker_component(number).payload, number
        # its first corner is the code's own, as the detector gives it on a sharp picture
        sharp = scan_markers(sticker_close_up(cells, spin, blur_cells=0.05, seed=seed)).codes
        assert math.dist(found.corners[0], sharp[0].corners[0]) < BLUR_CELL_PX * 1.5
    assert detected <= len(NUMBERS) // 4  # the case is real: the detector reads 3 of 12


@pytest.mark.parametrize("flipped", [3, 5])
def test_a_blurred_marker_with_bits_damaged_is_never_read_as_another(flipped: int) -> None:
    """Up to 5 bits, half the 11 between any two codes: itself or nothing. (From 6 scattered
    bits, likeness may read another: benchmarks/vision/bench_likeness.py.)"""
    read = 0
    for seed in range(40):
        rng = random.Random(seed)
        number = rng.choice(NUMBERS)
        cells = np.array(marker_matrix(number), np.uint8)
        for r, c in rng.sample([(r, c) for r in range(1, 7) for c in range(1, 7)], flipped):
            cells[r, c] ^= 1
        image = sticker_close_up(cells, rng.uniform(0, 90), rng.uniform(0.05, 2.0), seed)
        found = find_blurred(image, BOX, MARKER_SIDE, game_of(number))
        assert found is None or found.text == marker_component(number).payload, seed
        read += found is not None
    assert read >= 35  # and nearly all still read (40 and 39 of 40 when written)


def test_glare_or_a_shadow_on_a_marker_never_reads_as_another() -> None:
    read = 0
    for seed in range(60):
        rng = random.Random(seed)
        number = rng.choice(NUMBERS)
        spot = (rng.choice([-1, 1]) * rng.uniform(150, 300), rng.uniform(-15, 15),
                rng.uniform(-15, 15))  # a lamp's glare, or a shadow
        image = sticker_close_up(np.array(marker_matrix(number), np.uint8), rng.uniform(0, 90),
                                 rng.choice([0.05, 1.0, 2.0]), seed, spot=spot)
        found = find_blurred(image, BOX, MARKER_SIDE, game_of(number))
        assert found is None or found.text == marker_component(number).payload, seed
        read += found is not None
    assert read >= 45  # and most still read


def test_nothing_like_a_sticker_is_read() -> None:
    rng = np.random.default_rng(3)
    flat = np.full((200, 200), 120, np.uint8)
    noise = rng.integers(0, 256, (200, 200), dtype=np.uint8)
    squares = np.kron((np.indices((10, 10)).sum(axis=0) % 2) * 150 + 50,
                      np.ones((20, 20))).astype(np.uint8)  # a chequered board's cells
    blank = sticker_close_up(np.zeros((8, 8), np.uint8), 20.0, 2.0, seed=1)  # a white sticker
    for image in (flat, noise, cv2.GaussianBlur(noise, (0, 0), 4), squares, blank):
        for game in ("gambit-of-kings", "gambit-6x6", "captain-flip"):
            assert find_blurred(image, BOX, MARKER_SIDE, REGISTRY.marker_numbers(game)) is None
