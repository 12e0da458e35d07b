"""A table teaches the pip reader its own dice, light and camera.

Every die a player confirms or corrects is an example: the crop the classifier saw, and what
it shows (1 to 6, or "not a die"). Examples are kept on this companion only, in the data
directory (``dice/examples/``, one small PNG each, at most ``MAX_EXAMPLES``: the oldest go
first), and can be deleted at any time.

Adapting fits a correction to the classifier's last layer (``dice.Head``) on those examples,
with numpy, in seconds: the shipped classifier stays as it is, and the correction is pulled
towards nothing (so a few examples change little). Before it is switched on it is
cross-checked: each example is read by a correction fitted without it (``CHECK_FOLDS``
parts), and those must read right every example the reader read right before, and more of
them; otherwise the reader stays as it was. The reader before is kept for a one-step
rollback.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.errors import CompanionError
from companion.vision.dice import DiceReader, Head, crop_die, dihedral_views, softmax
from companion.vision.images import Image, ImageError, load_image
from companion.vision.stored import npz_bytes, write_atomically

NOT_A_DIE = 0  # the label of an example that is no die
MAX_EXAMPLES = 2000  # about 10 MB of small PNGs
MIN_EXAMPLES = 20  # fewer than this teach nothing reliable
MIN_PER_VALUE = 3  # values are corrected only once each has this many examples (fit_head)
# "Not a die" only with this many: fitted from 3 crops against 100 to 200 dice, it read the
# unseen half of a table's photos 0.81 -> 0.46-0.80 (phantom dice, dice called unsure), and
# the check, which sees only what the reader reported, let it through (stop 38, byler's fold
# in five orders of its photos; with 10 no order lost a die).
MIN_NOT_A_DIE = 10
CHECK_FOLDS = 4  # every example checks a correction fitted without it (adapt)
SAME_CROP = 4.0  # two crops this close (mean grey difference) show the same thing
STRENGTH = 0.02  # how strongly the correction is pulled towards nothing
STEPS = 300
LEARNING_RATE = 0.05


class AdaptError(CompanionError, ValueError):
    """Adaptation refused: too few examples, contradictory labels, or the disk."""


@dataclass(frozen=True)
class Example:
    crop: Image  # as the classifier sees it: a square round the die
    label: int  # 1 to 6, or NOT_A_DIE
    name: str  # its file name: when it came, and its label


class ExampleStore:
    """The table's examples, one PNG each, named ``<time in ns>-<label>.png``."""

    def __init__(self, data: Path) -> None:
        self.folder = data / "dice" / "examples"

    def add(self, crop: Image, label: int) -> Path:
        """Keep one example; the oldest go when there are more than MAX_EXAMPLES. A full disk
        raises AdaptError and keeps nothing."""
        if label not in range(7):
            raise AdaptError(f"a die shows 1 to 6, or is no die (0), not {label!r}")
        ok, encoded = cv2.imencode(".png", crop)
        if not ok:
            raise AdaptError("could not encode the example")
        path = self.folder / f"{time.time_ns()}-{label}.png"
        try:
            write_atomically(path, encoded.tobytes())
        except OSError as exc:
            raise AdaptError(f"cannot keep the example in {self.folder}:"
                             f" {exc.strerror or exc}") from None
        for old in self.paths()[:-MAX_EXAMPLES]:
            old.unlink(missing_ok=True)
        return path

    def paths(self) -> list[Path]:
        if not self.folder.is_dir():
            return []
        return sorted(self.folder.glob("*.png"), key=lambda p: (len(p.name), p.name))

    def examples(self) -> list[Example]:
        """Every example, oldest first; unreadable files are skipped."""
        out = []
        for path in self.paths():
            try:
                label = int(path.stem.rsplit("-", 1)[1])
                out.append(Example(load_image(path), label, path.name))
            except (ImageError, ValueError, IndexError):
                continue
        return out

    def counts(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        for path in self.paths():
            label = path.stem.rsplit("-", 1)[-1]
            if label.isdigit():
                counts[int(label)] = counts.get(int(label), 0) + 1
        return counts

    def forget(self) -> int:
        """Delete every example; returns how many there were."""
        paths = self.paths()
        for path in paths:
            path.unlink(missing_ok=True)
        return len(paths)


def example_crop(reader: DiceReader, image: Image, box: Any) -> Image:
    """The crop of a die ([x, y, w, h] in ``image``) as the classifier sees it."""
    return crop_die(image, [float(v) for v in box[:4]], reader.cls_size)


def confirmed_values(found: list[Any], truth: list[tuple[int, Any]]) -> list[int]:
    """What a table would confirm each reported die (``DieReading``) to be, given the dice
    really there (value, [x, y, w, h]): a die's value where the box matches one (each box's
    centre inside the other, closest first), "not a die" where none."""
    def centre(box: Any) -> tuple[float, float]:
        return float(box[0]) + float(box[2]) / 2, float(box[1]) + float(box[3]) / 2

    def holds(box: Any, point: tuple[float, float]) -> bool:
        return bool(box[0] <= point[0] <= box[0] + box[2] and box[1] <= point[1] <= box[1] + box[3])

    pairs = sorted((float(np.hypot(*np.subtract(centre(d.box), centre(t[1])))), i, k)
                   for i, d in enumerate(found) for k, t in enumerate(truth)
                   if holds(d.box, centre(t[1])) and holds(t[1], centre(d.box)))
    values = [NOT_A_DIE] * len(found)
    used: set[int] = set()
    done: set[int] = set()
    for _, i, k in pairs:
        if i not in done and k not in used:
            values[i] = int(truth[k][0])
            done.add(i)
            used.add(k)
    return values


def contradictions(examples: list[Example]) -> list[tuple[Example, Example]]:
    """Pairs of examples that show the same thing with different labels."""
    small = [cv2.resize(cv2.cvtColor(e.crop, cv2.COLOR_BGR2GRAY), (24, 24),
                        interpolation=cv2.INTER_AREA).astype(np.float32) for e in examples]
    pairs = []
    for i in range(len(examples)):
        for j in range(i + 1, len(examples)):
            if (examples[i].label != examples[j].label
                    and float(np.abs(small[i] - small[j]).mean()) < SAME_CROP):
                pairs.append((examples[i], examples[j]))
    return pairs


@dataclass(frozen=True)
class Adaptation:
    """What adapting did: the head (None when the reader stays as it was) and the check."""

    head: Head | None
    checked: int  # held-back examples
    right_before: int
    right_after: int
    lost: int  # held-back examples read right before and wrong after
    message: str


def adapt(reader: DiceReader, examples: list[Example]) -> Adaptation:
    """Fit a correction on the examples and cross-check it on them (see the module's
    docstring). Raises AdaptError for too few examples or contradictory labels."""
    if not reader.feature_size:
        raise AdaptError("this dice classifier cannot be adapted (it gives no features)")
    if len(examples) < MIN_EXAMPLES:
        raise AdaptError(f"{len(examples)} confirmed dice are too few to learn from: at least"
                         f" {MIN_EXAMPLES} are needed")
    clash = contradictions(examples)
    if clash:
        shown = ", ".join(f"{a.name} ({label(a.label)}) and {b.name} ({label(b.label)})"
                          for a, b in clash[:3])
        raise AdaptError(f"{len(clash)} pair(s) of examples show the same die with different"
                         f" values: {shown}; forget the examples and confirm again")
    # Cross-checked: each example is read by a correction fitted on the others (every
    # CHECK_FOLDS-th in the order they came), so all of them check it, not a few held back.
    before = reads_right(reader, examples, reader.head)  # the reader in use, adapted before or not
    after = np.zeros(len(examples), bool)
    learns = what_it_learns(examples)  # the parts check what all of them switch on
    for fold in range(CHECK_FOLDS):
        check = [i for i in range(len(examples)) if i % CHECK_FOLDS == fold]
        head = fit_head(reader, [e for i, e in enumerate(examples) if i % CHECK_FOLDS != fold],
                        learns)
        after[check] = reads_right(reader, [examples[i] for i in check], head)
    lost = int(np.sum(before & ~after))
    right_before, right_after = int(before.sum()), int(after.sum())
    summary = (f"on {len(examples)} confirmed dice, each checked by a correction learned"
               f" without it: {right_before} read right before, {right_after} after")
    if lost or right_after <= right_before:
        why = (f"it would read {lost} of them wrong that it read right" if lost
               else "it reads none more right")
        return Adaptation(None, len(examples), right_before, right_after, lost,
                          f"{summary}; {why}, so the reader stays as it was")
    return Adaptation(fit_head(reader, examples, learns), len(examples), right_before,
                      right_after, 0, f"{summary}: adapted")


def label(value: int) -> str:
    return "not a die" if value == NOT_A_DIE else str(value)


def _crops(examples: list[Example], size: int) -> NDArray[np.float32]:
    crops = [e.crop if e.crop.shape[:2] == (size, size)
             else cv2.resize(e.crop, (size, size), interpolation=cv2.INTER_AREA)
             for e in examples]
    return np.stack(crops).transpose(0, 3, 1, 2).astype(np.float32)


def reads_right(reader: DiceReader, examples: list[Example],
                head: Head | None) -> NDArray[np.bool_]:
    """Which examples the reader (with ``head``) reads right, as a photo: a die with its
    value, anything else not as a die."""
    judge = copy.copy(reader)  # the reader in use may be reading frames meanwhile
    judge.head = head
    probs = judge.classify(_crops(examples, reader.cls_size))
    right = []
    for p, example in zip(probs, examples, strict=True):
        value = reader.reported_value(p, coarse=False)
        right.append(value is None if example.label == NOT_A_DIE else value == example.label)
    return np.array(right, bool)


def what_it_learns(examples: list[Example]) -> tuple[bool, ...]:
    """Which classes (not a die, 1 to 6) the examples can teach: a value with MIN_PER_VALUE
    examples, "not a die" with MIN_NOT_A_DIE (see ``fit_head``)."""
    counts = np.bincount([e.label for e in examples], minlength=7)
    return (bool(counts[0] >= MIN_NOT_A_DIE),
            *(bool(c >= MIN_PER_VALUE) for c in counts[1:7]))


def fit_head(reader: DiceReader, examples: list[Example],
             learns: tuple[bool, ...] | None = None) -> Head:
    """The correction that reads the examples best (in every turn and mirror image), pulled
    towards nothing. It corrects only the classes (not a die, 1 to 6) the examples teach,
    each with MIN_PER_VALUE examples: the others keep the shipped probability, and the
    corrected ones share the rest. A table confirms dice in the order it rolls them (one
    photo session held only ones to threes, the next only threes to sixes): a correction of
    every class fitted on threes and "not a die" learned to see threes everywhere (sixes read
    as threes; candidates read right 0.83 -> 0.62 on the other half of the same table's
    photos, with 50 or 100 examples and with a bias alone), and one fitted on ones to threes
    did the same with 825. The values are weighted alike among themselves, so a table that
    rolled many fives does not learn to see fives; "not a die" against the dice keeps the
    examples' own ratio (weighting it like a value taught a webcam table to take its
    phantom dice for ones, twos and threes). ``learns``: which classes may be learned
    (``what_it_learns``), by default as these examples allow; the check fits its parts as
    all the examples allow, so that it checks what is switched on (a part lacking every
    example of a class leaves that class as shipped)."""
    crops = _crops(examples, reader.cls_size)
    views = dihedral_views(crops, 8)
    probs, features = reader.run_classifier(views)
    labels = np.concatenate([np.array([e.label for e in examples])] * 8)  # the 8 views
    classes = probs.shape[1]
    allowed = learns if learns is not None else what_it_learns(examples)
    fitted = np.array(allowed, bool) & (np.bincount(labels, minlength=classes) > 0)
    none = Head(np.zeros((classes, features.shape[1]), np.float32),
                np.zeros(classes, np.float32))
    if np.count_nonzero(fitted) < 2:  # one class alone cannot be told from anything
        return none
    keep = fitted[labels]  # examples of a class not fitted teach nothing here
    probs, features, labels = probs[keep][:, fitted], features[keep], labels[keep]
    index = np.cumsum(fitted) - 1  # class -> its column among the fitted ones
    dice = labels != NOT_A_DIE
    weights = np.ones(len(labels), np.float32)
    if dice.any():
        sizes = np.bincount(labels[dice], minlength=classes).astype(np.float32)
        weights[dice] = dice.sum() / (np.count_nonzero(sizes) * sizes[labels[dice]])
    weights = np.minimum(weights, 5.0) / np.minimum(weights, 5.0).mean()
    scale = 1.0 / max(float(np.linalg.norm(features, axis=1).mean()), 1e-6)
    x = features * scale
    base = np.log(np.maximum(probs, 1e-7))
    target = np.eye(probs.shape[1], dtype=np.float32)[index[labels]]
    w = np.zeros((probs.shape[1], x.shape[1]), np.float32)
    b = np.zeros(probs.shape[1], np.float32)
    moments = [np.zeros_like(w), np.zeros_like(w), np.zeros_like(b), np.zeros_like(b)]
    for step in range(1, STEPS + 1):
        p = softmax(base + x @ w.T + b)
        error = (p - target) * weights[:, None] / len(x)
        grads = (error.T @ x + STRENGTH * w, error.sum(0) + STRENGTH * b)
        for k, (param, grad) in enumerate(zip((w, b), grads, strict=True)):  # Adam
            m, v = moments[2 * k], moments[2 * k + 1]
            m[:] = 0.9 * m + 0.1 * grad
            v[:] = 0.999 * v + 0.001 * grad * grad
            param -= LEARNING_RATE * (m / (1 - 0.9**step)) / (
                np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    weights_out, bias_out = none.weights.copy(), none.bias.copy()
    weights_out[fitted], bias_out[fitted] = w * scale, b
    return Head(weights_out, bias_out, tuple(bool(f) for f in fitted))


# --- the adapted reader in the data directory ---------------------------------------------
def head_path(data: Path) -> Path:
    return data / "dice" / "adapted.npz"


def previous_path(data: Path) -> Path:
    return data / "dice" / "adapted-before.npz"


def save_head(data: Path, head: Head) -> Path:
    """Switch this head on; the one in use before is kept for ``rollback``. A full disk raises
    AdaptError and changes nothing."""
    path, before = head_path(data), previous_path(data)
    new = path.with_name("adapted-new.npz")  # whole on disk before the one in use moves
    try:
        write_atomically(new, npz_bytes(weights=head.weights, bias=head.bias,
                                        fitted=head.classes(len(head.bias))))
        if path.exists():
            path.replace(before)
        else:
            before.unlink(missing_ok=True)  # before this one: the shipped reader
        new.replace(path)
    except OSError as exc:
        new.unlink(missing_ok=True)
        raise AdaptError(f"cannot save the adapted reader in {path.parent}:"
                         f" {exc.strerror or exc}; the reader stays as it was") from None
    return path


def load_head(data: Path) -> Head | None:
    """The head in use at this table, or None (the shipped reader); a damaged file raises."""
    path = head_path(data)
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as stored:
            weights, bias = stored["weights"].astype(np.float32), stored["bias"].astype(np.float32)
            if "fitted" in stored:
                fitted = tuple(bool(f) for f in stored["fitted"])
            else:  # saved before 2026-11-28: all classes, or the values only
                keeps = "keeps_not_a_die" in stored and bool(stored["keeps_not_a_die"])
                fitted = (not keeps,) + (True,) * (len(bias) - 1)
            return Head(weights, bias, fitted)
    except (OSError, ValueError, KeyError) as exc:
        raise AdaptError(f"the adapted reader {path} cannot be read ({exc}): roll back, or"
                         " adapt again") from None


def rollback(data: Path) -> str:
    """Go back to the reader in use before the last adaptation; says which one that is."""
    path, before = head_path(data), previous_path(data)
    if not path.exists():
        return "the shipped reader is in use already: nothing to roll back"
    if before.exists():
        before.replace(path)
        return "rolled back to the reader adapted before"
    path.unlink()
    return "rolled back to the shipped reader"
