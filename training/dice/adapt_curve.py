#!/usr/bin/env python3
"""The adaptation curve: a table the reader never saw, after 20, 50 and 100 confirmed dice.

    python loso.py adapt FOLD     # (runs curve(FOLD))

For setup FOLD, the leave-one-setup-out fold's reader (never trained on FOLD) with the settings
chosen without FOLD (data/loso/table.json) reads the pool half of FOLD's photos in order
(setups.adaptation_split), as `companion scan` reads photos; every die it reports, read or
unsure, is confirmed or corrected by the table: its labelled value where it matches a
labelled die (each box's centre inside the other), "not a die" where it matches none.
Those are the examples `companion dice adapt` learns from (companion/vision/adapt.py, as
shipped: the check on held-back examples decides whether it is switched on). Each point is
scored by dice_score.py's rules on the test half of FOLD's photos, never on the pool.
"""

from __future__ import annotations

import json
import sys

from loso import RUNS, evaluate, fold_dir, truth_of
from setups import SETUPS, adaptation_split
from split import read_photo

from companion.vision.adapt import Example, adapt, confirmed_values, example_crop
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


def examples_from(reader: DiceReader, setup_name: str, rows: list[dict], wanted: int
                  ) -> list[Example]:
    """The table's confirmations and corrections of what the reader reports, in order."""
    out: list[Example] = []
    for row in rows:
        found = reader.read(row["img"], thorough=True)
        values = confirmed_values(found, truth_of(setup_name, row))
        for die, value in zip(found, values, strict=True):
            crop = example_crop(reader, row["img"], die.box)
            out.append(Example(crop, value, f"{row['name']}:{len(out)}"))
            if len(out) >= wanted:
                return out
    return out


def curve(fold: str) -> dict:
    setup_name = fold
    pool, test = adaptation_split(SETUPS[setup_name])
    reader = DiceReader(fold_dir(fold), threads=1, settings=settings_for(fold))
    test_rows = rows_of(setup_name, test)
    result = {"setup": setup_name, "pool photos": len(pool), "test photos": len(test),
              "before": score(reader, setup_name, test_rows)}
    examples = examples_from(reader, setup_name, rows_of(setup_name, pool), max(POINTS))
    result["examples"] = len(examples)
    result["not a die among them"] = sum(e.label == 0 for e in examples)
    for n in POINTS:
        if n > len(examples):
            result[str(n)] = f"the pool gave only {len(examples)} dice"
            continue
        adaptation = adapt(reader, examples[:n])
        reader.use_head(adaptation.head)
        result[str(n)] = {"switched on": adaptation.head is not None,
                          "check": adaptation.message,
                          **score(reader, setup_name, test_rows)}
        reader.use_head(None)
        print(fold, n, json.dumps(result[str(n)]), flush=True)
    out = fold_dir(fold) / "adaptation.json"
    out.write_text(json.dumps(result, indent=1))
    print(json.dumps(result, indent=1))
    return result


if __name__ == "__main__":
    curve(sys.argv[1])
