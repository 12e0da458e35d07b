"""Audio out: a sound device through sounddevice (PortAudio). In tests, and when the Pi has
no speaker, narration.wav.WavWriter (same shape) takes its place.

A speaker takes float32 mono blocks. Choosing a device by name matches part of its name,
case-insensitively; by number, PortAudio's index (`companion audio devices` lists both).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

log = logging.getLogger(__name__)


class SpeakerUnavailable(RuntimeError):
    """No speaker can be opened: no device, an unknown one, or PortAudio missing."""


class Speaker(Protocol):
    rate: int

    def write(self, block: np.ndarray) -> None:
        """Play (or store) one block; blocks while the device's buffer is full."""

    def close(self) -> None: ...


@dataclass(frozen=True)
class AudioDevice:
    index: int
    name: str
    channels: int
    default: bool


def _sounddevice() -> Any:
    try:
        import sounddevice
    except OSError as exc:  # the module loads libportaudio at import
        raise SpeakerUnavailable(f"PortAudio is missing ({exc}): `sudo apt install"
                                 " libportaudio2` (./start.sh does)") from exc
    return sounddevice


def audio_devices() -> list[AudioDevice]:
    """The output devices PortAudio sees (an empty list when there are none)."""
    sd = _sounddevice()
    try:
        devices = sd.query_devices()
        default_out = sd.default.device[1]
    except Exception as exc:  # PortAudio reports a broken audio stack as a generic error
        raise SpeakerUnavailable(f"cannot list audio devices: {exc}") from exc
    return [AudioDevice(i, str(d["name"]), int(d["max_output_channels"]), i == default_out)
            for i, d in enumerate(devices) if int(d["max_output_channels"]) > 0]


def find_device(wanted: str | int | None) -> AudioDevice:
    """The output device asked for (None: the default one), or SpeakerUnavailable saying which
    devices there are."""
    devices = audio_devices()
    if not devices:
        raise SpeakerUnavailable("no audio output device found")
    names = "; ".join(f"{d.index}: {d.name}" for d in devices)
    if wanted is None or wanted == "":
        chosen = [d for d in devices if d.default] or devices[:1]
        return chosen[0]
    if isinstance(wanted, int) or str(wanted).isdigit():
        matches = [d for d in devices if d.index == int(wanted)]
    else:
        matches = [d for d in devices if str(wanted).lower() in d.name.lower()]
    if len(matches) == 1:
        return matches[0]
    what = "matches several" if matches else "is not an output device"
    raise SpeakerUnavailable(f"audio device {wanted!r} {what} (devices: {names})")


class SoundDeviceSpeaker:
    """A real output stream; blocking writes keep the narrator in step with the sound."""

    def __init__(self, device: AudioDevice, rate: int) -> None:
        sd = _sounddevice()
        self.rate = rate
        self.device = device
        try:
            self._stream = sd.OutputStream(samplerate=rate, channels=1, dtype="float32",
                                           device=device.index, latency="high")
            self._stream.start()
        except Exception as exc:
            raise SpeakerUnavailable(f"cannot open {device.name!r}: {exc}") from exc

    def write(self, block: np.ndarray) -> None:
        self._stream.write(np.ascontiguousarray(block, dtype=np.float32).reshape(-1, 1))

    def close(self) -> None:
        try:
            self._stream.stop()
            self._stream.close()
        except Exception as exc:  # an unplugged device: nothing left to close
            log.warning("closing the audio stream: %s", exc)


def open_speaker(wanted: str | int | None, rate: int) -> SoundDeviceSpeaker:
    return SoundDeviceSpeaker(find_device(wanted), rate)
