"""Taught dice: custom faces (a game's own symbols, d8 and d10 numerals) learned
from a few examples per face, then named when read.

Teaching: each example image shows one die with a known face up. The die is the largest
region that differs from the table (the table's colour is taken from the image border); its
colour and size are learned, and its top face is kept as a small upright template.
Reading: regions of the die's colour and size are found, each is cut out, turned upright by
its minimum-area rectangle, and compared with every template in four quarter turns by
normalised correlation. A region is reported only when one face matches well and clearly
better than every other face: an unknown object, a die on its edge or a hand is never
reported as a die.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.errors import CompanionError
from companion.vision.images import Image
from companion.vision.stored import npz_bytes, write_atomically
from companion.vision.tracker import DieReading

TEMPLATE_PX = 40
MIN_SCORE = 0.55  # correlation a face needs to count as seen
MIN_MARGIN = 0.06  # how much better than the next-best face it must be
_NAME_OK = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

Floats = NDArray[np.float32]


class TeachError(CompanionError, ValueError):
    """An example that cannot be learned from, or a model that cannot be loaded."""


@dataclass
class TaughtDice:
    """What a table taught about one kind of die."""

    name: str
    labels: list[str] = field(default_factory=list)  # one per template
    templates: list[Floats] = field(default_factory=list)  # TEMPLATE_PX squares, normalised
    colours: list[Floats] = field(default_factory=list)  # Lab body colour per example
    sides: list[float] = field(default_factory=list)  # die side in pixels per example

    @property
    def faces(self) -> list[str]:
        return sorted(set(self.labels))

    def body_colour(self) -> Floats:
        return cast(Floats, np.median(np.stack(self.colours), axis=0))

    def side_px(self) -> float:
        return float(np.median(self.sides))


def _lab(image: Image) -> Floats:
    return cast(Floats, cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32))


def _normalised(patch: NDArray[np.float32]) -> Floats:
    centred = patch - patch.mean()
    norm = float(np.linalg.norm(centred))
    return cast(Floats, centred / norm if norm > 1e-6 else centred)


def _upright(gray: NDArray[Any], rect: Any) -> Floats:
    """The region inside a rotated rectangle (cv2.minAreaRect's), upright, template-sized."""
    (cx, cy), (w, h), angle = rect
    side = max(w, h)
    matrix = np.asarray(cv2.getRotationMatrix2D((cx, cy), angle, TEMPLATE_PX / side),
                        dtype=np.float64)
    matrix[:, 2] += np.array([TEMPLATE_PX / 2 - cx, TEMPLATE_PX / 2 - cy])
    patch = cv2.warpAffine(gray, matrix, (TEMPLATE_PX, TEMPLATE_PX), flags=cv2.INTER_AREA,
                           borderMode=cv2.BORDER_REPLICATE)
    # The rounded corners carry table, not die: look at the middle of the face only. A little
    # blur makes the match forgive an outline a pixel or two off.
    inner = cv2.GaussianBlur(patch[4:-4, 4:-4].astype(np.float32), (0, 0), 1.2)
    return _normalised(np.asarray(inner, dtype=np.float32))


def _clean(mask: Image, side: float) -> Image:
    k = max(3, int(side / 8) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)  # fill the symbol's holes
    return cast(Image, cv2.morphologyEx(closed, cv2.MORPH_OPEN, kernel))


def learn_example(model: TaughtDice, face: str, image: Image) -> None:
    """Add one example: ``image`` shows one die of this kind with ``face`` up."""
    lab = _lab(image)
    border = np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]])
    table = np.median(border, axis=0)
    distance = np.linalg.norm(lab - table, axis=2)
    mask = (distance > 25).astype(np.uint8) * 255
    mask = _clean(mask, min(image.shape[:2]) / 10)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if count < 2:
        raise TeachError("no die found: show one die on a plain table, filling less than half"
                         " of the picture")
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    rough = labels == biggest
    # That region holds the die and its shadow; the die itself is what has the die's colour,
    # found the same way as when reading.
    colour = np.median(lab[rough], axis=0).astype(np.float32)
    body = _clean((np.linalg.norm(lab - colour, axis=2) < 30).astype(np.uint8) * 255,
                  float(np.sqrt(rough.sum())))
    contours, _ = cv2.findContours(body, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        raise TeachError("no die found: show one die on a plain table")
    contour = max(contours, key=cv2.contourArea)
    area = float(cv2.contourArea(contour))
    if area > 0.5 * mask.size or area < 100:
        raise TeachError("the die is too large or too small in this picture")
    rect = cv2.minAreaRect(contour)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    model.labels.append(face)
    model.templates.append(_upright(gray, rect))
    model.colours.append(colour)
    model.sides.append(float(np.sqrt(area)))


def _match(model: TaughtDice, patch: Floats) -> tuple[str, float, float]:
    """The best face for a patch, its score, and the margin over the next-best face."""
    turns = [np.rot90(patch, k) for k in range(4)]
    best: dict[str, float] = {}
    for label, template in zip(model.labels, model.templates, strict=True):
        score = max(float(np.sum(t * template)) for t in turns)
        best[label] = max(best.get(label, -1.0), score)
    ranked = sorted(best.items(), key=lambda item: -item[1])
    top_label, top = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else -1.0
    return top_label, top, top - second


def read_taught(model: TaughtDice, image: Image) -> list[DieReading]:
    """Every die of this kind in ``image`` whose face is clearly one the table taught."""
    if not model.templates:
        return []
    side = model.side_px()
    lab = _lab(image)
    distance = np.linalg.norm(lab - model.body_colour(), axis=2)
    mask = _clean((distance < 30).astype(np.uint8) * 255, side)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    out = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if not 0.45 * side * side <= area <= 1.8 * side * side:
            continue
        rect = cv2.minAreaRect(contour)
        (w, h) = rect[1]
        if min(w, h) < 0.6 * max(w, h):  # two dice touching, or not a die
            continue
        label, score, margin = _match(model, _upright(gray, rect))
        if score < MIN_SCORE or margin < MIN_MARGIN:
            continue
        x, y, bw, bh = cv2.boundingRect(contour)
        out.append(DieReading(model.name, label, (int(x), int(y), int(bw), int(bh)),
                              min(1.0, score)))
    return out


def check_name(name: str) -> str:
    if not name or not set(name) <= _NAME_OK or len(name) > 40:
        raise TeachError(f"{name!r} is not a usable dice name (letters, digits, - and _)")
    return name


def model_path(data: Path, name: str) -> Path:
    return data / "dice" / f"{check_name(name)}.npz"


def save(model: TaughtDice, data: Path) -> Path:
    meta = json.dumps({"name": model.name, "labels": model.labels, "sides": model.sides})
    return write_atomically(model_path(data, model.name), npz_bytes(
        compressed=True, templates=np.stack(model.templates),
        colours=np.stack(model.colours), meta=np.array(meta)))


def load(data: Path, name: str) -> TaughtDice:
    path = model_path(data, name)
    if not path.exists():
        raise TeachError(f"no dice named {name!r} have been taught (in {path.parent})")
    try:
        with np.load(path, allow_pickle=False) as stored:
            meta = json.loads(str(stored["meta"]))
            templates = [t.astype(np.float32) for t in stored["templates"]]
            colours = [c.astype(np.float32) for c in stored["colours"]]
    except (OSError, ValueError, KeyError) as exc:
        raise TeachError(f"the taught dice {name!r} cannot be read ({exc}); teach them again")\
            from None
    return TaughtDice(meta["name"], list(meta["labels"]), templates, colours,
                      [float(s) for s in meta["sides"]])


def taught_names(data: Path) -> list[str]:
    folder = data / "dice"
    return sorted(p.stem for p in folder.glob("*.npz")) if folder.is_dir() else []
