"""`loso.py lost` sorts every die the reader did not read right by where it was lost, from
the candidates round it: the breakdown the model card's next steps stand on."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

TRAINING = Path(__file__).resolve().parents[2] / "training" / "dice"
sys.path.insert(0, str(TRAINING))
loso = pytest.importorskip("loso", reason="../shared/tools/dice_score.py not beside")

from companion.settings import models_dir  # noqa: E402
from companion.vision.dice import DiceReader  # noqa: E402


def box(k: int) -> list[float]:
    return [100.0 * k, 100.0, 40.0, 40.0]  # dice in a row, far apart


def candidate(k: int, confidence: float, probs: list[float]) -> dict:
    return {"box": box(k), "confidence": confidence, "coarse": False,
            "probs": np.asarray(probs, np.float32)}


def test_each_way_of_losing_a_die_is_counted_once() -> None:
    reader = DiceReader(models_dir() / "dice", threads=1)
    truth = [(k % 6 + 1, box(k)) for k in range(8)]
    sure_two = [0.0, 0.0, 0.95, 0.01, 0.01, 0.01, 0.02]
    candidates = [
        candidate(3, 0.2, sure_two),  # the detector's score under the threshold
        candidate(4, 0.6, [0.9, 0.02, 0.02, 0.02, 0.02, 0.01, 0.01]),  # "not a die"
        candidate(5, 0.6, sure_two),  # it would be read: the merge of levels lost it
        candidate(6, 0.6, [0.1, 0.15, 0.15, 0.15, 0.15, 0.15, 0.15]),  # no value likely
    ]  # die 7: no candidate at all
    dice = [{"kind": "d6", "value": 1, "box": box(0)},  # right
            {"kind": "d6", "value": 5, "box": box(1)},  # misread (is 2)
            {"kind": "unsure", "value": None, "box": box(2)},
            {"kind": "d6", "value": 4, "box": box(20)}]  # a phantom

    lost = loso.where_lost(truth, candidates, dice, reader, "centre")

    assert lost == {"phantom": 1, "misread": 1, "reported unsure": 1,
                    "dropped when levels merged": 1, "classifier: not a die": 1,
                    "classifier: value unsure": 1, "detector below threshold": 1,
                    "never proposed": 1}
