"""Scenario checks on the golden transcripts of Burke's Gambit: they hold whatever the snapshot
(tests/games/test_goldens.py) says."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine import replay_transcript
from tests.conftest import TRANSCRIPTS
from tests.games import goldens

GAME = "burkes_gambit"
FOLDER = TRANSCRIPTS / GAME


def replayed(name: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    return goldens.replayed(GAME, name, capsys)


def test_the_crew_eject_the_infected(capsys: pytest.CaptureFixture[str]) -> None:
    status, report = replayed("crew-ejects-the-infected", capsys)
    view = report["view"]
    assert status == 0 and view["phase"] == "over" and view["ejected"] == 3
    assert view["outcome"] == {"winners": [0, 1, 3], "reason": "infected_ejected"}
    assert view["votes"] == {"0": 3, "1": 3, "2": 0}  # the Stowaway (Dan) did not vote
    assert "Dan is ejected from the airlock" in report["log"][-1]
    # Ann's scan result was hers alone: the public log only says she scanned.
    assert any(line.startswith("Ann uses Parasite scan (any) on Dan") for line in report["log"])
    assert not any("infected" in line for line in report["log"][:-1])


def test_a_tie_with_the_captain_dead_is_the_specialists_win(
        capsys: pytest.CaptureFixture[str]) -> None:
    _, report = replayed("specialists-win-a-tie-with-the-captain-dead", capsys)
    view = report["view"]
    assert view["outcome"]["reason"] == "tie_captain_dead"
    assert view["outcome"]["winners"] == [0, 3] and view["ejected"] is None
    assert view["players"][1]["alive"] is False and view["players"][1]["role"] == "captain"
    assert "Nobody is ejected: a tie with the Captain dead" in report["log"][-1]


def test_the_specialists_win_by_killing_the_whole_crew(capsys: pytest.CaptureFixture[str]) -> None:
    _, report = replayed("specialists-kill-the-whole-crew", capsys)
    view = report["view"]
    assert view["outcome"]["reason"] == "crew_dead" and view["outcome"]["winners"] == [0]
    assert view["engines"] == 1  # before the ship reached Earth
    assert [p["alive"] for p in view["players"]] == [True, False, False, False]


def test_reinfection_after_the_infected_dies() -> None:
    text = (FOLDER / "reinfection-after-the-infected-dies.jsonl").read_text().splitlines()
    result = replay_transcript(text)
    assert result.error is None
    state = result.session.state
    assert not state.players[2].alive and state.players[2].parasite == "infected"
    living = [p for p in state.players if p.alive]
    assert [p.parasite for p in living].count("infected") == 1  # a new host
    assert state.epoch == 1  # the reshuffle was returned unused; the death dealt again
    looks = result.session.view(0)["you"]["looks"]
    assert [(look["seat"], look["stale"]) for look in looks] == [(1, True), (1, False)]
    assert looks[1]["result"] == state.players[1].parasite
    for seat in (1, 2, 3, 4):  # nobody else sees Ann's looks
        assert result.session.view(seat)["you"]["looks"] == []


def test_a_cancel_against_a_cancel_lets_the_action_happen(
        capsys: pytest.CaptureFixture[str]) -> None:
    _, report = replayed("cancel-against-a-cancel", capsys)
    view = report["view"]
    assert view["players"][0]["alive"] is False
    assert [p["reserve"] for p in view["players"]] == [None, None, None, None]  # both used
    assert view["bag"] == 21 - 1  # one engine die in the centre, every other die back
    assert report["log"][-1].startswith("Cat cancels Ben's Cancel")


def test_a_quarantined_target_cannot_be_hurt(capsys: pytest.CaptureFixture[str]) -> None:
    status, report = replayed("a-quarantined-target", capsys)
    assert status == 3
    view = report["view"]
    assert view["players"][1]["quarantined"] is True and view["players"][1]["alive"] is True
    assert view["players"][3]["health"] == 1
    assert any("Ben is in quarantine: skipped" in line for line in report["log"])
    error = capsys.readouterr().err
    assert error == "" or "quarantine" in error
