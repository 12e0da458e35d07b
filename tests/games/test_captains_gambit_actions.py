"""Captain's Gambit turns, actions, reactions and bluffs: one rule per test."""

import copy
from dataclasses import replace

import pytest

from companion.engine import Action, IllegalActionError, TableSession
from tests.conftest import act, cg_table


def counters(table: TableSession, seat: int) -> tuple[int, int, int]:
    p = table.view(None)["players"][seat]
    return p["health"], p["energy"], p["blood"]


def test_free_energy_at_the_start_of_each_turn(four: TableSession) -> None:
    assert counters(four, 0) == (10, 3, 0)
    act(four, "charge", 0)
    assert counters(four, 0) == (10, 4, 0) and counters(four, 1) == (10, 3, 0)


def test_rounds_advance_after_the_last_seat(four: TableSession) -> None:
    for seat in range(4):
        assert four.view(None)["round"] == 1
        act(four, "charge", seat)
    assert four.view(None)["round"] == 2 and four.view(None)["turn"] == 0


def test_dead_seats_are_skipped_and_the_round_still_turns() -> None:
    table = cg_table({0: "puck", 1: "iago", 2: "portia", 3: "prospero"})
    act(table, "correct", target=0, counter="health", value=0, reason="test")
    assert table.view(None)["turn"] == 1  # the first player is dead: Ben plays
    for seat in (1, 2, 3):
        act(table, "charge", seat)
    view = table.view(None)
    assert view["round"] == 2 and view["turn"] == 1


def test_strike_costs_energy_deals_damage_and_gives_blood(four: TableSession) -> None:
    act(four, "strike", 0, target=1)
    assert four.view(None)["phase"] == "reaction"  # others may Shield first
    act(four, "resolve", 0)
    assert counters(four, 0) == (10, 2, 1)
    assert counters(four, 1)[0] == 9


def test_every_screen_says_who_may_still_answer_a_strike(four: TableSession) -> None:
    assert four.table_view(None).may_answer == ()  # a turn: nobody answers anything
    act(four, "strike", 0, target=1)
    for seat in (None, 0, 1, 2, 3):  # Ann waits on them; she is not one of them
        assert four.table_view(seat).may_answer == (1, 2, 3)
    act(four, "resolve", 0)
    assert four.table_view(None).may_answer == ()


def test_a_correction_starts_at_the_counter_as_it_is_now(four: TableSession) -> None:
    act(four, "strike", 0, target=1)
    act(four, "resolve", 0)
    spec = next(a for a in four.legal_actions(None) if a.name == "correct")
    value = next(p for p in spec.params if p.name == "value")
    starts = dict(value.starts_by)
    assert value.starts_on == ("target", "counter")
    assert starts[(1, "health")] == 9 and starts[(0, "blood")] == 1 and starts[(0, "energy")] == 2


def test_heal_may_go_above_ten(four: TableSession) -> None:
    act(four, "heal", 0, target=0)
    assert counters(four, 0) == (12, 1, 0)


def test_donate_gives_energy(four: TableSession) -> None:
    act(four, "donate", 0, target=2, amount=3)
    assert counters(four, 0)[1] == 0 and counters(four, 2)[1] == 5
    with pytest.raises(IllegalActionError, match="amount must be at most 3"):
        act(four, "donate", 1, target=2, amount=4)


def test_barrage_scales_with_blood_before_the_attack(four: TableSession) -> None:
    act(four, "correct", target=0, counter="blood", value=2, reason="test")
    act(four, "barrage", 0, target=1)
    act(four, "resolve", 0)
    assert counters(four, 1)[0] == 10 - 3  # 1 + 2 blood
    assert counters(four, 0) == (10, 0, 3)


def test_drain_takes_up_to_two(four: TableSession) -> None:
    act(four, "correct", target=1, counter="energy", value=1, reason="test")
    act(four, "drain", 0, target=1)
    act(four, "resolve", 0)
    assert counters(four, 0)[1] == 4
    assert counters(four, 1)[1] == 0 + 1  # drained to 0, then Ben's turn income


