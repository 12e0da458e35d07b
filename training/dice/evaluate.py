#!/usr/bin/env python3
"""Evaluate the dice reader with the project's scorer.

    python evaluate.py build                  # (re)make the test sets under data/ (seeded)
    python evaluate.py build scales           # only the closeups and far sets
    python evaluate.py build tuning           # only the *-train sets (settings chosen there)
    python evaluate.py score holdout          # predictions JSONL + dice_score.py on one set
    python evaluate.py score FOLDER           # any folder with images/ and labels/
    python evaluate.py score SET 0.15 0.5     # with detector threshold / value threshold
    python evaluate.py score SET 0.15 0.4 1 0.9   # ... classifier views, sure
    python evaluate.py errors holdout         # what kind of errors: misses, values, boxes, extras
    python evaluate.py bench                  # ms per 640x640 image and per 1280x720 frame, 1 thread
    python evaluate.py all                    # build + score every set + bench
    DICE_MODELS=DIR python evaluate.py ...    # a candidate's models instead of models/dice

Test sets (all labels in YOLO form, so dice_score.py reads them):
  trainsub   every 4th training photo (40, symlinks): thresholds are tuned here
  holdout    the 40 held-out Byler photos (symlinks; never trained or tuned on)
  perturbed  3 variants of each held-out photo: strong colour changes (hue rotation,
             channel swaps, grey, inversion = light/dark pip swap), background replaced
             by a synthetic table outside the dice, oblique perspective warps, 90-degree
             turns, scale 0.55-1.4, blur / motion blur, noise, JPEG, uneven and low light
  frames     held-out photos scaled 1.0-1.6x and placed in a 1280x720 frame on a
             synthetic table (tests the frame path: the reader works at 640x360)
  closeups   2 squares around a die of each held-out photo, scaled up so dice are 120-500 px
             (a photo taken close): the detector learned 16-70 px dice and has to look at a
             coarser level
  far        each held-out photo at 0.5-0.9 of its size in a 1920x1080 frame on a synthetic
             table, JPEG quality 60-90: dice of 20-35 px in a big photo, which the detector
             sees at 640 px as 7-12 px, so it must look at a finer level
  synthetic  120 scenes rendered by synth.py with a seed never used in training and a
             wider camera tilt (up to 0.7 rad, training used <= 0.5): oblique views with
             side faces showing pips, touching dice, marbled/translucent dice, light or
             dark pips, then the same photometric perturbations as `perturbed`
  closeups-train, far-train, perturbed-train
             the same changes made to the trainsub photos: the reader's settings (levels,
             merging) are chosen on these and trainsub, never on the sets above
  synthetic-train
             120 scenes made as `synthetic` is, with a seed of their own (neither the
             synthetic set's nor one training uses), for choosing settings the same way
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import synth
from split import DATA, load_split, read_labels, read_photo

HERE = Path(__file__).resolve().parent
SETS = HERE / "data"
THOROUGH = os.environ.get("DICE_THOROUGH", "1") == "1"  # 0: read as camera frames
MODELS = Path(os.environ.get("DICE_MODELS", HERE.parents[1] / "models" / "dice"))  # a candidate
SCORER = Path(
    os.environ.get("DICE_SCORER", HERE.parents[1].parent / "shared" / "tools" / "dice_score.py")
)


# ----------------------------------------------------------------------------- set building
def write_set(folder: Path, name: str, img: np.ndarray, boxes_xyxy: np.ndarray, values) -> None:
    (folder / "images").mkdir(parents=True, exist_ok=True)
    (folder / "labels").mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / "images" / f"{name}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    h, w = img.shape[:2]
    lines = []
    for (x1, y1, x2, y2), v in zip(boxes_xyxy, values):
        lines.append(
            f"{int(v) - 1} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}"
        )
    (folder / "labels" / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))


def load(name: str):
    img = read_photo(DATA / "images" / name)
    h, w = img.shape[:2]
    labels = read_labels(name, w, h)
    boxes = np.array([[x, y, x + bw, y + bh] for _, (x, y, bw, bh) in labels], np.float32).reshape(
        -1, 4
    )
    return img, boxes, np.array([v for v, _ in labels], np.int64)


def colour_shift(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    kind = rng.integers(0, 5)
    if kind == 0:  # hue rotation + saturation
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV).astype(np.int16)
        hsv[..., 0] = (hsv[..., 0] + rng.integers(30, 150)) % 180
        hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(0.5, 1.6), 0, 255)
        img = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
    elif kind == 1:
        img = img[..., rng.permutation(3)].copy()
    elif kind == 2:
        img = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    elif kind == 3:
        img = 255 - img
    else:  # warm/cool cast
        img = np.clip(img * rng.uniform(0.6, 1.3, 3), 0, 255).astype(np.uint8)
    # exposure / contrast
    f = img.astype(np.float32)
    f = (f - 128) * rng.uniform(0.6, 1.3) + 128 + rng.uniform(-45, 35)
    return np.clip(f, 0, 255).astype(np.uint8)


def degrade(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    if rng.random() < 0.5:  # uneven light (lamp to one side)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        d = np.hypot(xx - cx, yy - cy) / max(h, w)
        img = np.clip(img * (1.15 - rng.uniform(0.3, 0.7) * d)[..., None], 0, 255).astype(np.uint8)
    r = rng.random()
    if r < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.7, 1.5))
    elif r < 0.5:
        img = synth.motion_blur(img, int(rng.integers(4, 8)), rng.uniform(0, 180))
    if rng.random() < 0.5:
        img = np.clip(img + rng.normal(0, rng.uniform(3, 12), img.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 60))])
        img = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return img


def swap_background(img, boxes, rng):
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.float32)
    for x1, y1, x2, y2 in boxes:
        m = 0.12 * (x2 - x1)
        cv2.rectangle(mask, (int(x1 - m), int(y1 - m)), (int(x2 + m), int(y2 + m)), 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), 3)[..., None]
    bg = synth.background(h, w, rng).astype(np.float32)
    return (img * mask + bg * (1 - mask)).astype(np.uint8)


def warp(img, boxes, rng, scale: float):
    """90-degree turn, scale and an oblique-camera homography; boxes re-fitted."""
    h, w = img.shape[:2]
    k = int(rng.integers(0, 4))
    img = np.rot90(img, k).copy()
    for _ in range(k):  # rotate boxes 90 deg counter-clockwise like np.rot90
        boxes = np.stack([boxes[:, 1], w - boxes[:, 2], boxes[:, 3], w - boxes[:, 0]], 1)
        h, w = w, h
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    t = rng.uniform(0.1, 0.3)  # keystone: one side narrower, like a camera tilted 20-35 deg
    side = int(rng.integers(0, 4))
    dst = src.copy()
    if side == 0:
        dst[0, 0] += t * w / 2
        dst[1, 0] -= t * w / 2
    elif side == 1:
        dst[3, 0] += t * w / 2
        dst[2, 0] -= t * w / 2
    elif side == 2:
        dst[0, 1] += t * h / 2
        dst[3, 1] -= t * h / 2
    else:
        dst[1, 1] += t * h / 2
        dst[2, 1] -= t * h / 2
    dst = dst * scale
    M = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    ow, oh = int(w * scale), int(h * scale)
    out = cv2.warpPerspective(
        img,
        M,
        (ow, oh),
        flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=tuple(int(v) for v in rng.integers(0, 256, 3)),
    )
    nb = []
    for x1, y1, x2, y2 in boxes:
        pts = np.array([[x1, y1, 1], [x2, y1, 1], [x2, y2, 1], [x1, y2, 1]]) @ M.T
        pts = pts[:, :2] / pts[:, 2:]
        nb.append([*pts.min(0), *pts.max(0)])
    return out, np.array(nb, np.float32).reshape(-1, 4)


def close_up(img, boxes, vals, rng):
    """A square around one die, 1.6-4 times its size, scaled to 480-800 px: a photo taken
    close (dice of 120-500 px); dice cut by the edge are greyed out, as they cannot be scored."""
    x1, y1, x2, y2 = boxes[rng.integers(len(boxes))]
    side = max(x2 - x1, y2 - y1)
    crop = side * rng.uniform(1.6, 4.0)
    x0 = (x1 + x2) / 2 + rng.uniform(-0.25, 0.25) * (crop - side) - crop / 2
    y0 = (y1 + y2) / 2 + rng.uniform(-0.25, 0.25) * (crop - side) - crop / 2
    size = int(rng.choice([480, 640, 800]))
    s = size / crop
    matrix = np.array([[s, 0, -x0 * s], [0, s, -y0 * s]], np.float32)
    out = cv2.warpAffine(img, matrix, (size, size), flags=cv2.INTER_CUBIC,
                         borderMode=cv2.BORDER_REFLECT)
    b = (boxes - [x0, y0, x0, y0]) * s
    whole = (b[:, 0] >= 0) & (b[:, 1] >= 0) & (b[:, 2] <= size) & (b[:, 3] <= size)
    cut = (b[:, 2] > 0) & (b[:, 3] > 0) & (b[:, 0] < size) & (b[:, 1] < size) & ~whole
    for bx1, by1, bx2, by2 in np.clip(b[cut], 0, size).astype(int):
        out[by1:by2, bx1:bx2] = 128
    return out, b[whole], vals[whole]


def build_scales() -> None:
    """The closeups and far sets, from the held-out photos: dice much bigger, or much smaller,
    than in the photos."""
    build_scale_sets(load_split()[1], "", np.random.default_rng(2718))


def build_tuning() -> None:
    """closeups-train, far-train and perturbed-train: the closeups, far and perturbed sets'
    changes made to the training subset's photos, where the reader's settings are chosen;
    synthetic-train: scenes made as the synthetic set's are, with another seed."""
    import shutil

    names = load_split()[0][::4]
    build_scale_sets(names, "-train", np.random.default_rng(3141))
    shutil.rmtree(SETS / "perturbed-train", ignore_errors=True)
    rng = np.random.default_rng(5772)
    for name in names:
        perturb(name, *load(name), rng, SETS / "perturbed-train")
    build_synthetic(SETS / "synthetic-train", np.random.default_rng(8086))


