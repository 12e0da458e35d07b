"""The Raspberry Pi install path and `companion doctor`."""

from __future__ import annotations

import configparser
import os
import re
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from companion.cli import main
from tests.conftest import ROOT

DEPLOY = ROOT / "deploy"
UNIT = DEPLOY / "gambit-companion.service"


def unit() -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser(strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep their case
    parser.read(UNIT)
    return parser


def test_the_unit_runs_unprivileged_restarts_and_is_hardened() -> None:
    service = unit()["Service"]
    assert service["User"] == "companion" != "root"
    assert set(service["SupplementaryGroups"].split()) == {"video", "audio"}
    assert service["Restart"] == "on-failure"
    for option in ("NoNewPrivileges", "ProtectSystem", "ProtectHome", "PrivateTmp",
                   "ProtectKernelTunables", "RestrictSUIDSGID", "LockPersonality"):
        assert service[option] in ("yes", "strict"), option
    assert service["CapabilityBoundingSet"] == ""
    assert service["ExecStart"] == "/opt/gambit-companion/.venv/bin/companion serve"
    assert unit()["Install"]["WantedBy"] == "multi-user.target"


def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is missing: ./test.sh installs it"
    here = ROOT / ".venv" / "bin" / "companion"
    copy = tmp_path / UNIT.name
    copy.write_text(UNIT.read_text().replace("/opt/gambit-companion/.venv/bin/companion",
                                             str(here)))
    done = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0 and done.stderr == "", done.stderr


def test_the_scripts_pass_shellcheck() -> None:
    shellcheck = shutil.which("shellcheck")
    assert shellcheck, "shellcheck is missing: ./test.sh installs it"
    scripts = [DEPLOY / "install-pi.sh", DEPLOY / "setup.sh", ROOT / "start.sh",
               ROOT / "test.sh"]
    done = subprocess.run([shellcheck, *map(str, scripts)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stdout


def test_the_install_plan() -> None:
    """What install-pi.sh would do (DRY_RUN=1 changes nothing)."""
    done = subprocess.run([str(DEPLOY / "install-pi.sh")], capture_output=True, text=True,
                          check=True, env={**os.environ, "DRY_RUN": "1"})
    plan = done.stdout
    assert "--shell /usr/sbin/nologin companion" in plan or "useradd" not in plan
    assert "usermod --append --groups video,audio companion" in plan
    assert "/opt/gambit-companion/deploy/setup.sh" in plan
    assert "install -m 0644 " in plan and "/etc/systemd/system/gambit-companion.service" in plan
    assert "systemctl enable gambit-companion.service" in plan
    assert plan.index("setup.sh") < plan.index("systemctl restart")
    # The service cannot write the code's folder: its modules are compiled before it is locked.
    assert plan.index("setup.sh") < plan.index("-m compileall -q /opt/gambit-companion/companion")
    assert plan.index("compileall") < plan.index("chown -R root:root /opt/gambit-companion")


def test_doctor_on_a_machine_with_what_it_needs(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import sounddevice

    monkeypatch.setattr(sounddevice, "query_devices",
                        lambda: [{"name": "USB speaker", "max_output_channels": 2}])
    monkeypatch.setattr(sounddevice.default, "device", [-1, 0])
    monkeypatch.setenv("COMPANION_CAMERA", str(ROOT / "fixtures" / "frames" / "shows-overcharge"))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "none.toml"))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert main(["doctor", "--data", str(tmp_path / "data"), "--port", str(port)]) == 0
    out = capsys.readouterr().out
    for line in ("[ok  ] QR decoder (zbar)", "[ok  ] speech (espeak-ng)",
                 "[ok  ] speaker: 0: USB speaker", "[ok  ] camera:", "a 1280x720 frame",
                 "[ok  ] disk:", f"[ok  ] port: 0.0.0.0:{port} is free"):
        assert line in out, out
    assert out.rstrip().endswith("ready")


def test_doctor_says_what_is_wrong_and_how_to_fix_it(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import sounddevice

    monkeypatch.setattr(sounddevice, "query_devices", lambda: [])
    monkeypatch.setenv("COMPANION_CAMERA", "/dev/video9")
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "none.toml"))
    with socket.socket() as busy:
        busy.bind(("0.0.0.0", 0))
        busy.listen()
        port = busy.getsockname()[1]
        status = main(["doctor", "--data", str(tmp_path / "data"), "--port", str(port)])
    out = capsys.readouterr().out
    assert status == 1
    assert f"[FAIL] port: 0.0.0.0:{port} in use" in out and "--port 8080" in out
    assert "[warn] speaker: no audio output device found" in out
    assert "[warn] camera:" in out and "video group" in out
    assert "not ready: 1 problem(s) above" in out


def test_every_dependency_installs_on_a_64_bit_pi(tmp_path: Path) -> None:
    """Raspberry Pi OS Bookworm, 64-bit: Python 3.11 on aarch64 with glibc 2.36. pip resolves
    the companion's dependencies for it, wheels only (a Pi should not compile OpenCV), so a
    release that drops its Pi wheel fails here, not on a table's Pi."""
    import json
    import sys
    import tomllib

    wanted = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    platforms = [f"manylinux_2_{minor}_aarch64" for minor in range(36, 16, -1)]
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--ignore-installed",
         "--only-binary=:all:", "--python-version", "3.11", "--implementation", "cp",
         *(f"--platform={p}" for p in platforms), "--target", str(tmp_path / "target"),
         "--report", str(report), *wanted],
        capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    installed = {i["metadata"]["name"].lower() for i in json.loads(report.read_text())["install"]}
    assert {"onnxruntime", "opencv-python-headless", "zxing-cpp", "numpy"} <= installed


