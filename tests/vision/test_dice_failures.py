"""The model card's error pictures (training/dice/failures.py) sort a reader's errors as
dice_score.py counts them: a phantom die, a missed die, a misread die."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training" / "dice"))
# failures.py scores with ../shared/tools/dice_score.py: a clone without it skips these
failures = pytest.importorskip("failures", reason="../shared/tools/dice_score.py not beside")
TILE, errors, picture = failures.TILE, failures.errors, failures.picture
from setups import SETUPS, image_names, labels  # noqa: E402
from split import read_photo  # noqa: E402

BYLER = SETUPS["byler-train"]
pytestmark = pytest.mark.skipif(not BYLER.folder.is_dir(), reason="byler-train not beside")


def test_each_kind_of_error_is_found_once_and_drawn(tmp_path: Path) -> None:
    name = next(n for n in image_names(BYLER)
                if len(labels(BYLER, n, *read_photo(BYLER.folder / "images" / n).shape[1::-1]))
                >= 3)
    path = BYLER.folder / "images" / name
    height, width = read_photo(path).shape[:2]
    truth = labels(BYLER, name, width, height)
    dice = [{"kind": "d6", "value": v, "box": list(box)} for v, box in truth]
    dice[1]["value"] = dice[1]["value"] % 6 + 1  # misread
    del dice[0]  # missed
    dice.append({"kind": "d6", "value": 2, "box": [0.0, 0.0, 3.0, 3.0]})  # a phantom in a corner
    dice.append({"kind": "unsure", "value": None, "box": [5.0, 5.0, 3.0, 3.0]})  # not scored
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text(json.dumps({"path": str(path), "dice": dice}) + "\n")

    found = errors("byler-train", predictions, "iou")

    assert {kind: len(v) for kind, v in found.items()} == {"phantom": 1, "missed": 1,
                                                           "misread": 1}
    assert found["misread"][0][2] == f"{dice[0]['value']} / {truth[1][0]}"
    image = picture(found, per_kind=4, title="test")
    assert image.shape[0] == 26 + 3 * TILE
    assert image.shape[1] == 110 + 4 * TILE