def build_synthetic(folder: Path, rng: np.random.Generator) -> None:
    """120 scenes rendered by synth.py, more oblique than training's, then colour changes
    and degradations (a seed of its own per set: never one that training uses)."""
    import shutil

    shutil.rmtree(folder, ignore_errors=True)
    for i in range(120):
        h, w = [(480, 640), (640, 640), (720, 1280), (600, 800)][i % 4]
        sizes = (22, 60) if w <= 800 else (44, 110)
        img, boxes, vals = synth.scene(h, w, rng, max_dice=20, size_range=sizes, tilt_max=0.7)
        img = degrade(colour_shift(img, rng) if rng.random() < 0.5 else img, rng)
        write_set(folder, f"synth_{i:03d}", img, boxes, vals)


def build_scale_sets(names: list[str], tag: str, rng: np.random.Generator) -> None:
    import shutil

    for sub in ("closeups", "far"):
        shutil.rmtree(SETS / f"{sub}{tag}", ignore_errors=True)
    for name in names:
        img, boxes, vals = load(name)
        for k in range(2):
            out, b, v = close_up(img, boxes, vals, rng)
            write_set(SETS / f"closeups{tag}", f"{Path(name).stem}_c{k}", out, b, v)
        s = rng.uniform(0.5, 0.9)
        small = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
        frame = synth.background(1080, 1920, rng)
        h, w = small.shape[:2]
        x, y = int(rng.integers(0, 1920 - w)), int(rng.integers(0, 1080 - h))
        frame[y : y + h, x : x + w] = small
        ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 90))])
        write_set(SETS / f"far{tag}", f"{Path(name).stem}_far", cv2.imdecode(jpeg, cv2.IMREAD_COLOR),
                  boxes * s + [x, y, x, y], vals)


