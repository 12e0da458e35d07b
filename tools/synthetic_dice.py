"""Render synthetic custom dice (symbol faces) for the taught-dice fixtures and tests.

A die is drawn from above as a rounded square of one body colour with a symbol on its top
face, turned to any angle, with a soft shadow and a slight shading gradient, on a textured
table; ``teach_image`` shows one die, ``scene`` several. Symbols stand in for Burke's Gambit's
ten faces; the reader never knows what they are, it only learns them from examples.
"""

from __future__ import annotations

import math
import random

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]

BURKE_FACES = ["DAMAGE-HEAL", "SCAN-LR", "SCAN-ANY", "ID-CHECK", "ENGINE", "STALL", "RESHUFFLE",
               "INSTA-KILL", "QUARANTINE", "CANCEL"]


PIPS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
        4: [(0, 0), (0, 2), (2, 0), (2, 2)], 5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
        6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]}


def _symbol(face: str, size: int, ink: tuple[int, int, int]) -> Image:
    """A face's symbol on a transparent (black) square; asymmetric shapes so rotation shows.
    Faces "1" to "6" are pips, as on an ordinary die."""
    img = np.zeros((size, size, 3), np.uint8)
    c, r, t = size // 2, size // 3, max(2, size // 14)
    if face in ("1", "2", "3", "4", "5", "6"):
        step = size / 3.4
        for row, col in PIPS[int(face)]:
            centre = (int(size / 2 + (col - 1) * step), int(size / 2 + (row - 1) * step))
            cv2.circle(img, centre, max(2, int(size * 0.09)), ink, -1, cv2.LINE_AA)
        return img
    if face == "DAMAGE-HEAL":
        cv2.line(img, (c - r, c), (c + r, c), ink, t)
        cv2.line(img, (c, c - r), (c, c + r // 3), ink, t)
    elif face == "SCAN-LR":
        cv2.arrowedLine(img, (c - r, c), (c + r, c), ink, t, tipLength=0.4)
        cv2.circle(img, (c, c - r // 2), r // 4, ink, -1)
    elif face == "SCAN-ANY":
        cv2.circle(img, (c, c), r, ink, t)
        cv2.circle(img, (c + r // 2, c - r // 2), r // 4, ink, -1)
    elif face == "ID-CHECK":
        cv2.rectangle(img, (c - r, c - r // 2), (c + r, c + r // 2), ink, t)
        cv2.circle(img, (c - r // 2, c), r // 4, ink, -1)
    elif face == "ENGINE":
        pts = np.array([[c - r // 3, c - r], [c + r // 2, c - r // 6], [c, c - r // 6],
                        [c + r // 3, c + r], [c - r // 2, c + r // 6], [c, c + r // 6]])
        cv2.fillPoly(img, [pts], ink)
    elif face == "STALL":
        cv2.rectangle(img, (c - r, c - r), (c - r // 3, c + r), ink, -1)
        cv2.rectangle(img, (c + r // 6, c - r), (c + r // 2, c + r // 3), ink, -1)
    elif face == "RESHUFFLE":
        cv2.ellipse(img, (c, c), (r, r), 0, 30, 300, ink, t)
        cv2.arrowedLine(img, (c + r, c - r // 3), (c + r, c + r // 4), ink, t, tipLength=0.5)
    elif face == "INSTA-KILL":
        cv2.line(img, (c - r, c - r), (c + r, c + r), ink, t + 1)
        cv2.line(img, (c + r, c - r), (c - r // 3, c + r // 3), ink, t + 1)
    elif face == "QUARANTINE":
        pts = np.array([[c, c - r], [c + r, c + r], [c - r, c + r]])
        cv2.polylines(img, [pts], True, ink, t)
        cv2.circle(img, (c, c + r // 3), r // 5, ink, -1)
    elif face == "CANCEL":
        cv2.circle(img, (c, c), r, ink, t)
        cv2.line(img, (c - r // 2, c - r // 2), (c + r // 2, c + r // 2), ink, t)
    else:  # a number, for d8 or d10 faces
        cv2.putText(img, face, (c - r, c + r // 2), cv2.FONT_HERSHEY_SIMPLEX, size / 40, ink,
                    t, cv2.LINE_AA)
    return img


def _die(face: str, side: int, body: tuple[int, int, int], ink: tuple[int, int, int],
         angle: float, light: float) -> tuple[Image, Image]:
    """The die's top face (rotated) and its mask, on a canvas large enough for any angle."""
    canvas = int(side * 1.6)
    img = np.zeros((canvas, canvas, 3), np.uint8)
    mask = np.zeros((canvas, canvas), np.uint8)
    off = (canvas - side) // 2
    radius = side // 6
    cv2.rectangle(mask, (off + radius, off), (off + side - radius, off + side), 255, -1)
    cv2.rectangle(mask, (off, off + radius), (off + side, off + side - radius), 255, -1)
    for cx, cy in ((off + radius, off + radius), (off + side - radius, off + radius),
                   (off + radius, off + side - radius), (off + side - radius, off + side - radius)):
        cv2.circle(mask, (cx, cy), radius, 255, -1)
    img[mask > 0] = body
    gradient = np.linspace(1.0 - 0.25 * light, 1.0 + 0.1 * light, canvas, dtype=np.float32)
    img = np.clip(img.astype(np.float32) * gradient[None, :, None], 0, 255).astype(np.uint8)
    symbol = _symbol(face, int(side * 0.8), (255, 255, 255))  # drawn white, painted in ink
    s0 = off + int(side * 0.1)
    region = img[s0:s0 + symbol.shape[0], s0:s0 + symbol.shape[1]]
    painted = symbol.sum(axis=2) > 0
    region[painted] = ink
    rotation = cv2.getRotationMatrix2D((canvas / 2, canvas / 2), angle, 1.0)
    return (cv2.warpAffine(img, rotation, (canvas, canvas)),
            cv2.warpAffine(mask, rotation, (canvas, canvas)))


def _table(size: tuple[int, int], rng: np.random.Generator) -> Image:
    w, h = size
    base = np.array(rng.integers(90, 160, 3), dtype=np.float32)
    grain = cv2.GaussianBlur(rng.normal(0, 10, (h, w)).astype(np.float32), (0, 0), 2)
    return np.clip(base[None, None, :] + grain[:, :, None], 0, 255).astype(np.uint8)


def scene(faces: list[str], seed: int, size: tuple[int, int] = (640, 480), side: int = 56,
          body: tuple[int, int, int] = (40, 40, 200), ink: tuple[int, int, int] = (245, 245, 245),
          blur: float = 0.0, jpeg: int = 90,
          spacing: float = 1.0) -> tuple[Image, list[dict[str, object]]]:
    """Dice with these faces up, spread over a table; returns the image and the truth.
    ``spacing`` 0.82 lets dice touch (below it they may overlap)."""
    rng = np.random.default_rng(seed)
    pick = random.Random(seed)
    img = _table(size, rng)
    truth: list[dict[str, object]] = []
    placed: list[tuple[int, int]] = []
    for face in faces:
        die, mask = _die(face, side, body, ink, pick.uniform(0, 360), pick.uniform(0, 1))
        canvas = die.shape[0]
        for _ in range(300):
            x = pick.randrange(0, size[0] - canvas - 4)
            y = pick.randrange(0, size[1] - canvas - 4)
            if all(math.hypot(x - px, y - py) > canvas * spacing for px, py in placed):
                break
        placed.append((x, y))
        shadow = cv2.GaussianBlur(mask, (0, 0), side / 10).astype(np.float32) / 255 * 0.45
        window = img[y + 4:y + 4 + canvas, x + 4:x + 4 + canvas].astype(np.float32)
        img[y + 4:y + 4 + canvas, x + 4:x + 4 + canvas] = (
            window * (1 - shadow[:, :, None])).astype(np.uint8)
        region = img[y:y + canvas, x:x + canvas]
        region[mask > 0] = die[mask > 0]
        ys, xs = np.nonzero(mask)
        truth.append({"value": face, "box": [int(x + xs.min()), int(y + ys.min()),
                                             int(xs.max() - xs.min() + 1),
                                             int(ys.max() - ys.min() + 1)]})
    if blur:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    ok, encoded = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
    assert ok
    return np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR), dtype=np.uint8), truth


def teach_image(face: str, seed: int, **kwargs: object) -> Image:
    """One die showing ``face``, as a user would hold it under the camera to teach it."""
    image, _ = scene([face], seed, **kwargs)  # type: ignore[arg-type]
    return image
