"""Masking sound, made by the program (no recorded audio, nothing to license).

The rulebook suggests tapping on the table or playing music to cover the sound of people
moving. This is a soft rumble (low-passed noise) with irregular knocks, like fingers tapping
on wood, generated block by block so the narrator never holds more than one block of it.
"""

from __future__ import annotations

import numpy as np

from companion.narration.timeline import RATE

_TAP_LENGTH = int(0.09 * RATE)


def _tap_shape(rng: np.random.Generator) -> np.ndarray:
    """One knock: a damped low tone with a short noisy attack."""
    t = np.arange(_TAP_LENGTH) / RATE
    pitch = rng.uniform(140, 260)
    tone = np.sin(2 * np.pi * pitch * t) * np.exp(-t / 0.018)
    click = rng.standard_normal(_TAP_LENGTH) * np.exp(-t / 0.003) * 0.4
    return ((tone + click) * rng.uniform(0.5, 1.0)).astype(np.float32)


class Ambience:
    """An endless masking sound at about 0.1 RMS; `read(n)` gives the next n samples."""

    def __init__(self, seed: int = 0, taps_per_second: float = 2.5) -> None:
        # Two streams, so the sound is the same however it is cut into blocks.
        self._noise = np.random.default_rng([seed, 0])
        self._rng = np.random.default_rng([seed, 1])
        self._taps_per_second = taps_per_second
        self._low = 0.0  # state of the one-pole low-pass that makes the rumble
        self._tail = np.zeros(0, dtype=np.float32)  # a knock that runs into the next block
        self._next_tap = self._gap()

    def _gap(self) -> int:
        return int(self._rng.exponential(RATE / self._taps_per_second)) + int(0.12 * RATE)

    def read(self, frames: int) -> np.ndarray:
        out = self._rumble(frames)
        carried = min(len(self._tail), frames)
        out[:carried] += self._tail[:carried]
        self._tail = self._tail[carried:]
        while self._next_tap < frames:
            tap = _tap_shape(self._rng) * 0.35
            start = self._next_tap
            fits = min(len(tap), frames - start)
            out[start:start + fits] += tap[:fits]
            if fits < len(tap):
                rest = tap[fits:]
                grown = np.zeros(max(len(self._tail), len(rest)), dtype=np.float32)
                grown[:len(self._tail)] += self._tail
                grown[:len(rest)] += rest
                self._tail = grown
            self._next_tap += self._gap()
        self._next_tap -= frames
        return out

    def _rumble(self, frames: int) -> np.ndarray:
        # A one-pole low-pass over white noise, computed in closed form per block:
        # y[n] = a*y[n-1] + (1-a)*x[n].
        a = 0.985
        noise = self._noise.standard_normal(frames) * (1 - a)
        powers = a ** np.arange(1, frames + 1)
        # y = a^n * (y0 + cumsum(x[k] / a^k)): scaled to stay finite for any block size.
        out = np.empty(frames)
        start, chunk = 0, 512
        y = self._low
        while start < frames:
            x = noise[start:start + chunk]
            p = powers[:len(x)]
            seg = p * (y + np.cumsum(x / p))
            out[start:start + len(x)] = seg
            y = seg[-1]
            start += len(x)
        self._low = y
        return (out * 1.1).astype(np.float32)
