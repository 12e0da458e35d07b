"""Frame sources: a USB webcam (OpenCV, V4L2, MJPEG), the Pi camera (picamera2), recordings.

A camera that is missing or unplugged is a status, never a crash: ``read()`` returns None,
``status()`` says why and how to fix it, and the device tries again after
``reconnect_seconds``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, cast

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.errors import ConfigError

Frame = NDArray[np.uint8]
# OpenCV logs a warning on every failed open; the status says it once, with a fix.
cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".mjpeg", ".webm")


@dataclass(frozen=True)
class DeviceStatus:
    ok: bool
    source: str
    message: str


class Camera(Protocol):
    """A source of BGR frames."""

    def read(self) -> Frame | None:
        """The next frame, or None if there is none now (no device, or a recording ended)."""

    def status(self) -> DeviceStatus:
        """Whether frames are coming, and if not, why."""

    def close(self) -> None:
        """Release the device."""


class _Reconnecting:
    """Opens a device lazily and again after a failure, never more often than the interval."""

    def __init__(self, source: str, reconnect_seconds: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.source = source
        self.reconnect_seconds = reconnect_seconds
        self._clock = clock
        self._last_try = -1e9
        self._status = DeviceStatus(False, source, "not opened yet")

    def _may_try(self) -> bool:
        now = self._clock()
        if now - self._last_try < self.reconnect_seconds:
            return False
        self._last_try = now
        return True

    def _fail(self, message: str) -> None:
        self._status = DeviceStatus(False, self.source, message)

    def _ok(self, message: str) -> None:
        self._status = DeviceStatus(True, self.source, message)

    def status(self) -> DeviceStatus:
        return self._status


class OpenCVCamera(_Reconnecting):
    """A USB webcam through OpenCV (V4L2 on Linux), MJPEG at the chosen resolution."""

    def __init__(self, device: int | str = 0, width: int = 1280, height: int = 720,
                 fps: int = 15, reconnect_seconds: float = 2.0) -> None:
        super().__init__(f"webcam {device}", reconnect_seconds)
        self.device = device
        self.size = (width, height)
        self.fps = fps
        self._capture: Any = None

    def _open(self) -> None:
        backend = cv2.CAP_V4L2 if isinstance(self.device, int) else cv2.CAP_ANY
        capture = cv2.VideoCapture(self.device, backend)
        if not capture.isOpened():
            capture.release()
            hint = (f"no camera at /dev/video{self.device}: plug one in, or check that this user"
                    " is in the video group" if isinstance(self.device, int)
                    else f"cannot open {self.device}")
            self._fail(hint)
            return
        capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        capture.set(cv2.CAP_PROP_FPS, self.fps)
        capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not a queue of old ones
        self._capture = capture
        width = int(capture.get(cv2.CAP_PROP_FRAME_WIDTH))
        height = int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT))
        self._ok(f"{width}x{height}")

    def read(self) -> Frame | None:
        if self._capture is None:
            if not self._may_try():
                return None
            self._open()
            if self._capture is None:
                return None
        ok, frame = self._capture.read()
        if not ok or frame is None:
            self._capture.release()
            self._capture = None
            self._fail("the camera stopped sending frames (unplugged?); retrying")
            return None
        return cast(Frame, frame)

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


# Where Raspberry Pi OS installs python3-picamera2 (apt only: it is built against the OS's
# libcamera, so pip cannot install it into the companion's virtual environment).
SYSTEM_PACKAGES = Path("/usr/lib/python3/dist-packages")


def import_picamera2(system: Path = SYSTEM_PACKAGES) -> Any:
    """The picamera2 module: from the environment, else from the OS's packages (added at the
    end of the path, so the environment's own packages still come first)."""
    try:
        import picamera2
    except ImportError:
        if not (system / "picamera2").is_dir():
            raise
        if str(system) not in sys.path:
            sys.path.append(str(system))
        import picamera2
    return picamera2


