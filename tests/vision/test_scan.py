"""`companion scan`: the JSON contract, unknown payloads, and bad input."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.vision.images import MAX_PIXELS, ImageError, decode_image
from tests.conftest import ROOT, with_exif_orientation

QR = ROOT / "fixtures" / "images" / "qr"


def scan_json(paths: list[Path], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict]]:
    status = main(["scan", "--json", *map(str, paths)])
    return status, [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_contract_fields(capsys: pytest.CaptureFixture[str]) -> None:
    status, [result] = scan_json([QR / "straight-720p.jpg"], capsys)
    assert status == 0
    assert set(result) == {"path", "width", "height", "ms", "cards", "dice", "error"}
    assert (result["width"], result["height"]) == (1280, 720) and result["error"] is None
    card = result["cards"][0]
    assert set(card) == {"payload", "card", "corners"} and len(card["corners"]) == 4
    assert card["card"] == card["payload"].removeprefix("GC1/")


def test_unknown_payloads_are_reported_never_guessed(capsys: pytest.CaptureFixture[str]) -> None:
    _, [result] = scan_json([QR / "unknown-payloads-720p.jpg"], capsys)
    cards = {c["payload"]: c["card"] for c in result["cards"]}
    assert cards == {"GC1/CG/CAPTAIN/HAMLET": "CG/CAPTAIN/HAMLET", "HELLO-WORLD": None,
                     "GC1/CG/PERMIT/BARRAGE/9": None}


def tiny_png(width: int, height: int) -> bytes:
    """A PNG header that claims a size, with no real pixels behind it."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk
            + struct.pack(">I", zlib.crc32(chunk)))


def test_bad_files_get_a_message_and_the_rest_are_still_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "notes.jpg"
    text.write_text("not an image")
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    truncated = tmp_path / "truncated.jpg"
    truncated.write_bytes((QR / "straight-720p.jpg").read_bytes()[:300])
    huge = tmp_path / "huge.png"
    huge.write_bytes(tiny_png(20000, 20000))
    status, results = scan_json([text, QR / "straight-720p.jpg", empty, truncated, huge,
                                 tmp_path / "missing.jpg", tmp_path], capsys)
    assert status == 1
    errors = [r["error"] for r in results]
    assert errors[1] is None and len(results[1]["cards"]) == 5
    assert "not an image" in errors[0]
    assert "is empty" in errors[2]
    assert "not an image" in errors[3] or "corrupt" in errors[3]
    assert "megapixels" in errors[4]
    assert "cannot read" in errors[5]
    assert "folder" in errors[6]


def test_decode_refuses_oversized_pixels() -> None:
    ok, encoded = cv2.imencode(".png", np.zeros((10, 10, 3), np.uint8))
    assert ok and decode_image(encoded.tobytes()).shape == (10, 10, 3)
    with pytest.raises(ImageError, match=f"{MAX_PIXELS // 1_000_000} megapixels"):
        decode_image(tiny_png(9000, 9000))


def test_boxes_are_in_pixels_as_stored_whatever_the_exif_orientation(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain = ROOT / "fixtures" / "images" / "dice" / "black-white-pips-640.jpg"
    turned = tmp_path / "phone.jpg"
    turned.write_bytes(with_exif_orientation(plain.read_bytes(), 6))  # "turn 90 degrees to show"
    assert cv2.imread(str(turned)).shape[:2] != cv2.imread(str(plain)).shape[:2]  # OpenCV turns it
    _, [upright, stored] = scan_json([plain, turned], capsys)
    assert (stored["width"], stored["height"]) == (upright["width"], upright["height"])
    assert stored["dice"] and stored["dice"] == upright["dice"]


def test_scan_runs_as_a_command_without_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"\xff\xd8\xff\x00garbage")
    done = subprocess.run([sys.executable, "-m", "companion", "scan", str(bad)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 1 and "error:" in done.stderr and "Traceback" not in done.stderr
