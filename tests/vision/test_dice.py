"""Pip dice: the shipped model on rendered fixtures and on the held-out real photos."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.settings import models_dir
from companion.vision.dice import DiceReader, ModelMissingError, iou
from companion.vision.images import load_image
from companion.vision.scan import scan_frame
from tests.conftest import ROOT
from training.dice.split import link_held_out

DICE = ROOT / "fixtures" / "images" / "dice"
QR = ROOT / "fixtures" / "images" / "qr"
SHARED = ROOT.parent / "shared"
PHOTOS = SHARED / "data" / "dice" / "byler-train"


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader(models_dir() / "dice")


def test_rendered_dice_are_read_and_none_invented(reader: DiceReader) -> None:
    right = total = 0
    for path in sorted(DICE.glob("*.jpg")):
        truth = json.loads(path.with_suffix(".json").read_text())["dice"]
        found = reader.read(load_image(path))
        total += len(truth)
        right += sum(any(iou(list(d.box), t["box"]) >= 0.5 and d.value == t["value"]
                         for d in found) for t in truth)
        for die in found:  # every reported die is a real one
            assert any(iou(list(die.box), t["box"]) >= 0.3 for t in truth), (path.name, die)
    assert total >= 40 and right / total >= 0.9


@pytest.mark.parametrize("path", sorted(QR.glob("*.jpg")), ids=lambda p: p.stem)
def test_no_dice_on_cards_or_an_empty_table(path: Path, reader: DiceReader) -> None:
    assert scan_frame(load_image(path), pips=reader)["dice"] == []


def test_a_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelMissingError, match="dice_centernet.onnx is missing"):
        DiceReader(tmp_path)


@pytest.mark.skipif(not PHOTOS.is_dir(), reason="the shared dice photos are not beside the repo")
def test_held_out_photos_through_the_official_scorer(tmp_path: Path) -> None:
    """A regression floor on the 40 photos never used in training; the bar is in the README."""
    folder = link_held_out(tmp_path / "held-out", PHOTOS)
    companion = Path(sys.executable).with_name("companion")
    done = subprocess.run([sys.executable, str(SHARED / "tools" / "dice_score.py"), str(folder),
                           "--", str(companion), "scan", "--json"],
                          capture_output=True, text=True, check=False)
    match = re.search(r"per-die accuracy ([0-9.]+)", done.stdout)
    assert match, done.stdout + done.stderr
    assert float(match.group(1)) >= 0.88
