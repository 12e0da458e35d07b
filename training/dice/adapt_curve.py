#!/usr/bin/env python3
"""The adaptation curve: a table the reader never saw, after 20, 50 and 100 confirmed dice.

    python loso.py adapt FOLD     # (runs curve(FOLD))
    python adapt_curve.py ceiling FOLD   # the best a last-layer correction could do (ceiling)

For setup FOLD, the leave-one-setup-out fold's reader (never trained on FOLD) with the settings
chosen without FOLD (data/loso/table.json) reads the pool half of FOLD's photos in order
(setups.adaptation_split), as `companion scan` reads photos; every die it reports, read or
unsure, is confirmed or corrected by the table: its labelled value where it matches a
labelled die (each box's centre inside the other), "not a die" where it matches none. A
second curve adds the dice the reader did not report, as if the players pointed them out
on the phone (the service cannot take that yet: it is what such a tap would give).
Those are the examples `companion dice adapt` learns from (companion/vision/adapt.py, as
shipped: the check on held-back examples decides whether it is switched on). Each point is
scored by dice_score.py's rules on the test half of FOLD's photos, never on the pool.
"""

from __future__ import annotations

import json
import sys

from loso import RUNS, evaluate, fold_dir, truth_of
from setups import SETUPS, adaptation_split, face_boxes
from split import read_photo

from companion.settings import models_dir
from companion.vision.adapt import (
    AdaptError,
    Example,
    adapt,
    confirmed_values,
    example_crop,
    fit_head,
    reads_right,
)
from companion.vision.dice import DiceReader, DiceSettings

POINTS = (20, 50, 100)


def settings_for(fold: str) -> DiceSettings:
    """The settings the leave-one-setup-out table chose without this fold."""
    table = json.loads((RUNS / "table.json").read_text())
    return DiceSettings(**table[fold]["settings"])


def rows_of(setup_name: str, names: list[str]) -> list[dict]:
    out = []
    for name in names:
        img = read_photo(SETUPS[setup_name].folder / "images" / name)
        out.append({"name": name, "width": img.shape[1], "height": img.shape[0], "img": img})
    return out


def score(reader: DiceReader, setup_name: str, rows: list[dict]) -> dict:
    dice = [[d.to_dict() for d in reader.read(r["img"], thorough=True)] for r in rows]
    return evaluate(setup_name, rows, [truth_of(setup_name, r) for r in rows], dice)


def examples_from(reader: DiceReader, setup_name: str, rows: list[dict], wanted: int,
                  missed: bool = False) -> list[Example]:
    """The table's confirmations and corrections of what the reader reports, in order; with
    ``missed``, also the dice it did not report, pointed out by the players (the box: the
    reader's candidate there, rejected, or else the labelled top face)."""
    out: list[Example] = []
    for row in rows:
        truth = truth_of(setup_name, row)
        found = reader.read(row["img"], thorough=True, reach=False)  # crops as classified
        values = confirmed_values(found, truth)
        shown = [(die.box, value) for die, value in zip(found, values, strict=True)]
        if missed:
            seen = {tuple(t[1]) for t in truth
                    if any(confirmed_values([d], [t])[0] for d in found)}
            faces, _ = face_boxes(SETUPS[setup_name], truth)
            for (value, box), face in zip(truth, faces, strict=True):
                if tuple(box) not in seen:
                    shown.append((box_there(reader, row["img"], box, face), value))
        for box, value in shown:
            crop = example_crop(reader, row["img"], box)
            out.append(Example(crop, value, f"{row['name']}:{len(out)}"))
            if len(out) >= wanted:
                return out
    return out


def box_there(reader: DiceReader, img, box, face) -> list[float]:
    """The box the players' tap on a missed die gives: the candidate with its centre in the
    die's box, closest to its centre; else the die's top face."""
    cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
    near = [c["box"] for c in reader.level_candidates(img, True)
            if box[0] <= c["box"][0] + c["box"][2] / 2 <= box[0] + box[2]
            and box[1] <= c["box"][1] + c["box"][3] / 2 <= box[1] + box[3]
            and c["box"][2] * c["box"][3] <= 4 * box[2] * box[3]]
    if near:
        return min(near, key=lambda b: abs(b[0] + b[2] / 2 - cx) + abs(b[1] + b[3] / 2 - cy))
    x1, y1, x2, y2 = (float(v) for v in face)
    return [x1, y1, x2 - x1, y2 - y1]


