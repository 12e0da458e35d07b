"""Transcripts: line numbers and one-line reasons for everything that is refused."""

import pytest

from companion.engine import replay_transcript

SETUP = '{"game": "captains-gambit", "seats": ["A", "B", "C", "D"], "seed": 1}'


def test_comments_and_blank_lines_are_skipped() -> None:
    result = replay_transcript(["# a game", "", SETUP, '{"action": "end_prologue"}'])
    assert result.error is None and result.session is not None
    assert len(result.session.history) == 1


@pytest.mark.parametrize("lines, line, reason", [
    ([], 1, "the transcript is empty"),
    (["{not json"], 1, "invalid JSON"),
    (['{"game": "chess", "seats": ["A"]}'], 1, "unknown game 'chess'"),
    (['{"game": "captains-gambit", "seats": ["A", "B"]}'], 1, "needs 4 to 8 players"),
    (['{"game": "captains-gambit", "seats": ["A", "B", "C", "D"], "colour": 1}'], 1,
     "unknown field 'colour'"),
    ([SETUP, '{"action": "fly", "seat": 0}'], 2, "Captain's Gambit has no action 'fly'"),
    ([SETUP, "[1, 2]"], 2, "each line after the first must be an object"),
    ([SETUP, '{"action": "end_prologue"}', '{"action": "strike", "seat": 0}'], 3,
     "missing field 'target'"),
    ([SETUP, '{"action": "end_prologue"}', '{"action": "charge", "seat": 0, "x": 1}'], 3,
     "unknown field 'x'"),
    ([SETUP, '{"action": "end_prologue"}', '{"action": "charge", "seat": 9}'], 3,
     "there is no seat 9"),
])
def test_refused_lines_name_line_and_reason(lines: list[str], line: int, reason: str) -> None:
    result = replay_transcript(lines)
    assert result.error is not None
    assert result.error.line == line
    assert reason in result.error.reason


def test_state_before_the_refused_line_is_kept() -> None:
    lines = [SETUP, '{"action": "end_prologue"}', '{"action": "charge", "seat": 0}',
             '{"action": "charge", "seat": 0}']
    result = replay_transcript(lines)
    assert result.error is not None and result.error.line == 4
    assert "not your turn" in result.error.reason
    assert result.session is not None and len(result.session.history) == 2