def test_overcharge_fortify_network(four: TableSession) -> None:
    act(four, "overcharge", 0)
    act(four, "resolve", 0)
    assert counters(four, 0)[1] == 6
    act(four, "fortify", 1)
    act(four, "resolve", 1)
    assert [counters(four, s)[0] for s in range(4)] == [11, 11, 11, 11]
    act(four, "network", 2, target=3)
    act(four, "resolve", 2)
    assert counters(four, 2)[1] == 4
    assert counters(four, 3)[1] == 2 + 1 + 1  # start, Network, then Dan's turn income


@pytest.mark.parametrize("seat, name, params, reason", [
    (1, "strike", {"target": 0}, "not your turn: it is seat 0 (Ann)'s turn"),
    (0, "strike", {"target": 0}, "you cannot target yourself"),
    (0, "strike", {"target": 5}, "there is no seat 5"),
    (0, "resolve", {}, "not now: it is Ann's turn"),
    (0, "shield", {}, "not now"),
    (None, "charge", {}, "this needs a seat, not the table"),
])
def test_refusals_name_the_reason_and_change_nothing(four: TableSession, seat: int | None,
                                                     name: str, params: dict[str, int],
                                                     reason: str) -> None:
    before = four.view(None)
    with pytest.raises(IllegalActionError) as refused:
        act(four, name, seat, **params)
    assert reason in str(refused.value)
    assert str(refused.value).startswith(f"cannot {name} by ")
    assert four.view(None) == before


def test_too_little_energy_is_refused(four: TableSession) -> None:
    act(four, "correct", target=0, counter="energy", value=2, reason="test")
    before = four.view(None)
    with pytest.raises(IllegalActionError,
                       match=r"Barrage costs 3 energy and seat 0 \(Ann\) has 2"):
        act(four, "barrage", 0, target=1)
    assert four.view(None) == before


def test_a_dead_target_is_refused(four: TableSession) -> None:
    act(four, "correct", target=2, counter="health", value=0, reason="test")
    with pytest.raises(IllegalActionError, match=r"the target, seat 2 \(Cat\), is dead"):
        act(four, "strike", 0, target=2)


def test_the_dead_do_not_act(four: TableSession) -> None:
    act(four, "correct", target=2, counter="health", value=0, reason="test")
    act(four, "strike", 0, target=1)
    with pytest.raises(IllegalActionError, match=r"seat 2 \(Cat\) is dead"):
        act(four, "call_bluff", 2)
    assert four.legal_actions(2) == []


def test_shield_negates_a_strike_but_blood_is_still_gained(four: TableSession) -> None:
    act(four, "strike", 0, target=1)
    act(four, "shield", 3)
    act(four, "resolve", 0)
    assert counters(four, 1)[0] == 10 and counters(four, 0)[2] == 1
    assert counters(four, 3)[1] == 1  # the Shield cost 1


def test_the_log_says_what_each_action_did(four: TableSession) -> None:
    """Counters are public: the log line of a resolved Drain, Heal or Network says who gained
    what (a blind tester read "Ben's Drain resolves" and could not tell how much)."""
    act(four, "drain", 0, target=1)
    act(four, "resolve", 0)
    assert four.history[-1].notes[0] == "Ann gains 2 energy from Ben"
    act(four, "charge", 1)
    assert four.history[-1].notes[0] == "Ben gains 1 energy"


def test_only_the_target_may_shield_a_drain(four: TableSession) -> None:
    act(four, "drain", 0, target=1)
    with pytest.raises(IllegalActionError, match="only the target of a Drain"):
        act(four, "shield", 2)
    act(four, "shield", 1)
    act(four, "resolve", 0)
    assert counters(four, 0)[1] == 3  # nothing drained
    assert counters(four, 1)[1] == 2 - 1 + 1  # start, the Shield, then Ben's turn income


