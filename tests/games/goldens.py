"""Golden transcripts, for every game: fixtures/transcripts/<game>/NAME.jsonl with
NAME.expected.json beside it, the exact output of `companion replay --json`. To rewrite them
after a deliberate rules change: COMPANION_REGENERATE=1 python -m pytest tests/games/test_goldens.py
(and review the diff)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from tests.conftest import TRANSCRIPTS

ALL = sorted(TRANSCRIPTS.glob("*/*.jsonl"))


def run_replay(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    status = main(["replay", str(path), "--json"])
    return status, json.loads(capsys.readouterr().out)


def replayed(game: str, name: str,
             capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    return run_replay(TRANSCRIPTS / game / f"{name}.jsonl", capsys)
