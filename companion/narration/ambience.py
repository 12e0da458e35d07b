"""Masking sound, made by the program (no recorded audio, nothing to license).

The rulebook suggests tapping on the table or playing music to cover the sound of people
moving. This is a soft rumble (low-passed noise), irregular knocks like fingers tapping on
wood, and a patter of tiny clicks like light rain, generated block by block so the narrator
never holds more than one block of it. Most of its sound lies where a table's own noises do
(cards, tokens, chairs: 300 Hz to 4 kHz) and where a Pi's small speaker can play it: a rumble
alone (most of it under 150 Hz) would mask little through one.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from companion.narration.timeline import RATE

Shape = Callable[[np.random.Generator], np.ndarray]


def _knock(rng: np.random.Generator) -> np.ndarray:
    """One knock on wood: a damped woody tone with a short noisy attack."""
    t = np.arange(int(0.09 * RATE)) / RATE
    tone = np.sin(2 * np.pi * rng.uniform(300, 700) * t) * np.exp(-t / 0.015)
    click = rng.standard_normal(len(t)) * np.exp(-t / 0.002) * 0.8
    return ((tone + click) * rng.uniform(0.5, 1.0) * 0.35).astype(np.float32)


class _Drops:
    """Raindrops: a few milliseconds of a high, quickly fading tone and a tick of noise each.
    Fifty a second, so each is drawn from a bank made once, at a loudness of its own: made
    one by one they doubled what the masking sound costs to make."""

    def __init__(self, rng: np.random.Generator, kinds: int = 48) -> None:
        t = np.arange(int(0.015 * RATE)) / RATE
        pitches = rng.uniform(900, 3500, size=(kinds, 1))
        tones = np.sin(2 * np.pi * pitches * t) + rng.standard_normal((kinds, len(t))) * 0.3
        self._bank = (tones * np.exp(-t / 0.003)).astype(np.float32)

    def __call__(self, rng: np.random.Generator) -> np.ndarray:
        drop: np.ndarray = self._bank[rng.integers(len(self._bank))]
        return drop * np.float32(rng.uniform(0.1, 0.45))


class _Events:
    """Sounds at random moments (``per_second`` on average), carried across blocks."""

    def __init__(self, rng: np.random.Generator, shape: Shape, per_second: float,
                 least_gap: float) -> None:
        self._rng, self._shape = rng, shape
        self._mean_gap, self._least_gap = RATE / per_second, int(least_gap * RATE)
        self._tail = np.zeros(0, dtype=np.float32)  # a sound that runs into the next block
        self._next = self._gap()

    def _gap(self) -> int:
        return int(self._rng.exponential(self._mean_gap)) + self._least_gap

    def add_to(self, out: np.ndarray) -> None:
        frames = len(out)
        carried = min(len(self._tail), frames)
        out[:carried] += self._tail[:carried]
        self._tail = self._tail[carried:]
        while self._next < frames:
            sound = self._shape(self._rng)
            start = self._next
            fits = min(len(sound), frames - start)
            out[start:start + fits] += sound[:fits]
            if fits < len(sound):
                rest = sound[fits:]
                if len(self._tail) >= len(rest):
                    self._tail = self._tail.copy()
                    self._tail[:len(rest)] += rest
                else:
                    grown = rest.copy()
                    grown[:len(self._tail)] += self._tail
                    self._tail = grown
            self._next += self._gap()
        self._next -= frames


class Ambience:
    """An endless masking sound at about 0.1 RMS; `read(n)` gives the next n samples."""

    def __init__(self, seed: int = 0, taps_per_second: float = 2.5,
                 drops_per_second: float = 50.0) -> None:
        # Streams of their own, so the sound is the same however it is cut into blocks.
        self._noise = np.random.default_rng([seed, 0])
        drops = _Drops(np.random.default_rng([seed, 3]))
        self._events = (_Events(np.random.default_rng([seed, 1]), _knock, taps_per_second, 0.12),
                        _Events(np.random.default_rng([seed, 2]), drops, drops_per_second, 0.004))
        self._low = 0.0  # state of the one-pole low-pass that makes the rumble

    def read(self, frames: int) -> np.ndarray:
        out = self._rumble(frames)
        for events in self._events:
            events.add_to(out)
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
        return (out * 0.5).astype(np.float32)
