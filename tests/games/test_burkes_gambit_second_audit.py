"""Burke's Gambit: the second blind audit's findings (A: rulings, B: messages, C: docs), each
checked here or on a golden transcript (fixtures/transcripts/burkes_gambit/)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.engine import IllegalActionError, SetupError, TableSession, get_game
from tests.conftest import ROOT
from tests.games import goldens
from tests.games.test_burkes_gambit_rules import KNOWN, act, table

GAME = "burkes_gambit"
DOCS = (ROOT / "docs" / "burkes-gambit.md").read_text()
ROLES = {"0": "captain", "1": "doctor", "2": "pilot", "3": "marine"}
# Dealt by hand: the roles and the parasite cards are known (Cat infected), not the IDs.
PARASITES = {"roles": ROLES, "parasites": {"0": "clean", "1": "clean", "2": "infected",
                                           "3": "clean"}}


def replayed(name: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    return goldens.replayed(GAME, name, capsys)


def notes(s: TableSession) -> tuple[str, ...]:
    return s.history[-1].notes


def errors(s: TableSession, name: str, seat: int | None, **params: Any) -> str:
    with pytest.raises(IllegalActionError) as caught:
        act(s, name, seat, **params)
    return str(caught.value)


def turns_until(s: TableSession, seat: int) -> None:
    """Every other player returns a die until it is ``seat``'s turn."""
    while s.view(None)["turn"] != seat:
        turn = s.view(None)["turn"]
        act(s, "roll", turn, face="id_check")
        act(s, "return_die", turn)


# --- A1: cards dealt by hand are forgotten when they are dealt again ----------------------

