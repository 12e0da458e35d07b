"""The fixed train / held-out split of the Byler dice photos.

Rule: sort the image names, shuffle with random.Random(20261126), the first 40 are
held out (never used for training or tuning), the other 160 are for training.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import cv2
import numpy as np

from companion.vision.images import AS_STORED

REPO = Path(__file__).resolve().parents[2]
# The photos stay in the shared folder beside the repository; DICE_DATA points elsewhere.
DATA = Path(os.environ.get("DICE_DATA", REPO.parent / "shared" / "data" / "dice" / "byler-train"))
HOLDOUT_SEED = 20261126
HOLDOUT_N = 40


def load_split(data: Path = DATA) -> tuple[list[str], list[str]]:
    names = sorted(
        p.name for p in (data / "images").iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png")
    )
    random.Random(HOLDOUT_SEED).shuffle(names)
    return sorted(names[HOLDOUT_N:]), sorted(names[:HOLDOUT_N])


def read_photo(path: Path) -> np.ndarray:
    """A photo's pixels as stored, not turned by its EXIF orientation: labels, dice_score.py
    and `companion scan` all use the stored pixels."""
    image = cv2.imread(str(path), AS_STORED)
    if image is None:
        raise FileNotFoundError(f"cannot read the photo {path}")
    return image


def read_labels(
    name: str, w: int, h: int, data: Path = DATA
) -> list[tuple[int, tuple[float, float, float, float]]]:
    """[(value 1..6, (x, y, w, h) pixels)] for one image."""
    out = []
    label = data / "labels" / (Path(name).stem + ".txt")
    for line in label.read_text().splitlines() if label.exists() else []:
        if line.strip():
            c, xc, yc, bw, bh = line.split()[:5]
            bw_px, bh_px = float(bw) * w, float(bh) * h
            out.append(
                (int(c) + 1, (float(xc) * w - bw_px / 2, float(yc) * h - bh_px / 2, bw_px, bh_px))
            )
    return out


def link_held_out(dest: Path, data: Path = DATA) -> Path:
    """A folder of links to the held-out photos and their labels, as dice_score.py reads it
    (links already there are kept: a second scoring reuses the folder)."""
    for sub in ("images", "labels"):
        (dest / sub).mkdir(parents=True, exist_ok=True)
    for name in load_split(data)[1]:
        for sub, file in (("images", name), ("labels", Path(name).stem + ".txt")):
            if not (dest / sub / file).is_symlink():
                (dest / sub / file).symlink_to(data / sub / file)
    return dest
