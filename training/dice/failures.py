#!/usr/bin/env python3
"""Pictures of the reader's errors on one set, for the model card.

    python failures.py SETUP PREDICTIONS OUT.jpg [--match centre|iou] [--per-kind 8]

PREDICTIONS: JSON Lines as `companion scan --json` writes them (`loso.py` writes the folds'
as predictions-SETUP.jsonl). Errors are found with dice_score.py's matching and drawn in
three rows, one crop each with some of the table round it, the box drawn:

- a phantom die: a reported die that matches no labelled die (magenta box, the value read);
- a missed die: a labelled die no report matches (yellow box, the die's value);
- a misread die: matched, the value wrong (red box, "read / is").

Which errors are drawn is fixed by their order in the set (every k-th), not chosen by eye.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np
from loso import SCORER
from setups import SETUPS, labels
from split import read_photo

sys.path.insert(0, str(SCORER.parent))
from dice_score import centre_match, iou  # noqa: E402

TILE = 96  # pixels of one crop in the picture
CONTEXT = 2.2  # a crop shows this many times the die's box
KINDS = (("phantom", (255, 0, 255)), ("missed", (0, 220, 255)), ("misread", (0, 0, 255)))


def matches(truth: list, preds: list[dict], match: str) -> list[tuple[int, int]]:
    """dice_score.py's greedy matching: (label index, prediction index) pairs."""
    measure = iou if match == "iou" else centre_match
    floor = 0.5 if match == "iou" else 1e-9
    pairs = sorted(((measure(t[1], p["box"]), ti, pi) for ti, t in enumerate(truth)
                    for pi, p in enumerate(preds)), reverse=True)
    used_t: set[int] = set()
    used_p: set[int] = set()
    out = []
    for overlap, ti, pi in pairs:
        if overlap < floor:
            break
        if ti not in used_t and pi not in used_p:
            used_t.add(ti)
            used_p.add(pi)
            out.append((ti, pi))
    return out


def errors(setup_name: str, predictions: Path, match: str) -> dict[str, list[tuple]]:
    """Every error of the set: (photo path, box, caption) by kind."""
    found: dict[str, list[tuple]] = {kind: [] for kind, _ in KINDS}
    for line in predictions.read_text().splitlines():
        row = json.loads(line)
        path = Path(row["path"])
        preds = [d for d in row["dice"] if d.get("kind") == "d6"]
        width, height = read_photo(path).shape[1::-1]
        truth = labels(SETUPS[setup_name], path.name, width, height)
        pairs = matches(truth, preds, match)
        for ti, pi in pairs:
            if int(preds[pi]["value"]) != truth[ti][0]:
                found["misread"].append((path, preds[pi]["box"],
                                         f"{preds[pi]['value']} / {truth[ti][0]}"))
        for pi, p in enumerate(preds):
            if pi not in {b for _, b in pairs}:
                found["phantom"].append((path, p["box"], str(p["value"])))
        for ti, (value, box) in enumerate(truth):
            if ti not in {a for a, _ in pairs}:
                found["missed"].append((path, list(box), str(value)))
    return found


def tile(img: np.ndarray, box: list[float], colour: tuple[int, int, int], caption: str
         ) -> np.ndarray:
    x, y, w, h = box
    side = max(w, h) * CONTEXT
    cx, cy = x + w / 2, y + h / 2
    scale = TILE / side
    warp = np.float32([[scale, 0, TILE / 2 - cx * scale], [0, scale, TILE / 2 - cy * scale]])
    out = cv2.warpAffine(img, warp, (TILE, TILE), flags=cv2.INTER_AREA,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=(40, 40, 40))
    x0, y0 = (TILE - w * scale) / 2, (TILE - h * scale) / 2
    cv2.rectangle(out, (int(x0), int(y0)), (int(x0 + w * scale), int(y0 + h * scale)), colour, 1)
    cv2.rectangle(out, (0, TILE - 16), (TILE, TILE), (0, 0, 0), -1)
    cv2.putText(out, caption, (3, TILE - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (255, 255, 255), 1,
                cv2.LINE_AA)
    return out


def picture(found: dict[str, list[tuple]], per_kind: int, title: str) -> np.ndarray:
    photos: dict[Path, np.ndarray] = {}
    rows = []
    for kind, colour in KINDS:
        chosen = found[kind][::max(1, len(found[kind]) // per_kind)][:per_kind]
        tiles = []
        for path, box, caption in chosen:
            if path not in photos:
                photos[path] = read_photo(path)
            tiles.append(tile(photos[path], box, colour, caption))
        tiles += [np.full((TILE, TILE, 3), 255, np.uint8)] * (per_kind - len(tiles))
        label = np.full((TILE, 110, 3), 255, np.uint8)
        for k, text in enumerate((kind, f"{len(found[kind])} in all")):
            cv2.putText(label, text, (4, 40 + 20 * k), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0),
                        1, cv2.LINE_AA)
        rows.append(np.hstack([label, *tiles]))
    head = np.full((26, rows[0].shape[1], 3), 255, np.uint8)
    cv2.putText(head, title, (4, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1, cv2.LINE_AA)
    return np.vstack([head, *rows])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("setup", choices=sorted(SETUPS))
    ap.add_argument("predictions", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--match", choices=("centre", "iou"), default="centre")
    ap.add_argument("--per-kind", type=int, default=8)
    ap.add_argument("--title", default="")
    args = ap.parse_args()
    found = errors(args.setup, args.predictions, args.match)
    image = picture(found, args.per_kind, args.title or args.setup)
    cv2.imwrite(str(args.out), image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    print({kind: len(v) for kind, v in found.items()}, "->", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