def test_no_shield_on_your_own_action_or_twice(four: TableSession) -> None:
    act(four, "strike", 0, target=1)
    with pytest.raises(IllegalActionError, match="your own action"):
        act(four, "shield", 0)
    with pytest.raises(IllegalActionError, match="Identity Theft is not in play"):
        act(four, "shield", 2, via="identity_theft")
    act(four, "shield", 2)
    with pytest.raises(IllegalActionError, match="already declared a Shield"):
        act(four, "shield", 3)


def test_simple_actions_cannot_be_bluff_called(four: TableSession) -> None:
    act(four, "strike", 0, target=1)
    with pytest.raises(IllegalActionError, match="no permit claim open"):
        act(four, "call_bluff", 1)


def test_shown_permit_costs_the_caller_three_and_is_replaced(four: TableSession) -> None:
    act(four, "overcharge", 0)  # Ann holds Barrage and Shield, no Overcharge
    act(four, "call_bluff", 1)
    with pytest.raises(IllegalActionError, match="holds no Overcharge permit"):
        act(four, "show_permit", 0)
    act(four, "concede", 0)
    assert counters(four, 0) == (7, 3, 0)  # no refund needed (free), no effect
    assert four.view(None)["turn"] == 1


def test_caller_loses_when_the_permit_is_shown() -> None:
    table = cg_table({0: "puck", 1: "iago", 2: "portia", 3: "prospero"},
                     {0: ["barrage", "barrage"], 1: ["drain", "overcharge"],
                      2: ["fortify", "network"], 3: ["shield", "shield"]})
    act(table, "correct", target=0, counter="energy", value=3, reason="test")
    deck_before = len(table.state.deck or []) if table.state.deck else None
    act(table, "barrage", 0, target=1)
    act(table, "call_bluff", 2)
    act(table, "show_permit", 0)
    assert counters(table, 2)[0] == 7
    assert table.view(0)["you"]["permits"] == [None, "barrage"]  # the replacement is unknown
    assert table.view(None)["phase"] == "reaction"  # the declared action then resolves
    act(table, "resolve", 0)
    assert counters(table, 1)[0] == 9 and counters(table, 0)[2] == 1
    assert deck_before is None


def test_conceded_barrage_no_refund_no_blood_no_damage(four: TableSession) -> None:
    act(four, "correct", target=0, counter="energy", value=3, reason="test")
    act(four, "barrage", 0, target=1)
    act(four, "call_bluff", 3)
    act(four, "concede", 0)
    assert counters(four, 0) == (7, 0, 0)
    assert counters(four, 1)[0] == 10


def test_a_shield_can_be_bluff_called_and_a_conceded_shield_fails(four: TableSession) -> None:
    act(four, "strike", 0, target=1)
    act(four, "shield", 2)  # Cat holds no Shield
    act(four, "call_bluff", 0)
    act(four, "concede", 2)
    assert counters(four, 2)[0] == 7
    act(four, "resolve", 0)
    assert counters(four, 1)[0] == 9


def test_a_shown_shield_stands_and_the_caller_pays(four: TableSession) -> None:
    act(four, "strike", 0, target=1)
    act(four, "shield", 3)  # Dan holds a Shield
    act(four, "call_bluff", 0)
    act(four, "show_permit", 3)
    assert counters(four, 0)[0] == 7
    act(four, "resolve", 0)
    assert counters(four, 1)[0] == 10


def test_an_attacker_killed_by_a_wrong_call_on_a_shield_still_gets_the_blood(
        four: TableSession) -> None:
    """"You get one blood when you attack someone with Strike or Barrage, even if it gets
    Shielded"; only a forfeit or a Barrage lost to a bluff call gives none. Ann's Strike is
    Shielded by a real Shield, her call on it kills her: the attack is over, its blood is
    hers (a dead captain's blood still counts for Iago and Portia)."""
    act(four, "correct", target=0, counter="health", value=3, reason="test")
    act(four, "strike", 0, target=1)
    act(four, "shield", 3)  # Dan holds a Shield
    act(four, "call_bluff", 0)
    act(four, "show_permit", 3)
    assert not four.view(None)["players"][0]["alive"]
    assert counters(four, 0)[2] == 1 and counters(four, 1)[0] == 10
    assert four.view(None)["turn"] == 1


