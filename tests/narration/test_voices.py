"""Voice choice: Piper when its model is present (tested with a humming fixture model through
the real piper-tts package), espeak-ng otherwise; and the settings that choose them."""

from __future__ import annotations

import logging
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from companion.narration.speech import SpeechCache, SpeechRenderer, VoiceSettings, open_voice
from companion.runtime.narrator import Narrator, voice_settings
from companion.settings import Settings, SettingsError, load_settings

ROOT = Path(__file__).resolve().parents[2]
HUM = ROOT / "fixtures" / "voice" / "hum.onnx"


@pytest.fixture
def data_with_voice(tmp_path: Path) -> Path:
    voices = tmp_path / "voices"
    voices.mkdir()
    for name in (HUM.name, HUM.name + ".json"):
        shutil.copy(HUM.with_name(name), voices / name)
    return tmp_path


def test_a_piper_model_in_the_data_folder_is_used(data_with_voice: Path) -> None:
    narrator = Narrator(Settings(), data_with_voice)
    assert narrator.voice.engine == "piper"
    assert narrator.voice.piper_model == data_with_voice / "voices" / "hum.onnx"
    short = narrator.renderer.clip("Hamlet.")
    long = narrator.renderer.clip("Hamlet, open your eyes. Everyone else, keep your hand open.")
    # The fixture hums 256 samples per phoneme: longer text, longer sound, at 172 Hz.
    assert len(long) > 3 * len(short)
    spectrum = np.abs(np.fft.rfft(long))
    assert abs(np.argmax(spectrum) * 22050 / len(long) - 172.3) < 3
    assert {p.name for p in (data_with_voice / "speech-cache").glob("*.wav")} == {
        narrator.renderer.cache.path(t).name for t in
        ("Hamlet.", "Hamlet, open your eyes. Everyone else, keep your hand open.")}


def test_the_rate_setting_reaches_piper(data_with_voice: Path) -> None:
    normal = Narrator(Settings(), data_with_voice).renderer.clip("Cordelia, open your eyes.")
    fast = Narrator(Settings(speech_rate=330), data_with_voice).renderer.clip(
        "Cordelia, open your eyes.")
    assert len(fast) < 0.7 * len(normal)


