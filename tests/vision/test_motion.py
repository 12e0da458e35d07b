"""A settled roll: dice are read once the zone stops moving, and not while it moves."""

from __future__ import annotations

import numpy as np

from companion.vision.motion import READS, STILL_FRAMES, SettleGate
from companion.vision.tracker import DieReading
from companion.vision.zone import RollZone


def table(die_at: int | None = None) -> np.ndarray:
    frame = np.full((360, 640, 3), 120, np.uint8)
    frame[::16] = 100  # a little texture
    if die_at is not None:
        frame[150:190, die_at:die_at + 40] = 240
    return frame


def test_dice_are_read_once_settled_not_while_moving_and_not_again_until_they_move() -> None:
    gate = SettleGate()
    reads: list[int] = []
    die = [DieReading("d6", 4, (300, 150, 40, 40), 0.9)]

    def read() -> list[DieReading]:
        reads.append(1)
        return die

    assert gate.dice(table(300), read) == die and len(reads) == 1  # the first frame is read
    assert gate.dice(table(300), read) == die  # still: read up to READS times in all
    for x in (100, 160, 220, 280):  # the die tumbles across the table
        assert gate.dice(table(x), read) == []
    before = len(reads)
    out = [gate.dice(table(300), read) for _ in range(STILL_FRAMES + READS + 5)]
    # the frame it lands in still differs from the last; STILL_FRAMES like it: settled
    assert all(o == [] for o in out[:STILL_FRAMES])
    assert all(o == die for o in out[STILL_FRAMES:])  # then read, then repeated
    assert len(reads) - before == READS  # ...without reading again while nothing moves


def test_only_movement_in_the_roll_zone_counts() -> None:
    gate = SettleGate(RollZone.from_points([(0.0, 0.0), (0.5, 1.0)]))  # the left half
    gate.dice(table(), list)
    assert not gate.moving(table(400))  # something moved on the right half: not a roll
    assert gate.moving(table(100))  # a die thrown into the zone
