"""Steady readings across frames: a card once it lies still, a roll once the dice have settled.

The only stateful part of vision. Per frame it gets what the readers saw and returns the
readings that have just become stable, each reported once:
- a card when its code has been read in ``settle_frames`` of the last ``window`` frames at
  the same place; reported again only after it has been gone for ``forget_frames`` frames;
- a roll when the same dice (values and places) have been seen in ``settle_frames``
  consecutive frames, so dice still tumbling or a hand over them report nothing; the next
  roll is reported once the dice have changed or gone and settled again.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.vision.qr import CodeReading

# The kind of a die the pip reader sees but cannot read (its value, or whether it is a die at
# all, is unsure): reported with no value, for the phone to ask, never guessed.
UNSURE = "unsure"


@dataclass(frozen=True)
class DieReading:
    kind: str  # "d6", UNSURE, or a taught die's name
    value: int | str | None  # None only for an unsure die
    box: tuple[int, int, int, int]  # x, y, w, h in pixels
    confidence: float

    @property
    def centre(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return x + w / 2, y + h / 2

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "value": self.value, "box": list(self.box),
                "confidence": round(self.confidence, 3)}


@dataclass
class _Card:
    reading: CodeReading
    seen: deque[bool] = field(default_factory=deque)
    missing: int = 0
    reported: bool = False


class ReadingTracker:
    """Turns per-frame readings into stable, once-only reports."""

    def __init__(self, settle_frames: int = 3, window: int = 16, forget_frames: int = 16,
                 move_tolerance_px: float = 12.0) -> None:
        self.settle_frames = settle_frames
        self.window = window
        self.forget_frames = forget_frames
        self.move_tolerance_px = move_tolerance_px
        self._cards: dict[str, _Card] = {}
        self._dice_key: tuple[tuple[Any, int, int], ...] | None = None
        self._dice_streak = 0
        self._reported_key: tuple[tuple[Any, int, int], ...] | None = None
        self._disturbed = 0  # frames since the last roll that did not show that roll

    def update(self, cards: list[CodeReading], dice: list[DieReading]) -> list[dict[str, Any]]:
        """Feed one frame's readings; returns the reports that became stable with it."""
        return self._update_cards(cards) + self._update_dice(dice)

    def _update_cards(self, cards: list[CodeReading]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        now = {c.text: c for c in cards}
        for text, reading in now.items():
            track = self._cards.get(text)
            if track is None or self._moved(track.reading, reading):
                track = _Card(reading)  # new, or moved: start settling again
                self._cards[text] = track
            track.reading = reading
            track.missing = 0
        for text, track in list(self._cards.items()):
            present = text in now
            track.seen.append(present)
            if len(track.seen) > self.window:
                track.seen.popleft()
            if not present:
                track.missing += 1
                if track.missing >= self.forget_frames:
                    if track.reported:
                        out.append({"type": "card_gone", "payload": text})
                    del self._cards[text]
                continue
            if not track.reported and sum(track.seen) >= self.settle_frames:
                track.reported = True
                out.append({"type": "card", "payload": text,
                            "corners": [list(p) for p in track.reading.corners]})
        return out

    def _moved(self, before: CodeReading, after: CodeReading) -> bool:
        (x0, y0), (x1, y1) = before.centre, after.centre
        return bool(np.hypot(x1 - x0, y1 - y0) > self.move_tolerance_px)

    def _dice_signature(self, dice: list[DieReading]) -> tuple[tuple[Any, int, int], ...]:
        grid = self.move_tolerance_px
        # values are numbers, taught faces' names or None (unsure): compared as text
        return tuple(sorted((f"{d.kind}:{d.value}", round(d.centre[0] / grid),
                             round(d.centre[1] / grid)) for d in dice))

    def _update_dice(self, dice: list[DieReading]) -> list[dict[str, Any]]:
        key = self._dice_signature(dice)
        if key == self._dice_key:
            self._dice_streak += 1
        else:
            self._dice_key = key
            self._dice_streak = 1
        if key != self._reported_key:
            self._disturbed += 1
        settled = bool(key) and self._dice_streak >= self.settle_frames
        # The same faces again are a new roll only after the dice were gone or moving for a
        # while: a reading that flickers for a frame is not a roll.
        new_roll = key != self._reported_key or self._disturbed >= self.settle_frames
        if settled and new_roll:
            self._reported_key = key
            self._disturbed = 0
            return [{"type": "roll", "dice": [d.to_dict() for d in dice]}]
        return []
