"""Everything the table service runs on, built once from the settings: the store, the tables,
the narrator and the camera. The web app gets this object and nothing else."""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import logging
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.devices.camera import Camera, camera_off, open_camera, parse_resolution
from companion.errors import ConfigError
from companion.narration.scripts import NarrationError
from companion.narration.timeline import Pacing
from companion.runtime.camera_service import CameraService
from companion.runtime.narration_service import NarrationService
from companion.runtime.narrator import Narrator
from companion.runtime.tables import Keys, TableHub
from companion.settings import Settings, SettingsError
from companion.storage import TableStore

log = logging.getLogger(__name__)


def existing_secret_key(data: Path) -> bytes:
    """The secret key the service made, read only: a command beside the service must never
    make or change the key every phone's cookie and join code is made with. Raises
    SettingsError saying what to do."""
    path = data / "secret.key"
    try:
        key = path.read_bytes()
    except OSError as exc:
        raise SettingsError(f"cannot read {path}: {exc.strerror} (run this as the companion's"
                            " user, for example `sudo -u companion`, or start the companion"
                            " once to make it)") from None
    if len(key) < 32:
        raise SettingsError(f"{path} is not a key the companion made: start the companion once")
    return key


def keep_private(data: Path) -> None:
    """No other user of this machine may read the data directory: the database holds each
    table's PIN and seed (the whole deal). Only "other" loses access: on the Pi the service's
    group may read, as its unit says (StateDirectoryMode=0750)."""
    for path in [data, *data.glob("tables.sqlite3*")]:
        mode = path.stat().st_mode
        if mode & 0o007:
            try:
                path.chmod(mode & 0o7770)
            except PermissionError:  # not ours: say so, and go on
                log.warning("%s can be read by any user of this machine (chmod o-rwx it)",
                            path)


SERVING = "serving.json"  # where `companion serve` last listened, for `companion tables host`


def record_serving(data: Path, host: str, port: int) -> None:
    path = data / SERVING
    partial = path.with_name(f".{SERVING}.partial")
    partial.write_text(json.dumps({"host": host, "port": port}))
    partial.replace(path)


def last_served(data: Path) -> dict[str, Any] | None:
    """Where `companion serve` last listened with this data directory, if it has."""
    try:
        served = json.loads((data / SERVING).read_text())
    except (OSError, ValueError):
        return None
    return served if isinstance(served, dict) and isinstance(served.get("port"), int) else None


def secret_key(data: Path) -> bytes:
    """The companion's secret key: made on first start, kept in the data directory (0600)."""
    path = data / "secret.key"
    if path.is_file():
        key = path.read_bytes()
        if len(key) >= 32:
            return key
        log.warning("%s is too short; making a new key (phones will have to join again)", path)
    data.mkdir(parents=True, exist_ok=True)
    key = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key)
    log.info("made a new secret key in %s", path)
    return key


def camera_opener(settings: Settings) -> Callable[[], Camera] | None:
    """How to open the camera of the settings, or None when there is to be none."""
    if camera_off(settings.camera):
        return None
    try:
        size = parse_resolution(settings.resolution)
    except ConfigError:
        size = (1280, 720)  # `companion doctor` says what is wrong with the setting
    # A folder of frames is followed: the service keeps reading what is added to it.
    return lambda: open_camera(settings.camera, *size, follow=True)


M_ARENA_MAX = -8  # glibc's mallopt parameter


def one_malloc_arena() -> bool:
    """Make glibc's malloc keep one arena for every thread (False where that cannot be done:
    not glibc). Each of the service's many threads otherwise gets an arena of its own, which
    keeps what it freed: over a long evening resident memory crept up by about 19 MB at one
    table, against 9 MB with one arena (benchmarks/service/bench_soak.py). Call it before the
    threads start."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
        return bool(libc is not None and libc.mallopt(M_ARENA_MAX, 1) == 1)
    except (OSError, AttributeError):
        return False


@dataclass
class Services:
    settings: Settings
    data: Path
    secret: bytes
    hub: TableHub
    narration: NarrationService
    camera: CameraService

    @classmethod
    def build(cls, settings: Settings, data: Path) -> Services:
        try:  # an unknown pacing is said now, not when the host starts the Prologue
            Pacing.preset(settings.pacing)
        except NarrationError as exc:
            raise SettingsError(f"setting 'pacing': {exc}") from None
        secret = secret_key(data)
        store = TableStore(data / "tables.sqlite3")
        keep_private(data)
        hub = TableHub(store, Keys(secret), settings.max_tables, settings.tables_per_phone)
        narration = NarrationService(hub, Narrator(settings, data))
        camera = CameraService(hub, camera_opener(settings), data=data)
        hub.extras["narration"] = narration.status
        hub.extras["camera"] = camera.extras
        return cls(settings, data, secret, hub, narration, camera)

    def start(self) -> None:
        """Start what runs on its own (the camera)."""
        self.camera.start()

    def close(self) -> None:
        self.camera.stop()
        self.hub.store.close()
