"""The layering of ARCHITECTURE.md, checked by import-linter's contracts in pyproject.toml."""

import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT


def lint_imports() -> str:
    found = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    return found


def test_dependencies_point_one_way() -> None:
    done = subprocess.run([lint_imports(), "--no-cache"], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 6 kept, 0 broken." in done.stdout


def test_the_engine_imports_only_the_standard_library() -> None:
    """A second, simpler check: no engine module names a third-party package."""
    third_party = ("cv2", "numpy", "pyzbar", "pyttsx3", "sounddevice", "flask", "waitress")
    for path in (ROOT / "companion" / "engine").glob("*.py"):
        text = path.read_text()
        for name in third_party:
            assert f"import {name}" not in text and f"from {name}" not in text, path