def test_the_blood_of_a_fired_attack_is_in_its_dead_attackers_record_for_portia() -> None:
    """Fired, then killed by the Shield's holder: Ann's blood counts at her death, so Portia,
    whose Shield Ann called, killed the captain with the most blood (Ben's 1 ties Ann's)."""
    table = cg_table({0: "puck", 1: "iago", 2: "portia", 3: "prospero"},
                     {0: ["barrage", "shield"], 1: ["drain", "overcharge"],
                      2: ["shield", "network"], 3: ["barrage", "fortify"]})
    act(table, "correct", target=0, counter="health", value=3, reason="test")
    act(table, "correct", target=1, counter="blood", value=1, reason="test")
    act(table, "strike", 0, target=1)
    act(table, "shield", 2)
    act(table, "call_bluff", 0)
    act(table, "show_permit", 2)
    assert table.outcome is not None and 2 in table.outcome.winners


def test_an_attacker_who_concedes_and_dies_gets_no_blood(four: TableSession) -> None:
    """A Barrage "cancelled due to a bluff call" gives no blood, dead or alive."""
    act(four, "correct", target=0, counter="health", value=3, reason="test")
    act(four, "correct", target=0, counter="energy", value=3, reason="test")
    act(four, "barrage", 0, target=1)
    act(four, "call_bluff", 1)
    act(four, "concede", 0)
    assert not four.view(None)["players"][0]["alive"] and counters(four, 0)[2] == 0


def test_seed_dealt_replacement_comes_from_the_deck() -> None:
    from companion.engine import GameSetup
    table = TableSession(GameSetup("captains-gambit", ("A", "B", "C", "D"), seed=3))
    act(table, "end_prologue")
    state = table.state
    card = state.players[0].permits[0]
    target_name = {"barrage": "barrage", "drain": "drain", "overcharge": "overcharge",
                   "fortify": "fortify", "network": "network", "shield": None}[card]
    if target_name is None:
        pytest.skip("seed 3 deals a Shield first")
    act(table, "correct", target=0, counter="energy", value=5, reason="test")
    params = {"target": 1} if target_name in ("barrage", "drain", "network") else {}
    act(table, target_name, 0, **params)
    act(table, "call_bluff", 1)
    deck = len(table.state.deck or [])
    act(table, "show_permit", 0)
    assert len(table.state.deck or []) == deck  # one in, one out
    assert None not in table.state.players[0].permits


def test_identity_theft_cannot_be_called_and_is_replaced() -> None:
    table = cg_table({0: "puck", 1: "iago", 2: "portia", 3: "prospero"},
                     {0: ["identity_theft", "shield"], 1: ["drain", "overcharge"],
                      2: ["fortify", "network"], 3: ["diplomatic_immunity", "shield"]},
                     options={"wildcards": True})
    act(table, "overcharge", 0, via="identity_theft")
    assert counters(table, 0)[1] == 6  # resolved at once: nothing to call
    assert table.view(0)["you"]["permits"] == [None, "shield"]
    assert table.history[-1].reveals


IT_DEAL = {0: ["barrage", "shield"], 1: ["drain", "overcharge"],
           2: ["identity_theft", "network"], 3: ["diplomatic_immunity", "shield"]}


def test_identity_theft_may_do_a_shield_which_cannot_be_called() -> None:
    """"Do any permit action as though it were a simple action (bluffs can't be called)"
    (seed): a Shield is a permit reaction, so a Shield too (a blind review read "any" so)."""
    table = cg_table({0: "puck", 1: "iago", 2: "portia", 3: "prospero"}, IT_DEAL,
                     options={"wildcards": True})
    act(table, "strike", 0, target=1)
    act(table, "shield", 2, via="identity_theft")
    assert table.history[-1].text == "Cat reveals Identity Theft to Shield"
    assert table.history[-1].reveals  # the card is shown, shuffled back and replaced
    assert counters(table, 2)[1] == 2 - 1
    with pytest.raises(IllegalActionError, match="no permit claim open to a bluff call: a"
                       " Strike is a simple action, with no permit to call, and Cat's Shield"
                       " was done with Identity Theft, which cannot be called$"):
        act(table, "call_bluff", 3)
    act(table, "resolve", 0)
    assert counters(table, 1)[0] == 10  # the Strike was blocked


