"""The roll zone and the empty zone's picture: nothing outside the zone is read as a die."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from companion.cli import main
from companion.settings import models_dir
from companion.vision.dice import DiceReader, iou
from companion.vision.images import load_image
from companion.vision.qr import CodeReading
from companion.vision.tracker import UNSURE
from companion.vision.zone import (
    EmptyReference,
    RollZone,
    ZoneError,
    load_zone,
    save_zone,
    zone_from_codes,
    zone_path,
)
from tests.conftest import ROOT

DICE = ROOT / "fixtures" / "images" / "dice"
PHOTO = DICE / "red-white-pips-640.jpg"


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader(models_dir() / "dice")


def sticker(text: str, x: float, y: float) -> CodeReading:
    return CodeReading(text, ((x - 20, y - 20), (x + 20, y - 20), (x + 20, y + 20),
                              (x - 20, y + 20)))


def test_two_opposite_corners_make_a_rectangle_and_shares_outside_are_counted() -> None:
    zone = RollZone.from_points([(0.5, 0.5), (0.0, 0.0)])
    assert sorted(zone.corners) == [(0.0, 0.0), (0.0, 0.5), (0.5, 0.0), (0.5, 0.5)]
    assert zone.outside([10, 10, 20, 20], 200, 100) == 0.0  # well inside
    assert zone.outside([150, 10, 20, 20], 200, 100) == 1.0  # its centre is outside
    half = zone.outside([90, 10, 20, 20], 200, 100)  # across the right edge, centre inside
    assert 0.3 < half < 0.6


@pytest.mark.parametrize("points", [[(0.1, 0.1)], [(0.1, 0.1), (0.1, 0.9)],
                                    [(0.1, 0.1), (0.5, 0.5), (0.9, 0.9)], [(0.1, 0.1), (2, 2)]])
def test_a_zone_that_encloses_nothing_or_leaves_the_picture_is_refused(
        points: list[tuple[float, float]]) -> None:
    with pytest.raises(ZoneError):
        RollZone.from_points(points)


def test_corner_stickers_mark_the_zone_two_or_four_of_them() -> None:
    corners = [sticker(f"GC1/ZONE/MARK/{n}", x, y)
               for n, (x, y) in enumerate([(100, 50), (500, 50), (500, 350), (100, 350)], 1)]
    card = sticker("GC1/CG/CAPTAIN/PUCK", 300, 200)
    four = zone_from_codes([*corners, card], 640, 480)
    assert four is not None and four.outside([280, 180, 40, 40], 640, 480) == 0.0
    assert four.outside([560, 400, 40, 40], 640, 480) == 1.0
    two = zone_from_codes([corners[0], corners[2]], 640, 480)
    assert two is not None and sorted(two.corners) == sorted(four.corners)
    assert zone_from_codes(corners[:3], 640, 480) is None  # three: a corner is covered
    assert zone_from_codes([card], 640, 480) is None


def test_only_dice_in_the_zone_are_read_and_one_half_out_is_unsure(
        reader: DiceReader) -> None:
    image = load_image(PHOTO)
    height, width = image.shape[:2]
    everywhere = reader.read(image, thorough=True)
    read = [d for d in everywhere if d.kind == "d6"]
    assert len(read) >= 4
    # a zone's edge in the widest gap between dice, left to right: the dice to its right
    # are not read, not even as unsure; those to its left are
    ordered = sorted(read, key=lambda d: d.box[0])
    gaps = [(nxt.box[0] - (die.box[0] + die.box[2]), die.box[0] + die.box[2], nxt.box[0])
            for die, nxt in zip(ordered, ordered[1:], strict=False)]
    _, left, right = max(gaps)
    cut = (left + right) / 2
    zone = RollZone.from_points([(0.0, 0.0), (cut / width, 1.0)])
    inside = reader.read(image, thorough=True, zone=zone)
    assert {d.box for d in inside if d.kind == "d6"} == {d.box for d in read
                                                          if d.centre[0] < cut}
    assert all(d.centre[0] < cut for d in inside)
    # the zone's edge through a die's right part: that die is asked about, not read
    die = max((d for d in read if d.centre[0] < cut), key=lambda d: d.centre[0])
    edge = (die.box[0] + 0.6 * die.box[2]) / width
    across = reader.read(image, thorough=True, zone=RollZone.from_points([(0, 0), (edge, 1)]))
    # (the read die's box reaches its pips, the unsure one's is the detector's)
    assert [d.kind for d in across if iou(d.box, die.box) > 0.5] == [UNSURE]


def test_the_empty_zones_picture_leaves_out_what_was_there_before_the_dice(
        reader: DiceReader) -> None:
    image = load_image(PHOTO)
    truth = json.loads(PHOTO.with_suffix(".json").read_text())["dice"]
    empty = image.copy()
    for die in truth:  # the same table with every die painted over by the table round it
        x, y, w, h = die["box"]
        empty[y - 4:y + h + 4, x - 4:x + w + 4] = np.median(image[max(0, y - 12):y - 6,
                                                                  x:x + w], axis=(0, 1))
    reference = EmptyReference.from_frame(empty)
    boxes = [d["box"] for d in truth]
    assert reference.unchanged(image, boxes) == [False] * len(boxes)  # the dice: changed
    assert reference.unchanged(empty, boxes) == [True] * len(boxes)  # no dice: unchanged
    assert reader.read(empty, thorough=True, empty=reference) == []
    with_dice = reader.read(image, thorough=True, empty=reference)
    assert len([d for d in with_dice if d.kind == "d6"]) >= len(truth) - 1
    # a frame of another size is never compared: nothing is left out for it
    assert reference.unchanged(image[:300], boxes[:1]) == [False]


def test_the_zone_is_kept_in_the_data_directory_and_a_damaged_one_is_a_clear_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert load_zone(tmp_path) is None
    save_zone(tmp_path, RollZone.from_points([(0.1, 0.2), (0.9, 0.8)]))
    assert load_zone(tmp_path) == RollZone.from_points([(0.9, 0.8), (0.1, 0.2)])
    zone_path(tmp_path).write_text("{not json")
    with pytest.raises(ZoneError, match="cannot be read"):
        load_zone(tmp_path)
    # the command line: a bad corner changes nothing; clear forgets the zone
    save_zone(tmp_path, RollZone.from_points([(0.1, 0.2), (0.9, 0.8)]))
    assert main(["dice", "zone", "--corners", "0.1,0.1", "1.5,0.9", "--data",
                 str(tmp_path)]) == 2
    assert "nothing changed" in capsys.readouterr().err
    assert load_zone(tmp_path) == RollZone.from_points([(0.1, 0.2), (0.9, 0.8)])
    assert main(["dice", "zone", "--corners", "0,0", "0.5,1", "--data", str(tmp_path)]) == 0
    assert "0.500,1.000" in capsys.readouterr().out
    assert main(["dice", "zone", "--clear", "--data", str(tmp_path)]) == 0
    assert load_zone(tmp_path) is None


def test_the_corner_stickers_print_and_a_photo_without_them_sets_no_zone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdf = tmp_path / "corners.pdf"
    assert main(["dice", "zone", "--stickers", str(pdf)]) == 0
    assert pdf.read_bytes()[:4] == b"%PDF"
    assert main(["dice", "zone", "--from-photo", str(PHOTO), "--data", str(tmp_path)]) == 2
    assert "no two opposite or four corner stickers" in capsys.readouterr().err
    assert load_zone(tmp_path) is None
