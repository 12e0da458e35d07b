"""Rules and secrets that a review found wanting, each pinned by a test."""

from typing import Any

import pytest

from companion.engine import Action, GameSetup, IllegalActionError, SetupError, TableSession
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


def test_a_reported_hand_is_never_judged_against_other_seats_hands() -> None:
    """Refusing a hand because others hold those cards would let a seat probe their hands."""
    table = TableSession(GameSetup("captains-gambit", ("A", "B", "C", "D"), seed=1, deal={}))
    act(table, "permits_seen", 0, permits=["barrage", "barrage"])
    act(table, "permits_seen", 1, permits=["barrage", "shield"])  # a mistake, but no probe
    assert table.legal_actions(2) == table.legal_actions(3)
    with pytest.raises(IllegalActionError, match="only 0 Identity Theft"):
        act(table, "permits_seen", 2, permits=["identity_theft", "shield"])  # no wildcards


def test_captain_choices_do_not_depend_on_other_seats() -> None:
    table = TableSession(GameSetup("captains-gambit", ("A", "B", "C", "D"), seed=1, deal={}))
    before = table.legal_actions(2)
    act(table, "captain_seen", 0, captain="hamlet")
    act(table, "captain_seen", 1, captain="prospero")
    assert table.legal_actions(2) == before
    act(table, "captain_seen", 2, captain="hamlet")  # a conflict, but never a leak


def test_log_numbers_do_not_count_other_seats_private_inputs() -> None:
    table = cg_table({0: "hamlet", 1: "puck"}, end_prologue=False)
    act(table, "prologue_mark", 0, target=1)
    act(table, "end_prologue")
    record = table.history_for(1)[0]
    assert "number" not in record.to_dict(1)
    with pytest.raises(ValueError, match="private input"):
        table.history[0].to_dict(1)


def test_marks_are_taken_only_in_the_prologue() -> None:
    table = cg_table({0: "hamlet", 1: "puck"})
    with pytest.raises(IllegalActionError, match="not now"):
        act(table, "prologue_mark", 0, target=1)


def test_the_action_claim_can_be_called_while_a_shield_stands(four: TableSession) -> None:
    act(four, "correct", target=1, counter="energy", value=3, reason="t")
    act(four, "charge", 0)
    act(four, "barrage", 1, target=2)  # Ben holds no Barrage
    act(four, "shield", 3)
    spec = next(a for a in four.legal_actions(2) if a.name == "call_bluff")
    assert spec.params[0].choices == ("action", "shield")
    act(four, "call_bluff", 2, on="action")
    assert four.history[-1].text == "Cat calls Ben's bluff"
    act(four, "concede", 1)
    players = four.view(None)["players"]
    assert players[1]["health"] == 7 and players[1]["blood"] == 0  # cancelled: no blood


def test_undo_stops_at_the_mulligan_refill() -> None:
    from companion.engine import UndoError
    table = TableSession(GameSetup("captains-gambit", ("A", "B", "C", "D"),
                                   {"mulligan": True}, seed=2))
    for seat in range(4):
        act(table, "mulligan", seat, discard=[])
    with pytest.raises(UndoError):
        table.undo()


