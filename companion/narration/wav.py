"""Mono 16-bit WAV files: the speech cache's format, and the narration a phone plays."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

from companion.narration.timeline import RATE


class WavError(ValueError):
    """A WAV file this program did not write (another sample width)."""


def read_wav(path: Path) -> np.ndarray:
    """A WAV as float32 mono samples at RATE (mixed down and resampled when it is not)."""
    with wave.open(str(path), "rb") as src:
        rate, width, channels = src.getframerate(), src.getsampwidth(), src.getnchannels()
        raw = src.readframes(src.getnframes())
    if width != 2:
        raise WavError(f"{path}: expected 16-bit samples, got {8 * width}-bit")
    samples = np.frombuffer(raw, dtype="<i2").astype(np.float32) / 32768.0
    if channels > 1:
        samples = samples.reshape(-1, channels).mean(axis=1)
    if rate != RATE and len(samples):
        positions = np.arange(0, len(samples) * RATE / rate) * rate / RATE
        samples = np.interp(positions, np.arange(len(samples)), samples).astype(np.float32)
    return samples


class WavWriter:
    """Writes blocks to a WAV file as they come. It has a speaker's shape (rate, write,
    close), so it stands in for the speaker in tests and when the Pi has none."""

    def __init__(self, path: Path, rate: int = RATE) -> None:
        self.rate = rate
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        # Opened here, not by `wave`, so a path that cannot be written fails cleanly.
        self._handle = path.open("wb")  # noqa: SIM115 (open across writes; close())
        self._file = wave.open(self._handle, "wb")  # noqa: SIM115
        self._file.setnchannels(1)
        self._file.setsampwidth(2)
        self._file.setframerate(rate)

    def write(self, block: np.ndarray) -> None:
        self._file.writeframes((np.clip(block, -1.0, 1.0) * 32767).astype("<i2").tobytes())

    def close(self) -> None:
        try:
            self._file.close()
        finally:
            self._handle.close()


def write_wav(path: Path, samples: np.ndarray) -> None:
    writer = WavWriter(path)
    try:
        writer.write(samples)
    finally:
        writer.close()
