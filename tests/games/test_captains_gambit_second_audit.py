"""Captain's Gambit: what a second blind audit found (R1 to R4, M4), each pinned by a test."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine import GameSetup, IllegalActionError, SetupError, TableSession
from tests.conftest import act, cg_table

SEVEN = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")


def charge_until(table: TableSession, stop: Any = None) -> None:
    """Everyone Charges, turn after turn, until the game leaves play or ``stop(table)``."""
    while table.state.phase == "action" and not (stop and stop(table)):
        act(table, "charge", table.state.turn)


def hand_dealt(captains: dict[int, str], options: dict[str, Any] | None = None,
               seats: tuple[str, ...] = ("Ann", "Ben", "Cat", "Dan")) -> TableSession:
    return cg_table(captains, seats=seats, options=options)


# --- R1: the end of a game dealt by hand waits for the captains it was never told ----------

def test_the_end_waits_for_a_captain_the_companion_was_never_told() -> None:
    """Ann never told her captain. At the end of round 12 the companion does not rule her a
    loser: it asks her first, and Puck's win is hers."""
    table = hand_dealt({1: "iago", 2: "portia", 3: "hamlet"})
    charge_until(table)
    view = table.view(None)
    assert view["phase"] == "ending" and view["outcome"] is None
    assert view["waiting_for"] == [0]
    assert view["status"] == "the game has ended: Ann must tell the companion their captain"
    assert table.history_for(None)[-1].notes[-1] == (
        "The game ends: Ann must tell the companion their captain before the winners are known")
    with pytest.raises(IllegalActionError, match="not now: the game has ended: Ann must tell"):
        act(table, "charge", 0)
    with pytest.raises(IllegalActionError, match="already knows this seat's captain"):
        act(table, "captain_seen", 1, captain="puck")
    act(table, "captain_seen", 0, captain="puck")
    view = table.view(None)
    assert view["phase"] == "over"
    assert view["outcome"] == {"winners": [0], "reason": "round_limit", "comedy": False,
                               "tragedy": False}
    last = table.history_for(None)[-1]  # after the end nothing is secret: the line is public
    assert last.text == "Ann told the companion their captain: Puck"
    assert last.notes == ("Game over: Ann wins",)


def test_a_captain_told_at_the_end_that_had_lost_dies_and_the_ending_follows() -> None:
    """Told at the end, Prospero (who never revealed) had lost at his round-11 turn: he dies,
    and nobody wins (a tragedy), now that the companion knows it."""
    table = hand_dealt({1: "iago", 2: "portia", 3: "hamlet"})
    charge_until(table)
    act(table, "captain_seen", 0, captain="prospero")
    view = table.view(None)
    assert view["phase"] == "over" and view["outcome"]["winners"] == []
    assert view["outcome"]["tragedy"]
    assert view["deaths"] == [{"seat": 0, "killer": None, "cause": "lost"}]
    assert table.history_for(None)[-1].notes == ("Ann (Prospero) loses and dies",
                                                 "Game over: nobody wins")


def test_when_nobody_told_their_captain_everyone_is_asked() -> None:
    table = TableSession(GameSetup("captains-gambit", ("Ann", "Ben", "Cat", "Dan"), seed=1,
                                   deal={}))
    act(table, "end_prologue")
    charge_until(table)
    assert table.view(None)["waiting_for"] == [0, 1, 2, 3]
    assert table.view(None)["status"] == ("the game has ended: Ann, Ben, Cat and Dan must tell"
                                          " the companion their captains")
    for seat, captain in ((0, "puck"), (1, "iago"), (2, "portia")):
        act(table, "captain_seen", seat, captain=captain)
        assert table.view(None)["outcome"] is None
    assert table.view(None)["waiting_for"] == [3]
    act(table, "captain_seen", 3, captain="hamlet")
    assert table.view(None)["outcome"]["winners"] == [0]


