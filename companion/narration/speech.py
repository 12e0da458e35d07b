"""Offline speech: each line rendered once to a WAV file, cached by its text and voice settings.

Two voices sit behind one interface: espeak-ng through pyttsx3 (the default, always there on
a set-up Pi) and Piper, used when its Python package and a voice model (`*.onnx` with its
`.onnx.json`) are present. TTS engines are not thread-safe, so one worker thread owns the
engine and renders every line; everyone else asks it through a queue.
"""

from __future__ import annotations

import ctypes
import hashlib
import logging
import os
import queue
import re
import tempfile
import threading
import wave
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from companion.narration.timeline import RATE
from companion.narration.wav import WavError, read_wav, write_wav
from companion.settings import RANGES

log = logging.getLogger(__name__)


class SpeechError(RuntimeError):
    """No voice can speak (espeak-ng or pyttsx3 missing, a bad voice name)."""


class Voice(Protocol):
    key: str  # what the voice is (its cache key), as actually opened

    def render(self, text: str, path: Path) -> None:
        """Write `text`, spoken, to a mono WAV file at `path`."""


RATES = RANGES["speech_rate"]  # words per minute that espeak-ng speaks (it clamps the rest)


@dataclass(frozen=True)
class VoiceSettings:
    """What decides how a line sounds (and so its cache key). `voice` is an espeak-ng voice
    name or language (en-gb, en-us, "English (America)"); `rate` is words per minute."""

    voice: str = "en-gb"
    rate: int = 165
    piper_model: Path | None = None

    def __post_init__(self) -> None:
        if not RATES[0] <= self.rate <= RATES[1]:
            raise ValueError(f"speech rate {self.rate} is not between {RATES[0]} and {RATES[1]}"
                             " words a minute")

    @property
    def engine(self) -> str:
        return "piper" if self.piper_model else "espeak-ng"

    @property
    def key(self) -> str:
        model = ""
        if self.piper_model is not None:  # the model itself, not only its name
            try:
                stat = self.piper_model.stat()
                model = f"{self.piper_model.resolve()}:{stat.st_size}:{int(stat.st_mtime)}"
            except OSError:
                model = str(self.piper_model)
        # The first field changes whenever lines are shaped differently after rendering.
        return f"2|{self.engine}|{self.voice}|{self.rate}|{model}"


