"""Pip dice (d6): find every die in a frame and read its top face, with a small learned model.

Two stages, trained by training/dice/train.py and shipped in models/dice/ (see the model card
there), run with onnxruntime on the CPU, no PyTorch:

1. a CenterNet-style detector: a "die here" heatmap at a quarter of its input's resolution, box
   size and centre offset (it finds dice of any value; the classifier reads them); candidates
   are the local maxima scoring at least ``DET_THRESHOLD``. It learned dice of 16 to 70 px,
   so it looks at the frame at several scales ("levels"): a camera frame with its long side
   640 and 320 px, a photo also at 160 and 80 px (taken close) and at 1280 and up to 1920 px,
   as far as the photo has pixels (dice small in a big photo);
2. a crop classifier: each candidate is cut from the full-resolution frame (so pips stay
   sharp) as a square of 1.2 times the box, scaled to the classifier's input size (48 x 48
   for the shipped model, read from the model), and classified as "not a die"
   or 1 to 6 (``propose``). A crop the classifier is unsure of (no class at ``SURE`` or more)
   is looked at again turned and mirrored (``CLS_VIEWS``) and the answers averaged: that
   costs 3 more runs, so only the few unsure crops get it (in a camera frame, at most
   ``SECOND_LOOKS``). A table's adaptation (``adapt.py``) replaces the classifier's last
   layer with one fitted on the dice confirmed at that table (``Head``);
3. ``decide``: a die is reported with its value only when that value is likely enough
   (``DiceSettings``: a coarse level's candidate needs more); a candidate likely a die whose
   value is not (or a die half out of the roll zone) is reported as ``UNSURE``, with no
   value, for the phone to ask; anything else is left out: missing a die is preferred to
   inventing one;
4. where levels disagree, the finest level that saw the die at a size it learned wins, among
   the candidates the classifier took for dice; a die inside a die twice its size is one of
   its pips seen close up, and is dropped. A reported box is the detector's (the die's top
   face, the face its value is read from); in a photo, grown to reach the face's pips where
   exactly as many as its value are found round it (``reach_pips``): every face's pips are
   centred on the face, and the detector's box can sit a little off it on a die seen from
   the side.

Candidates lying on a QR sticker read in the same image, or outside the table's roll zone
(``zone.py``), are no dice: they are left out before the classifier runs, and take no part in
merging levels or in telling pips from groups.

The thresholds were chosen on the leave-one-setup-out predictions of every setup in
../shared/data/dice (training/dice/loso.py), never on the setup a figure is reported for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.errors import CompanionError
from companion.vision.images import Image
from companion.vision.qr import CodeReading
from companion.vision.tracker import UNSURE, DieReading
from companion.vision.zone import EmptyReference, RollZone

DETECTOR = "dice_centernet.onnx"
CLASSIFIER = "dice_classifier.onnx"
WORK_LONG_SIDE = 640  # the detector sees a 1280x720 frame at 640x360: dice of 16-70 px there


@dataclass(frozen=True)
class DiceSettings:
    """What the reader reports (probabilities are the classifier's: not a die, 1 to 6). The
    defaults are those chosen on the leave-one-setup-out predictions (`training/dice/loso.py
    table`: every setup read by a reader that never saw it); they read each such setup
    better than the earlier ones (0.15, 0.4, 0.5, 0.8) did, with fewer phantom dice."""

    det_threshold: float = 0.3
    """A detector peak this high is a candidate: low for recall, the classifier removes the
    false ones."""
    value: float = 0.4
    """A die is reported with its value when that value is this likely..."""
    max_not_a_die: float = 0.3
    """...and "not a die" is at most this likely."""
    coarse_value: float = 0.6
    """A coarse level (looking for dice bigger than the detector learned) also takes groups of
    dice and patches of a busy table for big dice: its candidates need their value this
    likely."""
    unsure_die: float = 0.7
    """A candidate not read but at least this likely a die (1 - "not a die") is reported as
    unsure, for the phone to ask: never guessed, never silently dropped."""


SETTINGS = DiceSettings()
CLS_SIZE = 48  # classifier input when the model does not say
CLS_CONTEXT = 1.2
CLS_VIEWS = 4  # an unsure crop is classified turned and mirrored too, the answers averaged
EDGE_SHARE = 0.25  # a die with this much of its box outside the roll zone is reported unsure
SURE = 0.9  # a crop whose best class is less likely than this is unsure
SECOND_LOOKS = 4  # at most this many unsure crops of a camera frame get the other views
NMS_IOU = 0.4  # two candidates of one level overlapping more than this are one die
MIN_BOX_PX = 8  # at detector scale
# Levels: the long side as a multiple of WORK_LONG_SIDE (see the module's docstring).
CAMERA_LEVELS = (1, 1 / 2)
PHOTO_LEVELS = (3, 2, 1, 1 / 2, 1 / 4, 1 / 8)
LEARNED_MIN_PX, LEARNED_MAX_PX = 16, 64  # the detector learned 16-70 px: bigger boxes are guesses
# A level other than 640 px keeps only the dice its neighbour towards 640 px would see below
# LEARNED_MIN_PX (a finer level) or above NEAR_MAX_PX (a coarser level).
NEAR_MAX_PX = 56
# Candidates of different levels are one die when they overlap more than this: a level that
# sees a die smaller than it learned draws it up to twice too big (IoU 0.25 with the die).
LEVELS_IOU = 0.2
CONTAINED = 0.6  # a die this much inside a die twice its size lies on it
# A coarse level's box at least this many times the area of a finer level's box round it is a
# die and its pip (or part), not one die seen twice (a loose box round a die is less than
# this). Boxes 1 / LEVELS_IOU = 5 times apart overlap too little to merge anyway, so this
# decides boxes 4 to 5 times apart.
PART_AREA = 4.0
STRIDE = 4
PAD_TO = 16  # the detector downsamples by 16


class ModelMissingError(CompanionError, RuntimeError):
    """The dice model files, or onnxruntime, are not installed."""


def _session(path: Path, threads: int) -> Any:
    try:
        import onnxruntime as ort
    except ImportError:
        raise ModelMissingError("onnxruntime is not installed: run ./start.sh again") from None
    if not path.is_file():
        raise ModelMissingError(f"the dice model {path} is missing")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


Box = NDArray[Any] | Sequence[float]  # [x, y, w, h]


def overlap(a: Box, b: Box) -> float:
    """The area two [x, y, w, h] boxes share."""
    ix = max(0.0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    return float(ix * iy)


def iou(a: Box, b: Box) -> float:
    """Intersection over union of two [x, y, w, h] boxes."""
    inter = overlap(a, b)
    union = a[2] * a[3] + b[2] * b[3] - inter
    return float(inter / union) if union > 0 else 0.0


def one_die_at_two_levels(level_a: float, box_a: Box, level_b: float, box_b: Box) -> bool:
    """Whether boxes of two levels overlap as much as one die's boxes there do."""
    return level_a != level_b and iou(box_a, box_b) > LEVELS_IOU


def crop_die(image: Image, box: list[float], size: int = CLS_SIZE) -> Image:
    """A ``size`` square centred on ``box`` ([x, y, w, h]), side CLS_CONTEXT times the box."""
    x, y, w, h = box
    cx, cy = x + w / 2, y + h / 2
    scale = (size / CLS_CONTEXT) / max(w, h, 1.0)
    matrix = np.array([[scale, 0, size / 2 - scale * cx],
                       [0, scale, size / 2 - scale * cy]], dtype=np.float32)
    flags = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    return np.asarray(cv2.warpAffine(image, matrix, (size, size), flags=flags,
                                     borderMode=cv2.BORDER_REPLICATE), dtype=np.uint8)


def dihedral_views(crops: NDArray[Any], views: int) -> NDArray[Any]:
    """The N x C x H x W ``crops`` in the first ``views`` (1, 2, 4 or 8) of their turns and mirror
    images, stacked view after view: a die's value does not change under any of them."""
    turns = [np.rot90(crops, k, axes=(2, 3)) for k in range(4)]
    order = [turns[0], turns[0][..., ::-1], turns[1], turns[1][..., ::-1],
             turns[2], turns[2][..., ::-1], turns[3], turns[3][..., ::-1]]
    return np.concatenate(order[:max(1, views)])


def decode(out: NDArray[np.float32], scale: float, size: tuple[int, int],
           threshold: float) -> list[dict[str, Any]]:
    """Detector output (heatmaps + 4 x H/4 x W/4) to candidate dice in the frame's pixels.

    The shipped detector has one heatmap; a detector with more (one per value, as an older
    one had) is read by their maximum."""
    heat = out[:-4]
    best = heat.max(0)
    peaks = (best >= threshold) & (best == cv2.dilate(best, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(peaks)
    if len(ys) == 0:
        return []
    scores = best[ys, xs]
    bw = np.exp(out[-4, ys, xs]) * STRIDE
    bh = np.exp(out[-3, ys, xs]) * STRIDE
    cx = (xs + out[-2, ys, xs]) * STRIDE
    cy = (ys + out[-1, ys, xs]) * STRIDE
    keep = (bw >= MIN_BOX_PX) & (bh >= MIN_BOX_PX)
    boxes = np.stack([cx - bw / 2, cy - bh / 2, bw, bh], 1)[keep] / scale
    scores = scores[keep]
    width, height = size
    found = []
    for i in range(len(boxes)):
        box = boxes[i]
        x0, y0 = max(0.0, float(box[0])), max(0.0, float(box[1]))
        x1 = min(float(width), float(box[0] + box[2]))
        y1 = min(float(height), float(box[1] + box[3]))
        if x1 - x0 < 1 or y1 - y0 < 1:
            continue  # a peak in the padding, outside the frame
        found.append({"box": [round(x0, 1), round(y0, 1), round(x1 - x0, 1), round(y1 - y0, 1)],
                      "confidence": round(float(scores[i]), 3)})
    return found


def suppress(candidates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One box per die: the most confident of candidates overlapping more than NMS_IOU."""
    kept: list[dict[str, Any]] = []
    for candidate in sorted(candidates, key=lambda c: -float(c["confidence"])):
        if all(iou(candidate["box"], k["box"]) <= NMS_IOU for k in kept):
            kept.append(candidate)
    return kept


def merge_levels(candidates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One box per die from candidates of several levels (each with its level's ``side``,
    ``seen``, the box's size there, and ``coarse``, a level coarser than the base one): where
    levels overlap, the finest level that saw the die no bigger than the detector learned
    wins, as it has the most pixels of it; a level that read the die's value wins over one
    unsure of it."""
    def rank(c: dict[str, Any]) -> tuple[bool, bool, float, float]:
        unsure = "value" in c and c["value"] is None
        return unsure, c["seen"] > LEARNED_MAX_PX, -c["side"], -float(c["confidence"])

    def same_die(a: dict[str, Any], b: dict[str, Any]) -> bool:
        if not one_die_at_two_levels(a["side"], a["box"], b["side"], b["box"]):
            return False
        # A box on a coarse level's box PART_AREA times its size is a pip or part of that
        # big die, or one die of a group the big box took for one die: both stay, for
        # ``outermost`` to tell which. (A finer level's box is no guide: it draws small dice
        # too big.)
        inner, outer = sorted((a, b), key=lambda c: c["box"][2] * c["box"][3])
        small, big = inner["box"], outer["box"]
        return not (outer["coarse"] and inside(small, big) >= CONTAINED
                    and big[2] * big[3] >= PART_AREA * small[2] * small[3])

    kept: list[dict[str, Any]] = []
    for candidate in sorted(candidates, key=rank):
        if not any(same_die(candidate, k) for k in kept):
            kept.append(candidate)
    return kept


def inside(small: Box, big: Box) -> float:
    """The share of box ``small``'s area that lies inside box ``big`` ([x, y, w, h])."""
    return overlap(small, big) / max(float(small[2] * small[3]), 1e-6)


def distinct(dice: list[DieReading], chosen: set[int], levels: Sequence[float]) -> int:
    """How many places the ``chosen`` dice are at: boxes of two levels (``levels[i]``: where
    die i was seen) overlapping as much as one die's boxes at two levels do are counted once;
    touching dice of one level stay two."""
    counted: list[int] = []
    for j in sorted(chosen, key=lambda j: dice[j].box[2] * dice[j].box[3]):
        if not any(one_die_at_two_levels(levels[j], dice[j].box, levels[k], dice[k].box)
                   for k in counted):
            counted.append(j)
    return len(counted)


def outermost(dice: list[DieReading], levels: Sequence[float] | None = None) -> list[DieReading]:
    """The dice left when pips seen as dice and groups seen as one die are taken out.

    Seen close up, a pip of a big die looks like a small die showing one: a die lying on a
    die twice its size is dropped. But a coarse level can also take a group of dice for one
    big die; a die showing v has at most v pips, so a "die" holding more dice than its value
    is a group: it is dropped and the dice in it stay. Two levels can each see the same pip,
    so held dice are counted once per place (``distinct``; ``levels``: the level each die was
    seen at, by default each its own).
    """
    levels = levels if levels is not None else range(len(dice))
    area = [d.box[2] * d.box[3] for d in dice]
    holds = [{j for j, small in enumerate(dice)
              if area[i] >= 2 * area[j] and inside(small.box, big.box) >= CONTAINED}
             for i, big in enumerate(dice)]
    groups = {i for i, held in enumerate(holds)
              if distinct(dice, held, levels) > _most_pips(dice[i])}
    pips = {j for i, held in enumerate(holds) if i not in groups for j in held}
    return [d for i, d in enumerate(dice) if i not in groups and i not in pips]


def _most_pips(die: DieReading) -> int:
    """How many pips a die can show: its value, or six when unsure of it."""
    return int(die.value) if isinstance(die.value, int) else 6


PIP_LOOK = 1.2  # pips are looked for in this much of a die's box (a box can sit off its face)
PIP_AREA = (0.004, 0.06)  # a pip's area, as a share of the box's
PIP_SIZES = 3.0  # a face's pips differ in area by at most this much
MAX_SHIFT = 0.3  # a face's pips lie within its middle two thirds: a centroid farther off
# (a share of the box) belongs to something else, and the box stays


def pip_centre(image: Image, box: Sequence[float], value: int) -> tuple[float, float] | None:
    """The centre of a die's pips, when exactly ``value`` of them (dark on light, else light
    on dark) are found round its box ([x, y, w, h]); None otherwise."""
    if value < 1:
        return None
    x, y, w, h = (float(v) for v in box)
    cx, cy = x + w / 2, y + h / 2
    x0, y0 = int(max(0.0, cx - w * PIP_LOOK / 2)), int(max(0.0, cy - h * PIP_LOOK / 2))
    x1 = int(min(image.shape[1], cx + w * PIP_LOOK / 2))
    y1 = int(min(image.shape[0], cy + h * PIP_LOOK / 2))
    if min(x1 - x0, y1 - y0) < 8:
        return None
    patch = as_bgr(image[y0:y1, x0:x1])
    scale = 64 / max(patch.shape[:2])  # a pip is a few pixels at this size: cheap and enough
    grey = cv2.resize(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY), None, fx=scale, fy=scale,
                      interpolation=cv2.INTER_AREA)
    _, light = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    face = w * h * scale * scale
    for mask in (255 - light, light):
        count, _, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
        pips = []
        for i in range(1, count):
            left, top, width, height, area = (int(v) for v in stats[i])
            cut = (left == 0 or top == 0 or left + width >= mask.shape[1]
                   or top + height >= mask.shape[0])
            roundish = (max(width, height) <= 2.2 * min(width, height)
                        and area >= 0.45 * width * height)
            if not cut and roundish and PIP_AREA[0] * face <= area <= PIP_AREA[1] * face:
                pips.append((area, centres[i]))
        areas = [area for area, _ in pips]
        if len(pips) == value and max(areas) <= PIP_SIZES * min(areas):
            mx, my = np.mean([c for _, c in pips], axis=0) / scale
            return x0 + float(mx), y0 + float(my)
    return None


PipFinder = Callable[[Sequence[float], int], tuple[float, float] | None]


def reach_pips(dice: list[DieReading], find: PipFinder, size: tuple[int, int]
               ) -> list[DieReading]:
    """Each read die's box grown to hold also the same box centred on its pips
    (``find(box, value)``: ``pip_centre`` in an image of ``size``, width and height), when
    their centre lies within ``MAX_SHIFT`` of the box's, never past the image's edges; unsure
    dice and the rest stay as they are. The detector's box and the pips each place the face;
    where they differ (a die seen from one side, its box reaching down its front face), the
    box holds both rather than choosing."""
    width, height = size
    out = []
    for die in dice:
        found = find(die.box, die.value) if isinstance(die.value, int) else None
        x, y, w, h = die.box
        if found is not None:
            dx, dy = found[0] - (x + w / 2), found[1] - (y + h / 2)
            if abs(dx) <= MAX_SHIFT * w and abs(dy) <= MAX_SHIFT * h:
                left = min(x, max(0, int(round(x + dx))))
                top = min(y, max(0, int(round(y + dy))))
                right = max(x + w, min(width, int(round(x + w + dx))))
                bottom = max(y + h, min(height, int(round(y + h + dy))))
                die = replace(die, box=(left, top, right - left, bottom - top))
        out.append(die)
    return out


def as_bgr(image: Image) -> Image:
    """A grey, one-channel or BGRA image as the three BGR channels the models take."""
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    if image.ndim == 3 and image.shape[2] == 4:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGRA2BGR), dtype=image.dtype)
    grey = image if image.ndim == 2 else image[:, :, 0]
    return np.asarray(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), dtype=image.dtype)


