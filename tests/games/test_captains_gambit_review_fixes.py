"""Rules and secrets that a review found wanting, each pinned by a test."""

from typing import Any

import pytest

from companion.engine import GameSetup, IllegalActionError, SetupError, TableSession
from tests.conftest import act, cg_table

SEVEN = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")


@pytest.mark.parametrize("deal, reason", [
    ({"captains": 5}, "'captains' must be an object"),
    ({"permits": ["barrage"]}, "'permits' must be an object"),
    ({"permits": {"0": [1, 2]}}, "seat 0's permits must be a list"),
])
def test_a_malformed_deal_is_refused_not_a_crash(deal: dict[str, Any], reason: str) -> None:
    with pytest.raises(SetupError, match=reason):
        TableSession(GameSetup("captains-gambit", ("A", "B", "C", "D"), seed=1, deal=deal))


def test_mulligan_discards_stay_out_of_other_seats_records() -> None:
    table = TableSession(GameSetup("captains-gambit", ("A", "B", "C", "D"),
                                   {"mulligan": True}, seed=2))
    card = table.state.players[0].permits[0]
    act(table, "mulligan", 0, discard=[card])
    record = table.history[0]
    assert record.to_dict(0)["action"]["discard"] == [card]
    for viewer in (None, 1, 2, 3):
        assert "discard" not in record.to_dict(viewer)["action"]


def test_corrections_wait_until_play_has_begun() -> None:
    table = cg_table({0: "puck"}, end_prologue=False)
    with pytest.raises(IllegalActionError, match="once play has begun"):
        act(table, "correct", target=0, counter="health", value=0, reason="left early")


def test_reported_permits_cannot_exceed_the_copies_in_the_game() -> None:
    table = TableSession(GameSetup("captains-gambit", ("A", "B", "C", "D"), seed=1, deal={}))
    act(table, "permits_seen", 0, permits=["barrage", "barrage"])
    with pytest.raises(IllegalActionError, match="too many Barrage: this game has 2, and other"
                                                 " seats are known to hold 2"):
        act(table, "permits_seen", 1, permits=["barrage", "shield"])
    act(table, "permits_seen", 1, permits=["drain", "shield"])


def test_a_conceded_shield_reopens_the_bluff_call_on_the_action(four: TableSession) -> None:
    act(four, "correct", target=0, counter="energy", value=3, reason="t")
    act(four, "barrage", 0, target=1)
    act(four, "shield", 2)  # Cat holds no Shield
    act(four, "call_bluff", 1)
    act(four, "concede", 2)
    act(four, "call_bluff", 3)  # the Barrage claim is open again
    act(four, "show_permit", 0)  # Ann holds a Barrage
    assert four.view(None)["players"][3]["health"] == 7


def test_titus_wins_only_in_the_blow_that_ends_the_others() -> None:
    captains = {0: "puck", 1: "titus", 2: "portia", 3: "iago", 4: "hamlet", 5: "prospero",
                6: "rosalind"}
    table = cg_table(captains, seats=SEVEN, options={"warp_in": ["titus"]})
    hurt_all = [2, 3, 4, 5, 6, 0]
    act(table, "correct", target=1, counter="health", value=1, reason="t")
    act(table, "strike", 0, target=1)
    act(table, "resolve", 0)
    act(table, "decline_save", 1)  # Titus dies without his last stand
    for seat in hurt_all:  # Rosalind dies by herself at the second death
        if table.view(None)["players"][seat]["alive"]:
            act(table, "correct", target=seat, counter="health", value=0, reason="t")
    outcome = table.view(None)["outcome"]
    assert outcome is not None and outcome["reason"] == "all_dead"
    assert 1 not in outcome["winners"]  # Titus died blows earlier


def test_titus_last_stand_that_ends_everyone_is_his_win() -> None:
    table = cg_table({0: "puck", 1: "titus", 2: "portia", 3: "iago"},
                     options={"warp_in": ["titus"]}, seats=("Ann", "Ben", "Cat", "Dan", "Eve",
                                                            "Fay", "Gus"))
    for seat in (0, 2, 3, 4, 5, 6):
        act(table, "correct", target=seat, counter="health", value=2, reason="t")
    act(table, "correct", target=1, counter="blood", value=2, reason="t")
    act(table, "correct", target=1, counter="health", value=1, reason="t")
    act(table, "strike", 0, target=1)
    act(table, "resolve", 0)
    act(table, "last_stand", 1)
    outcome = table.view(None)["outcome"]
    assert outcome is not None and outcome["winners"] == [1]


def test_a_private_input_that_ends_the_game_is_logged_for_all() -> None:
    table = cg_table({0: "viola", 1: "richard_iii", 2: "puck", 3: "iago", 4: "portia",
                      5: "prospero", 6: "cordelia"}, seats=SEVEN, options={"warp_in": ["viola"]})
    for seat in range(1, 7):
        if table.view(None)["players"][seat]["alive"]:
            act(table, "correct", target=seat, counter="health", value=0, reason="t")
    # Viola, last alive, plays as Richard III (last captain alive): that ends the game.
    act(table, "choose_corpse", 0, target=1)
    last = table.history_for(2)[-1]
    assert last.text == "Ann chose to play as Ben" and "Game over: Ann wins" in last.notes


def test_house_overrides_are_range_checked() -> None:
    for house, reason in [({"setup": {"hand_size": 7}}, "12 permits cannot deal 7 to each"),
                          ([], "must be an object of rule overrides"),
({"setup": {"hand_size": 0}}, "setup.hand_size' must be at least 1"),
                          ({"setup": {"rounds": -1}}, "must be 0 or more"),
                          ({"actions": {"heal": {"target": "nobody"}}}, "target' must be one"),
                          ({"actions": {"shield": {"kind": "simple"}}}, "must be reaction")]:
        with pytest.raises(SetupError, match=reason):
            cg_table({0: "puck"}, options={"house": house})
