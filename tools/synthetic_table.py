"""Render synthetic camera frames of a table with QR-stickered cards, for fixtures and benchmarks.

No camera is at hand where this project is built, so frames are rendered: a textured table
seen from above at a chosen width (mm) by a camera tilted up to ``tilt_deg``, cards carrying
the companion's true-size stickers, then blur, glare, uneven light, noise and JPEG. Real
recorded frames from a Pi camera should join these fixtures; the format is the same.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import cv2
import numpy as np
import segno
from numpy.typing import NDArray

from companion.stickers import MODULE_MM, QUIET_MODULES, qr_matrix

Image = NDArray[np.uint8]
CARD_MM = (63.0, 88.0)


@dataclass
class Scene:
    """What to draw: payloads on cards, and how the camera and light treat them."""

    payloads: list[str]
    table_mm: float = 600.0  # width of table in view
    size: tuple[int, int] = (1280, 720)
    tilt_deg: float = 0.0
    module_mm: float = MODULE_MM
    blur_px: float = 0.0
    glare_on: list[int] = field(default_factory=list)  # indexes of cards with glare
    uneven_light: float = 0.0  # 0 to 1
    noise: float = 0.0  # standard deviation, grey levels
    jpeg_quality: int = 90
    seed: int = 0
    frame: int = 0  # another frame of the same still scene: only its noise and JPEG differ


def _table_texture(width: int, height: int, rng: np.random.Generator) -> Image:
    base = np.array(rng.integers(60, 170, 3), dtype=np.float32)
    grain = cv2.GaussianBlur(rng.normal(0, 18, (height, width)).astype(np.float32), (0, 0), 3)
    streaks = cv2.resize(rng.normal(0, 10, (height // 8 + 1, 4)).astype(np.float32),
                         (width, height))
    img = np.clip(base[None, None, :] + (grain + streaks)[:, :, None], 0, 255)
    return img.astype(np.uint8)


def _card(payload: str, px_per_mm: float, module_mm: float) -> Image:
    w, h = (int(round(v * px_per_mm)) for v in CARD_MM)
    card = np.full((h, w, 3), (235, 238, 240), np.uint8)
    cv2.rectangle(card, (3, 3), (w - 4, h - 4), (90, 60, 40), 2)
    try:
        matrix = np.array(qr_matrix(payload), dtype=np.uint8)
    except (ValueError, segno.DataOverflowError):  # not one of our payloads: any QR code
        matrix = np.array([list(row) for row in segno.make(payload).matrix], dtype=np.uint8)
    modules = matrix.shape[0] + 2 * QUIET_MODULES
    side = int(round(modules * module_mm * px_per_mm))
    code = np.pad(1 - matrix, QUIET_MODULES, constant_values=1) * 255
    sticker = cv2.resize(code, (side, side), interpolation=cv2.INTER_AREA)
    x0, y0 = (w - side) // 2, (h - side) // 3
    if x0 >= 0 and y0 >= 0 and side <= w:
        card[y0:y0 + side, x0:x0 + side] = sticker[:, :, None]
    return card


def render(scene: Scene) -> tuple[Image, list[str]]:
    """A frame, and the payloads placed in it (every card lies wholly inside the view)."""
    rng = np.random.default_rng(scene.seed)
    pick = random.Random(scene.seed)
    out_w, out_h = scene.size
    px_per_mm = 4.0  # the top-down table image, before the camera sees it
    table_w = int(scene.table_mm * px_per_mm)
    table_h = int(table_w * out_h / out_w)
    table = _table_texture(table_w, table_h, rng)
    placed: list[tuple[float, float]] = []
    glare_spots = []
    for index, payload in enumerate(scene.payloads):
        card = _card(payload, px_per_mm, scene.module_mm)
        angle = pick.uniform(0, 360)
        h, w = card.shape[:2]
        diag = int(math.hypot(w, h)) + 4
        for _ in range(200):  # a free spot, cards apart
            cx = pick.uniform(diag / 2, table_w - diag / 2)
            cy = pick.uniform(diag / 2, table_h - diag / 2)
            if all(math.hypot(cx - x, cy - y) > diag for x, y in placed):
                break
        placed.append((cx, cy))
        matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
        matrix[:, 2] += (cx - w / 2, cy - h / 2)
        mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), matrix, (table_w, table_h))
        warped = cv2.warpAffine(card, matrix, (table_w, table_h))
        table[mask > 0] = warped[mask > 0]
        if index in scene.glare_on:
            glare_spots.append((cx + pick.uniform(-20, 20), cy - h * 0.15))
    # The camera: tilt foreshortens the far side of the table.
    squeeze = math.sin(math.radians(scene.tilt_deg)) * 0.45
    src = np.float32([[0, 0], [table_w, 0], [table_w, table_h], [0, table_h]])
    dst = np.float32([[out_w * squeeze / 2, out_h * squeeze * 0.5],
                      [out_w * (1 - squeeze / 2), out_h * squeeze * 0.5],
                      [out_w, out_h], [0, out_h]])
    frame = cv2.warpPerspective(table, cv2.getPerspectiveTransform(src, dst), (out_w, out_h),
                                flags=cv2.INTER_AREA, borderValue=(40, 40, 40))
    light = frame.astype(np.float32)
    if glare_spots:
        homography = cv2.getPerspectiveTransform(src, dst)
        for gx, gy in glare_spots:
            point = cv2.perspectiveTransform(np.float32([[[gx, gy]]]), homography)[0, 0]
            spot = np.zeros((out_h, out_w), np.float32)
            cv2.circle(spot, (int(point[0]), int(point[1])), int(out_w * 0.02), 1.0, -1)
            spot = cv2.GaussianBlur(spot, (0, 0), out_w * 0.012)
            light += spot[:, :, None] * 230
    if scene.uneven_light:
        gradient = np.linspace(1 - scene.uneven_light * 0.6, 1.0, out_w, dtype=np.float32)
        light *= gradient[None, :, None]
    if scene.blur_px:
        light = cv2.GaussianBlur(light, (0, 0), scene.blur_px)
    if scene.noise:
        noise = np.random.default_rng((scene.seed, scene.frame)) if scene.frame else rng
        light += noise.normal(0, scene.noise, light.shape).astype(np.float32)
    frame = np.clip(light, 0, 255).astype(np.uint8)
    ok, encoded = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg_quality])
    assert ok
    decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return np.asarray(decoded, dtype=np.uint8), list(scene.payloads)
