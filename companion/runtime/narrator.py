"""The narrator: builds a script's timeline with rendered speech, then plays it on a speaker
(a thread feeding the device) or mixes it into one WAV file for a phone.

Everything that can fail before a sound is made (an unknown voice or device, espeak-ng
missing) fails in `prepare` or `open_output`, so nothing is ever half-played.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from companion.devices.speaker import Speaker, SpeakerUnavailable, open_speaker
from companion.narration.playback import Mix, Playback
from companion.narration.scripts import Script
from companion.narration.speech import (
    SpeechCache,
    SpeechRenderer,
    VoiceSettings,
    find_piper_model,
)
from companion.narration.timeline import RATE, Pacing, Timeline, build
from companion.narration.wav import WavWriter
from companion.settings import Settings, models_dir

log = logging.getLogger(__name__)

BLOCK = 1024  # samples per write: 46 ms at 22050 Hz, small enough for controls to feel instant


@dataclass(frozen=True)
class Prepared:
    """A timeline with the speech for every line in it, ready to play."""

    timeline: Timeline
    clips: dict[str, np.ndarray]

    def playback(self, mix: Mix) -> Playback:
        return Playback(self.timeline, self.clips, mix)


def voice_settings(settings: Settings, data: Path) -> VoiceSettings:
    """The voice to use: the Piper model named in the settings, else one found in the models or
    data folders, else espeak-ng."""
    model = Path(settings.piper_model) if settings.piper_model else find_piper_model(
        [models_dir() / "voice", data / "voices"])
    return VoiceSettings(settings.voice, settings.speech_rate, model)


class Narrator:
    def __init__(self, settings: Settings, data: Path) -> None:
        self.settings = settings
        self.data = data
        self.voice = voice_settings(settings, data)
        self.renderer = SpeechRenderer(SpeechCache(data / "speech-cache", self.voice))
        self.mix = Mix(voice=settings.voice_volume, ambience=settings.ambience_volume)

    def prepare(self, script: Script, pacing: Pacing,
                progress: Callable[[int, int], None] | None = None) -> Prepared:
        """Render (or load from the cache) every line, then lay out the timeline."""
        clips = self.renderer.clips(script.lines, progress, script.speech)
        return Prepared(build(script, pacing, lambda text: len(clips[text])), clips)

    def to_wav(self, prepared: Prepared, path: Path) -> Path:
        """The whole narration mixed into one WAV file: written beside it and renamed when
        complete, so a full disk never leaves half a narration for a phone to play."""
        partial = path.with_name(f".{path.name}.partial")
        try:
            speaker = WavWriter(partial, prepared.timeline.rate)
            try:
                playback = prepared.playback(self.mix)
                while len(block := playback.read(prepared.timeline.rate)):
                    speaker.write(block)
            finally:
                speaker.close()
            os.replace(partial, path)
        finally:
            partial.unlink(missing_ok=True)
        return path

    def open_output(self, device: str | None = None) -> Speaker:
        """The speaker from the settings (or `device`); SpeakerUnavailable if there is none."""
        wanted = device if device is not None else self.settings.audio_device
        return open_speaker(wanted or None, RATE)

    def play(self, prepared: Prepared, speaker: Speaker) -> NarrationRun:
        return NarrationRun(prepared.playback(self.mix), speaker)


class NarrationRun:
    """A narration playing on a speaker from its own thread; controls go to the playback."""

    def __init__(self, playback: Playback, speaker: Speaker) -> None:
        self.playback = playback
        self.speaker = speaker
        self.error: str | None = None
        self.first_sound: float | None = None  # time.perf_counter() of the first write
        self._thread = threading.Thread(target=self._run, name="narration", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            while len(block := self.playback.read(BLOCK)):
                self.speaker.write(block)
                if self.first_sound is None:
                    self.first_sound = time.perf_counter()
        except Exception as exc:  # an unplugged speaker ends the narration, not the service
            self.error = f"the speaker failed: {exc}"
            log.error("narration stopped: %s", self.error)
            self.playback.stop()
        finally:
            self.speaker.close()

    def wait(self, timeout: float | None = None) -> bool:
        self._thread.join(timeout)
        return not self._thread.is_alive()

    @property
    def running(self) -> bool:
        return self._thread.is_alive()


__all__ = ["BLOCK", "NarrationRun", "Narrator", "Prepared", "SpeakerUnavailable"]
