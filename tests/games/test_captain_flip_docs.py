"""docs/captain-flip.md stays in step with the game: every action, option and Character is
documented, and its transcript example replays as the page says."""

from __future__ import annotations

import re

from companion.engine import replay_transcript
from companion.games.captain_flip.book import CHARACTERS
from companion.games.captain_flip.moves import MOVE_SET
from companion.games.captain_flip.rules import INFO
from tests.conftest import ROOT

TEXT = (ROOT / "docs" / "captain-flip.md").read_text()


def test_every_action_option_and_character_is_documented() -> None:
    names = [*MOVE_SET.by_name, *(o.name for o in INFO.options), "house", *CHARACTERS]
    assert [name for name in names if f"`{name}`" not in TEXT] == []


def test_the_transcript_example_replays_to_the_log_shown() -> None:
    example = re.search(r"```json\n(.*?)```", TEXT, re.S)
    assert example is not None
    result = replay_transcript(example.group(1).splitlines())
    assert result.error is None and result.session is not None
    log = [line for r in result.session.history for line in (r.text, *r.notes)]
    shown = re.search(r"The log reads:\n\n```\n(.*?)```", TEXT, re.S)
    assert shown is not None
    lines = [line.strip() for line in shown.group(1).splitlines()]
    start = log.index(lines[0])
    assert log[start:start + len(lines)] == lines


def test_every_transcript_of_the_page_replays() -> None:
    """The table without a camera's lines too: a draw by its side, a flip by the side shown."""
    examples = re.findall(r"```json\n(.*?)```", TEXT, re.S)
    assert len(examples) >= 2
    for example in examples:
        result = replay_transcript(example.splitlines())
        assert result.error is None, result.error


def test_the_tile_table_gives_every_tiles_two_sides() -> None:
    from companion.games.captain_flip.components import tile_sides

    documented = {}
    for first, rest in re.findall(r"^\| (\w+) \| (`\d\d` .*) \|$", TEXT, re.M):
        for a, b, other in re.findall(r"`(\d\d)` `(\d\d)` (\w+)", rest):
            documented[int(a)] = documented[int(b)] = (first, other)
    assert documented == tile_sides()