class EspeakVoice:
    """espeak-ng through pyttsx3's binding of libespeak-ng, driven synchronously.

    pyttsx3's own engine loop receives speech on espeak's thread and sometimes drops a line's
    last chunk or the whole line (pyttsx3 issues 126 and 131; measured here: 1 line in 200
    clipped or silent). In synchronous mode espeak hands every chunk over before `Synth`
    returns, on the calling thread, so nothing can be lost."""

    _sample_rate: int | None = None  # libespeak is initialised once per process

    def __init__(self, settings: VoiceSettings) -> None:
        try:
            from pyttsx3.drivers import _espeak
        except (ImportError, RuntimeError, OSError) as exc:
            raise SpeechError(f"espeak-ng cannot start ({exc}): install it with"
                              " `sudo apt install espeak-ng` (./start.sh does)") from exc
        self._espeak = _espeak
        if EspeakVoice._sample_rate is None:
            rate = _espeak.Initialize(_espeak.AUDIO_OUTPUT_SYNCHRONOUS, 500)
            if rate <= 0:
                raise SpeechError("espeak-ng failed to initialise")
            EspeakVoice._sample_rate = rate
        self._chunks: list[bytes] = []
        self._voice = _espeak_voice(_espeak.ListVoices(), settings.voice)
        self._rate = settings.rate
        self.key = settings.key

    def _collect(self, wav: Any, samples: int, events: Any) -> int:
        if samples > 0:
            self._chunks.append(ctypes.string_at(wav, samples * 2))
        return 0  # go on

    def render(self, text: str, path: Path) -> None:
        espeak = self._espeak
        # The settings are per process in libespeak: set them for every line.
        espeak.SetSynthCallback(self._collect)
        if espeak.SetVoiceByName(self._voice.encode()) != espeak.EE_OK:
            raise SpeechError(f"espeak-ng cannot load the voice {self._voice!r}")
        espeak.SetParameter(espeak.RATE, self._rate, 0)
        espeak.SetParameter(espeak.VOLUME, 100, 0)  # volume is applied when mixing
        self._chunks = []
        if espeak.Synth(text, flags=espeak.CHARS_UTF8) != espeak.EE_OK:
            raise SpeechError(f"espeak-ng refused the text {text!r}")
        with wave.open(str(path), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(EspeakVoice._sample_rate or RATE)
            out.writeframes(b"".join(self._chunks))


def _espeak_voice(voices: Iterable[Any], wanted: str) -> str:
    """The espeak voice identifier for a name, identifier or language (espeak itself would
    silently keep its default voice for a name it does not know)."""
    needle = wanted.strip().lower()
    for voice in voices:
        identifier = voice.identifier.decode(errors="replace").lower()
        name = voice.name.decode(errors="replace").lower()
        language = voice.languages[1:].split(b"\0")[0].decode(errors="replace").lower()
        if needle in (identifier, name, language, identifier.rsplit("/", 1)[-1]):
            return str(identifier)
    raise SpeechError(f"espeak-ng has no voice {wanted!r}: `espeak-ng --voices=en` lists them")


class PiperVoice:
    """Piper (piper-tts), a neural offline voice, when a model file is present. The model is
    the voice; the rate setting becomes Piper's length scale (165 words a minute = 1.0)."""

    def __init__(self, settings: VoiceSettings) -> None:
        assert settings.piper_model is not None
        try:
            from piper import PiperVoice as Loaded
            from piper import SynthesisConfig
        except ImportError as exc:
            raise SpeechError("a Piper voice model is present but piper-tts is not installed"
                              " (pip install piper-tts)") from exc
        self._voice = Loaded.load(str(settings.piper_model))
        self._config = SynthesisConfig(length_scale=165 / settings.rate)
        self.key = settings.key

    def render(self, text: str, path: Path) -> None:
        with wave.open(str(path), "wb") as out:
            self._voice.synthesize_wav(text, out, syn_config=self._config)


def find_piper_model(folders: Iterable[Path]) -> Path | None:
    """The first Piper voice model (`NAME.onnx` beside `NAME.onnx.json`) in the folders."""
    for folder in folders:
        for model in sorted(folder.glob("*.onnx")) if folder.is_dir() else ():
            if model.with_name(model.name + ".json").is_file():
                return model
    return None


def open_voice(settings: VoiceSettings) -> Voice:
    """Piper when its model is set and it loads, else espeak-ng (saying why in the log)."""
    if settings.piper_model is not None:
        try:
            return PiperVoice(settings)
        except Exception as exc:  # any load failure falls back to the always-present voice
            log.warning("Piper voice not used (%s); speaking with espeak-ng", exc)
    return EspeakVoice(VoiceSettings(settings.voice, settings.rate))


# --- shaping the rendered speech ----------------------------------------------------------

SENTENCE_GAP = 0.2  # seconds between the sentences of one line


def sentences(text: str) -> list[str]:
    """A line's sentences. They are rendered apart and joined with a fixed short gap, because
    espeak-ng's own pause after a full stop is as long as the pause between two lines."""
    return [part for part in re.split(r"(?<=[.!?])\s+", text.strip()) if part]


def trim_silence(samples: np.ndarray, threshold: float = 0.01, keep: float = 0.03) -> np.ndarray:
    """Without the silence a voice puts before and after a line (espeak-ng adds about a third
    of a second), keeping `keep` seconds either side, so the timeline's pauses are the pauses."""
    loud = np.flatnonzero(np.abs(samples) > threshold)
    if not len(loud):
        return samples[:0]
    margin = round(keep * RATE)
    return samples[max(0, loud[0] - margin):loud[-1] + margin + 1]


# --- the cache and the thread that owns the engine -----------------------------------------

class SpeechCache:
    """Rendered lines as WAV files named by a hash of the voice settings and the text."""

    def __init__(self, folder: Path, settings: VoiceSettings) -> None:
        self.folder = folder
        self.settings = settings

    def path(self, text: str, key: str | None = None) -> Path:
        """Where a line is kept: by the voice that speaks it (`key`: the voice actually
        opened, when it is not the one asked for) and its text."""
        digest = hashlib.sha256(f"{key or self.settings.key}\n{text}".encode()).hexdigest()[:24]
        return self.folder / f"{digest}.wav"

    def get(self, text: str, key: str | None = None) -> np.ndarray | None:
        path = self.path(text, key)
        if not path.is_file():
            return None
        try:
            return read_wav(path)
        except (OSError, EOFError, wave.Error, WavError, ValueError):
            log.warning("cached speech %s is unreadable; rendering it again", path.name)
            return None


Factory = Callable[[VoiceSettings], Voice]
_Job = tuple[Factory, VoiceSettings, Callable[[Voice], np.ndarray], "queue.Queue[object]"]


class _TtsThread:
    """The one thread in the process that touches a TTS engine (pyttsx3 hands every caller
    the same espeak engine, and engines are not thread-safe). It keeps the last voice it made
    and makes a new one when a job asks for other settings."""

    def __init__(self) -> None:
        self._jobs: queue.Queue[_Job] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def run(self, factory: Factory, settings: VoiceSettings,
            work: Callable[[Voice], np.ndarray]) -> np.ndarray:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, name="tts", daemon=True)
                self._thread.start()
        reply: queue.Queue[object] = queue.Queue(maxsize=1)
        self._jobs.put((factory, settings, work, reply))
        result = reply.get()
        if isinstance(result, Exception):
            raise result
        assert isinstance(result, np.ndarray)
        return result

    def _serve(self) -> None:
        made: tuple[Factory, VoiceSettings, Voice] | None = None
        while True:
            factory, settings, work, reply = self._jobs.get()
            try:
                if made is None or made[:2] != (factory, settings):
                    made = None
                    made = (factory, settings, factory(settings))
                reply.put(work(made[2]))
            except SpeechError as exc:
                reply.put(exc)
            except Exception as exc:  # reported to the caller, never raised on this thread
                reply.put(SpeechError(str(exc) or type(exc).__name__))


