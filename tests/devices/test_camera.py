"""Frame sources: recordings for tests and demos; a missing camera is a status, not a crash."""

import importlib.util
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.devices.camera import (
    OpenCVCamera,
    PiCamera,
    RecordedCamera,
    open_camera,
)
from companion.errors import ConfigError
from companion.runtime.camera_loop import watch
from tests.conftest import ROOT, with_exif_orientation

QR = ROOT / "fixtures" / "images" / "qr"


def frames_folder(tmp_path: Path, count: int) -> Path:
    folder = tmp_path / "frames"
    folder.mkdir()
    data = (QR / "straight-720p.jpg").read_bytes()
    for i in range(count):
        (folder / f"{i:04d}.jpg").write_bytes(data)
    (folder / "notes.txt").write_text("ignored")
    return folder


def test_a_folder_plays_its_frames_then_ends(tmp_path: Path) -> None:
    camera = RecordedCamera(frames_folder(tmp_path, 3))
    frames = [camera.read() for _ in range(4)]
    assert [f is not None for f in frames] == [True, True, True, False]
    assert camera.finished() and "ended" in camera.status().message


def test_a_folder_gives_frames_as_stored_like_a_camera(tmp_path: Path) -> None:
    (tmp_path / "phone.jpg").write_bytes(
        with_exif_orientation((QR / "straight-720p.jpg").read_bytes(), 6))
    frame = RecordedCamera(tmp_path).read()
    # 1280 x 720 as stored, not turned to 720 x 1280
    assert frame is not None and frame.shape[:2] == (720, 1280)


def test_a_video_file_plays(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 5, (64, 48))
    for i in range(4):
        writer.write(np.full((48, 64, 3), i * 40, np.uint8))
    writer.release()
    camera = open_camera(str(path))
    got = 0
    while camera.read() is not None:
        got += 1
    assert got == 4


def test_bad_sources_are_statuses_or_config_errors(tmp_path: Path) -> None:
    assert not RecordedCamera(tmp_path).status().ok  # an empty folder
    assert not RecordedCamera(tmp_path / "nope.mp4").status().ok
    with pytest.raises(ConfigError, match="unknown camera source"):
        open_camera("ftp:thing")


def test_a_missing_webcam_is_a_status_and_is_retried() -> None:
    now = [0.0]
    camera = OpenCVCamera(99, reconnect_seconds=5.0)
    camera._clock = lambda: now[0]  # a controllable clock: no sleeping in tests
    assert camera.read() is None
    status = camera.status()
    assert not status.ok and "no camera at /dev/video99" in status.message
    tries = camera._last_try
    assert camera.read() is None and camera._last_try == tries  # too soon to try again
    now[0] = 6.0
    assert camera.read() is None and camera._last_try == 6.0  # tried again


def test_without_picamera2_the_pi_camera_says_how_to_install_it() -> None:
    if importlib.util.find_spec("picamera2") is not None:
        pytest.skip("picamera2 is installed here: this test is for machines without it")
    camera = PiCamera()
    assert camera.read() is None
    assert "picamera2" in camera.status().message


def test_the_camera_loop_reports_stable_cards_from_a_recording(tmp_path: Path) -> None:
    reports = list(watch(RecordedCamera(frames_folder(tmp_path, 6))))
    cards = sorted(r["card"] for r in reports if r["type"] == "card")
    assert cards == ["CG/CAPTAIN/LADY-MACBETH", "CG/CAPTAIN/RICHARD-III",
                     "CG/PERMIT/BARRAGE/3", "CG/PERMIT/SHIELD/1",
                     "CG/WILDCARD/DIPLOMATIC-IMMUNITY/2"]
    assert reports[0] == {"type": "camera", "ok": True, "source": str(tmp_path / "frames"),
                          "message": "recording"}


def test_the_camera_loop_survives_no_camera() -> None:
    reports = list(watch(OpenCVCamera(99), max_frames=3, idle_seconds=0.0))
    assert [r["type"] for r in reports] == ["camera"] and not reports[0]["ok"]


def test_scan_camera_with_no_camera_says_so_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main
    assert main(["scan", "--camera", "/dev/video99", "--frames", "2", "--no-pips"]) == 1
    captured = capsys.readouterr()
    assert "not available" in captured.out
    assert "the camera /dev/video99 gave no picture" in captured.err


def test_scan_camera_refuses_a_bad_resolution(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main
    assert main(["scan", "--camera", "0", "--resolution", "big", "--frames", "1"]) == 2
    assert "WIDTHxHEIGHT" in capsys.readouterr().err


def test_scan_camera_reads_taught_dice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main
    from tests.web.test_loop import ROLLS_QUARANTINE, teach_burke_dice

    teach_burke_dice(tmp_path)
    capsys.readouterr()
    assert main(["scan", "--camera", str(ROLLS_QUARANTINE), "--no-pips", "--dice", "burke",
                 "--data", str(tmp_path)]) == 0
    assert "roll: QUARANTINE" in capsys.readouterr().out.splitlines()


def test_a_frame_that_reads_a_settled_roll_skips_the_careful_code_pass(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The frame budget: the dice reader and the careful QR band never run in one frame."""
    import companion.runtime.camera_loop as loop
    from companion.vision.motion import READS, SettleGate

    careful: list[int] = []
    real = loop.careful_codes
    monkeypatch.setattr(loop, "careful_codes",
                        lambda still, frame, i: careful.append(i) or real(still, frame, i))
    dice: list[int] = []

    def read_dice(frame: object, codes: object) -> list[object]:
        dice.append(len(careful))
        return []

    list(watch(RecordedCamera(frames_folder(tmp_path, 12)), read_dice=read_dice,  # type: ignore[arg-type]
               settle=SettleGate()))
    assert len(dice) >= READS and len(careful) + len(dice) == 12  # each frame one or the other


def test_the_service_with_no_camera_stops_at_once(tmp_path: Path) -> None:
    """No frame ever comes, so nothing the frames pass by can stop the loop: the stop itself
    must (before, the thread outlived the service's stop and the process's exit)."""
    from companion.runtime.service import Services
    from companion.settings import Settings

    built = Services.build(Settings(camera="99"), tmp_path / "data")
    built.start()
    thread = built.camera._thread
    deadline = time.monotonic() + 10
    while built.camera.status["source"] is None and time.monotonic() < deadline:
        time.sleep(0.02)  # its first report, "no camera", is in: now it only waits
    assert thread is not None and thread.is_alive()
    built.close()
    assert not thread.is_alive()