def perturb(name: str, img0, boxes0, vals, rng: np.random.Generator, folder: Path) -> None:
    """Three variants of a photo: other background, colours, tilt, scale, blur, noise."""
    for v in range(3):
        img, boxes = img0.copy(), boxes0.copy()
        if rng.random() < 0.6:
            img = swap_background(img, boxes, rng)
        img = colour_shift(img, rng)
        img, boxes = warp(
            img, boxes, rng, scale=float(np.exp(rng.uniform(np.log(0.55), np.log(1.4))))
        )
        img = degrade(img, rng)
        write_set(folder, f"{Path(name).stem}_p{v}", img, boxes, vals)


def build_sets() -> None:
    import shutil

    train_names, holdout = load_split()
    for sub in ("holdout", "perturbed", "frames", "synthetic", "trainsub"):
        shutil.rmtree(SETS / sub, ignore_errors=True)
    # trainsub: every 4th training photo, the set thresholds are tuned on
    for sub in ("images", "labels"):
        (SETS / "trainsub" / sub).mkdir(parents=True)
    for name in train_names[::4]:
        stem = Path(name).stem
        (SETS / "trainsub" / "images" / name).symlink_to(DATA / "images" / name)
        (SETS / "trainsub" / "labels" / f"{stem}.txt").symlink_to(DATA / "labels" / f"{stem}.txt")
    # holdout: symlinks to the shared photos (the data stays in shared/)
    for sub in ("images", "labels"):
        (SETS / "holdout" / sub).mkdir(parents=True)
    for name in holdout:
        stem = Path(name).stem
        (SETS / "holdout" / "images" / name).symlink_to(DATA / "images" / name)
        (SETS / "holdout" / "labels" / f"{stem}.txt").symlink_to(DATA / "labels" / f"{stem}.txt")
    rng = np.random.default_rng(424242)
    for name in holdout:
        img0, boxes0, vals = load(name)
        perturb(name, img0, boxes0, vals, rng, SETS / "perturbed")
        # a 1280x720 frame around the photo
        s = rng.uniform(1.0, 1.6)
        img = cv2.resize(img0, None, fx=s, fy=s, interpolation=cv2.INTER_LINEAR)
        boxes = boxes0 * s
        frame = synth.background(720, 1280, rng)
        hh, ww = img.shape[:2]
        ch, cw = min(hh, 720), min(ww, 1280)
        oy, ox = int(rng.integers(0, hh - ch + 1)), int(rng.integers(0, ww - cw + 1))
        px, py = int(rng.integers(0, 1280 - cw + 1)), int(rng.integers(0, 720 - ch + 1))
        frame[py : py + ch, px : px + cw] = img[oy : oy + ch, ox : ox + cw]
        boxes = boxes - [ox - px, oy - py, ox - px, oy - py]
        inside = (
            (boxes[:, 0] >= px)
            & (boxes[:, 1] >= py)
            & (boxes[:, 2] <= px + cw)
            & (boxes[:, 3] <= py + ch)
        )
        # dice cut by the photo edge cannot be labelled fairly: grey them out
        for b in boxes[~inside]:
            x1, y1, x2, y2 = np.clip(b, 0, [1280, 720, 1280, 720]).astype(int)
            frame[y1:y2, x1:x2] = 128
        write_set(
            SETS / "frames",
            Path(name).stem + "_frame",
            degrade(frame, rng),
            boxes[inside],
            vals[inside],
        )
    build_synthetic(SETS / "synthetic", np.random.default_rng(98765))
    build_scales()
    build_tuning()
    for sub in ("holdout", "perturbed", "frames", "synthetic", "closeups", "far"):
        n = len(list((SETS / sub / "images").iterdir()))
        print(f"{sub}: {n} images")


