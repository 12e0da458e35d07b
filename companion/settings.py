"""The companion's settings: defaults, then a settings file, then environment variables, then
command-line options (each overrides the one before).

The file is TOML: $COMPANION_CONFIG, else $XDG_CONFIG_HOME/gambit-companion/companion.toml
(~/.config/... by default), else the Pi service's /etc/gambit-companion/companion.toml; a
missing file is fine. Each setting `name` can also be set as the environment variable
COMPANION_NAME (upper case), for example COMPANION_VOICE=en-us.
"""

from __future__ import annotations

import difflib
import os
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

APP = "gambit-companion"
# What deploy/install-pi.sh installs: a shell on the Pi (`sudo -u companion companion tables`)
# reads the service's settings, and with them its data directory and port.
SYSTEM_CONFIG = Path("/etc") / APP / "companion.toml"


class SettingsError(ValueError):
    """A setting has a value of the wrong kind or out of its range, or the file is not valid
    TOML."""


# The values a setting may take, so that a bad one stops the companion at start with its
# name, not later in the middle of a game (a port past 65535, no thread left for requests).
RANGES: dict[str, tuple[float, float]] = {
    "port": (1, 65535),
    "threads": (12, 1000),  # each live phone holds one; 8 are kept for requests
    "max_tables": (1, 1000),
    "tables_per_phone": (1, 1000),
    "speech_rate": (80, 450),  # words per minute that espeak-ng speaks (narration.speech)
    "voice_volume": (0, 1),
    "ambience_volume": (0, 1),
}
KINDS = {"int": "a whole number", "float": "a number", "str": "text"}


@dataclass(frozen=True)
class Settings:
    data: str = ""  # the data directory ("" = the default below)
    # The table service
    host: str = "0.0.0.0"  # listen on the local network (127.0.0.1: this machine only)
    port: int = 8000
    threads: int = 48  # each phone's live connection holds one
    max_tables: int = 40  # open tables at once; one idle for 12 hours is ended for a new one
    tables_per_phone: int = 4  # games in play that one phone may have started at once
    camera: str = "0"  # webcam number, /dev/videoN, picamera, a folder or video; "none"
    resolution: str = "1280x720"
    # Narration
    voice: str = "en-gb"  # espeak-ng voice name or language
    speech_rate: int = 165  # words per minute
    voice_volume: float = 0.9  # 0-1
    ambience_volume: float = 0.2  # 0-1, the masking sound under the eyes-closed phases
    pacing: str = "normal"  # quick, normal, relaxed
    audio_device: str = ""  # name (part of it) or index; "" = the default output
    piper_model: str = ""  # a Piper voice (NAME.onnx); "" = look in the models and data folders
    # Games kept outside the companion's package: importable module names, comma-separated
    games: str = ""
    sources: tuple[str, ...] = field(default=(), compare=False)  # where the values came from

    def __post_init__(self) -> None:
        for name, (low, high) in RANGES.items():
            value = getattr(self, name)
            if not low <= value <= high:
                raise SettingsError(f"setting {name!r} must be from {low:g} to {high:g},"
                                    f" not {value!r}")

    def with_options(self, **options: Any) -> Settings:
        """These settings with command-line options that were given (None = not given)."""
        given = {k: v for k, v in options.items() if v is not None}
        return replace(self, **given) if given else self


def config_path() -> Path:
    if os.environ.get("COMPANION_CONFIG"):
        return Path(os.environ["COMPANION_CONFIG"])
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    mine = Path(base) / APP / "companion.toml"
    return SYSTEM_CONFIG if not mine.is_file() and SYSTEM_CONFIG.is_file() else mine


def _convert(name: str, kind: Any, value: Any, where: str) -> Any:
    try:
        if kind in ("int", int) and not isinstance(value, bool):
            return int(value)
        if kind in ("float", float) and not isinstance(value, bool):
            return float(value)
        if kind in ("str", str) and isinstance(value, str | int):
            return str(value)
    except ValueError:
        pass
    raise SettingsError(f"{where}: setting {name!r} must be {KINDS.get(str(kind), kind)},"
                        f" not {value!r}")


def load_settings(path: Path | None = None) -> Settings:
    """Defaults, then the settings file (if there is one), then COMPANION_* variables."""
    path = path or config_path()
    values: dict[str, Any] = {}
    sources: list[str] = []
    known = {f.name: f.type for f in fields(Settings) if f.name != "sources"}
    if path.is_file():
        try:
            loaded = tomllib.loads(path.read_text("utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise SettingsError(f"{path}: {exc}") from None
        for name, value in loaded.items():
            if name not in known:
                raise SettingsError(f"{path}: unknown setting {name!r}"
                                    f" (known: {', '.join(known)})")
            values[name] = _convert(name, known[name], value, str(path))
        sources.append(str(path))
    for name, kind in known.items():
        env = f"COMPANION_{name.upper()}"
        if os.environ.get(env):  # set and not empty
            values[name] = _convert(name, kind, os.environ[env], env)
            sources.append(env)
    try:
        return Settings(**values, sources=tuple(sources))
    except SettingsError as exc:  # a value out of range: say where it came from
        raise SettingsError(f"{', '.join(sources)}: {exc}") from None


def settings_warnings() -> list[str]:
    """What looks typed wrong, though the companion can start: $COMPANION_CONFIG naming no
    file (the defaults are used), a COMPANION_ variable that is nearly a setting's (it is
    ignored). Not errors: an empty place for settings is a choice too."""
    out = []
    named = os.environ.get("COMPANION_CONFIG")
    if named and not Path(named).is_file():
        out.append(f"COMPANION_CONFIG names {named}, which is not a file: no settings file"
                   " is read")
    known = [f"COMPANION_{f.name.upper()}" for f in fields(Settings) if f.name != "sources"]
    others = ("COMPANION_CONFIG", "COMPANION_MODELS")  # variables, not settings
    for name in sorted(os.environ):
        if name.startswith("COMPANION_") and name not in known and name not in others:
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.85)
            if close:
                out.append(f"{name} is not a setting, so it is ignored: {close[0]}?")
    return out


def local_address(host: str) -> str:
    """Where this machine reaches a companion listening on `host` (every address: itself)."""
    return "127.0.0.1" if host in ("0.0.0.0", "::", "") else host


def models_dir() -> Path:
    """Shipped model files: $COMPANION_MODELS, else the repository's models/ folder."""
    if os.environ.get("COMPANION_MODELS"):
        return Path(os.environ["COMPANION_MODELS"])
    return Path(__file__).resolve().parent.parent / "models"


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The data directory: ``override``, else $COMPANION_DATA, else the settings file's `data`,
    else $XDG_DATA_HOME/gambit-companion, else ~/.local/share/gambit-companion. Not created."""
    if override:
        return Path(override)
    if os.environ.get("COMPANION_DATA"):
        return Path(os.environ["COMPANION_DATA"])
    path = config_path()
    if path.is_file():
        configured = load_settings(path).data
        if configured:
            return Path(configured).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / APP
