"""Burke's Gambit: the third blind review's findings, each checked here."""

from __future__ import annotations

import copy
import re
from dataclasses import replace
from typing import Any

import pytest

from companion.engine import IllegalActionError, SetupError, TableSession
from tests.games.test_burkes_gambit_rules import act, table

# Ann is infected, Ben the lone specialist; the Captain (Ann) starts.
DEAL: dict[str, Any] = {
    "roles": {"0": "captain", "1": "marine", "2": "pilot", "3": "doctor"},
    "ids": {"0": "crew", "1": "specialist", "2": "crew", "3": "crew"},
    "parasites": {"0": "infected", "1": "clean", "2": "clean", "3": "clean"}}


def errors(s: TableSession, name: str, seat: int | None, **params: Any) -> str:
    with pytest.raises(IllegalActionError) as caught:
        act(s, name, seat, **params)
    return str(caught.value)


def returns(s: TableSession, seat: int) -> None:
    act(s, "roll", seat, face="id_check")
    act(s, "return_die", seat)


def test_play_goes_on_to_a_freed_player_when_a_whole_round_is_skipped() -> None:
    """Ann is in quarantine until Ben's turn, Ben until Cat's; Cat dies (a role's effect,
    applied by the table) and Dan kills himself. The round passes Ann and Ben in quarantine
    and the dead Cat and Dan, freeing both on the way: play goes on to Ann, not to the dead
    Dan (the game was left waiting on him)."""
    s = table(deal=DEAL)
    returns(s, 0)
    act(s, "roll", 1, face="quarantine")
    act(s, "resolve", 1, target=0)
    act(s, "roll", 2, face="quarantine")
    act(s, "resolve", 2, target=1)
    act(s, "correct", None, counter="health", target=2, value=0, reason="the Marine's ability")
    act(s, "roll", 3, face="insta_kill")
    act(s, "resolve", 3, target=3)
    view = s.view(None)
    assert view["phase"] == "turn"
    assert view["turn"] == 0 and view["waiting_for"] == [0]
    assert [a.name for a in s.legal_actions(0)] == ["roll"]
    assert not any(p["quarantined"] for p in view["players"])


def test_a_vote_refused_says_why_the_seat_has_none() -> None:
    """Said to the dead, the Stowaway and (where quarantine takes the vote) the quarantined:
    each its own reason, not one sentence for all three."""
    deal = dict(DEAL, roles={"0": "captain", "1": "stowaway", "2": "pilot", "3": "doctor"})
    s = table(deal=deal, options={"house": {"quarantine": {"blocks_voting": True}}})
    act(s, "roll", 0, face="insta_kill")
    act(s, "resolve", 0, target=3)
    act(s, "roll", 1, face="id_check")
    act(s, "return_die", 1)
    act(s, "roll", 2, face="quarantine")
    act(s, "resolve", 2, target=0)
    act(s, "correct", None, counter="engines", value=2, reason="a missed power-up")
    act(s, "roll", 1, face="engine")  # Ann is still in quarantine, until Cat's next turn
    assert s.view(None)["phase"] == "vote"
    assert errors(s, "vote", 3, target=2).endswith(": the dead do not vote")
    assert errors(s, "vote", 1, target=2).endswith(": the Stowaway does not vote")
    assert errors(s, "vote", 0, target=2).endswith(
        ": seat 0 (Ann) is in quarantine and does not vote at this table")
    # Every phone's status says who is not asked, and why (roles and quarantine are public):
    # the Stowaway is not left wondering, nor the table waiting on a seat that has no vote.
    assert s.view(1)["status"] == ("the ship reaches Earth: vote whom to eject (0 of 1 have"
                                   " voted; not voting: Ann (in quarantine), Ben (the Stowaway))")


@pytest.mark.parametrize(("house", "message"), [
    ({"roles": {"role_10": {"label": "  "}}}, "rule 'roles.role_10.label' must name it"),
    ({"faces": {"stall": {"label": ""}}}, "rule 'faces.stall.label' must name it"),
    ({"roles": {"role_7": {"label": "doctor "}}},
     "rule 'roles.role_7.label' ('doctor ') is the label of 'roles.doctor' already"),
])
def test_a_house_label_must_name_its_card_or_face_and_differ_from_the_others(
        house: dict[str, Any], message: str) -> None:
    with pytest.raises(SetupError, match=re.escape(message)):
        table(options={"house": house})
    # A table may rename its cards: two labels swapped are still two names.
    table(options={"house": {"roles": {"doctor": {"label": "Pilot"},
                                       "pilot": {"label": "Doctor"}}}})