_TTS = _TtsThread()


class SpeechRenderer:
    """Speech for lines: from the cache, else rendered on the TTS thread and cached."""

    def __init__(self, cache: SpeechCache, voice_factory: Factory = open_voice) -> None:
        self.cache = cache
        self._factory = voice_factory
        self._spoken_by: str | None = None  # the key of the voice that rendered last

    def clip(self, text: str) -> np.ndarray:
        """The samples of `text` spoken (the words the voice is given)."""
        # Lines are kept under the voice that spoke them: once a Piper model has failed and
        # espeak-ng stood in, they are found under espeak-ng's key.
        cached = self.cache.get(text, self._spoken_by)
        if cached is not None:
            return cached
        return _TTS.run(self._factory, self.cache.settings, lambda voice: self._render(voice, text))

    def clips(self, texts: Iterable[str], progress: Callable[[int, int], None] | None = None,
              speech: Mapping[str, str] | None = None) -> dict[str, np.ndarray]:
        """Every distinct line's samples, by its text; `speech` gives the words spoken where
        they differ (scripts' say_as); `progress(done, total)` after each line."""
        unique = list(dict.fromkeys(texts))
        out: dict[str, np.ndarray] = {}
        for done, text in enumerate(unique, 1):
            out[text] = self.clip((speech or {}).get(text, text))
            if progress:
                progress(done, len(unique))
        return out

    def _render(self, voice: Voice, text: str) -> np.ndarray:
        """Each sentence rendered, trimmed and joined; written to the cache by renaming a
        finished file, so a crash never leaves half a line cached."""
        self.cache.folder.mkdir(parents=True, exist_ok=True)
        gap = np.zeros(round(SENTENCE_GAP * RATE), dtype=np.float32)
        parts: list[np.ndarray] = []
        fd, tmp = tempfile.mkstemp(suffix=".wav", dir=self.cache.folder)
        os.close(fd)
        try:
            for sentence in sentences(text):
                voice.render(sentence, Path(tmp))
                spoken = trim_silence(read_wav(Path(tmp)))
                if not len(spoken):
                    raise SpeechError(f"the voice made no sound for {sentence!r}")
                parts += [gap, spoken] if parts else [spoken]
            samples = np.concatenate(parts) if parts else np.zeros(0, dtype=np.float32)
            write_wav(Path(tmp), samples)
            # Kept under the voice that spoke: a Piper model that failed to load (espeak-ng
            # spoke instead) never leaves espeak-ng's speech under Piper's name.
            os.replace(tmp, self.cache.path(text, voice.key))
            self._spoken_by = voice.key
        finally:
            Path(tmp).unlink(missing_ok=True)
        return read_wav(self.cache.path(text, voice.key))  # as stored: cached lines sound the same
