"""How the training turns each setup's labels into the top faces the reader reports
(training/dice/setups.py): a whole-die box seen from one side holds its top face above a side."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training" / "dice"))
from setups import SETUPS, face_boxes, top_face_share  # noqa: E402


def test_a_square_whole_die_box_is_its_top_face() -> None:
    faces, known = face_boxes(SETUPS["epanemu-cloth"], [(3, (10.0, 20.0, 50.0, 52.0))])
    assert known
    assert faces.tolist() == [[10.0, 20.0, 60.0, 72.0]]


def test_a_tall_whole_die_box_holds_its_top_face_in_its_upper_part() -> None:
    # the cloth's dice: 1.4 times as high as wide, the top face's front edge near half-way
    faces, _ = face_boxes(SETUPS["epanemu-cloth"], [(1, (0.0, 0.0, 60.0, 84.0))])
    x1, y1, x2, y2 = faces[0]
    assert (x1, y1, x2) == (0.0, 0.0, 60.0)
    assert y2 == pytest.approx(42.0)


@pytest.mark.parametrize(("tall", "share"), [(1.0, 1.0), (1.2, 0.75), (1.4, 0.5), (2.0, 0.5)])
def test_the_top_face_share_falls_from_all_seen_from_above_to_half(tall: float,
                                                                   share: float) -> None:
    assert top_face_share(tall) == pytest.approx(share)


def test_only_the_top_down_setup_is_turned_any_way_in_training() -> None:
    assert [name for name, setup in SETUPS.items() if not setup.upright] == ["byler-train"]
