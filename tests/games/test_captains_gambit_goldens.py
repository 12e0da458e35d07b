"""Scenario checks on the golden transcripts of Captain's Gambit: they hold whatever the snapshot
(tests/games/test_goldens.py) says."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine import replay_transcript
from tests.conftest import TRANSCRIPTS
from tests.games import goldens

GAME = "captains_gambit"
FOLDER = TRANSCRIPTS / GAME


def replayed(name: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    return goldens.replayed(GAME, name, capsys)


def test_puck_wins_at_the_end_of_round_12(capsys: pytest.CaptureFixture[str]) -> None:
    status, report = replayed("puck-wins-round-12", capsys)
    view = report["view"]
    assert status == 0 and view["round"] == 12 and view["phase"] == "over"
    assert view["outcome"]["winners"] == [0] and view["outcome"]["reason"] == "round_limit"
    assert view["players"][0]["captain"] == "puck"
    assert [p["blood"] for p in view["players"]] == [0, 2, 2, 0]  # Iago ties: no share
    assert view["deaths"] == [{"seat": 3, "killer": None, "cause": "lost"}]  # Prospero


def test_hamlet_kills_his_mark_through_a_bluff_call(capsys: pytest.CaptureFixture[str]) -> None:
    _, report = replayed("hamlet-kills-mark-by-bluff", capsys)
    view = report["view"]
    assert view["outcome"]["winners"] == [0] and view["outcome"]["reason"] == "win"
    assert view["deaths"] == [{"seat": 1, "killer": 0, "cause": "damage"}]
    assert not any("marked" in line for line in report["log"])  # the Prologue stays secret


def test_chain_death_gives_portia_the_win(capsys: pytest.CaptureFixture[str]) -> None:
    _, report = replayed("portia-wins-by-chain-death", capsys)
    view = report["view"]
    assert view["outcome"]["winners"] == [0]
    assert view["deaths"] == [{"seat": 2, "killer": 0, "cause": "damage"},
                              {"seat": 1, "killer": 0, "cause": "lost"}]
    assert view["players"][1]["blood"] == 3 and view["players"][0]["blood"] == 0


def test_prospero_reveals_and_wins(capsys: pytest.CaptureFixture[str]) -> None:
    _, report = replayed("prospero-reveals-and-wins", capsys)
    view = report["view"]
    assert view["outcome"]["winners"] == [0] and view["round"] == 4
    assert "Ann reveals Prospero" in report["log"]
    assert view["players"][0]["energy"] == 2  # 9 - 8 spent + 1 charge... then nothing more


def test_bluff_calls_lost_by_caller_and_by_actor(capsys: pytest.CaptureFixture[str]) -> None:
    _, report = replayed("bluff-calls", capsys)
    players = report["view"]["players"]
    assert players[2]["health"] == 7  # Cat called Ann's shown Barrage
    assert players[1]["health"] == 10 - 1 - 3  # hit by Ann's Barrage, then conceded his own
    assert players[1]["blood"] == 0 and players[1]["energy"] == 2  # no refund, no blood
    assert players[0]["blood"] == 1


def test_shields_negate_strike_barrage_and_drain(capsys: pytest.CaptureFixture[str]) -> None:
    _, report = replayed("shields", capsys)
    players = report["view"]["players"]
    assert [p["health"] for p in players] == [10, 10, 10, 10]
    assert [p["blood"] for p in players] == [1, 1, 0, 0]
    assert report["log"].count("Dan declares Shield") == 2


@pytest.mark.parametrize("name, line, reason", [
    ("rejected-too-little-energy", 9, "Barrage costs 3 energy and seat 0 (Ann) has 2"),
    ("rejected-not-your-turn", 4, "not your turn: it is seat 0 (Ann)'s turn"),
    ("rejected-dead-target", 5, "the target, seat 3 (Dan), is dead"),
])
def test_rejected_lines_leave_the_state_unchanged(name: str, line: int, reason: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = FOLDER / f"{name}.jsonl"
    status, report = goldens.run_replay(path, capsys)
    assert status == 3
    assert report["error"]["line"] == line and reason in report["error"]["message"]
    before = replay_transcript(path.read_text().splitlines()[: line - 1])
    assert before.error is None and before.session is not None
    assert report["view"] == before.session.view(None)


def test_a_dead_iago_shares_no_win(capsys: pytest.CaptureFixture[str]) -> None:
    """Dying means you lose (seed): Iago, dead with the most blood, is not among the winners."""
    status, report = replayed("dead-iago-shares-no-win", capsys)
    view = report["view"]
    assert status == 0 and view["outcome"]["winners"] == [0]
    iago = view["players"][1]
    assert not iago["alive"] and iago["blood"] == max(p["blood"] for p in view["players"])


def test_a_table_where_everyone_died_is_a_tragedy(capsys: pytest.CaptureFixture[str]) -> None:
    status, report = replayed("everyone-dies-a-tragedy", capsys)
    outcome = report["view"]["outcome"]
    assert status == 0 and outcome == {"winners": [], "reason": "all_dead", "comedy": False,
                                       "tragedy": True}


def test_a_table_may_let_a_dead_iago_win(capsys: pytest.CaptureFixture[str]) -> None:
    """The other reading, in data: the house option setup.dead_can_win."""
    status, report = replayed("dead-iago-shares-by-house-rule", capsys)
    assert status == 0 and report["view"]["outcome"]["winners"] == [0, 1]


def test_the_end_of_a_hand_dealt_game_waits_for_an_untold_captain(
        capsys: pytest.CaptureFixture[str]) -> None:
    _, report = replayed("hand-dealt-end-waits-for-an-untold-captain", capsys)
    assert report["view"]["outcome"]["winners"] == [0]  # not a tragedy: Ann was Puck
    assert report["log"][-2].endswith("The game ends: Ann must tell the companion their captain"
                                      " before the winners are known")
    assert report["log"][-1] == "Ann told the companion their captain: Puck / Game over: Ann wins"


def test_puck_shares_rosalinds_win_at_the_end_of_the_last_round(
        capsys: pytest.CaptureFixture[str]) -> None:
    _, report = replayed("rosalind-wins-at-the-last-round-puck-shares", capsys)
    outcome = report["view"]["outcome"]
    assert outcome["winners"] == [0, 1, 2] and outcome["reason"] == "win"


def test_a_prospero_told_after_his_deadline_dies_at_once(
        capsys: pytest.CaptureFixture[str]) -> None:
    _, report = replayed("prospero-told-after-his-deadline-dies", capsys)
    assert "Dan told the companion their captain: Prospero / Dan (Prospero) loses and dies" \
        in report["log"]
    assert report["view"]["deaths"] == [{"seat": 3, "killer": None, "cause": "lost"}]
