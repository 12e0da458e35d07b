"""Captain's Gambit dealt by hand: the table corrects what a seat told the companion of its
cards (``forget_told``), so a card typed wrong never traps the table."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine import Action, GameSetup, IllegalActionError, TableSession
from tests.conftest import SEATS, act


def hand_dealt(**deal: Any) -> TableSession:
    session = TableSession(GameSetup("captains-gambit", SEATS, {}, seed=1, deal=deal))
    if session.state.phase == "prologue":
        session.submit(Action("end_prologue"))
    return session


def log(session: TableSession, seat: int | None) -> list[str]:
    return [r.text for r in session.history if r.is_visible_to(seat)]


def test_a_hand_typed_wrong_is_forgotten_and_told_again_so_the_permit_can_be_shown() -> None:
    table = hand_dealt(captains={"0": "puck", "1": "iago", "2": "portia", "3": "prospero"})
    act(table, "permits_seen", 1, permits=["shield", "drain"])  # Ben holds Barrage, mistyped
    act(table, "charge", 0)
    act(table, "barrage", 1, target=2)
    act(table, "call_bluff", 2)
    with pytest.raises(IllegalActionError, match=r"holds no Barrage permit"):
        act(table, "show_permit", 1)  # the card is in his hand: the record is wrong
    with pytest.raises(IllegalActionError, match="only the table"):
        act(table, "forget_told", 1, target=1, what="permits", reason="typo")
    with pytest.raises(IllegalActionError, match="a ruling needs a reason"):
        act(table, "forget_told", target=1, what="permits", reason=" ")
    act(table, "forget_told", target=1, what="permits", reason="Ben typed his cards wrong")
    assert "permits_seen" in [a.name for a in table.legal_actions(1)]
    act(table, "permits_seen", 1, permits=["barrage", "shield"])
    act(table, "show_permit", 1)
    assert table.view(None)["players"][2]["health"] == 10 - 3  # Cat lost the call
    line = ("Table correction: the companion forgets what Ben told it of their permits (Ben typed"
            " his cards wrong); Ben tells it again on their phone")
    assert line in log(table, None) and line in log(table, 3)


def test_the_ruling_reads_the_same_whatever_the_seat_told() -> None:
    """Nobody learns from the ruling what the record held, or whether it held anything."""
    told = hand_dealt(captains={"0": "puck"})
    act(told, "permits_seen", 1, permits=["barrage", "network"])
    untold = hand_dealt(captains={"0": "puck"})
    for table in (told, untold):
        act(table, "forget_told", target=1, what="permits", reason="check")
    assert log(told, 2)[-1] == log(untold, 2)[-1]
    assert told.view(2) == untold.view(2)
    assert told.view(1)["you"]["permits"] == [None, None]


def test_a_captain_told_wrong_is_told_again_before_the_winners_are_known() -> None:
    table = hand_dealt(captains={"1": "iago", "2": "portia", "3": "hamlet"})
    act(table, "captain_seen", 0, captain="puck")  # Ann is Prospero; she tapped Puck
    act(table, "forget_told", target=0, what="captain", reason="Ann tapped the wrong captain")
    assert table.view(0)["you"]["captain"] is None
    assert "captain_seen" in [a.name for a in table.legal_actions(0)]
    act(table, "captain_seen", 0, captain="prospero")
    assert table.view(0)["you"]["captain"] == "prospero"


def test_a_revealed_captain_and_a_game_the_companion_dealt_are_refused() -> None:
    dealt = TableSession(GameSetup("captains-gambit", SEATS, {}, seed=1))  # no deal given
    assert "forget_told" not in [a.name for a in dealt.legal_actions(None)]
    with pytest.raises(IllegalActionError, match="the companion dealt this game"):
        act(dealt, "forget_told", target=1, what="permits", reason="x")
    table = hand_dealt(captains={"0": "prospero", "1": "iago", "2": "portia", "3": "puck"})
    act(table, "correct", target=0, counter="energy", value=8, reason="test")
    act(table, "reveal", 0)
    with pytest.raises(IllegalActionError, match="Ann's captain is face up for everyone"):
        act(table, "forget_told", target=0, what="captain", reason="x")
