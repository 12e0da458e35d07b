"""A game added by docs/adding-a-game.md's recipe gets everything with no other file touched:
the toy game (tests/toy_game.py, one module outside the package) passes the conformance
checks, replays its transcripts, shows one seat what its phone shows, and the command line
knows it (loaded as a plug-in by the `games` setting, as a table would load its own game).
Its phone page is tested with the others (tests/web/test_e2e.py)."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine import GameSetup
from tests.conformance import check_game
from tests.conftest import ROOT
from tests.toy_game import RULES

TOY = ROOT / "tests" / "toy_game.py"


def test_the_toy_game_touches_no_other_file() -> None:
    """Nothing in the companion names it, and it imports only the engine."""
    for path in (ROOT / "companion").rglob("*"):
        if path.suffix in (".py", ".js", ".html", ".toml"):
            text = path.read_text()
            assert "counter-race" not in text and "toy_game" not in text, path
    imports = [node for node in ast.walk(ast.parse(TOY.read_text()))
               if isinstance(node, ast.Import | ast.ImportFrom)]
    for node in imports:
        module = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
        assert module in ("__future__", "collections.abc", "dataclasses", "typing",
                          "companion.engine"), module


def test_the_toy_game_conforms() -> None:
    assert check_game(RULES) > 0


def transcript(tmp_path: Path, *actions: dict[str, object]) -> Path:
    path = tmp_path / "race.jsonl"
    lines = [{"game": "counter-race", "seats": ["Ann", "Ben"], "seed": 3}, *actions]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return path


def test_a_transcript_replays_and_shows_what_one_seat_sees(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = transcript(tmp_path, {"action": "step", "seat": 0, "from": "c0", "to": "c2"},
                      {"action": "step", "seat": 1, "from": "c0", "to": "c3"})
    ann, ben = RULES.setup(GameSetup("counter-race", ("Ann", "Ben"), seed=3)).lucky
    assert main(["replay", str(path), "--json"]) == 0
    view = json.loads(capsys.readouterr().out)["view"]
    # A lucky step goes one cell further.
    assert [p["counters"][0]["value"] for p in view["players"]] == [2 + (ann == 2),
                                                                     3 + (ben == 3)]
    assert main(["replay", str(path), "--seat", "1"]) == 0
    shown = capsys.readouterr().out
    assert f"Only seat 1 (Ben) sees:\n  Your lucky step: {ben}" in shown
    assert "Can do now: nothing" in shown  # Ann's turn
    assert main(["replay", str(path), "--seat", "0", "--json"]) == 0
    seat = json.loads(capsys.readouterr().out)
    assert seat["seat"] == 0 and [a["name"] for a in seat["view"]["actions"]] == ["step"]
    assert main(["replay", str(path), "--seat", "5"]) == 2
    assert "the table has seats 0 to 1" in capsys.readouterr().err


def test_a_refused_move_stops_the_replay(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = transcript(tmp_path, {"action": "step", "seat": 0, "from": "c0", "to": "c7"})
    assert main(["replay", str(path)]) == 3
    assert "line 2: cannot step by Ann: to must be one of c1, c2, c3" in capsys.readouterr().err
    path = transcript(tmp_path, {"action": "step", "seat": 0, "from": "c4", "to": "c5"})
    assert main(["replay", str(path)]) == 3
    assert "line 2: cannot step by Ann: from must be one of c0" in capsys.readouterr().err


def test_the_command_line_loads_it_as_a_plug_in(tmp_path: Path) -> None:
    env = {**os.environ, "COMPANION_GAMES": "tests.toy_game",
           "COMPANION_CONFIG": str(tmp_path / "none.toml")}

    def companion(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT, env=env,
                              capture_output=True, text=True, check=False)

    assert "counter-race" in companion("games").stdout
    assert "secret lucky number" in companion("rules", "counter-race").stdout
    path = transcript(tmp_path, {"action": "step", "seat": 0, "from": "c0", "to": "c1"})
    done = companion("replay", str(path), "--seat", "0")
    assert done.returncode == 0 and "Your lucky step" in done.stdout, done.stderr
    none = companion("narrate", "counter-race", "--players", "2", "--text")
    assert none.returncode == 2
    assert "Counter race has no eyes-closed phase with this setup" in none.stderr
    bad = subprocess.run([sys.executable, "-m", "companion", "games"], cwd=ROOT,
                         env={**env, "COMPANION_GAMES": "tests.no_such_game"},
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "cannot load the game plug-ins" in bad.stderr
    assert "Traceback" not in bad.stderr