def test_doctor_says_a_32_bit_system_needs_the_64_bit_os() -> None:
    from companion.cli.doctor import check_os

    assert check_os("aarch64").ok and check_os("x86_64").ok
    armv7 = check_os("armv7l")
    assert not armv7.ok and "64-bit Raspberry Pi OS" in armv7.fix


def test_the_pi_camera_comes_from_the_systems_packages(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """picamera2 is apt-only on Raspberry Pi OS: the companion finds it there, after its own
    environment's packages, so the fix the error message gives works."""
    import sys

    from companion.devices.camera import import_picamera2

    system = tmp_path / "dist-packages"
    (system / "picamera2").mkdir(parents=True)
    (system / "picamera2" / "__init__.py").write_text("class Picamera2:\n    pass\n")
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    module = import_picamera2(system)
    assert module.Picamera2.__name__ == "Picamera2"
    assert sys.path[-1] == str(system)  # after the environment's own packages
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    sys.path.remove(str(system))
    with pytest.raises(ImportError):  # nowhere at all: the message says what to install
        import_picamera2(tmp_path / "nothing-here")


def test_the_unit_allows_devices_not_folders_and_bounds_the_service() -> None:
    service = unit()["Service"]
    allowed = [line.split()[0] for line in (DEPLOY / "gambit-companion.service").read_text()
               .splitlines() if line.startswith("DeviceAllow=")]
    for device in (a.removeprefix("DeviceAllow=") for a in allowed):
        assert device.startswith("char-") or not device.endswith("dma_heap"), device
    assert "char-dma_heap" in [a.removeprefix("DeviceAllow=") for a in allowed]
    for limit in ("CPUQuota", "MemoryMax", "MemoryHigh", "TasksMax"):
        assert service[limit], limit


def test_doctor_on_the_pi_where_the_companion_already_runs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Its port is taken by the companion itself: that is no problem to fix."""
    from tests.web.server import Server

    server = Server(tmp_path / "data")
    server.start()
    try:
        monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "none.toml"))
        main(["doctor", "--data", str(tmp_path / "data"), "--port", str(server.port)])
        assert f"[ok  ] port: 0.0.0.0:{server.port}: the companion is running there" \
            in capsys.readouterr().out
    finally:
        server.stop()


def test_the_sample_settings_name_every_setting_and_the_pi_gets_its_data_directory() -> None:
    """deploy/companion.toml is what docs/service.md points to for every setting, and it
    loads as it is; install-pi.sh writes the service's data directory into the copy in
    /etc, which a shell on the Pi reads (the unit's environment is the service's only)."""
    import tomllib
    from dataclasses import fields

    from companion.settings import Settings, load_settings

    sample = DEPLOY / "companion.toml"
    named = set(tomllib.loads(sample.read_text()))
    assert named == {f.name for f in fields(Settings)} - {"sources"}
    assert load_settings(sample) == Settings()  # the sample says the defaults
    plan = subprocess.run([str(DEPLOY / "install-pi.sh")], capture_output=True, text=True,
                          check=True, env={**os.environ, "DRY_RUN": "1"}).stdout
    assert "+ name_data_dir /etc/gambit-companion/companion.toml" in plan


@pytest.mark.parametrize("kept", ["today's sample", "an earlier install's", "chosen"])
def test_install_pi_names_the_data_directory_in_a_new_or_kept_settings_file(
        kept: str, tmp_path: Path) -> None:
    """install-pi.sh's name_data_dir, run as the script runs it: today's sample gets the
    service's directory; a file kept from an install before the sample had a `data` line
    gets one; a directory the owner chose is kept."""
    import tomllib

    settings = tmp_path / "companion.toml"
    sample = (DEPLOY / "companion.toml").read_text()
    settings.write_text({"today's sample": sample,
                         "an earlier install's": 'port = 8000\ncamera = "0"',
                         "chosen": 'data = "/srv/tables"\n'}[kept])
    function = re.search(r"^name_data_dir\(\) \{.*?^\}$",
                         (DEPLOY / "install-pi.sh").read_text(), re.M | re.S)
    assert function is not None
    subprocess.run(["bash", "-c", f'{function.group(0)}\nDATA_DIR=/var/lib/gambit-companion\n'
                    f'name_data_dir "{settings}"'], check=True)
    data = tomllib.loads(settings.read_text())["data"]
    assert data == ("/srv/tables" if kept == "chosen" else "/var/lib/gambit-companion")