@pytest.mark.parametrize("begun_before", [False, True])
def test_a_table_may_keep_identity_theft_off_the_shield(begun_before: bool) -> None:
    """The other reading is data (wildcards.identity_theft.shield = false); a table begun
    before the update, whose recorded rule data lacks the key, keeps it, as it played."""
    house = {} if begun_before else {"house": {"wildcards": {"identity_theft": {"shield": False}}}}
    table = cg_table({0: "puck", 1: "iago", 2: "portia", 3: "prospero"}, IT_DEAL,
                     options={"wildcards": True, **house})
    if begun_before:
        before = copy.deepcopy(dict(table.setup.book or {}))
        del before["wildcards"]["identity_theft"]["shield"], before["added"]
        table = TableSession(replace(table.setup, book=before))
        table.submit(Action("end_prologue"))
    act(table, "strike", 0, target=1)
    with pytest.raises(IllegalActionError, match="a Shield is always a claim at this table"):
        act(table, "shield", 2, via="identity_theft")
    act(table, "shield", 2)


def test_diplomatic_immunity_stops_bluff_damage_for_the_turn() -> None:
    table = cg_table({0: "puck", 1: "iago", 2: "portia", 3: "prospero"},
                     {0: ["barrage", "shield"], 1: ["drain", "overcharge"],
                      2: ["fortify", "network"], 3: ["diplomatic_immunity", "shield"]},
                     options={"wildcards": True})
    act(table, "overcharge", 0)
    act(table, "call_bluff", 3)
    act(table, "concede", 0)
    # Ann holds no Immunity, but the table is not told: everyone is asked, and her phone
    # offers both answers (a neighbour sees the buttons); holding is judged when tapped.
    assert table.view(None)["phase"] == "immunity"
    assert [a.name for a in table.legal_actions(0)] == ["use_immunity", "take_damage"]
    with pytest.raises(IllegalActionError, match="holds no Diplomatic Immunity"):
        act(table, "use_immunity", 0)
    act(table, "take_damage", 0)
    assert counters(table, 0)[0] == 7
    act(table, "drain", 1, target=0)
    act(table, "call_bluff", 3)
    act(table, "show_permit", 1)
    assert table.view(None)["phase"] == "immunity"
    act(table, "use_immunity", 3)
    assert counters(table, 3)[0] == 10
    assert table.view(3)["you"]["permits"] == [None, "shield"]


def test_loyalty_instead_of_energy_with_lear_and_othello() -> None:
    table = cg_table({0: "king_lear", 1: "othello", 2: "portia", 3: "puck"},
                     options={"warp_in": ["lear_othello", "viola"]}, seats=(
                         "Ann", "Ben", "Cat", "Dan", "Eve"))
    assert table.view(None)["phase"] == "income"
    act(table, "take_income", 0, kind="loyalty")
    assert table.view(None)["players"][0]["loyalty"] == 1
    assert counters(table, 0)[1] == 2


def test_a_bluff_called_on_your_turn_is_named_on_the_phone(four: TableSession) -> None:
    """Ann's Overcharge is called a bluff on her own turn: her phone says what is asked of
    her (show the permit or concede), not "Your turn"; the caller's phone asks nothing."""
    assert four.table_view(0).prompt == ""  # a plain turn
    act(four, "overcharge", 0)
    assert four.table_view(0).prompt == ("Your Overcharge is declared: let it resolve once"
                                         " nobody else answers")
    act(four, "call_bluff", 1)
    assert four.table_view(0).turn == 0
    assert four.table_view(0).prompt == "Ben calls your Overcharge a bluff: show the permit," \
        " or concede"
    assert four.table_view(1).prompt == ""
