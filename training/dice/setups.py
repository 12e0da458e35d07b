"""The real dice setups in ../shared/data/dice and how each is used.

Each setup is a folder of photos from one table, camera and set of dice, labelled in YOLO form
(see its README). Their boxes follow different conventions, so each is turned into the one
the reader reports, **the top face**, for training:

- ``face``: the label is the top face (byler-train: top-down photos);
- ``pips``: the label is drawn round the top face's pips (matteop65-webcam). Its centre is the
  face's centre, its size is not the face's (a 1's box is one pip): the face is estimated from
  the dice showing 4 to 6 in the same photo (their pips span about 0.66 of the face), and the
  detector learns no box size from these labels;
- ``whole``: the label is the whole die, sides too (epanemu-cloth, skovy-floor). Where a die is
  clearly taller than wide, the camera looks at it from below in the picture: its top face is
  the upper part of the box: about half of it at the cloth's 1.4 times as high as wide
  (``top_face_share``). A box about as high as wide is the face.

Scoring always uses the setup's own labels with ``dice_score.py``: IoU for ``face`` sets,
``--match centre`` for the others (so the convention does not count against the reader).

Leave-one-setup-out: a fold named after a setup trains on every other setup (byler-train
always without its 40 held-out photos) and is scored on all of that setup's photos.
Adaptation (a table learning from its own confirmed dice) splits a setup's photos into a
pool (confirmations come from there, in order) and a test part, in runs, so near-identical
frames of one run do not fall on both sides.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from split import load_split, read_labels

REPO = Path(__file__).resolve().parents[2]
DATA_ROOT = Path(os.environ.get("DICE_SETS", REPO.parent / "shared" / "data" / "dice"))


@dataclass(frozen=True)
class Setup:
    name: str
    boxes: str  # "face", "pips" or "whole": what a label box is drawn round
    credit: str  # licence and credit, as the model card repeats them
    upright: bool = True
    """Photos taken from one side and kept upright: a die's top face lies above the side faces
    the camera also sees, so a crop's "up" tells the top face from a side face and is kept in
    training. False for top-down photos (byler-train), which are turned any way."""

    @property
    def folder(self) -> Path:
        return DATA_ROOT / self.name

    @property
    def match(self) -> str:
        """How dice_score.py matches this set's boxes with the reader's (top-face) boxes."""
        return "iou" if self.boxes == "face" else "centre"


SETUPS = {
    s.name: s
    for s in (
        Setup("byler-train", "face", "Nell Byler, dice_detection, BSD-3-Clause", upright=False),
        Setup("matteop65-webcam", "pips", "Matteo Anthony Penlington, Dice_Detection_Recognition,"
              " MIT-style"),
        Setup("epanemu-cloth", "whole", "Jiri Nemecek (Epanemu), GameDiceRecognition, CC BY 4.0"
              " (a selection)"),
        Setup("skovy-floor", "whole", "skovy, tensorflow-dice-model, MIT"),
    )
}
PIP_SPAN = 0.66  # a 4, 5 or 6's pips span this share of the face
TALL = 1.1  # a whole-die box this many times as high as wide shows a side below its top face
STEEPEST = 1.4  # a box this tall (a die seen from about 45 degrees) is half top face, half side


def top_face_share(tall: float) -> float:
    """The share of a whole-die box's height that is its top face, for a box ``tall`` times as
    high as wide: all of it seen from above, about half from 45 degrees (measured by eye on the
    cloth's dice, 1.4 times as high as wide: the top face's front edge at 0.5-0.6 of the box),
    in between linearly."""
    return float(np.clip(1 - 0.5 * (tall - 1) / (STEEPEST - 1), 0.5, 1.0))


def image_names(setup: Setup) -> list[str]:
    return sorted(p.name for p in (setup.folder / "images").iterdir()
                  if p.suffix.lower() in (".jpg", ".jpeg", ".png"))


def training_names(setup: Setup) -> list[str]:
    """The photos a model may train on: all of them, but byler-train's 40 held out."""
    if setup.name == "byler-train":
        return load_split(setup.folder)[0]
    return image_names(setup)


def labels(setup: Setup, name: str, width: int, height: int
           ) -> list[tuple[int, tuple[float, float, float, float]]]:
    """[(value, (x, y, w, h) pixels)] as labelled."""
    return read_labels(name, width, height, setup.folder)


def face_boxes(setup: Setup, dice: list[tuple[int, tuple[float, float, float, float]]]
               ) -> tuple[np.ndarray, bool]:
    """The top faces (N x 4, x1 y1 x2 y2) of a photo's labelled dice, and whether their size
    can be learned from (False for boxes round the pips)."""
    out = []
    if setup.boxes == "pips":
        spans = [max(w, h) / PIP_SPAN for v, (_, _, w, h) in dice if v >= 4]
        side = float(np.median(spans)) if spans else None
        for _, (x, y, w, h) in dice:
            cx, cy = x + w / 2, y + h / 2
            s = side if side is not None else max(w, h) / PIP_SPAN
            out.append([cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2])
        return np.array(out, np.float32).reshape(-1, 4), False
    for _, (x, y, w, h) in dice:
        if setup.boxes == "whole" and h > TALL * w:
            h *= top_face_share(h / w)
        out.append([x, y, x + w, y + h])
    return np.array(out, np.float32).reshape(-1, 4), True


def runs(setup: Setup) -> list[list[str]]:
    """The photos in runs of one session: a name's stem without its trailing number (webcam:
    `five_12` is in the run `five`), in number order; a setup without such runs is one run in
    name order (the floor's names are times; the cloth's are numbers)."""
    groups: dict[str, list[tuple[int, str]]] = {}
    for name in image_names(setup):
        stem = Path(name).stem
        found = re.fullmatch(r"(.*?)_?(\d+)", stem)
        key, number = (found.group(1), int(found.group(2))) if found else (stem, 0)
        if setup.name != "matteop65-webcam":
            key, number = "", 0
        groups.setdefault(key, []).append((number, name))
    return [[name for _, name in sorted(group)] for _, group in sorted(groups.items())]


def adaptation_split(setup: Setup) -> tuple[list[str], list[str]]:
    """(pool, test): the first half of every run is the pool a table's confirmations come
    from (in that order, runs interleaved), the second half is scored."""
    pool_runs, test = [], []
    for run in runs(setup):
        half = len(run) // 2
        pool_runs.append(run[:half])
        test += run[half:]
    pool = [name for group in zip_longest_all(pool_runs) for name in group]
    return pool, sorted(test)


def zip_longest_all(lists: list[list[str]]) -> list[list[str]]:
    """[[a0, b0, ...], [a1, b1, ...], ...]: one of each list in turn."""
    longest = max((len(x) for x in lists), default=0)
    return [[x[i] for x in lists if i < len(x)] for i in range(longest)]
