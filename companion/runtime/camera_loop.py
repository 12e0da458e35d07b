"""The camera loop: frames from a Camera, readings from vision, stable reports out.

Each frame gets the fast QR pass over the whole frame and the slow passes on one band of
it, a different band each frame, so per-frame work stays small on a Pi while every part of
the table gets the careful read every few frames. Boards (a BoardWatch) are placed by the
corner stickers among those codes and read cell by cell where they changed.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from companion.devices.camera import Camera, DeviceStatus, RecordedCamera
from companion.vision.board_watch import BoardWatch
from companion.vision.motion import SettleGate
from companion.vision.qr import CodeReading, read_codes, read_codes_in_tile
from companion.vision.scan import card_id
from companion.vision.still import StillAverage
from companion.vision.tracker import DieReading, ReadingTracker

log = logging.getLogger(__name__)
TILES = 4
# Reads the dice of a frame, given the QR stickers read in it (no die lies on a sticker).
ReadDice = Callable[[Any, list[CodeReading]], list[DieReading]]


def _no_dice(frame: Any, codes: list[CodeReading]) -> list[DieReading]:
    return []


def watch(camera: Camera, tracker: ReadingTracker | None = None,
          read_dice: ReadDice | None = None, max_frames: int | None = None,
          idle_seconds: float = 0.2,
          on_frame: Callable[[Any], None] | None = None,
          boards: BoardWatch | None = None,
          settle: SettleGate | None = None,
          stop: threading.Event | None = None) -> Iterator[dict[str, Any]]:
    """Yield stable reports (and camera status changes) until the source ends, or after
    ``max_frames`` attempts to read a frame (counting attempts with no camera too).
    ``on_frame`` sees every frame (the service keeps the last one for a snapshot); ``boards``
    watches the boards it is told to look for. With ``settle``, dice are read only once the
    roll has settled (motion.py), not every frame. ``stop`` set ends it at once, frames or
    none (a service with no camera stops without waiting for one)."""
    tracker = tracker or ReadingTracker()
    read_dice = read_dice or _no_dice
    still = StillAverage()
    frames = 0
    attempts = 0
    last_status: DeviceStatus | None = None
    stop = stop or threading.Event()
    while (max_frames is None or attempts < max_frames) and not stop.is_set():
        attempts += 1
        frame = camera.read()
        status = camera.status()
        if status != last_status:
            last_status = status
            yield {"type": "camera", "ok": status.ok, "source": status.source,
                   "message": status.message}
        if frame is None:
            if isinstance(camera, RecordedCamera) and camera.finished():
                return
            stop.wait(idle_seconds)  # no device now: the camera retries on its own
            continue
        if on_frame is not None:
            on_frame(frame)
        read_now = settle is None or settle.wants_read(frame)
        codes = read_codes(frame, thorough=False)
        if settle is None or not read_now:  # a settled roll's frame spends its time on dice
            codes += careful_codes(still, frame, frames)
        cards = [c for c in codes if boards is None or not boards.is_corner(c)]
        read = partial(read_dice, frame, codes + board_areas(boards))
        dice = read() if settle is None else settle.result(read_now, read)
        for report in tracker.update(cards, dice):
            if report["type"] == "card":
                report["card"] = card_id(report["payload"])
            yield report
        yield from board_reports(boards, frame, codes)
        frames += 1


def careful_codes(still: StillAverage, frame: Any, index: int) -> list[CodeReading]:
    """The careful pass of frame ``index``: one band of the average of the still frames
    (noise and JPEG fade where nothing moves), in one of the careful looks in turn."""
    return read_codes_in_tile(still.add(frame), index % TILES, TILES, index // TILES)


def board_areas(boards: BoardWatch | None) -> list[CodeReading]:
    """The boards in view, where no die is read (a marker on a piece is no die)."""
    return [] if boards is None else boards.areas()


def board_reports(boards: BoardWatch | None, frame: Any,
                  codes: list[CodeReading]) -> list[dict[str, Any]]:
    """What the boards in view became this frame (their stable readings, what is in view)."""
    return [] if boards is None else boards.update(frame, codes)
