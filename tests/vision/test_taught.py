"""Taught dice: learn faces from pictures, then read them, never inventing a die."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.vision.images import load_image
from companion.vision.taught import TaughtDice, TeachError, learn_example, load, read_taught
from tests.conftest import ROOT
from tools.synthetic_dice import BURKE_FACES, scene

TAUGHT = ROOT / "fixtures" / "images" / "taught"
SCENES = sorted(TAUGHT.glob("*.jpg"))


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory in which the Burke's Gambit dice were taught through the CLI."""
    folder = tmp_path_factory.mktemp("data")
    for face in BURKE_FACES:
        pictures = sorted(str(p) for p in (TAUGHT / "teach").glob(f"{face}-*.jpg"))
        assert main(["dice", "teach", "burke", "--face", face, "--data", str(folder),
                     *pictures]) == 0
    return folder


def iou(a: list[int], b: list[int]) -> float:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    w = max(0, min(ax + aw, bx + bw) - max(ax, bx))
    h = max(0, min(ay + ah, by + bh) - max(ay, by))
    return w * h / (aw * ah + bw * bh - w * h)


@pytest.mark.parametrize("path", SCENES, ids=[p.stem for p in SCENES])
def test_every_taught_die_is_read_right(path: Path, data: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["scan", "--json", "--data", str(data), "--dice", "burke", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    truth = json.loads(path.with_suffix(".json").read_text())["dice"]
    assert len(result["dice"]) == len(truth)
    for die in truth:
        [match] = [d for d in result["dice"] if iou(d["box"], die["box"]) >= 0.5]
        assert match["value"] == die["value"] and match["kind"] == "burke"


def test_all_faces_are_listed(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["dice", "list", "--data", str(data)]) == 0
    assert capsys.readouterr().out.strip() == "burke: " + ", ".join(sorted(BURKE_FACES))


def test_dice_of_another_colour_are_not_reported(data: Path) -> None:
    model = load(data, "burke")
    image, _ = scene(["ENGINE", "CANCEL"], seed=5, body=(30, 160, 40))  # green dice
    assert read_taught(model, image) == []


def test_an_untaught_face_is_not_guessed() -> None:
    model = TaughtDice("few")
    for seed in (1, 2, 3):
        learn_example(model, "ENGINE", scene(["ENGINE"], seed, size=(200, 200))[0])
        learn_example(model, "CANCEL", scene(["CANCEL"], seed + 10, size=(200, 200))[0])
    image, _ = scene(["QUARANTINE", "ID-CHECK", "ENGINE"], seed=7)
    values = [d.value for d in read_taught(model, image)]
    assert values == ["ENGINE"]


def test_a_picture_without_a_die_teaches_nothing(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    blank = tmp_path / "table.png"
    cv2.imwrite(str(blank), np.full((200, 200, 3), 120, np.uint8))
    assert main(["dice", "teach", "x", "--face", "ENGINE", "--data", str(tmp_path),
                 str(blank)]) == 2
    assert "no die found" in capsys.readouterr().err
    assert not (tmp_path / "dice").exists()


def test_bad_names_unknown_and_corrupt_models(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", "--dice", "nobody", "--data", str(tmp_path), str(SCENES[0])]) == 2
    assert "no dice named 'nobody'" in capsys.readouterr().err
    with pytest.raises(TeachError, match="not a usable dice name"):
        load(tmp_path, "../etc")
    (tmp_path / "dice").mkdir()
    (tmp_path / "dice" / "broken.npz").write_bytes(b"not a model")
    with pytest.raises(TeachError, match="cannot be read"):
        load(tmp_path, "broken")
    assert main(["dice", "forget", "broken", "--data", str(tmp_path)]) == 0
    assert main(["dice", "forget", "broken", "--data", str(tmp_path)]) == 2


def test_teaching_from_a_fixture_learns_the_die_size() -> None:
    model = TaughtDice("one")
    learn_example(model, "ENGINE", load_image(TAUGHT / "teach" / "ENGINE-1.jpg"))
    assert 45 < model.side_px() < 70  # drawn with 56 px sides, rounded corners