def test_a_win_during_play_waits_for_the_untold_who_may_share_it() -> None:
    """Ben (Hamlet) kills his mark; Ann (untold) is Iago with the most blood: she shares."""
    table = cg_table({1: "hamlet", 2: "portia", 3: "puck"}, end_prologue=False)
    act(table, "prologue_mark", 1, target=3)
    act(table, "end_prologue")
    act(table, "correct", target=0, counter="blood", value=3, reason="Ann's Strikes")
    act(table, "correct", target=3, counter="health", value=1, reason="Dan was hurt")
    act(table, "charge", 0)
    act(table, "strike", 1, target=3)
    act(table, "resolve", 1)
    assert table.view(None)["phase"] == "ending" and table.view(None)["waiting_for"] == [0]
    act(table, "captain_seen", 0, captain="iago")
    outcome = table.view(None)["outcome"]
    assert outcome["winners"] == [0, 1] and outcome["reason"] == "win"


def test_viola_cannot_choose_once_the_game_has_ended() -> None:
    table = hand_dealt({0: "viola", 2: "portia", 3: "iago"}, {"warp_in": ["viola"]})
    charge_until(table)
    assert table.view(None)["phase"] == "ending"
    with pytest.raises(IllegalActionError, match="not now: the game has ended"):
        act(table, "choose_corpse", 0, target=1)


# --- R2: Puck shares a win that ends the game at the end of the last round -----------------

def rosalind_table(alone_round: int) -> TableSession:
    """Seven players: Ann Puck, Ben Rosalind, Cat Cordelia (marking Ann), and four whose win
    never comes. Rosalind wins at the end of round ``alone_round`` if nobody has died."""
    table = cg_table({0: "puck", 1: "rosalind", 2: "cordelia", 3: "hamlet", 4: "portia",
                      5: "iago", 6: "brutus"}, seats=SEVEN, end_prologue=False,
                     options={"house": {"captains": {"rosalind": {"alone_round": alone_round}}}})
    act(table, "prologue_mark", 2, target=0)
    act(table, "end_prologue")
    charge_until(table)
    return table


def test_rosalinds_win_at_the_end_of_the_last_round_is_shared_by_puck_and_cordelia() -> None:
    outcome = rosalind_table(12).view(None)["outcome"]
    assert outcome["reason"] == "win"
    assert outcome["winners"] == [0, 1, 2]  # Puck (alive when round 12 ends), Cordelia's mark


def test_rosalinds_win_before_the_last_round_leaves_puck_out() -> None:
    table = rosalind_table(8)
    assert table.view(None)["round"] == 8
    assert table.view(None)["outcome"]["winners"] == [1]


# --- R3: a captain told after its deadline has already lost ---------------------------------

def told_in_round_12() -> TableSession:
    """Dan tells the companion only in round 12, after Ann's turn: Prospero, never revealed."""
    table = hand_dealt({0: "puck", 1: "iago", 2: "portia"})
    charge_until(table, lambda t: t.state.round == 12 and t.state.turn == 1)
    act(table, "captain_seen", 3, captain="prospero")
    return table


def test_a_prospero_told_after_his_round_11_turn_has_lost_and_dies_at_once() -> None:
    table = told_in_round_12()
    view = table.view(None)
    assert view["deaths"] == [{"seat": 3, "killer": None, "cause": "lost"}]
    assert view["players"][3]["alive"] is False and view["players"][3]["captain"] == "prospero"
    last = table.history_for(None)[-1]  # the table sees the death, and why
    assert (last.text, last.notes) == ("Dan told the companion their captain: Prospero",
                                       ("Dan (Prospero) loses and dies",))
    charge_until(table)  # Ben, Cat: round 12 ends without Dan's turn
    assert table.view(None)["outcome"]["winners"] == [0]
    with pytest.raises(IllegalActionError, match="the game is over"):
        act(table, "reveal", 3)


def test_a_prospero_told_before_the_end_of_his_round_11_turn_may_still_reveal() -> None:
    table = hand_dealt({0: "puck", 1: "iago", 2: "portia"})
    charge_until(table, lambda t: t.state.round == 11 and t.state.turn == 3)
    act(table, "captain_seen", 3, captain="prospero")
    assert table.view(None)["players"][3]["alive"]
    act(table, "reveal", 3)
    assert table.view(None)["players"][3]["revealed"]


def test_a_lady_macbeth_told_while_a_bluff_call_waits_dies_when_it_is_answered() -> None:
    """A death in the middle of a bluff call would leave it waiting for the dead: it comes
    with the next settling of deaths, here the call's answer."""
    table = hand_dealt({0: "puck", 1: "iago", 2: "portia"})
    charge_until(table, lambda t: t.state.round == 12 and t.state.turn == 0)
    act(table, "overcharge", 0)
    act(table, "call_bluff", 1)
    act(table, "captain_seen", 3, captain="lady_macbeth")
    assert table.view(None)["players"][3]["alive"]
    act(table, "concede", 0)
    assert table.view(None)["deaths"] == [{"seat": 3, "killer": None, "cause": "lost"}]


