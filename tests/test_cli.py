"""The `companion` command line, run in-process and as a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine import all_games
from tests.conftest import ROOT, TRANSCRIPTS

PUCK = TRANSCRIPTS / "captains_gambit" / "puck-wins-round-12.jsonl"


def test_games_lists_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # One line a registered game, in the registry's order (more games may join).
    assert [line.split()[0] for line in lines] == [g.info.slug for g in all_games()]
    for start in ("burkes-gambit      Burke's Gambit (4-8 players)",
                  "captains-gambit    Captain's Gambit (4-8 players)",
                  "gambit-of-kings    Gambit of Kings (2 players)"):
        assert any(line.startswith(start) for line in lines), start


def test_rules_summary_marks_every_house_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "captains-gambit"]) == 0
    out = capsys.readouterr().out
    data = tomllib.loads((ROOT / "companion/games/captains_gambit/data/rules.toml").read_text())
    lines = out.splitlines()
    heads = [f"{a['label']} ({a['kind']}, cost" for a in data["actions"].values()]
    heads += [f"{c['label']} ({c['category']})" for c in data["captains"].values()]
    entries = [*data["actions"].values(), *data["captains"].values()]
    for head, entry in zip(heads, entries, strict=True):
        line = next(x for x in lines if x.strip().startswith(head))
        if entry.get("provisional"):
            assert "[provisional]" in line, line
        elif entry.get("house"):
            assert "[house]" in line, line
    assert out.count("[provisional]") >= 7  # Viola, Lear, Othello, Tybalt, Mercutio, Titus, Imogen


def test_rules_summary_with_a_tables_house_edits(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    edit = '{"coins": {"below_zero": true}}'
    assert main(["rules", "captain-flip", "--house", edit]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Changed by --house:\n  The Parrots' penalty may take a score below"
                          " 0: yes\n\n")  # apart from the companion's own readings, first
    assert "[house] A Parrot's penalty may take a score below 0." in out
    saved = tmp_path / "house.json"
    saved.write_text(edit)
    assert main(["rules", "captain-flip", "--house", str(saved)]) == 0
    assert "may take a score below 0" in capsys.readouterr().out
    for bad, said in (('{"coins": {"below": true}}', "'coins.below' is not a rule"),
                      ("[1]", "must be a JSON object"), ("nonsense", "neither a JSON object"),
                      (str(tmp_path / "nope.json"), "--house: there is no file "),
                      ('{"end": {"bag_empty_finishes_round": 1}}', "must be true or false, not"
                       " 1")):
        assert main(["rules", "captain-flip", "--house", bad]) == 2
        assert said in capsys.readouterr().err


@pytest.mark.parametrize("game", [g.info.slug for g in all_games()
                                  if g.info.slug in ("burkes-gambit", "captain-flip",
                                                     "captains-gambit", "gambit-6x6",
                                                     "gambit-of-kings")])
def test_rules_data_prints_every_key_a_house_edit_may_change(
        game: str, capsys: pytest.CaptureFixture[str]) -> None:
    """What a table needs to write a `house` edit: the data file, by the same keys; an
    unknown key is refused naming the keys there are."""
    assert main(["rules", game, "--data"]) == 0
    data = tomllib.loads(capsys.readouterr().out)
    first = next(iter(data))
    assert main(["rules", game, "--house", json.dumps({"no_such_rule": 1})]) == 2
    assert f"(it has: {', '.join(data)})" in capsys.readouterr().err
    assert main(["rules", game, "--house", json.dumps({first: {"no_such_rule": 1}})]) == 2
    assert f"({first} has: " in capsys.readouterr().err


def test_unknown_game_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_replay_prints_the_final_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(PUCK)]) == 0
    out = capsys.readouterr().out
    assert "Game over by the end of round 12: Ann (Puck) wins" in out


def test_replay_names_each_boards_owner_and_shows_a_stack_whole(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(TRANSCRIPTS / "captain_flip"
                               / "a-five-players-the-bag-runs-out-in-the-last-round.jsonl")]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("The pirate ship")] == [
        f"The pirate ship ({name}):" for name in ("Ann", "Ben", "Cat", "Dan", "Eve")]
    assert main(["replay", str(TRANSCRIPTS / "gambit_6x6"
                               / "far-row-win-with-a-sitter-stack.jsonl")]) == 0
    assert " A5+B6+A3 " in capsys.readouterr().out  # e6: bottom first


def test_replay_plays_a_tables_export_as_its_host_downloads_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One JSON object, setup and actions, pretty-printed: the same game as the transcript."""
    lines = [json.loads(line) for line in PUCK.read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    export = tmp_path / "table-1.json"
    export.write_text(json.dumps({"setup": lines[0], "actions": lines[1:]}, indent=1))
    assert main(["replay", str(export)]) == 0
    assert "Game over by the end of round 12: Ann (Puck) wins" in capsys.readouterr().out
    export.write_text(json.dumps({"setup": lines[0], "actions": lines[1:]}))  # one line
    assert main(["replay", str(export)]) == 0
    assert "gives no seed" not in capsys.readouterr().err  # the export's setup gives it
    unseeded = {"game": "captains-gambit", "seats": ["Ann", "Ben", "Cat", "Dan"]}
    export.write_text(json.dumps({"setup": unseeded, "actions": []}))
    assert main(["replay", str(export)]) == 0
    assert "gives no seed" in capsys.readouterr().err
    lines[3] = {**lines[3], "action": "no_such_action"}
    export.write_text(json.dumps({"setup": lines[0], "actions": lines[1:]}))
    assert main(["replay", str(export)]) == 3
    assert ":line 4: " in capsys.readouterr().err  # counted as the transcript's lines


def test_replay_of_a_missing_file_exits_2(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "cannot read" in err and "No such file" in err


def test_replay_of_a_binary_file_exits_2(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.jsonl"
    junk.write_bytes(b"\xff\xfe\x00\x81")
    assert main(["replay", str(junk)]) == 2
    err = capsys.readouterr().err
    assert "cannot read" in err and "it is not text" in err


def test_replay_of_invalid_json_exits_3_with_the_line(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(PUCK.read_text().replace('{"action": "end_prologue"', '{"action": end', 1))
    assert main(["replay", str(bad), "--json"]) == 3
    report = json.loads(capsys.readouterr().out)
    assert report["error"]["message"].startswith("invalid JSON")
    assert report["actions"] == 0


def test_the_installed_command_runs_without_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": "captains-gambit", "seats": ["A", "B", "C", "D"]}\n'
                   '{"action": "strike", "seat": 3, "target": 0}\n')
    done = subprocess.run([sys.executable, "-m", "companion", "replay", str(bad)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 3
    assert "line 2: cannot strike by seat 3 (D): not now: the Prologue is under way" in done.stderr
    assert "Traceback" not in done.stderr


def test_help_lists_the_subcommands() -> None:
    done = subprocess.run([sys.executable, "-m", "companion", "--help"], capture_output=True,
                          text=True, check=True)
    for command in ("games", "rules", "replay"):
        assert command in done.stdout


def test_a_long_house_json_is_read_as_json_and_a_too_long_name_is_no_crash(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--house is a file's path only if it names a file that exists: a JSON text of 256 or
    more characters (too long for a file name) is read as JSON, not tried as a path first."""
    edit = {"setup": {"bluff_damage": 5, "starting_health": 12, "rounds": 12},
            "captains": {name: {"deadline_round": 11} for name in ("prospero", "lady_macbeth")},
            "actions": {"strike": {"cost": 1}, "barrage": {"cost": 3}, "drain": {"energy": 2}}}
    text = json.dumps(edit, indent=1)
    assert len(text) >= 256
    assert main(["rules", "captains-gambit", "--house", text]) == 0
    assert "bluff" in capsys.readouterr().out
    # a long text that is neither JSON nor a file: one clear line, exit status 2
    assert main(["rules", "captains-gambit", "--house", "x" * 300]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion rules: --house is neither a JSON object nor a file")
    assert "Traceback" not in err and err.count("\n") == 1
    # a name with a NUL byte cannot be a file either
    assert main(["rules", "captains-gambit", "--house", "a\0b"]) == 2
    assert "neither a JSON object" in capsys.readouterr().err


def _narrated(*argv: str) -> str:
    """The words `companion narrate ARGV` would say (nothing rendered or played)."""
    from companion.cli import build_parser
    from companion.cli.narrate import _script

    script = _script(build_parser().parse_args(["narrate", *argv]))
    return " ".join(step.text for step in script.steps if step.text)


def test_narrate_takes_every_table_option_as_rules_lists_it(tmp_path: Path) -> None:
    """first_seat is a seat number (it was left as text, and refused for every value), and
    house takes the table's edits as JSON or a file, as `companion rules --house` does."""
    assert "Hamlet" in _narrated("captains-gambit", "--players", "6", "--option", "first_seat=3")
    pool = ["portia", "prospero", "lady_macbeth", "iago", "puck", "cordelia"]
    edit = json.dumps({"pool": {"4": pool}})
    said = _narrated("captains-gambit", "--players", "4", "--option", f"house={edit}")
    assert "Cordelia" in said and "Hamlet" not in said
    saved = tmp_path / "house.json"
    saved.write_text(edit)
    assert _narrated("prologue", "--players", "4", "--option", f"house={saved}") == said


@pytest.mark.parametrize(("args", "message"), [
    (["captains-gambit", "--players", "6", "--option", "first_seat=third"],
     "--option 'first_seat=third': first_seat is a seat number"),
    (["captains-gambit", "--players", "6", "--option", "first_seat=6"],
     'option "first_seat" must be a seat from 0 to 5'),
    (["captains-gambit", "--players", "6", "--option", "wildcards=maybe"],
     "wildcards is true or false"),
    (["captains-gambit", "--players", "6", "--option", "house=[1]"],
     "--option house must be a JSON object"),
    (["captains-gambit", "--players", "6", "--option", "wild=1"],
     "(known: warp_in, wildcards, mulligan, first_seat, house)"),
    # by a phase's name: the reasons of the game that has the phase, not the other games'
    (["prologue", "--in-play", "viola,portia,prospero,lady_macbeth,iago,puck"],
     "Captain's Gambit has no eyes-closed phase 'prologue' with this setup: there is nothing"
     " to read\n"),
    (["prologue", "--players", "4", "--option", "warp_in=viola"],
     "Captain's Gambit has no eyes-closed phase 'prologue' with this setup: there is nothing"
     " to read\n"),
    (["prologue", "--players", "4", "--option", "colour=red"],
     "captains-gambit has no option 'colour'"),
    # a phase that does not exist: the phases that do
    (["captains-gambit", "--phase", "bogus", "--players", "4"],
     "Captain's Gambit has no eyes-closed phase 'bogus' (known: prologue)\n"),
    (["bogus", "--players", "4"], "No game has an eyes-closed phase 'bogus' (known: heads-down,"
                                  " prologue)\n"),
])
def test_narrate_refusals_name_the_game_concerned(args: list[str], message: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["narrate", *args, "--text", "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion narrate: ") and message in err, err
    assert "burkes-gambit" not in err and "gambit-6x6" not in err
