"""Every golden transcript replays to exactly its expected output (see tests/games/goldens.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.games.goldens import ALL, run_replay


@pytest.mark.parametrize("path", ALL, ids=[f"{p.parent.name}/{p.stem}" for p in ALL])
def test_replay_matches_the_golden_output(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, report = run_replay(path, capsys)
    expected_path = path.with_suffix(".expected.json")
    if os.environ.get("COMPANION_REGENERATE"):
        expected_path.write_text(json.dumps({"status": status, **report}, indent=1) + "\n")
    expected = json.loads(expected_path.read_text())
    assert {"status": status, **report} == expected


@pytest.mark.parametrize(("game", "least"), [("captains_gambit", 9), ("burkes_gambit", 6)])
def test_there_are_golden_games(game: str, least: int) -> None:
    assert len([p for p in ALL if p.parent.name == game]) >= least