def test_a_rosalind_told_after_the_second_death_has_lost() -> None:
    """Any lose condition already met is judged so: Rosalind after the second death dies,
    with the kill credit of that death (Ann's Strike)."""
    table = cg_table({1: "hamlet", 2: "portia", 3: "iago", 4: "puck", 5: "cordelia",
                      6: "brutus"}, seats=SEVEN)
    act(table, "correct", target=1, counter="health", value=0, reason="Ben left")
    act(table, "correct", target=2, counter="health", value=1, reason="Cat was hurt")
    act(table, "strike", 0, target=2)
    act(table, "resolve", 0)
    assert table.view(None)["players"][0]["alive"]
    act(table, "captain_seen", 0, captain="rosalind")
    assert table.view(None)["deaths"][-1] == {"seat": 0, "killer": 0, "cause": "lost"}


# --- R4: Strike cannot become a claim of a card the deck does not hold ---------------------

def test_an_action_without_a_permit_card_cannot_be_made_a_permit_claim() -> None:
    with pytest.raises(SetupError, match="'actions.strike.kind' must be simple: there is no"
                                         " Strike permit in the deck to claim"):
        TableSession(GameSetup("captains-gambit", ("A", "B", "C", "D"), seed=1,
                               options={"house": {"actions": {"strike": {"kind": "permit"}}}}))
    # a permit's own action may still be played as a simple one
    TableSession(GameSetup("captains-gambit", ("A", "B", "C", "D"), seed=1,
                           options={"house": {"actions": {"barrage": {"kind": "simple"}}}}))


# --- M4: refusals that say what is wrong, from what the seat may know -----------------------

def test_an_untold_captain_is_asked_to_tell_it_before_marking_or_swapping() -> None:
    table = TableSession(GameSetup("captains-gambit", SEVEN[:6], seed=1, deal={}))
    for name in ("prologue_mark", "prologue_swap"):
        with pytest.raises(IllegalActionError,
                           match=r"tell the companion your captain first \(captain_seen\)"):
            act(table, name, 0, target=1)
    act(table, "captain_seen", 0, captain="puck")
    with pytest.raises(IllegalActionError, match=": only Hamlet or Cordelia or Brutus does this$"):
        act(table, "prologue_mark", 0, target=1)
    # At four players only Hamlet of the three is in the pool (public): only he is named.
    four = TableSession(GameSetup("captains-gambit", SEVEN[:4], seed=1, deal={}))
    act(four, "captain_seen", 0, captain="puck")
    with pytest.raises(IllegalActionError, match=": only Hamlet does this$"):
        act(four, "prologue_mark", 0, target=1)


def test_income_is_refused_with_why_there_is_no_choice() -> None:
    table = hand_dealt({0: "puck"})
    with pytest.raises(IllegalActionError, match="no income choice at this table: only while"
                                                 " King Lear and Othello"):
        act(table, "take_income", 0, kind="loyalty")


def test_identity_theft_not_held_or_not_in_play_says_so() -> None:
    table = cg_table({0: "puck"}, {0: ["barrage", "shield"]}, options={"wildcards": True})
    with pytest.raises(IllegalActionError, match=r"seat 0 \(Ann\) holds no Identity Theft$"):
        act(table, "overcharge", 0, via="identity_theft")
    table = cg_table({0: "puck"})
    with pytest.raises(IllegalActionError, match="the wildcards are off"):
        act(table, "overcharge", 0, via="identity_theft")


@pytest.mark.parametrize("dead, reason", [
    ({}, "nobody has died yet"),
    ({1: "prospero"}, "no dead captain can be chosen: Prospero, Lady Macbeth and Viola never"
                      " can$"),
    ({1: None}, r"no dead captain can be chosen; the companion has not been told the captain"
                r" of Ben \(captain_seen\)$"),
])
def test_viola_is_told_why_no_dead_captain_can_be_chosen(dead: dict[int, str | None],
                                                        reason: str) -> None:
    captains = {0: "viola", **{s: c for s, c in dead.items() if c}}
    table = hand_dealt(captains, {"warp_in": ["viola"]})
    for seat in dead:
        act(table, "correct", target=seat, counter="health", value=0, reason="gone")
    with pytest.raises(IllegalActionError, match=reason):
        act(table, "choose_corpse", 0, target=1)