def test_without_piper_installed_the_model_is_skipped_for_espeak(
        data_with_voice: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setitem(sys.modules, "piper", None)  # import piper now fails
    settings = voice_settings(Settings(speech_rate=161), data_with_voice)
    renderer = SpeechRenderer(SpeechCache(data_with_voice / "cache", settings))
    with caplog.at_level(logging.WARNING):
        clip = renderer.clip("Brutus, open your eyes.")
    assert "Piper voice not used (a Piper voice model is present but piper-tts is not" \
           " installed" in caplog.text
    # espeak-ng spoke instead: not the fixture's pure tone.
    spectrum = np.abs(np.fft.rfft(clip))
    assert abs(np.argmax(spectrum) * 22050 / len(clip) - 172.3) > 3


def test_without_a_model_espeak_speaks(tmp_path: Path) -> None:
    assert voice_settings(Settings(), tmp_path) == VoiceSettings("en-gb", 165, None)
    named = voice_settings(Settings(piper_model=str(HUM)), tmp_path)
    assert named.engine == "piper" and named.piper_model == HUM


def test_settings_come_from_the_file_then_the_environment(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('voice = "en-us"\nspeech_rate = 140\nambience_volume = 0.1\n')
    monkeypatch.setenv("COMPANION_SPEECH_RATE", "180")
    monkeypatch.delenv("COMPANION_VOICE", raising=False)
    settings = load_settings(path)
    assert (settings.voice, settings.speech_rate, settings.ambience_volume) == ("en-us", 180, 0.1)
    assert settings.sources == (str(path), "COMPANION_SPEECH_RATE")
    assert settings.with_options(voice="en-gb", speech_rate=None).voice == "en-gb"
    assert settings.with_options(voice="en-gb", speech_rate=None).speech_rate == 180


@pytest.mark.parametrize(("text", "env", "message"), [
    ('speech_rate = "fast"\n', {}, "setting 'speech_rate' must be a whole number, not 'fast'"),
    ("port = 99999\n", {}, "companion.toml: setting 'port' must be from 1 to 65535, not 99999"),
    ("", {"COMPANION_THREADS": "0"}, "COMPANION_THREADS: setting 'threads' must be from 12"),
    ("max_tables = 0\n", {}, "setting 'max_tables' must be from 1 to 1000, not 0"),
    ("voice_volume = 7.0\n", {}, "setting 'voice_volume' must be from 0 to 1, not 7.0"),
    ('colour = "red"\n', {}, "unknown setting 'colour'"),
    ("voice = \n", {}, "companion.toml"),
    ("", {"COMPANION_VOICE_VOLUME": "loud"}, "COMPANION_VOICE_VOLUME: setting 'voice_volume'"),
])
def test_bad_settings_say_where_and_what(text: str, env: dict[str, str], message: str,
                                         tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "companion.toml"
    path.write_text(text)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(SettingsError, match=message):
        load_settings(path)


def test_the_cli_reads_the_settings_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    config = tmp_path / "companion.toml"
    config.write_text('pacing = "relaxed"\n')
    monkeypatch.setenv("COMPANION_CONFIG", str(config))
    assert main(["narrate", "heads-down", "--players", "4", "--text", "--data", str(tmp_path)]) == 0
    assert "9.0 s  pause (look)" in capsys.readouterr().out  # relaxed: look = 9 s
    config.write_text('pacing = "glacial"\n')
    assert main(["narrate", "heads-down", "--players", "4", "--text", "--data", str(tmp_path)]) == 2
    assert "unknown pacing 'glacial'" in capsys.readouterr().err


def test_serve_stops_at_start_on_a_setting_it_cannot_run_with(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Said at start, with exit 2, before the phones' address is logged: not a server that
    looks ready and then fails (a pacing the Prologue would refuse, an address not this
    machine's)."""
    from companion.cli import main

    config = tmp_path / "companion.toml"
    config.write_text('pacing = "fast"\ncamera = "none"\n')
    monkeypatch.setenv("COMPANION_CONFIG", str(config))
    assert main(["serve", "--port", "8799", "--data", str(tmp_path / "data")]) == 2
    assert "setting 'pacing': unknown pacing 'fast'" in capsys.readouterr().err
    config.write_text('camera = "none"\n')
    assert main(["serve", "--host", "not.an.address", "--port", "8799",
                 "--data", str(tmp_path / "data")]) == 2
    err = capsys.readouterr().err
    assert "cannot listen on not.an.address:8799" in err and "Traceback" not in err


def test_a_settings_file_named_but_missing_is_warned_of(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "typo.toml"))
    monkeypatch.setenv("COMPANION_MAXTABLES", "3")  # nearly a setting: said, ignored
    monkeypatch.setenv("COMPANION_MODELS", str(tmp_path))  # a variable, not a setting
    main(["doctor", "--data", str(tmp_path / "data"), "--port", "8799"])
    out = capsys.readouterr().out
    assert f"[warn] settings: COMPANION_CONFIG names {tmp_path / 'typo.toml'}, which is not" \
        " a file" in out
    assert "[warn] settings: COMPANION_MAXTABLES is not a setting, so it is ignored:" \
        " COMPANION_MAX_TABLES?" in out
    assert "COMPANION_MODELS" not in out


def test_a_shell_on_the_pi_reads_the_services_settings(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """`sudo -u companion companion tables` has neither COMPANION_CONFIG nor a settings file
    of its own: it reads the one install-pi.sh installed (and so the service's data
    directory); a user's own file comes first."""
    from companion import settings

    system = tmp_path / "etc.toml"
    system.write_text('data = "/var/lib/gambit-companion"\n')
    monkeypatch.setattr(settings, "SYSTEM_CONFIG", system)
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.delenv("COMPANION_DATA", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert settings.config_path() == system
    assert settings.data_dir() == Path("/var/lib/gambit-companion")
    mine = tmp_path / "config" / "gambit-companion" / "companion.toml"
    mine.parent.mkdir(parents=True)
    mine.write_text("port = 8080\n")
    assert settings.config_path() == mine


def test_a_piper_model_that_fails_never_poisons_the_cache(data_with_voice: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """espeak-ng stands in when piper-tts is missing; once Piper is back, the lines are
    Piper's, not the espeak-ng ones rendered meanwhile."""
    settings = voice_settings(Settings(speech_rate=163), data_with_voice)
    cache = SpeechCache(data_with_voice / "cache", settings)
    with monkeypatch.context() as hidden:
        hidden.setitem(sys.modules, "piper", None)
        renderer = SpeechRenderer(cache)
        stand_in = renderer.clip("Hamlet, open your eyes.")
        rendered: list[str] = []
        render = renderer._render
        hidden.setattr(renderer, "_render",
                       lambda voice, text: rendered.append(text) or render(voice, text))
        again = renderer.clip("Hamlet, open your eyes.")  # found under espeak-ng's key
        assert rendered == [] and np.array_equal(again, stand_in)
    # As in a new process (the TTS thread keeps the voice it made, so make it anew).
    piper = SpeechRenderer(cache, lambda s: open_voice(s)).clip("Hamlet, open your eyes.")
    for clip, is_hum in ((stand_in, False), (piper, True)):
        spectrum = np.abs(np.fft.rfft(clip))
        assert (abs(np.argmax(spectrum) * 22050 / len(clip) - 172.3) < 3) == is_hum
