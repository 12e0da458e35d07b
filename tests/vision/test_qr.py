"""QR reading on the fixture frames, with the real zxing-cpp and ZBar decoders."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.engine import all_components
from companion.stickers import MODULE_MM, QUIET_MODULES, qr_matrix
from companion.vision.images import load_image
from companion.vision.qr import _zbar, read_codes
from tests.conftest import ROOT

QR = ROOT / "fixtures" / "images" / "qr"
CASES = sorted(QR.glob("*.jpg"))


def expected(path: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(path.with_suffix(".json").read_text())
    return data


def test_there_are_fixture_frames() -> None:
    assert len(CASES) >= 8


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_reads_what_is_there_and_nothing_else(path: Path) -> None:
    truth = expected(path)
    present = set(truth["present"])  # type: ignore[call-overload]
    found = {r.text for r in read_codes(load_image(path))}
    assert found <= present, f"reported codes that are not there: {found - present}"
    assert len(found) >= int(truth["must_read"])  # type: ignore[call-overload]


def test_corners_surround_the_code() -> None:
    image = load_image(QR / "straight-720p.jpg")
    for reading in read_codes(image):
        xs = [x for x, _ in reading.corners]
        ys = [y for _, y in reading.corners]
        assert 0 <= min(xs) < max(xs) <= image.shape[1]
        assert 0 <= min(ys) < max(ys) <= image.shape[0]
        assert 40 < reading.size() < 200  # a 37.5 mm code at 2.1 px/mm, corner to corner


def test_zbar_the_second_decoder_reads_a_sticker() -> None:
    payload = "GC1/CG/PERMIT/BARRAGE/3"
    matrix = np.array(qr_matrix(payload), dtype=np.uint8)
    code = np.pad(1 - matrix, QUIET_MODULES + 2, constant_values=1) * 255
    image = cv2.resize(code, None, fx=6, fy=6, interpolation=cv2.INTER_NEAREST)
    assert [r.text for r in _zbar(image)] == [payload]


def test_every_sticker_decodes_at_true_size_on_a_720p_view() -> None:
    """Each sticker drawn at 1.5 mm modules seen at 2.13 px/mm (a 60 cm wide 720p view)."""
    px_per_module = MODULE_MM * 1280 / 600
    for component in all_components()[::7]:
        matrix = np.array(qr_matrix(component.payload), dtype=np.uint8)
        big = np.kron(np.pad(1 - matrix, 4, constant_values=1), np.ones((8, 8))) * 255
        side = int(round(big.shape[0] / 8 * px_per_module))
        small = cv2.resize(big.astype(np.uint8), (side, side), interpolation=cv2.INTER_AREA)
        assert [r.text for r in read_codes(small, thorough=False)] == [component.payload]


def test_the_fast_pass_alone_reads_a_clean_frame() -> None:
    found = {r.text for r in read_codes(load_image(QR / "straight-720p.jpg"), thorough=False)}
    assert len(found) == 5
