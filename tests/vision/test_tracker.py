"""The tracker: stable readings reported once; moving cards and tumbling dice never."""

from companion.vision.qr import CodeReading
from companion.vision.tracker import DieReading, ReadingTracker


def code(text: str, x: float = 100.0, y: float = 100.0) -> CodeReading:
    return CodeReading(text, ((x, y), (x + 50, y), (x + 50, y + 50), (x, y + 50)))


def die(value: int, x: int = 300, y: int = 300) -> DieReading:
    return DieReading("d6", value, (x, y, 40, 40), 0.9)


def test_a_card_is_reported_once_it_lies_still() -> None:
    tracker = ReadingTracker(settle_frames=3)
    assert tracker.update([code("A")], []) == []
    assert tracker.update([code("A")], []) == []
    [report] = tracker.update([code("A")], [])
    assert report["type"] == "card" and report["payload"] == "A"
    for _ in range(10):
        assert tracker.update([code("A")], []) == []


def test_a_moving_card_is_not_reported() -> None:
    tracker = ReadingTracker(settle_frames=3)
    for step in range(10):
        assert tracker.update([code("A", x=100 + 40 * step)], []) == []


def test_a_card_missed_in_some_frames_still_settles() -> None:
    tracker = ReadingTracker(settle_frames=3, window=8)
    seen = [True, False, True, False, True]
    reports = [tracker.update([code("A")] if s else [], []) for s in seen]
    assert [len(r) for r in reports] == [0, 0, 0, 0, 1]


def test_a_card_taken_away_and_shown_again_is_a_new_reading() -> None:
    tracker = ReadingTracker(settle_frames=2, forget_frames=3)
    for _ in range(2):
        tracker.update([code("A")], [])
    gone = [tracker.update([], []) for _ in range(3)]
    assert gone[-1] == [{"type": "card_gone", "payload": "A"}]
    tracker.update([code("A")], [])
    assert tracker.update([code("A")], [])[0]["type"] == "card"


def test_settled_dice_are_one_roll() -> None:
    tracker = ReadingTracker(settle_frames=3)
    frames = [[die(2)], [die(5)], [die(3)], [die(4), die(1, 400)], [die(4), die(1, 400)],
              [die(4), die(1, 400)], [die(4), die(1, 400)]]
    reports = [tracker.update([], f) for f in frames]
    rolls = [r for frame in reports for r in frame]
    assert len(rolls) == 1 and [d["value"] for d in rolls[0]["dice"]] == [4, 1]
    assert reports[5] == rolls  # reported on the third still frame, not before


def test_the_same_faces_rolled_again_count_after_the_dice_were_picked_up() -> None:
    tracker = ReadingTracker(settle_frames=2)
    rolls = 0
    for frame in [[die(6)]] * 3 + [[]] * 2 + [[die(6)]] * 3:
        rolls += len(tracker.update([], frame))
    assert rolls == 2


def test_a_flickering_reading_is_not_a_new_roll() -> None:
    tracker = ReadingTracker(settle_frames=3)
    frames = [[die(4)]] * 4 + [[die(2)]] + [[die(4)]] * 6  # one frame misread as a 2
    assert sum(len(tracker.update([], f)) for f in frames) == 1


def test_no_dice_no_roll() -> None:
    tracker = ReadingTracker(settle_frames=2)
    assert all(tracker.update([], []) == [] for _ in range(5))