def test_a_wildcard_in_a_deal_without_the_option_names_the_option() -> None:
    with pytest.raises(SetupError, match=r"deal: 'identity_theft' is a wildcard, and the"
                                         r" wildcards are off \(option wildcards\)"):
        TableSession(GameSetup("captains-gambit", ("A", "B", "C", "D"), seed=1,
                               deal={"permits": {"0": ["identity_theft"]}}))


@pytest.mark.parametrize("options, said", [
    ({"house": {"setup": {"bluff_damage": "5"}}},
     "house option 'setup.bluff_damage' must be a whole number, not \"5\""),
    ({"house": {"setup": {"bluff_damage": True}}},
     "house option 'setup.bluff_damage' must be a whole number, not true"),
    ({"house": {"setup": {"dead_can_win": "iago"}}},
     "house option 'setup.dead_can_win' must be a list, not \"iago\""),
])
def test_type_refusals_speak_json(options: dict[str, Any], said: str) -> None:
    with pytest.raises(SetupError) as found:
        TableSession(GameSetup("captains-gambit", ("A", "B", "C", "D"), options, seed=1))
    assert str(found.value) == said


def test_a_field_of_the_wrong_type_is_named_in_json() -> None:
    table = hand_dealt({0: "puck"})
    with pytest.raises(IllegalActionError, match="target must be a seat number, not true$"):
        act(table, "strike", 0, target=True)
    with pytest.raises(IllegalActionError, match='target must be a seat number, not "1"$'):
        act(table, "strike", 0, target="1")
    act(table, "charge", 0)
    with pytest.raises(IllegalActionError, match='amount must be a whole number, not "2"$'):
        act(table, "donate", 1, target=0, amount="2")


def test_a_seat_of_the_wrong_type_is_named_in_json() -> None:
    from companion.engine import Action, RulesError

    with pytest.raises(RulesError, match='"seat" must be a seat number or null, not true$'):
        Action.from_dict({"action": "charge", "seat": True})
    with pytest.raises(RulesError, match='"seat" must be a seat number or null, not "0"$'):
        Action.from_dict({"action": "charge", "seat": "0"})


def test_a_private_input_that_ends_the_game_is_public_while_the_end_waits() -> None:
    """The docs' example without Cat's and Dan's captains: Ann's Portia ends the game, in
    public as before, and the end waits for Cat and Dan."""
    table = cg_table({1: "iago"})
    act(table, "charge", 0)
    act(table, "strike", 1, target=2)
    act(table, "resolve", 1)
    act(table, "charge", 2)
    act(table, "charge", 3)
    act(table, "correct", target=1, counter="health", value=1, reason="Ben was at 1")
    act(table, "strike", 0, target=1)
    act(table, "resolve", 0)
    act(table, "captain_seen", 0, captain="portia")
    last = table.history_for(None)[-1]
    assert last.text == "Ann told the companion their captain: Portia"
    assert last.notes == ("The game ends: Cat and Dan must tell the companion their captains"
                          " before the winners are known",)
    assert table.view(None)["players"][0]["captain"] == "portia"  # face-up at the end
    act(table, "captain_seen", 2, captain="puck")
    assert table.history_for(None)[-1].text == "Cat told the companion their captain: Puck"
    act(table, "captain_seen", 3, captain="hamlet")
    assert table.view(None)["outcome"]["winners"] == [0]


def test_the_ending_phase_shows_each_seat_only_what_it_may_know() -> None:
    """Every captain is face-up at the end: the views, screens and offered actions of phase
    "ending" come out the same from what each seat may know (the conformance checks)."""
    from tests.conformance import check_knowledge, check_screens

    table = hand_dealt({1: "iago", 2: "portia"})
    charge_until(table)
    for seat, captain in ((3, "prospero"), (0, "puck")):
        before = table.state
        check_knowledge(table, None, before)
        check_screens(table)
        act(table, "captain_seen", seat, captain=captain)
        check_knowledge(table, table.history[-1], before)
        check_screens(table)
    assert table.view(None)["outcome"]["winners"] == [0]