def test_a_cancel_tried_right_after_an_engine_power_up_says_it_cannot_stop_one() -> None:
    """The seed: "cancel any dice action except engine power-up". Tried on the power-up just
    rolled, from reserve or with a Cancel rolled next, the refusal says so, not only that
    nothing waits; later, the usual reason."""
    s = table(deal=DEAL)
    act(s, "roll", 0, face="cancel")
    act(s, "reserve_die", 0)
    act(s, "roll", 1, face="engine")
    engine = "Ben's Engine power-up cannot be cancelled"
    assert engine in errors(s, "cancel", 0, what="waiting")
    act(s, "roll", 2, face="cancel")
    assert engine in errors(s, "resolve", 2, what="waiting")
    act(s, "return_die", 2)
    reason = errors(s, "cancel", 0, what="waiting")
    assert "Engine power-up" not in reason and "there is nothing to cancel" in reason


def test_a_role_dealt_twice_names_the_card_and_the_seats() -> None:
    with pytest.raises(SetupError, match=re.escape(
            "deal: a role is dealt twice: the Doctor card to seats 0, 3")):
        table(deal={"roles": {"0": "doctor", "3": "doctor"}})


def test_a_dead_players_card_that_belies_the_deal_is_never_ruled_from_again() -> None:
    """The deal (by hand) said Ben held the infected card; turned face up, it is clean. The
    companion no longer knows where the infected card is: the ejection waits for the card,
    where it used to rule "a clean player is ejected" from the wrong deal."""
    s = table(deal={"roles": DEAL["roles"],
                    "parasites": {"0": "clean", "1": "infected", "2": "clean", "3": "clean"}})
    act(s, "roll", 0, face="insta_kill")
    act(s, "resolve", 0, target=1)
    act(s, "dead_revealed", None, target=1, team="crew", parasite="clean")
    assert ("Ben's parasite card is not the one the deal gave: the companion forgets the"
            " parasite cards it was given") in s.history[-1].notes
    for _ in range(3):
        act(s, "roll", s.view(None)["turn"], face="engine")
    for voter, target in ((0, 3), (2, 3), (3, 2)):
        act(s, "vote", voter, target=target)
    assert s.view(None)["phase"] == "reveal_ejected" and s.view(None)["outcome"] is None
    act(s, "ejected_revealed", None, parasite="infected")
    assert s.view(None)["outcome"]["reason"] == "infected_ejected"


def test_the_tables_rulings_need_a_reason_as_a_correction_does() -> None:
    s = table(deal=DEAL)
    assert errors(s, "grant_look", None, looker=1, card="id", target=2, reason=" ").endswith(
        "a ruling needs a reason: say why, for the log")
    assert errors(s, "declare_winner", None, winner="crew", reason="").endswith(
        "a ruling needs a reason: say why, for the log")
    act(s, "declare_winner", None, winner="crew", reason="Dan confessed")
    assert s.view(None)["outcome"]["reason"] == "declared"


ROLES6 = {"0": "captain", "1": "doctor", "2": "marine", "3": "pilot", "4": "stowaway",
          "5": "role_7"}


def test_id_cards_face_up_that_belie_the_deal_are_never_ruled_from_again() -> None:
    """A blind review (6 players, 2 specialist cards): the deal said Ben was a specialist,
    then Cat's and Eve's cards turned face up, both specialist; the companion still counted
    Ben and named three specialists among the winners. Now it forgets the ID cards it was
    given, and the counts name the winners."""
    s = table(6, seed=6, deal={"roles": ROLES6, "ids": {"1": "specialist"}})
    act(s, "roll", 0, face="insta_kill")
    act(s, "resolve", 0, target=2)
    act(s, "dead_revealed", None, target=2, team="specialist", parasite="clean")
    assert s.state.players[1].team == "specialist"  # one card up, one given: they fit
    returns(s, 1)
    act(s, "roll", 3, face="insta_kill")
    act(s, "resolve", 3, target=4)
    act(s, "dead_revealed", None, target=4, team="specialist", parasite="clean")
    assert ("Eve's ID card does not fit the ID cards the companion was given: it forgets"
            " them (each player may tell theirs again)") in s.history[-1].notes
    assert s.state.players[1].team is None
    act(s, "id_seen", 1, team="crew")  # Ben may tell his own again
    assert s.state.players[1].team == "crew"