@dataclass(frozen=True)
class Head:
    """A table's correction to the classifier's last layer (adapt.py fits it on the dice
    confirmed at that table): probabilities = softmax(log(shipped probabilities) + weights @
    features + bias). All zeros is the shipped classifier itself. ``fitted``: the classes it
    corrects (not a die, 1 to 6; None: all of them); the others keep the shipped
    probability, and the fitted ones share the rest as the correction says (a table that
    confirmed only threes and "not a die" cannot teach the reader what a five looks like, or
    how often it will see one)."""

    weights: NDArray[np.float32]  # classes x features
    bias: NDArray[np.float32]  # classes
    fitted: tuple[bool, ...] | None = None

    def classes(self, count: int) -> NDArray[np.bool_]:
        """Which of ``count`` classes the correction changes."""
        return np.ones(count, bool) if self.fitted is None else np.array(self.fitted, bool)

    def apply(self, probs: NDArray[np.float32], features: NDArray[np.float32]
              ) -> NDArray[np.float32]:
        mask = self.classes(probs.shape[1])
        if mask.all():
            return softmax(np.log(np.maximum(probs, 1e-7)) + features @ self.weights.T + self.bias)
        out = np.array(probs, dtype=np.float32)
        if np.count_nonzero(mask) < 2:
            return out
        logits = (np.log(np.maximum(probs[:, mask], 1e-7)) + features @ self.weights[mask].T
                  + self.bias[mask])
        out[:, mask] = probs[:, mask].sum(1, keepdims=True) * softmax(logits)
        return out