def curve(fold: str, shipped: bool = False) -> dict:
    """With ``shipped``, the shipped reader and its settings (trained on byler-train only, so
    every other setup is one it never saw); else the fold's leave-one-setup-out reader."""
    setup_name = fold
    pool, test = adaptation_split(SETUPS[setup_name])
    if shipped:
        reader = DiceReader(models_dir() / "dice", threads=1)
        where = RUNS / "shipped" / fold
        where.mkdir(parents=True, exist_ok=True)
    else:
        reader = DiceReader(fold_dir(fold), threads=1, settings=settings_for(fold))
        where = fold_dir(fold)
    test_rows = rows_of(setup_name, test)
    result = {"setup": setup_name, "pool photos": len(pool), "test photos": len(test),
              "before": score(reader, setup_name, test_rows)}
    pool_rows = rows_of(setup_name, pool)
    for way, missed in (("confirmed", False), ("confirmed and missed", True)):
        examples = examples_from(reader, setup_name, pool_rows, max(POINTS), missed)
        result[way] = {"examples": len(examples),
                       "not a die among them": sum(e.label == 0 for e in examples)}
        for n in POINTS:
            if n > len(examples):
                result[way][str(n)] = f"the pool gave only {len(examples)} dice"
                continue
            try:
                adaptation = adapt(reader, examples[:n])
            except AdaptError as refused:  # contradictory labels: what the table is told
                result[way][str(n)] = {"refused": str(refused)}
                print(fold, way, n, "refused:", refused, flush=True)
                continue
            reader.use_head(adaptation.head)
            result[way][str(n)] = {"switched on": adaptation.head is not None,
                                   "check": adaptation.message,
                                   **score(reader, setup_name, test_rows)}
            reader.use_head(None)
            print(fold, way, n, json.dumps(result[way][str(n)]), flush=True)
    out = where / "adaptation.json"
    out.write_text(json.dumps(result, indent=1))
    print(json.dumps(result, indent=1))
    return result


def every_candidate(reader: DiceReader, setup_name: str, rows: list[dict]) -> list[Example]:
    """Every candidate the reader classifies in these photos, labelled as a table that
    confirmed them all would: the value of the die its centre lies in (unless its box is
    far from that die's size: a pip, or a group of dice), else "not a die"."""
    out: list[Example] = []
    for row in rows:
        truth = truth_of(setup_name, row)
        for c in reader.propose(row["img"], thorough=True):
            x, y, w, h = c["box"]
            holds = [(v, t) for v, t in truth if t[0] <= x + w / 2 <= t[0] + t[2]
                     and t[1] <= y + h / 2 <= t[1] + t[3]]
            if holds and not 0.25 <= w * h / (holds[0][1][2] * holds[0][1][3]) <= 2.5:
                continue  # which die this box is cannot be said
            crop = example_crop(reader, row["img"], c["box"])
            out.append(Example(crop, holds[0][0] if holds else 0, f"{row['name']}:{len(out)}"))
    return out


def ceiling(fold: str) -> dict:
    """What a last-layer correction could do at best on this fold: fitted (no check) on the
    first 50, 100 and all of the pool half's candidates, every one labelled, and judged on
    every candidate of the test half (the share each reads right, as the reader would report
    it: a die with its value, anything else not as a die)."""
    reader = DiceReader(fold_dir(fold), threads=1)  # the shipped settings
    pool, test = adaptation_split(SETUPS[fold])
    pool_examples = every_candidate(reader, fold, rows_of(fold, pool))
    test_examples = every_candidate(reader, fold, rows_of(fold, test))
    result = {"setup": fold, "pool candidates": len(pool_examples),
              "test candidates": len(test_examples),
              "before": float(reads_right(reader, test_examples, None).mean())}
    for n in (50, 100, len(pool_examples)):
        head = fit_head(reader, pool_examples[:n], (True,) * 7)  # every class shown
        result[str(n)] = float(reads_right(reader, test_examples, head).mean())
    (fold_dir(fold) / "adaptation-ceiling.json").write_text(json.dumps(result, indent=1))
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    if sys.argv[1] == "ceiling":
        ceiling(sys.argv[2])
    else:
        curve(sys.argv[1], shipped="--shipped" in sys.argv[2:])