def test_an_id_card_face_up_unlike_the_deals_for_that_player_is_said() -> None:
    s = table(6, seed=6, deal={"roles": ROLES6, "ids": {"2": "crew", "1": "specialist"}})
    act(s, "roll", 0, face="insta_kill")
    act(s, "resolve", 0, target=2)
    act(s, "dead_revealed", None, target=2, team="specialist", parasite="clean")
    assert any("does not fit the ID cards" in note for note in s.history[-1].notes)
    assert s.state.players[1].team is None


def test_a_player_may_quarantine_themselves() -> None:
    """"QUARANTINE: Place a player in quarantine" (seed), as Insta-kill's "any player": a
    blind review found it refused on oneself, a reading the seed does not make."""
    s = table(6, seed=6)
    turn = s.view(None)["turn"]
    act(s, "roll", turn, face="quarantine")
    act(s, "resolve", turn, target=turn)
    killer = s.view(None)["turn"]
    act(s, "roll", killer, face="insta_kill")
    assert errors(s, "resolve", killer, target=turn).endswith("is in quarantine and cannot be hurt")


SEVEN = {"roles": {"0": "captain", "1": "doctor", "2": "marine", "3": "pilot", "4": "stowaway",
                   "5": "role_7", "6": "comms_officer"}}


def test_a_cancel_of_what_is_not_there_says_what_is_not() -> None:
    """Found by a blind review: a Cancel of a quarantine that had ended was refused as "what
    must be one of stall", and one of a Stall right after a power-up with no Stall left as
    if the power-up were meant."""
    s = table(7, seed=4, deal=SEVEN)
    returns(s, 0)
    act(s, "roll", 1, face="quarantine")
    act(s, "resolve", 1, target=2)
    for seat in (3, 4, 5):
        returns(s, seat)
    act(s, "roll", 6, face="cancel")
    act(s, "reserve_die", 6)
    act(s, "roll", 0, face="stall")
    act(s, "resolve", 0)
    act(s, "carry_out", 0)  # Ben's turn comes: Cat's quarantine ends
    assert errors(s, "cancel", 6, what="quarantine:2").endswith(": Cat is not in quarantine")
    act(s, "roll", 1, face="engine")  # the Stall takes it: nothing left in the centre
    act(s, "roll", 2, face="engine")
    assert errors(s, "cancel", 6, what="stall").endswith(
        "Cat's Engine power-up cannot be cancelled (a Cancel stops any die action but an engine"
        " power-up); and there is nothing to cancel: no action waits for Cancels (what:"
        " waiting), no Stall is in the centre (stall) and nobody is in quarantine"
        " (quarantine:N)")


@pytest.mark.parametrize("tellers", [[1], [1, 3]])
def test_id_cards_told_in_secret_never_show_in_what_the_table_reads(tellers: list[int]) -> None:
    """A code review: counting the cards seats told (private inputs) into the public note
    told every phone how many had told a team. Told cards are forgotten unsaid."""
    s = table(6, seed=6, deal={"roles": ROLES6})
    for seat in tellers:
        act(s, "id_seen", seat, team="specialist")
    act(s, "roll", 0, face="insta_kill")
    act(s, "resolve", 0, target=2)
    act(s, "dead_revealed", None, target=2, team="specialist", parasite="clean")
    assert s.history[-1].notes == ("Cat was Acquisition Support Specialist, clean", "Ben's turn")
    assert [s.state.players[seat].team for seat in tellers] == \
        (["specialist"] if tellers == [1] else [None, None])


@pytest.mark.parametrize(("label", "why"), [
    ("Cook\nX", "cannot be shown"), ("\u202eKooc", "cannot be shown"),
    ("Captain\u200b", "cannot be shown"), ("\uff23aptain", "is the label of 'roles.captain'")])
def test_a_role_name_a_phone_could_not_show_or_tell_apart_is_refused(label: str,
                                                                     why: str) -> None:
    """Names the table types on the new-table page are checked as seat names are."""
    with pytest.raises(SetupError, match=re.escape(why)):
        table(6, options={"house": {"roles": {"role_7": {"label": label}}}})


@pytest.mark.parametrize("begun_before", [False, True])
def test_a_table_may_keep_quarantine_for_another_player(begun_before: bool) -> None:
    """The old reading is data, and a table begun before the change keeps it."""
    house = {} if begun_before else {"house": {"faces": {"quarantine": {"target": "other"}}}}
    s = table(6, seed=6, options=house, start=False)
    if begun_before:
        before = copy.deepcopy(dict(s.setup.book or {}))
        before["faces"]["quarantine"]["target"] = "other"
        s = TableSession(replace(s.setup, book=before))
    act(s, "end_heads_down", None)
    turn = s.view(None)["turn"]
    act(s, "roll", turn, face="quarantine")
    assert errors(s, "resolve", turn, target=turn).endswith(
        "not on yourself: on another living player")