@pytest.mark.parametrize("least, winners", [(None, [0]), (1, None)])
def test_portia_on_a_bloodless_table(least: int | None, winners: list[int] | None) -> None:
    """house-rulings.md: ties count, even when everyone has 0 blood; a table may ask for
    at least 1 (``victim_least_blood``)."""
    house = {} if least is None else {"house": {"captains": {"portia": {
        "victim_least_blood": least}}}}
    table = cg_table({0: "portia", 1: "puck", 2: "iago", 3: "prospero"}, options=house)
    act(table, "correct", target=1, counter="health", value=1, reason="t")
    act(table, "strike", 0, target=1)
    act(table, "resolve", 0)
    outcome = table.view(None)["outcome"]
    assert (outcome and outcome["winners"]) == winners


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
    # every captain told: the end waits for any the companion was never told
    table = cg_table({0: "puck", 1: "titus", 2: "portia", 3: "iago", 4: "hamlet", 5: "romeo",
                      6: "rosalind"},
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
    for house, reason in [({"setup": {"hand_size": 4}}, "12 permits cannot deal 4 to each"),
                          ({"setup": {"hand_size": 7}}, "must be at most 4"),
                          ({"setup": {"permit_copies": {"4": 10**9}}}, "must be from 1 to 8"),
                          ({"pool": {"4": ["ghost"]}}, "must list captains"),
                          ({"pool": {"4": []}}, "captain pool has 0 captains"),
                          ({"warp_in": {"viola": {"with": []}}}, "must swap as many"),
                          ([], "must be an object of rule overrides"),
({"setup": {"hand_size": 0}}, "setup.hand_size' must be at least 1"),
                          ({"setup": {"rounds": -1}}, "must be 0 or more"),
                          ({"actions": {"heal": {"target": "nobody"}}}, "target' must be one"),
                          ({"actions": {"shield": {"kind": "simple"}}}, "must be reaction")]:
        with pytest.raises(SetupError, match=reason):
            cg_table({0: "puck"}, options={"house": house})


def test_a_call_past_a_standing_shield_can_cancel_the_action(four: TableSession) -> None:
    act(four, "correct", target=2, counter="health", value=3, reason="t")
    act(four, "drain", 0, target=2)  # Ann holds no Drain
    act(four, "shield", 2)  # Cat (fortify, network) holds no Shield
    four.submit(Action("call_bluff", 2, {"on": "action"}))
    with pytest.raises(IllegalActionError, match="holds no Drain"):
        act(four, "show_permit", 0)
    act(four, "concede", 0)  # Ann concedes: cancelled
    assert four.view(None)["turn"] == 1


def test_a_shield_falls_when_its_dead_declarer_held_none() -> None:
    table = cg_table({0: "puck", 1: "iago", 2: "portia", 3: "prospero"},
                     {0: ["drain", "shield"], 1: ["barrage", "overcharge"],
                      2: ["fortify", "network"], 3: ["barrage", "shield"]})
    act(table, "correct", target=2, counter="health", value=3, reason="t")
    act(table, "drain", 0, target=2)
    act(table, "shield", 2)  # Cat holds no Shield
    act(table, "call_bluff", 2, on="action")
    act(table, "show_permit", 0)  # Ann holds the Drain: Cat takes 3 and dies
    view = table.view(None)
    assert not view["players"][2]["alive"] and view["phase"] == "reaction"
    assert view["pending"]["shield_by"] is None  # her cards showed no Shield: it falls
    assert not any(a.name == "call_bluff" for a in table.legal_actions(1))
    act(table, "resolve", 0)


def test_a_tables_numbers_reach_the_texts_its_phones_show() -> None:
    """A `house` edit changes what the phones say, not only what the rules do."""
    house = {"house": {"actions": {"strike": {"damage": 2}, "heal": {"health": 3}},
                       "setup": {"starting_health": 12}}}
    table = cg_table({0: "puck", 1: "iago", 2: "portia", 3: "prospero"}, options=house)
    notes = {spec.name: spec.note for spec in table.legal_actions(0)}
    assert notes["strike"].startswith("Deal 2 damage")
    assert notes["heal"] == ("A living player, yourself included, gains 3 health. Health may"
                             " go above 12.")


def test_an_action_text_naming_an_unknown_number_is_refused() -> None:
    with pytest.raises(SetupError, match="'actions.strike.text' names a number"):
        cg_table({0: "puck"}, options={"house": {"actions": {"strike": {
            "text": "Deal {dammage} damage."}}}})


def test_the_income_choice_says_the_tables_free_energy() -> None:
    table = cg_table({0: "king_lear", 1: "othello", 2: "portia", 3: "puck"},
                     options={"warp_in": ["lear_othello", "viola"],
                              "house": {"setup": {"income_energy": 2}}},
                     seats=("Ann", "Ben", "Cat", "Dan", "Eve"))
    spec = next(s for s in table.legal_actions(0) if s.name == "take_income")
    assert spec.params[0].labels == ("2 energy", "1 loyalty")
    act(table, "take_income", 0, kind="energy")
    assert table.history[-1].to_dict(None)["text"] == "Ann takes 2 energy"
