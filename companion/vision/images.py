"""Loading images safely: size limits are checked before a file is decoded."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import cast

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.errors import CompanionError

MAX_FILE_BYTES = 50 * 1024 * 1024
MAX_PIXELS = 40_000_000  # 40 megapixels, e.g. 8000 x 5000: larger images are refused

Image = NDArray[np.uint8]
# Pixels as stored: OpenCV would turn a phone photo upright by its EXIF orientation, but boxes
# are reported in pixels of the image as stored (ARCHITECTURE.md), which labels and
# dice_score.py use.
AS_STORED = cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION


class ImageError(CompanionError, ValueError):
    """An image that cannot be used: unreadable, not an image, empty or too large."""


def header_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG or JPEG header, without decoding; None for other formats."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    if data[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xD8, 0x01, 0xFF) or 0xD0 <= marker <= 0xD7:
            i += 2 if marker != 0xFF else 1
            continue
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE,
                      0xCF):
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return int(width), int(height)
        i += 2 + length
    return None


def decode_image(data: bytes, name: str = "image") -> Image:
    """A BGR image from encoded bytes; raises ImageError with a clear reason."""
    if not data:
        raise ImageError(f"{name} is empty")
    if len(data) > MAX_FILE_BYTES:
        raise ImageError(f"{name} is larger than {MAX_FILE_BYTES // 2**20} MB")
    size = header_size(data)
    if size is not None:
        width, height = size
        if width * height > MAX_PIXELS:
            raise ImageError(f"{name} is {width}x{height}: above the limit of"
                             f" {MAX_PIXELS // 1_000_000} megapixels")
        if width == 0 or height == 0:
            raise ImageError(f"{name} has no pixels")
    image = cast(Image | None, cv2.imdecode(np.frombuffer(data, np.uint8), AS_STORED))
    if image is None:
        raise ImageError(f"{name} is not an image OpenCV can read (or it is corrupt)")
    if image.size == 0:
        raise ImageError(f"{name} has no pixels")
    if image.shape[0] * image.shape[1] > MAX_PIXELS:
        raise ImageError(f"{name} is above the limit of {MAX_PIXELS // 1_000_000} megapixels")
    return image


def load_image(path: Path) -> Image:
    """Read and decode an image file; raises ImageError with a clear reason."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise ImageError(f"{path} is larger than {MAX_FILE_BYTES // 2**20} MB")
        data = path.read_bytes()
    except IsADirectoryError:
        raise ImageError(f"{path} is a folder, not an image") from None
    except OSError as exc:
        raise ImageError(f"cannot read {path}: {exc.strerror or exc}") from None
    return decode_image(data, str(path))


def to_gray(image: Image) -> Image:
    if image.ndim == 2:
        return image
    return cast(Image, cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))


def encode_jpeg(image: Image, max_width: int = 640, quality: int = 70) -> bytes:
    """A small JPEG of a frame, for a phone's "what the camera sees" (never the full frame:
    a Pi's uplink and a phone's screen need no more)."""
    height, width = image.shape[:2]
    small = image
    if width > max_width:
        small = cast(Image, cv2.resize(image, (max_width, round(height * max_width / width)),
                                       interpolation=cv2.INTER_AREA))
    ok, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ImageError("could not encode the frame")
    return bytes(data.tobytes())