# ----------------------------------------------------------------------------- scoring
def predict_folder(folder: Path, out: Path, thresholds: dict | None = None) -> None:
    from companion.vision.dice import SETTINGS, DiceReader

    thresholds = dict(thresholds or {})
    settings = replace(SETTINGS, **{k: thresholds.pop(k) for k in ("det_threshold", "value")
                                    if k in thresholds})
    rd = DiceReader(MODELS, settings=settings, **thresholds)
    with out.open("w") as f:
        for p in sorted((folder / "images").iterdir()):
            img = read_photo(p)
            dice = rd.read(img, thorough=THOROUGH)
            f.write(json.dumps({"path": str(p), "dice": [d.to_dict() for d in dice]}) + "\n")


def score(folder: Path, thresholds: dict | None = None) -> str:
    out = HERE / "logs" / f"pred_{folder.name}_{os.getpid()}.jsonl"  # runs may overlap
    out.parent.mkdir(exist_ok=True)
    predict_folder(folder, out, thresholds)
    run = subprocess.run(
        [sys.executable, str(SCORER), str(folder), "--predictions", str(out)],
        capture_output=True,
        text=True,
    )
    return run.stdout + run.stderr


def errors(folder: Path, models: Path = MODELS) -> dict[str, int]:
    """Sort every scorer error into one kind, to see which stage to improve.

    wrong value: matched (IoU >= 0.5) but misread; loose box: a prediction overlaps the die
    with IoU 0.2-0.5 (right value or not); rejected: the detector proposed it (IoU >= 0.3)
    but the classifier said "not a die" or was unsure; not proposed: no candidate at all;
    extra near a die: a second or badly placed box on a labelled die; extra: nothing there.
    """
    sys.path.insert(0, str(SCORER.parent))
    from dice_score import iou, load_labels
    from failures import matches

    from companion.vision.dice import DiceReader

    rd = DiceReader(models)
    kinds = dict.fromkeys(
        ("dice", "right", "wrong value", "loose box", "rejected", "not proposed",
         "extra near a die", "extra"), 0)
    for name, truth in load_labels(folder).items():
        img = read_photo(folder / "images" / name)
        preds = [d.to_dict() for d in rd.read(img, thorough=THOROUGH)]
        cands = rd.level_candidates(img, THOROUGH)  # what read classifies
        kinds["dice"] += len(truth)
        match = dict(matches(truth, preds, "iou"))  # label -> prediction, as the scorer pairs them
        for ti, (value, box) in enumerate(truth):
            if ti in match:
                kinds["right" if preds[match[ti]]["value"] == value else "wrong value"] += 1
            elif any(iou(box, p["box"]) >= 0.2 for p in preds):
                kinds["loose box"] += 1
            elif any(iou(box, c["box"]) >= 0.3 for c in cands):
                kinds["rejected"] += 1
            else:
                kinds["not proposed"] += 1
        for pi, p in enumerate(preds):
            if pi not in match.values():
                near = any(iou(t[1], p["box"]) >= 0.2 for t in truth)
                kinds["extra near a die" if near else "extra"] += 1
    return kinds


