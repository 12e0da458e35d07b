"""Narration sound, with real espeak-ng rendering. Only the speaker is replaced (by WAV files)."""

from __future__ import annotations

import sys
import wave
from pathlib import Path

import numpy as np
import pytest

from companion.cli import main
from companion.narration.ambience import Ambience
from companion.narration.playback import Mix, Playback
from companion.narration.speech import (
    SpeechCache,
    SpeechError,
    SpeechRenderer,
    VoiceSettings,
    open_voice,
)
from companion.narration.timeline import RATE, Pacing
from companion.narration.wav import WavWriter
from companion.runtime.narrator import Narrator
from companion.settings import Settings
from tests.narration.scripts import head_down, pool_from_setup, prologue

FRAME = int(0.02 * RATE)


def read(path: Path) -> np.ndarray:
    with wave.open(str(path), "rb") as src:
        assert src.getframerate() == RATE and src.getnchannels() == 1
        return np.frombuffer(src.readframes(src.getnframes()), "<i2").astype(np.float32) / 32768


def frame_rms(x: np.ndarray) -> np.ndarray:
    n = len(x) // FRAME
    return np.sqrt((x[:n * FRAME].reshape(n, FRAME) ** 2).mean(axis=1))


def speech_segments(x: np.ndarray, threshold: float = 0.05, bridge: float = 0.55,
                    shortest: float = 0.12) -> list[tuple[float, float]]:
    """Stretches of speech found by energy alone: 20 ms frames above `threshold`, joined
    across gaps shorter than `bridge` seconds (pauses inside a sentence), at least `shortest`
    seconds long (a knock of the ambience is shorter)."""
    loud = frame_rms(x) > threshold
    segments: list[list[int]] = []
    for i in np.flatnonzero(loud):
        if segments and i - segments[-1][1] <= bridge / 0.02:
            segments[-1][1] = i
        else:
            segments.append([i, i])
    return [(a * 0.02, (b + 1) * 0.02) for a, b in segments if (b + 1 - a) * 0.02 >= shortest]


@pytest.fixture(scope="module")
def narrator(tmp_path_factory: pytest.TempPathFactory) -> Narrator:
    return Narrator(Settings(), tmp_path_factory.mktemp("data"))


@pytest.fixture(scope="module")
def longest(narrator: Narrator):  # type: ignore[no-untyped-def]
    """The 8-player Prologue (every part), rendered by espeak-ng."""
    return narrator.prepare(prologue(pool_from_setup(8)), Pacing.preset("normal"))


