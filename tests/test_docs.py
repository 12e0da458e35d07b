"""The user docs stay in step with the code: every action documented, two commands in the README."""

import json
import os
import re
from pathlib import Path

import pytest

from companion.games.captains_gambit.moves import MOVES
from tests.conftest import ROOT


def test_every_captains_gambit_action_is_documented() -> None:
    text = (ROOT / "docs" / "captains-gambit.md").read_text()
    missing = [name for name in MOVES if f"`{name}`" not in text]
    assert missing == []


def test_every_burkes_gambit_action_and_face_is_documented() -> None:
    from companion.games.burkes_gambit.book import FACES
    from companion.games.burkes_gambit.moves import MOVES as BURKE_MOVES

    text = (ROOT / "docs" / "burkes-gambit.md").read_text()
    missing = [name for name in [*BURKE_MOVES, *FACES] if f"`{name}`" not in text]
    assert missing == []


def test_readme_quick_start_has_exactly_two_commands_that_exist() -> None:
    readme = (ROOT / "README.md").read_text()
    quick = readme.split("## Quick start", 1)[1]
    block = re.search(r"```sh\n(.*?)```", quick, re.S)
    assert block is not None
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines()
                if line.split("#")[0].strip()]
    assert commands == ["./start.sh", "./test.sh"]
    for command in commands:
        assert os.access(ROOT / command, os.X_OK), command
    assert "./test.sh" in (ROOT / ".ci" / "run").read_text()


def test_narration_doc_examples_parse_and_its_pacing_table_matches_the_data() -> None:
    import shlex

    from companion.cli import build_parser
    from companion.narration.scripts import pacing_data

    text = (ROOT / "docs" / "narration.md").read_text()
    block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert block is not None
    for line in block.group(1).splitlines():
        command = line.split("  #")[0].strip()
        assert command.startswith("companion ")
        build_parser().parse_args(shlex.split(command)[1:])  # exits (fails) if it does not parse
    pacing = pacing_data()
    for name, row in pacing.items():
        cells = re.search(rf"^\| {name} \|(.*)\|$", text, re.M)
        assert cells is not None, name
        numbers = [float(c.strip().removesuffix(" s")) for c in cells.group(1).split("|")]
        keys = ["line_gap", "settle", "act", "enter", "look", "countdown_step"]
        assert numbers == [row[k] for k in keys], name


def _transcript(block: str) -> bool:
    """Whether a code block is a transcript: JSON lines, and maybe `#` comments."""
    lines = [line for line in block.strip().splitlines() if line.strip()]
    return (any(line.startswith("{") for line in lines)
            and all(line.startswith(("{", "#")) for line in lines))


def test_every_transcript_shown_with_its_log_in_the_docs_replays_to_that_output(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A transcript block (JSON lines, comments allowed) followed by a `--log` output block
    (its first line "   1  ...") replays to exactly that output, and a `--json` output shown
    after it (an object with its "view" and "log") to exactly that object: the examples a
    reader copies stay true."""
    from companion.cli import main

    checked = 0
    for doc in sorted((ROOT / "docs").glob("*.md")):
        blocks = re.findall(r"```[a-z]*\n(.*?)```", doc.read_text(), re.S)
        source = None
        for previous, block in zip(blocks, blocks[1:], strict=False):
            if _transcript(previous) and len(previous.strip().splitlines()) > 1:
                source = previous
            if source is None:
                continue
            path = tmp_path / "example.jsonl"
            path.write_text(source)
            first = next(line for line in source.splitlines() if line.startswith("{"))
            if re.match(r"\s+1  ", block) and previous is source:
                main(["replay", str(path), "--log"])
                assert capsys.readouterr().out == block, f"{doc.name}: {first}"
                checked += 1
            elif block.lstrip().startswith("{") and '"view"' in block and '"log"' in block:
                main(["replay", str(path), "--json"])
                shown = json.loads(block)
                assert json.loads(capsys.readouterr().out) == shown, f"{doc.name}: {first}"
                checked += 1
    assert checked >= 6
