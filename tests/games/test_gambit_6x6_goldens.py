"""Gambit (6x6)'s golden games (fixtures/transcripts/gambit_6x6, replayed to their exact
output by tests/games/test_goldens.py): that they are there, and what each is for, checked on
the replayed table itself."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.cli import main
from companion.engine import TableSession, replay_transcript
from tests.conftest import TRANSCRIPTS

GOLDENS = TRANSCRIPTS / "gambit_6x6"


def replayed(name: str) -> TableSession:
    result = replay_transcript((GOLDENS / f"{name}.jsonl").read_text().splitlines())
    assert result.error is None and result.session is not None
    return result.session


def test_there_are_golden_games() -> None:
    names = {p.stem for p in GOLDENS.glob("*.jsonl")}
    assert {"far-row-win-with-a-sitter-stack", "four-losses-win", "an-honest-moat",
            "a-bluffed-ghost-caught", "a-detective-look", "player-powers-on-bridges"} <= names
    for name in names:
        assert (GOLDENS / f"{name}.expected.json").exists(), name


def test_the_far_row_win_counts_the_sitter_on_top_of_a_stack() -> None:
    state = replayed("far-row-win-with-a-sitter-stack").state
    assert state.stacks["e6"] == ["A5", "B6", "A3"]
    assert sorted(state.scoring(0)) == ["A1", "A3", "A4"]
    assert state.outcome is not None and state.outcome.winners == (0,)


def test_the_four_losses_win_ends_at_the_fourth() -> None:
    session = replayed("four-losses-win")
    assert session.state.lost_count(1) == 4 and session.state.outcome.reason == "losses"
    assert session.history[-1].action.name == "give_up"


def test_the_detective_look_reaches_only_bens_phone(capsys: pytest.CaptureFixture[str]) -> None:
    path = GOLDENS / "a-detective-look.jsonl"
    seen: dict[int, Any] = {}
    for seat in (0, 1):
        assert main(["replay", str(path), "--seat", str(seat), "--json"]) == 0
        seen[seat] = json.loads(capsys.readouterr().out)["view"]
    learned = [f["value"] for f in seen[1]["secrets"] if f["label"] == "You learned"]
    assert learned == ["A3 (Detective, turn 4): Sitting"]
    assert not any(f["label"] == "You learned" for f in seen[0]["secrets"])
    assert "Sitting" not in json.dumps([seen[1]["players"], seen[1]["facts"], seen[1]["log"]])


def test_the_moat_sent_the_move_back_both_times() -> None:
    session = replayed("an-honest-moat")
    texts = [r.text for r in session.history]
    assert sum("Ben's action is undone" in r.notes for r in session.history) == 2
    assert session.state.pieces["A6"].action == "detective"  # the Moat lost, a new power placed
    assert texts[-1] == "Ben moves B5 e5-d5"


def test_the_player_powers_game_uses_them_on_the_bridges() -> None:
    session = replayed("player-powers-on-bridges")
    names = [r.action.name for r in session.history]
    assert {"magician", "sensei", "use_juggernaut", "take_player_power"} <= set(names)
    assert session.state.layout.name == "bridges"
    assert session.state.outcome is not None and session.state.outcome.winners == (0,)


def test_a_sensei_shown_true_passes_nothing_and_the_new_power_stays_where_placed() -> None:
    state = replayed("a-sensei-shown-true-passes-nothing").state
    assert (state.pieces["A1"].movement, state.pieces["A2"].movement) == ("diagonal", "ghost")
    assert state.pieces["B4"].lost  # the challenger's price


def test_the_same_push_after_a_moat_sent_it_back_is_refused() -> None:
    result = replay_transcript(
        (GOLDENS / "rejected-the-same-push-after-a-moat.jsonl").read_text().splitlines())
    assert result.error is not None and result.error.line == 24
    assert result.error.reason == (
        "cannot bulldoze by Ben: the Moat on A3 sent your last try back: your Bulldozer may"
        " not finish around it this turn")
    assert result.session is not None and result.session.state.remake
