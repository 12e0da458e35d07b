"""Playing a timeline: speech over masking ambience, block by block, with table controls.

The same Playback feeds a speaker in real time and, drained at once, makes the one WAV file
that a phone plays when the Pi has no speaker, so both sound exactly alike.

Controls (from any thread): pause (the timeline holds, the ambience goes on: eyes are still
closed), resume, repeat (back to the start of the last spoken line), skip (to the next line
or pause), stop (the ambience fades out).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from companion.narration.ambience import Ambience
from companion.narration.timeline import Timeline


@dataclass(frozen=True)
class Mix:
    """Levels: voice and ambience volumes apart (0-1); `duck` is the ambience's gain while a
    line is spoken; `ramp` how fast it ducks and comes back (seconds)."""

    voice: float = 0.9
    ambience: float = 0.2
    duck: float = 0.25
    ramp: float = 0.08
    stop_fade: float = 0.5

    def __post_init__(self) -> None:
        for name in ("voice", "ambience", "duck"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} volume must be between 0 and 1, not {value}")


class Playback:
    def __init__(self, timeline: Timeline, clips: Mapping[str, np.ndarray], mix: Mix | None = None,
                 ambience: Ambience | None = None) -> None:
        missing = [cue.text for cue in timeline.spoken if cue.text not in clips]
        if missing:
            raise ValueError(f"no speech for {missing[0]!r}")
        self.timeline = timeline
        self.rate = timeline.rate
        self._clips = clips
        self._mix = mix or Mix()
        self._ambience = ambience or Ambience()
        self._lock = threading.Lock()
        self._index = 0  # current cue
        self._offset = 0  # samples into it
        self._gain = 0.0  # the ambience's gain now (fades in over the lead-in)
        self._paused = False
        self._stopping: int | None = None  # samples of fade left once stop is asked
        self.played = 0  # samples handed out

    # --- controls -----------------------------------------------------------------------
    # Controls do nothing once the narration is over or stopping: a late tap on a phone
    # must not bring it back.
    def pause(self) -> None:
        with self._lock:
            if self._live():
                self._paused = True

    def resume(self) -> None:
        with self._lock:
            self._paused = False

    def repeat(self) -> None:
        with self._lock:
            if not self._live():
                return
            for index in range(self._index, -1, -1):
                if self.timeline.cues[index].spoken:
                    self._index, self._offset, self._paused = index, 0, False
                    return

    def skip(self) -> None:
        """On to the next line or pause; never past the tail, so the ambience still fades."""
        with self._lock:
            if self._live() and self._index < len(self.timeline.cues) - 1:
                self._index, self._offset = self._index + 1, 0

    def stop(self) -> None:
        with self._lock:
            if self._stopping is None:
                self._stopping = max(1, round(self._mix.stop_fade * self.rate))

    # --- status -------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        with self._lock:
            return self._done()

    def status(self) -> dict[str, object]:
        with self._lock:
            cues = self.timeline.cues
            cue = cues[self._index] if self._index < len(cues) else None
            spoken_before = sum(1 for c in cues[:self._index] if c.spoken)
            return {
                "state": ("finished" if self._done() else "stopping" if self._stopping is not None
                          else "paused" if self._paused else "playing"),
                "cue": self._index,
                "line": (cue.text if cue and cue.spoken else None),
                "lines_done": spoken_before,
                "lines": len(self.timeline.spoken),
                "position": round((cue.start + self._offset) / self.rate if cue else
                                  self.timeline.seconds, 2),
                "length": round(self.timeline.seconds, 2),
            }

    def _live(self) -> bool:
        return self._stopping is None and not self._done()

    def _done(self) -> bool:
        return self._stopping == 0 or self._index >= len(self.timeline.cues)

    # --- audio --------------------------------------------------------------------------
    def read(self, frames: int) -> np.ndarray:
        """The next block (shorter, possibly empty, at the end)."""
        with self._lock:
            parts: list[np.ndarray] = []
            left = frames
            while left > 0 and not self._done():
                if self._stopping is not None:
                    n = min(left, self._stopping)
                    parts.append(self._ambience_part(n, 0.0, self._stopping))
                    self._stopping -= n
                elif self._paused:
                    n = left
                    parts.append(self._ambience_part(n, 1.0, self._ramp_samples()))
                else:
                    n = min(left, self._cue_left())
                    parts.append(self._cue_part(n))
                left -= n
            block = np.concatenate(parts) if parts else np.zeros(0, dtype=np.float32)
            self.played += len(block)
            return block

    def render_all(self) -> np.ndarray:
        """The whole timeline at once (what a phone plays when the Pi has no speaker)."""
        blocks: list[np.ndarray] = []
        while True:
            block = self.read(self.rate)
            if not len(block):
                return np.concatenate(blocks) if blocks else np.zeros(0, dtype=np.float32)
            blocks.append(block)

    def _cue_left(self) -> int:
        return self.timeline.cues[self._index].length - self._offset

    def _ramp_samples(self) -> int:
        return max(1, round(self._mix.ramp * self.rate))

    def _cue_part(self, n: int) -> np.ndarray:
        cue = self.timeline.cues[self._index]
        if cue.spoken:
            voice = np.zeros(n, dtype=np.float32)
            clip = self._clips[cue.text][self._offset:self._offset + n]
            voice[:len(clip)] = clip
            part: np.ndarray = voice * self._mix.voice + self._ambience_part(
                n, self._mix.duck, self._ramp_samples())
        elif cue.reason == "lead_in":
            part = self._ambience_part(n, 1.0, cue.length)
        elif cue.reason == "tail":
            part = self._ambience_part(n, 0.0, cue.length)
        else:
            part = self._ambience_part(n, 1.0, self._ramp_samples())
        self._offset += n
        if self._offset >= cue.length:
            self._index, self._offset = self._index + 1, 0
        return part

    def _ambience_part(self, n: int, target: float, ramp: int) -> np.ndarray:
        """n samples of ambience, its gain moving linearly towards `target` (full scale in
        `ramp` samples) and then holding."""
        step = 1.0 / ramp
        moves = self._gain + np.sign(target - self._gain) * step * np.arange(1, n + 1)
        gains = np.minimum(moves, target) if target >= self._gain else np.maximum(moves, target)
        self._gain = float(gains[-1]) if n else self._gain
        out: np.ndarray = (self._ambience.read(n) * gains * self._mix.ambience).astype(np.float32)
        return out