def test_an_id_check_on_a_seat_that_told_its_own_card_says_look_at_the_real_card() -> None:
    """Dealt by hand, a seat's word on its own ID card is its own: another seat's ID check
    is a look at the real card, never what that seat told its phone (a mistap or a lie)."""
    s = table(deal={"roles": {"0": "captain", "1": "doctor", "2": "marine", "3": "pilot"}},
              start=False, seed=3)
    act(s, "id_seen", 3, team="crew")
    act(s, "end_heads_down", None)
    act(s, "roll", 0, face="id_check")
    act(s, "resolve", 0, target=3)
    looks = s.state.players[0].looks
    assert [(look.card, look.seat, look.result) for look in looks] == [("id", 3, None)]
    facts = {f["label"]: f["value"] for f in s.table_view(0).to_dict()["secrets"]}
    assert facts["Dan's ID card"] == "look at the real card"


def test_two_seats_telling_the_one_specialist_card_are_not_both_named_winners() -> None:
    """4 players have one specialist card: two seats' words that each hold it cannot both be
    true, so the end names neither until the cards are told again (after the end a seat may
    put its word right: every card is face up then)."""
    s = table(deal={"roles": {"0": "captain", "1": "doctor", "2": "marine", "3": "pilot"}},
              start=False, seed=3, options={"engines_to_earth": 1})
    act(s, "id_seen", 1, team="specialist")
    act(s, "id_seen", 2, team="specialist")
    act(s, "end_heads_down", None)
    act(s, "roll", 0, face="engine")
    for voter, target in ((0, 3), (1, 3), (2, 3), (3, 0)):
        act(s, "vote", voter, target=target)
    act(s, "ejected_revealed", None, parasite="clean")
    assert s.outcome is not None and s.outcome.winners == ()
    act(s, "id_seen", 1, team="crew")  # Ben put his word right
    assert s.outcome.winners == (2,)


def test_a_second_telling_of_an_id_card_is_refused_while_the_game_runs() -> None:
    s = table(deal={"roles": {"0": "captain", "1": "doctor", "2": "marine", "3": "pilot"}},
              start=False)
    act(s, "id_seen", 1, team="specialist")
    assert errors(s, "id_seen", 1, team="crew").endswith("you have told your ID card")


def test_more_crew_words_than_crew_cards_name_no_crew_winner_until_one_is_told_again() -> None:
    s = table(deal={"roles": {"0": "captain", "1": "doctor", "2": "marine", "3": "pilot"}},
              start=False, options={"engines_to_earth": 1})
    for seat in range(4):  # 4 players have 3 crew cards: one of these words is wrong
        act(s, "id_seen", seat, team="crew")
    act(s, "end_heads_down", None)
    act(s, "roll", 0, face="engine")
    for voter, target in ((0, 3), (1, 3), (2, 3), (3, 0)):
        act(s, "vote", voter, target=target)
    act(s, "ejected_revealed", None, parasite="infected")
    # Dan's card was turned up as he left the ship: his is sure, the other three words not
    assert s.outcome is not None and s.outcome.winners == (3,)
    act(s, "id_seen", 2, team="specialist")
    assert s.outcome.winners == (0, 1, 3)


def test_a_card_face_up_is_sure_where_words_claim_too_many() -> None:
    """5 players have 2 specialist cards: Eve's lies face up; then Ben and Cat both tell
    specialist. Eve wins among the specialists; the two words name nobody."""
    roles = {"0": "captain", "1": "doctor", "2": "marine", "3": "pilot", "4": "comms_officer"}
    s = table(5, deal={"roles": roles}, start=False, options={"engines_to_earth": 1})
    act(s, "end_heads_down", None)
    act(s, "roll", 0, face="insta_kill")
    act(s, "resolve", 0, target=4)
    act(s, "dead_revealed", None, target=4, team="specialist", parasite="clean")
    act(s, "id_seen", 1, team="specialist")  # told after Eve's card was turned up
    act(s, "id_seen", 2, team="specialist")
    act(s, "roll", 1, face="engine")
    for voter, target in ((0, 3), (1, 3), (2, 3), (3, 0)):
        act(s, "vote", voter, target=target)
    act(s, "ejected_revealed", None, parasite="clean")
    assert s.outcome is not None and s.outcome.winners == (4,)