def bench() -> None:
    from companion.vision.dice import DiceReader

    rd = DiceReader(MODELS, threads=1)
    _, holdout = load_split()
    img640 = read_photo(DATA / "images" / holdout[0])
    frame = read_photo(SETS / "frames" / "images" / (Path(holdout[0]).stem + "_frame.jpg"))
    if frame is None:
        frame = cv2.resize(img640, (1280, 720))
    for label, img in (("640x640 image", img640), ("1280x720 frame", frame)):
        for _ in range(5):
            rd.read(img)
        ts = []
        for _ in range(50):
            t = time.perf_counter()
            rd.read(img)
            ts.append(time.perf_counter() - t)
        print(
            f"{label}: median {1000 * np.median(ts):.1f} ms, p90 {1000 * np.percentile(ts, 90):.1f} ms "
            f"(read_dice end to end, onnxruntime 1 thread)"
        )


def main() -> int:
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    cmd = args[0]
    if cmd == "build":
        {"scales": build_scales, "tuning": build_tuning}.get(args[1] if args[1:] else "",
                                                             build_sets)()
    elif cmd == "score":
        folder = Path(args[1])
        folder = folder if (folder / "images").is_dir() else SETS / args[1]
        thr = {}
        if len(args) > 2:
            thr["det_threshold"] = float(args[2])
        if len(args) > 3:
            thr["value"] = float(args[3])
        if len(args) > 4:
            thr["views"] = int(args[4])
        if len(args) > 5:
            thr["sure"] = float(args[5])
        print(score(folder, thr))
    elif cmd == "errors":
        folder = Path(args[1])
        folder = folder if (folder / "images").is_dir() else SETS / args[1]
        print(errors(folder, Path(args[2]) if len(args) > 2 else MODELS))
    elif cmd == "bench":
        bench()
    elif cmd == "all":
        build_sets()
        for sub in ("trainsub", "closeups-train", "far-train", "perturbed-train",
                    "synthetic-train",  # chosen on these
                    "holdout", "perturbed", "frames", "synthetic", "closeups", "far"):
            print(f"== {sub}")
            print(score(SETS / sub))
        bench()
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