def test_a_reinfection_at_a_hand_dealt_table_forgets_the_survivors_parasite_cards(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, report = replayed("hand-dealt-reinfection-forgets-the-parasites", capsys)
    assert status == 0
    view = report["view"]
    # Not ruled from the old deal: the table turned Dan's card, and it decided the game.
    # Only Cat, face up, is known to be crew.
    assert view["outcome"] == {"winners": [2], "reason": "infected_ejected"}
    assert "The ejected player's parasite card: infected" in report["log"][-1]


def test_after_a_reinfection_a_look_is_at_the_real_card_and_dan_waits_for_his_card() -> None:
    s = table(deal=PARASITES)
    act(s, "roll", 0, face="insta_kill")
    act(s, "resolve", 0, target=2)
    act(s, "dead_revealed", None, target=2, team="crew", parasite="infected")
    assert [p.parasite for p in s.state.players] == [None, None, "infected", None]
    act(s, "grant_look", None, looker=0, card="parasite", target=3, reason="Doctor")
    assert s.view(0)["you"]["looks"][-1]["result"] is None  # look at the real card
    for seat in (1, 3, 0):
        act(s, "roll", seat, face="engine")
    for voter, target in ((0, 3), (1, 3), (3, 0)):
        act(s, "vote", voter, target=target)
    assert s.state.phase == "reveal_ejected" and s.outcome is None


def test_a_reshuffle_at_a_hand_dealt_table_forgets_the_parasite_cards(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, report = replayed("hand-dealt-reshuffle-forgets-the-parasites", capsys)
    assert status == 0
    assert report["view"]["outcome"] == {"winners": [], "reason": "clean_ejected"}
    s = table(deal=PARASITES)
    act(s, "roll", 0, face="reshuffle")
    act(s, "resolve", 0)
    assert [p.parasite for p in s.state.players] == [None] * 4


def test_a_lone_survivor_of_a_reinfection_holds_the_infected_card() -> None:
    s = table(deal={"roles": ROLES})
    for target in (1, 2):
        turns_until(s, 0)
        act(s, "roll", 0, face="insta_kill")
        act(s, "resolve", 0, target=target)
        act(s, "dead_revealed", None, target=target, team="crew", parasite="clean")
    turns_until(s, 0)
    act(s, "roll", 0, face="insta_kill")
    act(s, "resolve", 0, target=3)
    act(s, "dead_revealed", None, target=3, team="crew", parasite="infected")
    assert s.state.players[0].parasite == "infected"  # the only card dealt back


def test_the_companion_deals_again_by_its_seed_when_it_dealt() -> None:
    """A game the companion dealt (or replayed from its record, every card given) knows the
    new deal: one infected survivor, the cards known."""
    for session in (table(seed=8), table(deal=KNOWN)):
        turn = session.view(None)["turn"]
        act(session, "roll", turn, face="reshuffle")
        act(session, "resolve", turn)
        cards = [p.parasite for p in session.state.players]
        assert None not in cards and cards.count("infected") == 1
        assert session.state.epoch == 1


# --- A2: the whole crew face up dead ------------------------------------------------------

def test_the_whole_crew_turned_face_up_dead_ends_a_hand_dealt_game(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, report = replayed("hand-dealt-the-whole-crew-face-up-dead", capsys)
    view = report["view"]
    assert status == 0 and view["phase"] == "over"
    assert view["outcome"] == {"winners": [2], "reason": "crew_dead"}
    assert view["engines"] == 2  # before Earth


# --- A3: nobody may vote ------------------------------------------------------------------

def test_nobody_able_to_vote_is_a_tie_at_nought_for_the_living_captain(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, report = replayed("nobody-may-vote-the-living-captain-decides", capsys)
    view = report["view"]
    assert status == 0 and view["outcome"] == {"winners": [0, 2, 3], "reason": "infected_ejected"}
    assert view["tied"] == [0, 3] and view["ejected"] == 3
    death = next(line for line in report["log"] if "heart attack" in line)
    assert "Votes: none (nobody may vote)" in death and "tie_captain_dead" not in death
    assert "votes again" not in death


def test_nobody_able_to_vote_with_the_captain_dead_ejects_nobody() -> None:
    s = table(deal={**KNOWN, "roles": {"0": "marine", "1": "captain", "2": "pilot",
                                       "3": "stowaway"}},
              options={"engines_to_earth": 1, "house": {"quarantine": {"blocks_voting": True}}})
    act(s, "roll", 1, face="insta_kill")  # Ben, the Captain, kills himself
    act(s, "resolve", 1, target=1)
    act(s, "roll", 2, face="quarantine")
    act(s, "resolve", 2, target=0)
    act(s, "correct", None, counter="health", target=2, value=0, reason="airlock accident")
    act(s, "roll", 3, face="engine")  # Ann quarantined, Dan the Stowaway: nobody votes
    assert s.outcome is not None and s.outcome.reason == "tie_captain_dead"


# --- A4: impossible counts ----------------------------------------------------------------

@pytest.mark.parametrize(("deal", "message"), [
    ({"ids": {"2": "specialist", "3": "specialist"}},
     "deal: 4 players have 1 specialist ID card, not 2"),
    ({"ids": {"0": "crew", "1": "crew", "2": "crew", "3": "crew"}},
     "deal: 4 players have 3 crew ID cards, not 4"),
    ({"parasites": {"0": "infected", "1": "infected"}},
     "deal: exactly one parasite card is infected, not 2"),
    ({"parasites": {str(seat): "clean" for seat in range(4)}},
     "deal: exactly one parasite card is infected"),
])
def test_a_partial_deal_with_impossible_counts_is_refused(deal: dict[str, Any],
                                                           message: str) -> None:
    with pytest.raises(SetupError, match=re.escape(message)):
        table(deal=deal)


def test_cards_turned_face_up_beyond_the_counts_are_refused() -> None:
    s = table(deal={"roles": ROLES})
    act(s, "roll", 0, face="insta_kill")
    act(s, "resolve", 0, target=3)
    act(s, "dead_revealed", None, target=3, team="specialist", parasite="clean")
    act(s, "roll", 1, face="insta_kill")
    act(s, "resolve", 1, target=2)
    reason = errors(s, "dead_revealed", None, target=2, team="specialist", parasite="clean")
    assert reason.endswith("4 players have 1 specialist ID card, and it is face up already"
                           " (Dan's)")
    # A seat's ID card, too, cannot be one whose cards are all face up.
    assert errors(s, "id_seen", 1, team="specialist").endswith(
        "4 players have 1 specialist ID card, and it is face up already (Dan's)")
    act(s, "id_seen", 1, team="crew")


# --- A5: a correction of the engines during the vote --------------------------------------

def test_correcting_the_engines_during_the_vote_calls_it_off(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, report = replayed("the-table-calls-off-the-vote", capsys)
    assert status == 0
    assert report["view"]["outcome"] == {"winners": [0, 2, 3], "reason": "infected_ejected"}
    correction = next(line for line in report["log"] if "miscounted" in line)
    assert "The ship is not at Earth: the vote is called off" in correction
    assert "2 dice go back to the bag" in correction and correction.endswith("Ann's turn")


def test_a_correction_of_the_engines_moves_their_dice_with_them() -> None:
    s = table(deal=KNOWN)
    act(s, "roll", 0, face="engine")
    act(s, "roll", 1, face="engine")
    assert s.view(None)["bag"] == 19
    act(s, "correct", None, counter="engines", value=1, reason="one was a Stall")
    assert s.view(None)["bag"] == 20 and s.view(None)["engines"] == 1
    act(s, "correct", None, counter="engines", value=2, reason="no, it was an engine")
    assert s.view(None)["bag"] == 19


# --- A7: a Cancel during the vote ---------------------------------------------------------

def test_a_cancel_during_the_vote_frees_a_quarantined_voter(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, report = replayed("a-cancel-during-the-vote", capsys)
    view = report["view"]
    assert status == 0 and view["outcome"] == {"winners": [0, 2, 3], "reason": "infected_ejected"}
    assert view["votes"] == {"0": 2, "1": 2, "2": 1, "3": 2}
    assert view["bag"] == 21 - 3  # Dan's Cancel back in the bag, three engines in the centre


def test_a_cancel_in_the_vote_opens_a_window_and_the_vote_goes_on_after() -> None:
    s = two_cancels({"quarantine": {"blocks_voting": True}})
    act(s, "roll", 2, face="quarantine")
    act(s, "resolve", 2, target=1)
    act(s, "carry_out", 2)  # Ben in quarantine; Dan's turn
    act(s, "correct", None, counter="engines", value=2, reason="two rolls not entered")
    act(s, "roll", 3, face="engine")
    assert s.state.phase == "vote" and s.view(None)["waiting_for"] == [0, 2]
    act(s, "cancel", 0, what="quarantine:1")  # Ben may not answer: he is in quarantine
    assert s.state.phase == "vote" and s.view(None)["waiting_for"] == [0, 1, 2]


# --- A8: a bag so small the game locks ----------------------------------------------------

def test_the_table_takes_a_stall_back_when_every_die_is_in_the_centre() -> None:
    s = table(deal=KNOWN, options={"house": {"setup": {"dice": 3}}})
    act(s, "roll", 0, face="engine")
    act(s, "roll", 1, face="engine")
    act(s, "roll", 2, face="stall")
    act(s, "resolve", 2)
    status = s.view(None)["status"]
    assert status.startswith("Dan can only pass: the bag is empty")
    assert "every die is in the centre: the table may take a Stall back" in status
    act(s, "correct", None, counter="stalls", value=0, reason="the bag ran dry")
    assert s.view(None)["bag"] == 1 and s.view(None)["stalls"] == 0
    act(s, "roll", 3, face="engine")
    assert s.state.phase == "vote"


# --- B1: why there is nothing to cancel ---------------------------------------------------

def two_cancels(house: dict[str, Any] | None = None) -> TableSession:
    """Ann and Ben hold Cancels in reserve; Cat's turn."""
    s = table(deal=KNOWN, options={"house": house} if house else {})
    for seat in (0, 1):
        act(s, "roll", seat, face="cancel")
        act(s, "reserve_die", seat)
    return s


def test_cancelling_your_own_action_says_so() -> None:
    s = two_cancels()
    act(s, "roll", 2, face="engine")
    act(s, "roll", 3, face="id_check")
    act(s, "return_die", 3)
    act(s, "roll", 0, face="insta_kill")
    act(s, "resolve", 0, target=2)
    assert errors(s, "cancel", 0, what="waiting").endswith(
        "you cannot cancel your own Insta-kill")


def test_cancelling_your_own_action_says_so_when_a_stall_could_be_cancelled() -> None:
    s = two_cancels()
    act(s, "roll", 2, face="stall")
    act(s, "resolve", 2)
    act(s, "carry_out", 2)  # the Stall stands; Dan's turn
    act(s, "roll", 3, face="id_check")
    act(s, "return_die", 3)
    act(s, "roll", 0, face="insta_kill")
    act(s, "resolve", 0, target=2)
    assert errors(s, "cancel", 0, what="waiting").endswith(
        "you cannot cancel your own Insta-kill")
    assert s.legal_actions(0)[0].params[0].choices == ("stall",)


def test_a_reserved_cancel_is_an_answer_only_while_an_action_waits_for_it() -> None:
    """A phone alerts ("You may answer now", a buzz) for an answer: a Cancel held in reserve
    with only a Stall to stop is a move its holder may make any time, not an alarm at every
    change of the table; an action waiting in the window makes it an answer."""
    s = two_cancels()
    act(s, "roll", 2, face="stall")
    act(s, "resolve", 2)
    act(s, "carry_out", 2)  # the Stall stands in the centre; Dan's turn
    cancel = next(spec for spec in s.legal_actions(1) if spec.name == "cancel")
    assert (cancel.kind, cancel.params[0].choices) == ("move", ("stall",))
    act(s, "roll", 3, face="insta_kill")
    act(s, "resolve", 3, target=2)  # Dan's Insta-kill waits for Cancels
    cancel = next(spec for spec in s.legal_actions(1) if spec.name == "cancel")
    assert (cancel.kind, cancel.params[0].choices) == ("reaction", ("waiting", "stall"))


def test_a_stall_the_table_made_uncancellable_says_so() -> None:
    s = two_cancels({"faces": {"stall": {"cancellable": False}}})
    act(s, "roll", 2, face="stall")
    act(s, "resolve", 2)
    assert errors(s, "cancel", 0, what="stall").endswith(
        "at this table a Stall cannot be cancelled (faces.stall.cancellable)")


def test_nothing_to_cancel_names_what_a_cancel_may_stop() -> None:
    s = two_cancels()
    reason = errors(s, "cancel", 0, what="everything")
    assert reason.endswith("there is nothing to cancel: no action waits for Cancels (what:"
                           " waiting), no Stall is in the centre (stall) and nobody is in"
                           " quarantine (quarantine:N)")
    act(s, "roll", 2, face="quarantine")
    act(s, "resolve", 2, target=3)
    act(s, "carry_out", 2)
    assert errors(s, "cancel", 0, what="quarantine:9").endswith(
        "what must be one of quarantine:3, not 'quarantine:9'")
    offered = next(spec for spec in s.legal_actions(0) if spec.name == "cancel").params[0]
    assert offered.choices == ("quarantine:3",)  # a phone shows each in words
    assert offered.labels == (f"{s.setup.seats[3]}'s quarantine",)
    assert errors(s, "cancel", 0, what="stall").endswith("no Stall is in the centre")


# --- B2: the winners not yet named --------------------------------------------------------

def test_a_crew_win_whose_names_are_not_known_says_so() -> None:
    s = table(deal={"roles": ROLES}, options={"engines_to_earth": 1})
    act(s, "roll", 0, face="engine")
    for voter, target in ((0, 2), (1, 2), (2, 0), (3, 2)):
        act(s, "vote", voter, target=target)
    act(s, "ejected_revealed", None, parasite="infected")
    ending = s.table_view(None).ending
    assert ending is not None and ending.text == (
        "Game over: the Salvage Crew win (the infected player was ejected): who they are is"
        " not known yet (each player may tell their ID card)")
    act(s, "id_seen", 0, team="crew")
    ending = s.table_view(None).ending
    assert ending is not None and ending.text.endswith(": Ann, and 2 not known yet")


def test_the_winners_follow_from_a_team_whose_cards_are_all_face_up() -> None:
    s = table(deal={"roles": ROLES}, options={"engines_to_earth": 2})
    act(s, "roll", 0, face="insta_kill")
    act(s, "resolve", 0, target=3)
    act(s, "dead_revealed", None, target=3, team="specialist", parasite="clean")
    act(s, "roll", 1, face="engine")
    act(s, "roll", 2, face="engine")
    for voter, target in ((0, 2), (1, 2), (2, 0)):
        act(s, "vote", voter, target=target)
    act(s, "ejected_revealed", None, parasite="infected")
    assert s.outcome is not None and s.outcome.winners == (0, 1, 2)


def test_a_declared_winner_keeps_its_reason_when_a_seat_tells_its_id_card() -> None:
    s = table(deal={"roles": ROLES})
    act(s, "declare_winner", None, winner="crew", reason="agreed")
    act(s, "id_seen", 1, team="crew")
    assert s.outcome is not None and s.outcome.details == {"team": "crew", "why": "agreed"}
    assert s.outcome.winners == (1,)


# --- B3: the rules summary follows house edits --------------------------------------------

def test_the_summary_texts_follow_the_house_health_and_voting() -> None:
    rules = get_game("burkes-gambit")
    text = rules.rules_summary({"house": {"setup": {"health": 3},
                                          "quarantine": {"blocks_voting": True}}})
    assert "healing never above 3" in text and "healing never above 2" not in text
    quarantine = next(line for line in text.splitlines() if "Quarantine:" in line)
    assert "they do not vote" in quarantine and "still vote" not in quarantine
    assert "they still vote" in rules.rules_summary()
    s = table(deal=KNOWN, options={"house": {"setup": {"health": 3}}})
    act(s, "roll", 0, face="damage_heal")
    assert "healing never above 3" in next(a.note for a in s.legal_actions(0)
                                           if a.name == "resolve")


# --- B4: log notes that say what happens --------------------------------------------------

def test_a_death_that_ends_the_vote_does_not_say_it_starts_again() -> None:
    s = table(deal=KNOWN, options={"engines_to_earth": 1})
    act(s, "roll", 0, face="engine")
    act(s, "vote", 0, target=1)
    act(s, "correct", None, counter="health", target=3, value=0, reason="ruling")
    assert notes(s) == ("Dan dies", "Dan was Salvage Crew, clean",
                        "A death during the vote: everyone living votes again")
    act(s, "vote", 0, target=1)
    act(s, "correct", None, counter="health", target=2, value=0, reason="ruling")
    act(s, "vote", 0, target=1)
    act(s, "correct", None, counter="health", target=0, value=0, reason="ruling")
    assert s.outcome is not None and s.outcome.reason == "crew_dead"  # the last crew member
    assert not any("votes again" in n for n in notes(s))


def test_a_heal_at_full_health_says_it_changes_nothing_and_the_reshuffle_says_whose() -> None:
    s = table(deal=KNOWN)
    act(s, "roll", 0, face="damage_heal")
    act(s, "resolve", 0, target=2, choice="heal")
    assert "Cat is at full health (2): the heal changes nothing" in notes(s)
    act(s, "roll", 1, face="reshuffle")
    act(s, "resolve", 1)
    assert "The living players' parasite cards are shuffled and dealt again" in notes(s)


# --- B5: refusals that give the reason ----------------------------------------------------

def test_refusals_name_the_real_reason() -> None:
    s = table(deal=KNOWN)
    assert errors(s, "id_seen", 0, team="crew").endswith("the deal gave your ID card")
    assert errors(table(seed=2), "id_seen", 0, team="crew").endswith(
        "the companion dealt the ID cards: it knows yours")
    roles = table(deal={}, start=False)
    act(roles, "role_seen", 0, role="doctor")
    assert errors(roles, "role_seen", 1, role="doctor").endswith(
        "Ann has the Doctor card in front of them")
    act(s, "correct", None, counter="health", target=3, value=0, reason="ruling")
    assert errors(s, "correct", None, counter="health", target=3, value=2,
                  reason="revive").endswith("seat 3 (Dan) is dead: a correction does not"
                                            " bring the dead back")
    assert errors(s, "correct", None, counter="engines", target=2, value=1,
                  reason="typo").endswith("target goes with a health correction only")


# --- A6, C: what the page says ------------------------------------------------------------

@pytest.mark.parametrize("said", [
    "is in quarantine already",  # A6
    "A complete `deal`",  # C1
    "Cancels during the vote",  # C2
    "breaks the tie from quarantine",  # C4
    "not in the tiebreak",  # C5
    "`votes`",  # C6
    "use_role` is accepted",  # C7
    "`setup.health` from 1 to 9",  # C8
    "`correct` of the engines or the Stalls",  # C9
    "A result fixed before Earth",  # C10
])
def test_the_page_documents_the_audits_gaps(said: str) -> None:
    assert said in DOCS