class PiCamera(_Reconnecting):
    """The Raspberry Pi camera through picamera2, where it is installed."""

    def __init__(self, width: int = 1280, height: int = 720,
                 reconnect_seconds: float = 2.0) -> None:
        super().__init__("pi camera", reconnect_seconds)
        self.size = (width, height)
        self._camera: Any = None

    def read(self) -> Frame | None:
        if self._camera is None:
            if not self._may_try():
                return None
            try:
                camera = import_picamera2().Picamera2()  # a Pi with python3-picamera2
                camera.configure(camera.create_video_configuration(
                    main={"size": self.size, "format": "BGR888"}))
                camera.start()
            except ImportError:
                self._fail("picamera2 is not installed: sudo apt install python3-picamera2")
                return None
            except Exception as exc:  # noqa: BLE001 (any libcamera failure is a status)
                self._fail(f"the Pi camera cannot start: {exc}")
                return None
            self._camera = camera
            self._ok(f"{self.size[0]}x{self.size[1]}")
        try:
            return cast(Frame, self._camera.capture_array())
        except Exception as exc:  # noqa: BLE001
            self.close()
            self._fail(f"the Pi camera stopped: {exc}; retrying")
            return None

    def close(self) -> None:
        if self._camera is not None:
            try:
                self._camera.stop()
            finally:
                self._camera = None


class RecordedCamera:
    """Frames from a folder of images (sorted by name) or a video file, for tests and demos.
    With ``follow``, a folder is watched for new images once those in it are read (a capture
    script, or a test, can feed it), and the recording never ends."""

    def __init__(self, path: Path, loop: bool = False, follow: bool = False) -> None:
        self.path = path
        self.loop = loop
        self.follow = follow and path.is_dir()
        self._frames: list[Path] = []
        self._index = 0
        self._video: Any = None
        self._status = DeviceStatus(True, str(path), "recording")
        if path.is_dir():
            self._frames = self._listing()
            if not self._frames and not self.follow:
                self._status = DeviceStatus(False, str(path), "no images in this folder")
        elif path.suffix.lower() in VIDEO_SUFFIXES and path.is_file():
            self._video = cv2.VideoCapture(str(path))
            if not self._video.isOpened():
                self._status = DeviceStatus(False, str(path), "cannot open this video")
        else:
            self._status = DeviceStatus(False, str(path), "not a folder of images or a video")

    def _listing(self) -> list[Path]:
        return sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)

    def read(self) -> Frame | None:
        if self.follow and self._index >= len(self._frames):
            seen = set(self._frames)
            self._frames += [p for p in self._listing() if p not in seen]
        if self._video is not None:
            ok, frame = self._video.read()
            if not ok and self.loop:
                self._video.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, frame = self._video.read()
            if not ok:
                self._status = DeviceStatus(False, str(self.path), "the recording has ended")
                return None
            return cast(Frame, frame)
        while self._index < len(self._frames) or (self.loop and self._frames):
            if self._index >= len(self._frames):
                self._index = 0
            path = self._frames[self._index]
            self._index += 1
            # as stored, like a camera's frame and `companion scan` (no EXIF turn)
            frame = cv2.imread(str(path), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
            if frame is not None:
                return cast(Frame, frame)
        if self._frames and not self.follow:
            self._status = DeviceStatus(False, str(self.path), "the recording has ended")
        return None

    def status(self) -> DeviceStatus:
        return self._status

    def finished(self) -> bool:
        return not self.follow and not self._status.ok

    def close(self) -> None:
        if self._video is not None:
            self._video.release()


def camera_off(source: str) -> bool:
    """Whether a camera setting says there is to be no camera."""
    return source.strip().lower() in ("", "none", "off")


def parse_resolution(text: str, what: str = "resolution") -> tuple[int, int]:
    """``WIDTHxHEIGHT`` as two numbers; a ConfigError naming ``what`` otherwise."""
    width, _, height = text.lower().partition("x")
    if not (width.isdigit() and height.isdigit()):
        raise ConfigError(f"{what} {text!r}: write it as WIDTHxHEIGHT")
    return int(width), int(height)


def open_camera(source: str, width: int = 1280, height: int = 720,
                follow: bool = False) -> Camera:
    """A camera from a setting: ``0`` or ``/dev/video0`` (webcam), ``picamera``, a folder of
    images or a video file (recordings), or the same with a scheme: ``opencv:0``,
    ``picamera:``, ``folder:PATH``, ``video:PATH``."""
    scheme, _, rest = source.partition(":") if ":" in source else ("", "", source)
    if scheme in ("opencv", "") and (rest.isdigit() or rest.startswith("/dev/video")):
        device: int | str = int(rest) if rest.isdigit() else rest
        return OpenCVCamera(device, width, height)
    if scheme == "picamera" or rest == "picamera":
        return PiCamera(width, height)
    if scheme in ("folder", "video", ""):
        return RecordedCamera(Path(rest), follow=follow)
    raise ConfigError(f"unknown camera source {source!r}: use a device number, /dev/videoN,"
                      " picamera, a folder of images or a video file")