def test_the_mixed_wav_follows_the_timeline(narrator: Narrator, longest, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = narrator.to_wav(longest, tmp_path / "prologue.wav")
    mix = read(out)
    timeline = longest.timeline
    assert len(mix) == timeline.length  # the WAV's length is the timeline's

    # One stretch of speech per spoken line, each where the timeline puts it.
    found = speech_segments(mix)
    spoken = timeline.spoken
    assert len(found) == len(spoken), (len(found), len(spoken))
    for (start, end), cue in zip(found, spoken, strict=True):
        assert abs(start - cue.start / RATE) < 0.15, cue.text
        assert abs(end - (cue.start + cue.length) / RATE) < 0.25, cue.text  # soft endings


def test_pauses_hold_only_ambience_and_the_ambience_ducks_under_speech(longest) -> None:  # type: ignore[no-untyped-def]
    mix = Mix()
    full = Playback(longest.timeline, longest.clips, mix, Ambience(seed=7)).render_all()
    ambience_only = Playback(longest.timeline, longest.clips, Mix(voice=0.0), Ambience(seed=7)
                             ).render_all()
    voice_only = Playback(longest.timeline, longest.clips, Mix(ambience=0.0), Ambience(seed=7)
                          ).render_all()
    timeline = longest.timeline
    ramp = int(mix.ramp * RATE)
    pauses = [c for c in timeline.cues if not c.spoken and c.reason not in ("lead_in", "tail")]
    for cue in pauses:
        span = slice(cue.start, cue.start + cue.length)
        assert np.abs(voice_only[span]).max() == 0.0  # no speech bleeds into a pause
        assert np.allclose(full[span], ambience_only[span], atol=1e-6)
        assert frame_rms(full[span]).max() < 0.05  # below the speech detector's threshold
    # Ducking: the ambience under speech (ramps excluded) against the ambience in pauses.
    under = np.concatenate([ambience_only[c.start + ramp:c.start + c.length]
                            for c in timeline.spoken if c.length > 3 * ramp])
    between = np.concatenate([ambience_only[c.start + ramp:c.start + c.length] for c in pauses])
    ducked_db = 20 * np.log10(np.sqrt((under ** 2).mean()) / np.sqrt((between ** 2).mean()))
    assert ducked_db == pytest.approx(20 * np.log10(mix.duck), abs=1.5)
    # The lead-in fades the ambience in; the tail fades it out to silence.
    assert abs(full[0]) < 1e-3 and np.abs(full[-FRAME:]).max() < 0.02


def test_lines_are_cached_and_the_engine_is_started_only_for_new_text(tmp_path: Path) -> None:
    starts: list[VoiceSettings] = []

    def counting(settings: VoiceSettings):  # type: ignore[no-untyped-def]
        starts.append(settings)
        return open_voice(settings)

    settings = VoiceSettings("en-gb", 165)
    cache = SpeechCache(tmp_path, settings)
    first = SpeechRenderer(cache, counting).clips(["Hamlet, open your eyes.", "3"])
    assert len(starts) == 1 and len(list(tmp_path.glob("*.wav"))) == 2
    again = SpeechRenderer(cache, counting).clip("Hamlet, open your eyes.")
    assert len(starts) == 1  # served from the cache, no engine
    assert np.array_equal(again, first["Hamlet, open your eyes."])
    # Other voice settings are other cache entries.
    slower = SpeechRenderer(SpeechCache(tmp_path, VoiceSettings("en-gb", 120)), counting)
    assert len(slower.clip("Hamlet, open your eyes.")) > len(again)
    assert len(starts) == 2


def test_rate_and_voice_change_the_speech(tmp_path: Path) -> None:
    def render(voice: str, rate: int) -> np.ndarray:
        cache = SpeechCache(tmp_path, VoiceSettings(voice, rate))
        return SpeechRenderer(cache).clip("Cordelia, open your eyes.")

    normal, fast = render("en-gb", 165), render("en-gb", 300)
    assert len(fast) < 0.75 * len(normal)
    assert not np.array_equal(render("en-us", 165)[:RATE // 2], normal[:RATE // 2])


def test_an_unknown_voice_is_a_clear_error(tmp_path: Path) -> None:
    renderer = SpeechRenderer(SpeechCache(tmp_path, VoiceSettings("no-such-voice", 165)))
    with pytest.raises(SpeechError, match="espeak-ng has no voice 'no-such-voice'"):
        renderer.clip("Hello")
    with pytest.raises(SpeechError, match="no voice 'no-such-voice'"):  # and stays clear
        renderer.clip("Hello again")


def test_controls_pause_repeat_skip_and_stop(longest) -> None:  # type: ignore[no-untyped-def]
    timeline = longest.timeline
    playback = Playback(timeline, longest.clips, Mix(), Ambience(seed=1))
    first_line = timeline.spoken[0]
    playback.read(first_line.start + 100)
    assert playback.status()["line"] == first_line.text

    playback.pause()
    held = playback.status()["position"]
    paused = playback.read(RATE * 3)  # three seconds of pause: ambience only, and no speech
    assert len(paused) == RATE * 3 and frame_rms(paused).max() < 0.05
    assert playback.status()["position"] == held and playback.status()["state"] == "paused"

    playback.resume()
    playback.read(first_line.length)  # the rest of the line, into the gap after it
    assert playback.status()["line"] is None
    playback.repeat()  # back to the start of the line just said
    assert playback.status()["line"] == first_line.text
    assert playback.status()["position"] == round(first_line.start / RATE, 2)

    playback.skip()  # cut the line short
    assert playback.status()["line"] is None and playback.status()["lines_done"] == 1

    playback.stop()
    rest = playback.render_all()
    assert len(rest) == round(Mix().stop_fade * RATE)  # a short fade, then nothing
    assert np.abs(rest[-FRAME:]).max() < 0.01 and playback.finished
    assert playback.status()["state"] == "finished"


def test_no_audio_device_mixes_a_wav_for_the_phone(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    import sounddevice

    monkeypatch.setattr(sounddevice, "query_devices", lambda: [])
    assert main(["narrate", "heads-down", "--players", "5", "--data", str(tmp_path)]) == 0
    out = capsys.readouterr()
    assert "no audio output device found: mixing the narration into a WAV file" in out.err
    wav = tmp_path / "narration" / "heads-down.wav"
    assert f"wrote {wav}" in out.out
    mix = read(wav)
    assert len(speech_segments(mix)) == len(head_down().lines)


def test_an_unknown_device_fails_before_anything_is_played(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    import sounddevice

    devices = [{"name": "HDMI 0", "max_output_channels": 2},
               {"name": "USB mic", "max_output_channels": 0}]
    monkeypatch.setattr(sounddevice, "query_devices", lambda: devices)
    monkeypatch.setattr(sounddevice.default, "device", [1, 0])
    status = main(["narrate", "prologue", "--players", "6", "--device", "bluetooth",
                   "--data", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 2
    assert "audio device 'bluetooth' is not an output device (devices: 0: HDMI 0)" in err
    assert not (tmp_path / "speech-cache").exists()  # nothing rendered, nothing played
    assert not (tmp_path / "narration").exists()


def test_audio_devices_lists_outputs(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    import sounddevice

    devices = [{"name": "bcm2835 Headphones", "max_output_channels": 8},
               {"name": "USB mic", "max_output_channels": 0},
               {"name": "HDMI 0", "max_output_channels": 2}]
    monkeypatch.setattr(sounddevice, "query_devices", lambda: devices)
    monkeypatch.setattr(sounddevice.default, "device", [1, 2])
    assert main(["audio", "devices"]) == 0
    assert capsys.readouterr().out.splitlines() == ["  0  bcm2835 Headphones",
                                                    "  2  HDMI 0 (default)"]


def test_espeak_missing_is_a_clear_error_and_nothing_is_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import pyttsx3.drivers

    # Importing pyttsx3's espeak binding fails when libespeak-ng is not installed.
    monkeypatch.delattr(pyttsx3.drivers, "_espeak", raising=False)
    monkeypatch.setitem(sys.modules, "pyttsx3.drivers._espeak", None)
    out = tmp_path / "out.wav"
    # Settings no other test uses, so the TTS thread must start a new engine.
    status = main(["narrate", "prologue", "--players", "5", "--wav", str(out), "--rate", "97",
                   "--data", str(tmp_path)])
    assert status == 2
    err = capsys.readouterr().err
    assert "espeak-ng cannot start (import of pyttsx3.drivers._espeak halted" in err
    assert "sudo apt install espeak-ng" in err
    assert not out.exists()


@pytest.mark.parametrize(("args", "message"), [
    (["prologue", "--in-play", "hamlet,yorick"], "unknown captain 'yorick'"),
    (["prologue", "--in-play", "hamlet,cordelia,brutus"], "setup cannot deal that pool"),
    (["prologue", "--players", "12"], "4 to 8 players"),
    (["prologue"], "say how many play"),
    (["prologue", "--players", "4", "--option", "warp_in=viola"],
     "Captain's Gambit has no eyes-closed phase 'prologue' with this setup"),
    (["captains-gambit", "--players", "4", "--option", "warp_in=viola"],
     "Captain's Gambit has no eyes-closed phase with this setup"),
    (["captains-gambit", "--players", "5", "--option", "wild=1"], "has no option 'wild'"),
    (["heads-down", "--players", "3"], "4 to 8 players"),
    (["chess", "--players", "2"], "No game has an eyes-closed phase 'chess'"),
    (["prologue", "--players", "5", "--pause", "act"], "expected NAME=SECONDS"),
    (["prologue", "--players", "5", "--voice-volume", "3"],
     "setting 'voice_volume' must be from 0 to 1, not 3.0"),
    (["prologue", "--players", "5", "--pause", "hamelt=12"], "no pause 'hamelt'"),
    (["prologue", "--players", "5", "--pause", "opening=30"], "no pause 'opening'"),
    (["heads-down", "--players", "5", "--rate", "0"],
     "setting 'speech_rate' must be from 80 to 450, not 0"),
])
def test_bad_requests_say_why_and_play_nothing(args: list[str], message: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.wav"
    assert main(["narrate", *args, "--wav", str(out), "--data", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_text_prints_the_timeline(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["narrate", "prologue", "--in-play", ",".join(pool_from_setup(6, ["viola"])),
                 "--text", "--pacing", "relaxed", "--data", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Captain's Gambit: the Prologue:")
    assert '"Romeo, open your eyes.' in out and "Hamlet" not in out
    assert "pause (act)" in out and "12.0 s  pause (act)" in out


def test_a_speaker_that_fails_ends_the_narration_not_the_program(longest, tmp_path: Path  # type: ignore[no-untyped-def]
                                                                  ) -> None:
    class Unplugged(WavWriter):
        writes = 0

        def write(self, block: np.ndarray) -> None:
            self.writes += 1
            if self.writes > 3:
                raise OSError("device unplugged")
            super().write(block)

    narrator = Narrator(Settings(), tmp_path)
    run = narrator.play(longest, Unplugged(tmp_path / "out.wav", RATE))
    assert run.wait(10)
    assert run.error == "the speaker failed: device unplugged"
    assert run.playback.status()["state"] == "stopping"  # stopped, not stuck mid-line
    assert len(read(tmp_path / "out.wav")) == 3 * 1024  # the file was closed properly


def test_the_speaker_hears_exactly_what_the_phone_wav_holds(narrator: Narrator, longest,  # type: ignore[no-untyped-def]
                                                            tmp_path: Path) -> None:
    run = narrator.play(longest, WavWriter(tmp_path / "speaker.wav", RATE))
    assert run.wait(30) and run.error is None and run.first_sound is not None
    assert run.playback.status()["state"] == "finished"
    phone = narrator.to_wav(longest, tmp_path / "phone.wav")
    speaker, phone_samples = read(tmp_path / "speaker.wav"), read(phone)
    assert len(speaker) == len(phone_samples)
    assert np.abs(speaker - phone_samples).max() <= 2 / 32768  # rounding, however it is cut


def test_controls_after_the_end_change_nothing(longest) -> None:  # type: ignore[no-untyped-def]
    playback = Playback(longest.timeline, longest.clips, Mix(), Ambience(seed=2))
    playback.render_all()
    for control in (playback.repeat, playback.skip, playback.pause):
        control()
        assert playback.status()["state"] == "finished" and not len(playback.read(1024))


def test_skip_never_skips_the_fade_out(longest) -> None:  # type: ignore[no-untyped-def]
    timeline = longest.timeline
    playback = Playback(timeline, longest.clips, Mix(), Ambience(seed=2))
    playback.read(timeline.cues[-1].start)  # up to the tail
    playback.skip()
    rest = playback.render_all()
    assert len(rest) == timeline.cues[-1].length and np.abs(rest[-FRAME:]).max() < 0.02


def test_a_corrupt_cached_line_is_rendered_again(tmp_path: Path) -> None:
    cache = SpeechCache(tmp_path, VoiceSettings())
    renderer = SpeechRenderer(cache)
    good = renderer.clip("Brutus, open your eyes.")
    path = cache.path("Brutus, open your eyes.")
    path.write_bytes(path.read_bytes()[:1001])  # cut mid-sample
    # espeak-ng's timing of one line can vary by a few hundredths of a second with what the
    # voice spoke before it; the cut file held under 500 samples
    assert len(renderer.clip("Brutus, open your eyes.")) == pytest.approx(len(good), rel=0.05)


def test_a_failed_write_leaves_no_half_narration(narrator: Narrator, longest, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    calls = {"n": 0}
    write = WavWriter.write

    def full_disk(self: WavWriter, block: np.ndarray) -> None:
        calls["n"] += 1
        if calls["n"] > 5:
            raise OSError(28, "No space left on device")
        write(self, block)

    monkeypatch.setattr(WavWriter, "write", full_disk)
    with pytest.raises(OSError, match="No space left"):
        narrator.to_wav(longest, tmp_path / "prologue.wav")
    assert list(tmp_path.iterdir()) == []


def test_a_line_is_spoken_in_its_respelt_words(tmp_path: Path) -> None:
    """The renderer gives the voice a script's respelling (say_as) and keeps the clip under
    the line's own text; espeak-ng says the respellings as meant (after a comma it read the
    rulebook's "close" as the adjective, "klohs", and Tybalt as "TIE-bolt")."""
    import subprocess

    renderer = SpeechRenderer(SpeechCache(tmp_path, VoiceSettings("en-gb", 165)))
    line, spoken = "Then, close your eyes.", "Then, cloze your eyes."
    clips = renderer.clips([line], speech={line: spoken})
    assert np.array_equal(clips[line], renderer.clip(spoken))  # the respelling was spoken
    assert not np.array_equal(clips[line], renderer.clip(line))

    def phonemes(text: str) -> str:
        return subprocess.run(["espeak-ng", "-v", "en-gb", "-q", "-x", text], check=True,
                              capture_output=True, text=True).stdout
    assert "kl'oUz" in phonemes(spoken) and phonemes("Tibbult").startswith("t'Ib")


@pytest.mark.parametrize("seed", [0, 5])
def test_the_masking_sound_lies_where_a_tables_noises_do(seed: int) -> None:
    """Cards, tokens and chairs sound from 300 Hz to 4 kHz, and a Pi's small speaker plays
    little below 150 Hz: most of the masking must be in between, at about 0.1 RMS, and the
    same however it is read in blocks."""
    whole = Ambience(seed=seed).read(RATE * 10)
    ambience = Ambience(seed=seed)
    pieces = np.concatenate([ambience.read(n) for n in [1, 511, 4096, 7] * 40])
    assert np.allclose(pieces, whole[:len(pieces)], atol=1e-5)
    power = np.abs(np.fft.rfft(whole)) ** 2
    hz = np.fft.rfftfreq(len(whole), 1 / RATE)
    share = lambda low, high: power[(hz >= low) & (hz < high)].sum() / power.sum()  # noqa: E731
    assert share(300, 4000) > 0.5 and share(0, 150) < 0.35
    assert 0.05 < np.sqrt((whole ** 2).mean()) < 0.12
