"""`companion doctor`: is this machine ready to run the companion? Each check says what it
found and, when something is wrong, what to do about it."""

from __future__ import annotations

import argparse
import errno
import json
import platform
import shutil
import socket
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.settings import (
    Settings,
    SettingsError,
    data_dir,
    load_settings,
    local_address,
    settings_warnings,
)

MIN_FREE_MB = 200  # room for the database, the speech cache and narration files


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    found: str
    fix: str = ""
    required: bool = True  # a missing camera or speaker still lets the companion run


# Machines the companion's wheels exist for (onnxruntime, OpenCV and zxing-cpp publish none
# for 32-bit ARM): a Pi needs the 64-bit Raspberry Pi OS.
SIXTY_FOUR_BIT = ("aarch64", "arm64", "x86_64", "amd64")


def check_os(machine: str | None = None) -> Check:
    machine = machine or platform.machine()
    if machine.lower() in SIXTY_FOUR_BIT:
        return Check("64-bit OS", True, machine)
    return Check("64-bit OS", False, f"{machine}: a 32-bit system",
                 "install the 64-bit Raspberry Pi OS (Bookworm): the camera's and the dice"
                 " reader's libraries have no 32-bit ARM builds")


def check_zbar() -> Check:
    try:
        import numpy as np
        from pyzbar import pyzbar

        pyzbar.decode(np.zeros((8, 8), dtype=np.uint8))
    except (ImportError, OSError) as exc:
        return Check("QR decoder (zbar)", False, str(exc),
                     "sudo apt install libzbar0   (./start.sh does this)")
    return Check("QR decoder (zbar)", True, "libzbar loads and decodes")


def check_espeak(data: Path) -> Check:
    from companion.narration.speech import SpeechCache, SpeechError, SpeechRenderer, VoiceSettings
    from companion.narration.timeline import RATE

    with tempfile.TemporaryDirectory() as tmp:
        try:
            samples = SpeechRenderer(SpeechCache(Path(tmp), VoiceSettings())).clip("Ready.")
        except SpeechError as exc:
            return Check("speech (espeak-ng)", False, str(exc),
                         "sudo apt install espeak-ng   (./start.sh does this)")
    return Check("speech (espeak-ng)", True, f"renders speech ({len(samples) / RATE:.1f} s for"
                 " a test word)")


def check_audio(settings: Settings) -> Check:
    from companion.devices.speaker import SpeakerUnavailable, find_device

    try:
        device = find_device(settings.audio_device or None)
    except SpeakerUnavailable as exc:
        return Check("speaker", False, str(exc),
                     "plug in a speaker (USB, jack or HDMI) and check `companion audio devices`;"
                     " add the service's user to the audio group. Without one, narration plays"
                     " on the host's phone.", required=False)
    return Check("speaker", True, f"{device.index}: {device.name}", required=False)


def check_camera(settings: Settings) -> Check:
    from companion.devices.camera import camera_off, open_camera, parse_resolution
    from companion.errors import ConfigError

    if camera_off(settings.camera):
        return Check("camera", True, "turned off in the settings (camera = \"none\")",
                     required=False)
    try:
        camera = open_camera(settings.camera, *parse_resolution(settings.resolution))
    except ConfigError as exc:
        return Check("camera", False, str(exc), "set `camera` in the settings file",
                     required=False)
    try:
        frame = camera.read()
        status = camera.status()
    finally:
        camera.close()
    if frame is None:
        return Check("camera", False, f"{status.source}: {status.message}",
                     "plug in the webcam (or enable the Pi camera), and add the service's user"
                     " to the video group. Without one, cards and dice are entered on the"
                     " phones.", required=False)
    height_px, width_px = frame.shape[:2]
    return Check("camera", True, f"{status.source}: a {width_px}x{height_px} frame",
                 required=False)


def check_disk(data: Path) -> Check:
    folder = data
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    free = shutil.disk_usage(folder).free / 2**20
    writable = _writable(data)
    ok = free >= MIN_FREE_MB and writable
    fix = "" if ok else (f"make the data directory writable ({data})" if not writable
                         else f"free some space: the companion wants {MIN_FREE_MB} MB")
    return Check("disk", ok, f"{free:,.0f} MB free for {data}"
                 + ("" if writable else " (not writable)"), fix)


def _writable(data: Path) -> bool:
    try:
        data.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=data):
            return True
    except OSError:
        return False


def _companion_answers(host: str, port: int) -> bool:
    """Whether the companion itself answers on the port (its service is running)."""
    import urllib.request  # here, not at the top: with ssl it is a tenth of `--help`

    try:
        with urllib.request.urlopen(f"http://{local_address(host)}:{port}/api/health",
                                    timeout=2) as answer:
            return json.loads(answer.read(4096)).get("ok") is True
    except (OSError, ValueError, AttributeError):
        return False


def check_port(settings: Settings) -> Check:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((settings.host, settings.port))
        except OSError as exc:
            in_use = exc.errno == errno.EADDRINUSE
            if in_use and _companion_answers(settings.host, settings.port):
                return Check("port", True, f"{settings.host}:{settings.port}: the companion is"
                                           " running there")
            why = "in use by another program" if in_use else str(exc)
            return Check("port", False, f"{settings.host}:{settings.port} {why}",
                         "stop the other program, or choose another port: companion serve"
                         " --port 8080 (or `port` in the settings file)")
    return Check("port", True, f"{settings.host}:{settings.port} is free")


def run_checks(settings: Settings, data: Path) -> list[Check]:
    checks: list[Callable[[], Check]] = [
        check_os, check_zbar, lambda: check_espeak(data), lambda: check_audio(settings),
        lambda: check_camera(settings), lambda: check_disk(data), lambda: check_port(settings)]
    return [check() for check in checks]


def _doctor(args: argparse.Namespace) -> int:
    try:
        settings = load_settings().with_options(port=args.port)
        data = data_dir(args.data or settings.data or None)
    except SettingsError as exc:
        print(f"settings: {exc}")
        return 1
    if settings.sources:
        print(f"settings from {', '.join(settings.sources)}")
    for warning in settings_warnings():
        print(f"[warn] settings: {warning}")
    results = run_checks(settings, data)
    for check in results:
        mark = "ok  " if check.ok else ("FAIL" if check.required else "warn")
        print(f"[{mark}] {check.name}: {check.found}")
        if check.fix:
            print(f"       fix: {check.fix}")
    failed = [c for c in results if c.required and not c.ok]
    print("ready" if not failed else f"not ready: {len(failed)} problem(s) above")
    return 1 if failed else 0


def add_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    doctor = sub.add_parser(
        "doctor", help="check this machine: 64-bit OS, camera, speaker, zbar, espeak-ng, disk,"
                       " port",
        description="Check what the companion needs and say how to fix what is missing. Exit"
                    " status 1 when something it cannot run without is missing (a camera or"
                    " speaker is only a warning: the phones stand in for them).")
    doctor.add_argument("--data", metavar="DIR", help="the data directory to check")
    doctor.add_argument("--port", type=int, help="the port to check (default 8000)")
    doctor.set_defaults(run=_doctor)