def softmax(logits: NDArray[np.floating[Any]]) -> NDArray[np.float32]:
    e = np.exp(logits - logits.max(1, keepdims=True))
    return np.asarray(e / e.sum(1, keepdims=True), dtype=np.float32)


class DiceReader:
    """Reads pip dice; sessions are made once and reused for every frame."""

    def __init__(self, models: Path, threads: int = 1, settings: DiceSettings = SETTINGS,
                 classifier: bool = True, detector_path: Path | None = None,
                 views: int = CLS_VIEWS, sure: float = SURE, head: Head | None = None) -> None:
        self.detector = _session(detector_path or models / DETECTOR, threads)
        self.input_name = self.detector.get_inputs()[0].name
        # Without the classifier the reader only detects (training mines hard negatives so).
        self.classifier = _session(models / CLASSIFIER, threads) if classifier else None
        self.cls_size = CLS_SIZE
        self.feature_size = 0  # a classifier that also gives the features its last layer reads
        if self.classifier is not None:
            side = self.classifier.get_inputs()[0].shape[-1]
            self.cls_size = side if isinstance(side, int) else CLS_SIZE
            outputs = self.classifier.get_outputs()
            if len(outputs) > 1 and isinstance(outputs[1].shape[-1], int):
                self.feature_size = outputs[1].shape[-1]
        self.settings = settings
        if views not in (1, 2, 4, 8):
            raise ValueError(f"views must be 1, 2, 4 or 8, not {views}")
        self.views = views
        self.sure = sure
        self.work_long_side = WORK_LONG_SIDE
        self.head: Head | None = None
        self.use_head(head)

    def use_head(self, head: Head | None) -> None:
        """Read with this last layer (a table's adaptation), or with the shipped one (None)."""
        if head is not None and head.weights.shape[1] != self.feature_size:
            raise ValueError(f"this adaptation reads {head.weights.shape[1]} features; the"
                             f" classifier gives {self.feature_size}: adapt again")
        self.head = head

    def detect(self, image: Image, thorough: bool = False) -> list[dict[str, Any]]:
        """Stage 1 alone: candidate dice (confidence is the detector's peak score) at the
        levels of a camera frame, or of a photo when ``thorough`` (see the module's
        docstring), levels merged. ``read`` classifies ``level_candidates`` before merging."""
        return merge_levels(self.level_candidates(image, thorough))

    def level_candidates(self, image: Image, thorough: bool) -> list[dict[str, Any]]:
        """The candidates of every level, one box per die within a level, each with its
        level's ``side``, ``seen`` (its size there) and ``coarse`` (a level coarser than the
        base one, looking for dice seen close up)."""
        image = as_bgr(image)
        h, w = image.shape[:2]
        base = self.work_long_side
        factors = PHOTO_LEVELS if thorough else CAMERA_LEVELS
        # a finer level never has more pixels than the photo
        finer = {min(base * f, max(h, w)) for f in factors if f > 1}
        sides = sorted({base * f for f in factors if f <= 1} | {s for s in finer if s > base},
                       reverse=True)
        found: list[dict[str, Any]] = []
        source = image
        for k, side in enumerate(sides):
            scale = side / max(h, w)
            size = (max(1, round(w * scale)), max(1, round(h * scale)))
            # each level is scaled down from the one before: cheaper than from the frame
            source = source if source.shape[1::-1] == size else np.asarray(
                cv2.resize(source, size, interpolation=cv2.INTER_AREA), dtype=source.dtype)
            for candidate in suppress(decode(self.run_detector(source), scale, (w, h),
                                             self.settings.det_threshold)):
                seen = max(candidate["box"][2], candidate["box"][3]) * scale
                # a level other than 640 px keeps only the dice 640 px sees worse
                if side > base and seen * sides[k + 1] / side >= LEARNED_MIN_PX:
                    continue
                if side < base and seen * sides[k - 1] / side < NEAR_MAX_PX:
                    continue
                found.append({**candidate, "side": side, "seen": seen, "coarse": side < base})
        return found

    def run_detector(self, small: Image) -> NDArray[np.float32]:
        """The detector's output ((1 + 4) x H/4 x W/4) for an image already scaled."""
        sh, sw = small.shape[:2]
        ph, pw = -sh % PAD_TO, -sw % PAD_TO
        padded = small if not (ph or pw) else cv2.copyMakeBorder(small, 0, ph, 0, pw,
                                                                 cv2.BORDER_REPLICATE)
        x = np.ascontiguousarray(padded.transpose(2, 0, 1)[None], dtype=np.float32)
        return np.asarray(self.detector.run(None, {self.input_name: x})[0][0], dtype=np.float32)

    def classify(self, crops: NDArray[Any], second_looks: int | None = None) -> NDArray[np.float32]:
        """Class probabilities of N x C x H x W crops; the unsure ones get a second look (at
        most ``second_looks`` of them, those likeliest to be dice)."""
        probs = self.probabilities(crops)
        if self.views > 1:
            # Most crops are plainly a die or plainly not; only the unsure ones are worth
            # the other views (a die's value is the same in every turn and mirror image).
            unsure = np.nonzero(probs.max(1) < self.sure)[0]
            if second_looks is not None:
                unsure = unsure[np.argsort(probs[unsure, 0], kind="stable")[:second_looks]]
            if len(unsure):
                more = self.probabilities(dihedral_views(crops[unsure], self.views)[len(unsure):])
                more = more.reshape(-1, len(unsure), more.shape[-1])
                probs[unsure] = (probs[unsure] + more.sum(0)) / self.views
        return probs

    def probabilities(self, crops: NDArray[Any]) -> NDArray[np.float32]:
        """Class probabilities of N x C x H x W crops, one look each (with the table's
        adapted last layer, when it has one)."""
        if self.head is None:
            return self.run_classifier(crops)[0]
        probs, features = self.run_classifier(crops)
        return self.head.apply(probs, features)

    def run_classifier(self, crops: NDArray[Any]) -> list[NDArray[np.float32]]:
        """The shipped classifier's outputs for N x C x H x W crops: its probabilities, and
        (when it gives them) the features its last layer reads."""
        if self.classifier is None:
            raise ValueError("a reader made without its classifier only detects dice")
        out = self.classifier.run(None, {"crops": np.ascontiguousarray(crops, np.float32)})
        return [np.asarray(o, dtype=np.float32) for o in out]

    def reported_value(self, p: NDArray[np.float32], coarse: bool) -> int | None:
        """The value a candidate with class probabilities ``p`` (not a die, 1 to 6) is
        reported with, or None when it is no die or its value is too unsure (``settings``;
        ``coarse``: a coarse level's candidate)."""
        value = int(np.argmax(p[1:])) + 1
        needed = self.settings.coarse_value if coarse else self.settings.value
        if p[value] >= needed and p[0] <= self.settings.max_not_a_die:
            return value
        return None

    def propose(self, image: Image, thorough: bool = False, codes: Sequence[CodeReading] = (),
                zone: RollZone | None = None, empty: EmptyReference | None = None
                ) -> list[dict[str, Any]]:
        """Every level's candidates with their class probabilities (``probs``), none on the QR
        stickers ``codes`` read in the same image, outside the roll ``zone`` or where the
        ``empty`` zone looked the same (left out before the classifier runs: a card's codes
        give many candidates, and its time is the frame's); ``edge``: a die partly outside
        the zone. ``thorough``: a photo."""
        if self.classifier is None:
            raise ValueError("a reader made without its classifier only detects dice")
        image = as_bgr(image)
        height, width = image.shape[:2]
        candidates = []
        for candidate in self.level_candidates(image, thorough):
            if on_code(candidate["box"], codes):
                continue
            outside = 0.0 if zone is None else zone.outside(candidate["box"], width, height)
            if outside > 0.5:  # its centre is off the zone: not a die in play
                continue
            candidates.append({**candidate, "edge": outside >= EDGE_SHARE})
        if empty is not None and candidates:
            same = empty.unchanged(image, [c["box"] for c in candidates])
            candidates = [c for c, unchanged in zip(candidates, same, strict=True)
                          if not unchanged]
        if not candidates:
            return []
        crops = np.stack([crop_die(image, c["box"], self.cls_size) for c in candidates])
        # a camera frame has a time budget; a photo gets all the looks it needs
        probs = self.classify(crops.transpose(0, 3, 1, 2), None if thorough else SECOND_LOOKS)
        return [{**c, "probs": p} for c, p in zip(candidates, probs, strict=True)]

    def decide(self, candidates: list[dict[str, Any]]) -> list[DieReading]:
        """The dice among classified candidates (``propose``): read with a value, or unsure."""
        dice = []
        for candidate in candidates:
            p = candidate["probs"]
            value = self.reported_value(p, candidate["coarse"])
            if value is not None and not candidate["edge"]:
                dice.append({**candidate, "value": value, "probability": float(p[value])})
            elif value is not None or 1 - p[0] >= self.settings.unsure_die:
                dice.append({**candidate, "value": None, "probability": float(1 - p[0])})
        # Levels are merged among the candidates the classifier took for dice: a part of a big
        # die that a finer level proposed must not hide the whole die a coarser level saw.
        merged = merge_levels(dice)
        return outermost([_reading(die["box"], die["value"], die["probability"])
                          for die in merged], [die["side"] for die in merged])

    def read(self, image: Image, thorough: bool = False, codes: Sequence[CodeReading] = (),
             zone: RollZone | None = None, empty: EmptyReference | None = None,
             reach: bool | None = None) -> list[DieReading]:
        """Every die the reader sees, none on the QR stickers ``codes`` read in the same image
        nor outside the roll ``zone`` (nor where the ``empty`` zone looked the same): read
        (kind d6, with its value) or unsure (kind ``UNSURE``, no value). ``thorough``: a
        photo (see ``detect``). ``reach``: each read die's box grown to reach its pips
        (``reach_pips``); by default in a photo only, as a camera frame's boxes are what the
        tracker compares frame to frame and what a table's examples are cut from (the crop
        the classifier saw)."""
        dice = self.decide(self.propose(image, thorough, codes, zone, empty))
        if thorough if reach is None else reach:
            return reach_pips(dice, partial(pip_centre, image), (image.shape[1], image.shape[0]))
        return dice


def on_code(box: Sequence[float], codes: Sequence[CodeReading]) -> bool:
    """Whether a die's box ([x, y, w, h]) has its centre on a QR sticker read in the frame.

    A sticker's finder patterns look like a white die showing six to the detector (it never
    saw stickers while learning), so a "die" on a sticker is no die.
    """
    point = (float(box[0] + box[2] / 2), float(box[1] + box[3] / 2))
    for code in codes:
        polygon = np.array(code.corners, dtype=np.float32)
        middle = polygon.mean(axis=0)
        grown = (polygon - middle) * 1.3 + middle  # the quiet zone and the card around it
        if cv2.pointPolygonTest(grown.reshape(-1, 1, 2), point, False) >= 0:
            return True
    return False


def off_codes(dice: list[DieReading], codes: Sequence[CodeReading]) -> list[DieReading]:
    """The dice that do not lie on a QR sticker read in the same frame (see ``on_code``)."""
    return [die for die in dice if not on_code(die.box, codes)]


def _reading(box: list[float], value: int | None, confidence: float) -> DieReading:
    x, y, w, h = (int(round(v)) for v in box)
    return DieReading("d6" if value is not None else UNSURE, value, (x, y, w, h),
                      round(confidence, 3))
