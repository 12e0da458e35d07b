"""Burke's Gambit, rule by rule."""

from __future__ import annotations

import re
from functools import partial
from typing import Any

import pytest

from companion.engine import (
    Action,
    DieFace,
    GameSetup,
    IllegalActionError,
    SetupError,
    TableSession,
    get_game,
    parse_payload,
)
from companion.engine.session import answering

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


def table(players: int = 4, seed: int = 1, deal: dict[str, Any] | None = None,
          options: dict[str, Any] | None = None, start: bool = True) -> TableSession:
    session = TableSession(GameSetup("burkes-gambit", NAMES[:players], options or {}, seed=seed,
                                     deal=deal))
    if start and session.state.phase == "heads_down":
        session.submit(Action("end_heads_down"))
    return session


KNOWN = {"roles": {"0": "captain", "1": "marine", "2": "pilot", "3": "stowaway"},
         "ids": {"0": "crew", "1": "specialist", "2": "crew", "3": "crew"},
         "parasites": {"0": "clean", "1": "clean", "2": "infected", "3": "clean"}}


def act(session: TableSession, name: str, seat: int | None, **params: Any) -> None:
    session.submit(Action(name, seat, params))


@pytest.mark.parametrize(("players", "specialists", "engines"),
                         [(4, 1, 3), (5, 2, 4), (6, 2, 5), (7, 3, 6), (8, 3, 6)])
def test_setup_by_player_count(players: int, specialists: int, engines: int) -> None:
    session = table(players, start=False)
    state = session.state
    assert [p.team for p in state.players].count("specialist") == specialists
    assert [p.parasite for p in state.players].count("infected") == 1
    roles = [p.role for p in state.players]
    assert "captain" in roles and len(set(roles)) == players
    assert all(p.health == 2 for p in state.players)
    assert state.to_earth == engines and state.phase == "heads_down"
    assert session.view(None)["bag"] == 21


def test_the_captain_starts_after_heads_down() -> None:
    session = table(seed=3)
    captain = next(p.seat for p in session.state.players if p.role == "captain")
    assert session.view(None)["turn"] == captain
    assert [a.name for a in session.legal_actions(captain)] == ["roll"]


def test_engines_to_earth_is_an_option_and_bad_setups_are_refused() -> None:
    assert table(8, options={"engines_to_earth": 7}).state.to_earth == 7
    with pytest.raises(SetupError, match="4 to 8 players"):
        table(3)
    with pytest.raises(SetupError, match="unknown option 'speed'"):
        table(options={"speed": 1})
    with pytest.raises(SetupError, match="exactly one parasite card is infected"):
        table(deal={"parasites": {str(i): "infected" for i in range(4)}})
    with pytest.raises(SetupError, match="the Captain is always in play"):
        table(deal={"roles": {"0": "marine", "1": "pilot", "2": "doctor", "3": "stowaway"}})
    for seat in ("\u00b2", "01", "-1", 2):  # a superscript two is a digit, but no seat number
        with pytest.raises(SetupError, match="is not a seat number"):
            table(deal={"roles": {seat: "captain"}})
    with pytest.raises(SetupError, match="there is no seat 4"):
        table(deal={"roles": {"4": "captain"}})


def test_a_turn_roll_reroll_once_then_return() -> None:
    s = table(deal=KNOWN)
    act(s, "roll", 0, face="id_check")
    act(s, "reroll", 0, face="damage_heal")
    with pytest.raises(IllegalActionError, match="rerolled this die once already"):
        act(s, "reroll", 0, face="cancel")
    act(s, "return_die", 0)
    assert s.view(None)["turn"] == 1 and s.view(None)["die"] is None


def test_reserve_keeps_the_face_and_a_new_reserve_returns_the_old() -> None:
    s = table(deal=KNOWN)
    act(s, "roll", 0, face="cancel")
    act(s, "reserve_die", 0)
    for seat in (1, 2, 3):
        act(s, "roll", seat, face="id_check")
        act(s, "return_die", seat)
    act(s, "roll", 0, face="quarantine")
    act(s, "reserve_die", 0)
    assert s.state.players[0].reserve == "quarantine" and s.view(None)["bag"] == 20
    for seat in (1, 2, 3):
        act(s, "roll", seat, face="id_check")
        act(s, "return_die", seat)
    act(s, "use_reserve", 0)
    assert s.view(None)["die"] == {"face": "quarantine", "rerolled": False}


def test_a_die_rerolled_before_it_was_reserved_is_not_rerolled_again() -> None:
    """"Reroll the die one time": the die keeps its reroll on the card (a blind tester
    rerolled one die twice through the reserve)."""
    s = table(deal=KNOWN)
    act(s, "roll", 0, face="quarantine")
    act(s, "reroll", 0, face="scan_any")
    act(s, "reserve_die", 0)
    assert "(rerolled)" in str(s.table_view(None).to_dict())
    for seat in (1, 2, 3):
        act(s, "roll", seat, face="id_check")
        act(s, "return_die", seat)
    act(s, "use_reserve", 0)
    assert s.view(None)["die"] == {"face": "scan_any", "rerolled": True}
    with pytest.raises(IllegalActionError, match="rerolled this die once already"):
        act(s, "reroll", 0, face="cancel")


def test_a_die_waiting_in_a_cancel_window_is_out_of_the_bag_until_it_is_settled() -> None:
    s = table(deal=KNOWN)
    act(s, "roll", 0, face="cancel")
    act(s, "reserve_die", 0)
    act(s, "roll", 1, face="damage_heal")
    assert s.view(None)["bag"] == 19  # Ann's Cancel on her card, Ben's die in his hand
    act(s, "resolve", 1, target=2, choice="damage")
    assert s.state.phase == "cancel" and s.view(None)["bag"] == 19  # Ben's die waits
    act(s, "cancel", 0, what="waiting")
    assert s.view(None)["bag"] == 21  # settled: both dice back


def test_the_tables_ruling_names_its_winners_and_its_reason_never_another_ending() -> None:
    s = table(deal=KNOWN)
    act(s, "declare_winner", None, winner="specialists", reason="we misdealt the IDs")
    outcome = s.outcome
    assert outcome is not None and outcome.winners == (1,) and outcome.reason == "declared"
    ending = s.table_view(None).ending
    assert ending is not None and ending.text == ("Game over: the Acquisition Support"
                                                  " Specialists win (the table's ruling:"
                                                  " we misdealt the IDs): Ben")
    s = table(deal=KNOWN)
    act(s, "declare_winner", None, winner="crew", reason="agreed")
    assert s.outcome is not None and s.outcome.winners == (0, 2, 3)
    assert "ejected" not in s.table_view(None).ending.text  # type: ignore[union-attr]


def test_an_engine_power_up_ends_the_turn_stays_in_the_centre_and_cannot_be_reserved() -> None:
    s = table(deal=KNOWN)
    act(s, "roll", 0, face="engine")
    view = s.view(None)
    assert view["engines"] == 1 and view["turn"] == 1 and view["bag"] == 20
    assert s.history[-1].notes[0] == "Engines at 1 of 3"


def test_a_stall_cancels_the_next_power_up_and_both_dice_return() -> None:
    s = table(deal=KNOWN)
    act(s, "roll", 0, face="stall")
    act(s, "resolve", 0)
    assert s.view(None)["stalls"] == 1 and s.view(None)["bag"] == 20
    act(s, "roll", 1, face="engine")
    view = s.view(None)
    assert view["engines"] == 0 and view["stalls"] == 0 and view["bag"] == 21


def test_damage_heal_and_health_at_most_two() -> None:
    s = table(deal=KNOWN)
    act(s, "roll", 0, face="damage_heal")
    act(s, "resolve", 0, target=1, choice="damage")
    assert s.state.players[1].health == 1
    act(s, "roll", 1, face="damage_heal")
    act(s, "resolve", 1, target=1, choice="heal")
    act(s, "roll", 2, face="damage_heal")
    act(s, "resolve", 2, target=2, choice="heal")
    assert [p.health for p in s.state.players] == [2, 2, 2, 2]


def test_quarantine_skips_protects_and_ends_at_the_quarantiners_next_turn() -> None:
    s = table(deal=KNOWN)
    act(s, "roll", 0, face="quarantine")
    act(s, "resolve", 0, target=2)
    assert s.view(None)["turn"] == 1
    act(s, "roll", 1, face="insta_kill")
    with pytest.raises(IllegalActionError, match="in quarantine and cannot be hurt"):
        act(s, "resolve", 1, target=2)
    act(s, "return_die", 1)
    assert s.view(None)["turn"] == 3  # Cat is skipped
    act(s, "roll", 3, face="id_check")
    act(s, "return_die", 3)
    assert s.view(None)["turn"] == 0 and not s.view(None)["players"][2]["quarantined"]


def test_a_quarantine_lasts_the_round_when_the_quarantiner_dies() -> None:
    s = table(deal=KNOWN)
    act(s, "roll", 0, face="quarantine")
    act(s, "resolve", 0, target=2)
    act(s, "roll", 1, face="insta_kill")
    act(s, "resolve", 1, target=0)  # Ann dies before Cat's turn comes
    view = s.view(None)
    assert view["players"][2]["quarantined"] and view["turn"] == 3  # Cat is still skipped
    act(s, "roll", 3, face="insta_kill")
    with pytest.raises(IllegalActionError, match="in quarantine and cannot be hurt"):
        act(s, "resolve", 3, target=2)
    act(s, "return_die", 3)
    assert s.history[-1].notes == ("Cat leaves quarantine", "Ben's turn")  # at Ann's seat
    assert not s.view(None)["players"][2]["quarantined"]


def test_a_quarantined_player_cannot_use_a_reserved_cancel_but_still_votes() -> None:
    s = table(deal=KNOWN, options={"engines_to_earth": 1})
    act(s, "roll", 0, face="cancel")
    act(s, "reserve_die", 0)
    act(s, "roll", 1, face="quarantine")
    act(s, "resolve", 1, target=0)
    assert s.state.phase == "cancel"  # Ann could Cancel her own quarantine; she lets it be
    act(s, "carry_out", 1)
    act(s, "roll", 2, face="stall")
    act(s, "resolve", 2)  # Ann holds a Cancel but is in quarantine: no window opens
    assert s.view(None)["stalls"] == 1
    assert "cancel" not in [a.name for a in s.legal_actions(0)]
    act(s, "roll", 3, face="engine")  # the stall takes it
    act(s, "roll", 1, face="engine")  # Ann skipped; Ben brings the ship home
    assert s.state.phase == "vote"
    assert "vote" in [a.name for a in s.legal_actions(0)]  # quarantined, still votes
    assert "vote" not in [a.name for a in s.legal_actions(3)]  # the Stowaway does not


def test_a_cancel_window_opens_only_for_someone_who_can_cancel() -> None:
    s = table(deal=KNOWN)
    act(s, "roll", 0, face="cancel")
    act(s, "reserve_die", 0)
    act(s, "roll", 1, face="damage_heal")
    act(s, "resolve", 1, target=2, choice="damage")
    assert s.state.phase == "cancel" and s.view(None)["waiting_for"] == [1]
    assert [a.name for a in s.legal_actions(0) if a.kind == "reaction"] == ["cancel"]
    with pytest.raises(IllegalActionError, match="^cannot carry_out by seat 0 .Ann.: only Ben"
                       " closes the window on their Damage or heal .it then goes ahead.$"):
        act(s, "carry_out", 0)
    # Every screen says Ann may still answer (her Cancel lies in the open, on her card)
    assert s.table_view(None).may_answer == (0,) == s.table_view(3).may_answer
    known = s.rules.as_known_to(s.state, None)  # the table knows who may answer
    seats = len(s.setup.seats)
    assert answering(partial(s.rules.legal_actions, known), seats) == \
        answering(partial(s.rules.legal_actions, s.state), seats)
    act(s, "cancel", 0, what="waiting")  # nobody can answer it: it stays cancelled
    assert s.state.phase == "turn" and s.state.players[2].health == 2
    assert s.view(None)["turn"] == 2 and s.view(None)["bag"] == 21


def test_a_fresh_cancel_stops_a_stall_or_a_quarantine() -> None:
    s = table(deal=KNOWN)
    act(s, "roll", 0, face="quarantine")
    act(s, "resolve", 0, target=3)
    act(s, "roll", 1, face="cancel")
    assert [p.choices for p in s.legal_actions(1)[1].params] == [("quarantine:3",)]
    act(s, "resolve", 1, what="quarantine:3")
    assert not s.view(None)["players"][3]["quarantined"]
    act(s, "roll", 2, face="cancel")
    with pytest.raises(IllegalActionError, match="nothing to cancel now"):
        act(s, "resolve", 2, what="stall")


def test_private_looks_go_to_the_looker_only() -> None:
    s = table(deal=KNOWN)
    act(s, "roll", 0, face="id_check")
    act(s, "resolve", 0, target=1)
    looks = s.view(0)["you"]["looks"]
    assert looks == [{"card": "id", "seat": 1, "name": "Ben", "result": "specialist",
                      "stale": False}]
    assert all(s.view(seat)["you"]["looks"] == [] for seat in (1, 2, 3))
    assert "specialist" not in s.history[-1].text and s.history[-1].reveals
    act(s, "roll", 1, face="scan_neighbour")
    assert s.legal_actions(1)[1].params[0].choices == (0, 2)  # left or right neighbour


def test_nobody_sees_their_own_parasite_card() -> None:
    s = table(deal=KNOWN)
    for seat in range(4):
        you = s.view(seat)["you"]
        assert "parasite" not in you and s.view(seat)["players"][seat]["parasite"] is None
    with pytest.raises(IllegalActionError, match="their own parasite card"):
        act(s, "grant_look", None, looker=2, card="parasite", target=2, reason="Doctor")


def test_a_role_is_used_once() -> None:
    s = table(deal=KNOWN)
    use = next(spec for spec in s.legal_actions(1) if spec.name == "use_role")
    role = s.state.players[1].role
    assert role is not None  # the button says what the (face-up) role does
    assert use.note == f"{s.state.book.role_label(role)}: {s.state.book.role_ability(role)}"
    assert s.state.book.role_ability(role)
    act(s, "use_role", 1)
    assert s.view(None)["players"][1]["role_used"] is True
    assert "use_role" not in [a.name for a in s.legal_actions(1)]
    assert "use_role" not in [a.name for a in s.legal_actions(0)]  # the Captain's is passive
    assert "use_role" not in [a.name for a in s.legal_actions(3)]  # the Stowaway has none


def test_the_captain_breaks_a_tie() -> None:
    s = table(deal=KNOWN, options={"engines_to_earth": 1})
    act(s, "roll", 0, face="engine")
    act(s, "vote", 0, target=1)
    act(s, "vote", 1, target=0)
    assert s.view(None)["voted"] == [0, 1] and s.view(None)["votes"] is None  # still secret
    assert s.view(0)["you"]["vote"] == 1 and s.view(1)["you"]["vote"] == 0
    act(s, "vote", 2, target=0)
    # 0 and 1 would tie 1-1 had Cat voted elsewhere; here Ann has 2: she is ejected.
    assert s.state.ejected == 0 and s.outcome is not None
    assert s.outcome.reason == "clean_ejected"


def test_a_tie_goes_to_the_living_captain() -> None:
    s = table(5, deal={"roles": {"0": "captain", "1": "marine", "2": "pilot", "3": "doctor",
                                 "4": "stowaway"}}, options={"engines_to_earth": 1})
    for seat in range(5):
        act(s, "id_seen", seat, team="specialist" if seat in (1, 3) else "crew")
    act(s, "roll", 0, face="engine")
    for voter, target in ((0, 1), (1, 0), (2, 3), (3, 2)):
        act(s, "vote", voter, target=target)
    assert s.state.phase == "tiebreak" and s.state.tied == [0, 1, 2, 3]
    act(s, "break_tie", 0, target=3)
    assert s.state.phase == "reveal_ejected"  # real cards: the table turns Dan's over
    act(s, "ejected_revealed", None, parasite="infected")
    assert s.outcome is not None and s.outcome.reason == "infected_ejected"
    assert s.outcome.winners == (0, 2, 4)


def test_cards_dealt_by_hand_roles_told_and_deaths_revealed_by_the_table() -> None:
    s = table(deal={}, start=False)
    assert s.state.phase == "roles" and not s.state.dealt
    for seat, role in enumerate(("marine", "pilot", "doctor")):
        act(s, "role_seen", seat, role=role)
    with pytest.raises(IllegalActionError, match="the last role must be the Captain"):
        act(s, "role_seen", 3, role="stowaway")
    act(s, "role_seen", 3, role="captain")
    act(s, "end_heads_down", None)
    assert s.view(None)["turn"] == 3
    act(s, "roll", 3, face="insta_kill")
    act(s, "resolve", 3, target=0)
    assert s.state.phase == "reveal" and s.view(None)["status"].startswith("the table turns")
    act(s, "dead_revealed", None, target=0, team="crew", parasite="clean")
    assert s.state.phase == "turn" and s.view(None)["turn"] == 1
    act(s, "roll", 1, face="scan_any")
    act(s, "resolve", 1, target=2)
    assert s.view(1)["you"]["looks"][0]["result"] is None  # a real card: look at it


def test_the_specialists_win_when_the_crew_are_all_dead() -> None:
    s = table(deal=KNOWN)
    for target in (0, 2, 3):
        while s.view(None)["turn"] != 1:
            turn = s.view(None)["turn"]
            act(s, "roll", turn, face="id_check")
            act(s, "return_die", turn)
        act(s, "roll", 1, face="insta_kill")
        act(s, "resolve", 1, target=target)
    assert s.outcome is not None and s.outcome.reason == "crew_dead"
    assert s.outcome.winners == (1,)


def test_a_die_seen_by_the_camera_suggests_the_roll() -> None:
    rules = get_game("burkes-gambit")
    s = table(deal=KNOWN)
    assert rules.suggest(s.state, DieFace("burke", "QUARANTINE")) == (
        Action("roll", 0, {"face": "quarantine"}),)
    act(s, "roll", 0, face="id_check")
    assert rules.suggest(s.state, DieFace("burke", "Insta-kill")) == (
        Action("reroll", 0, {"face": "insta_kill"}),)
    assert rules.suggest(s.state, DieFace("burke", "banana")) == ()
    assert rules.suggest(s.state, parse_payload("GC1/BG/PARASITE/INFECTED")) == ()
    act(s, "return_die", 0)
    act(s, "roll", 1, face="engine")
    act(s, "roll", 2, face="engine")
    act(s, "roll", 3, face="engine")  # the vote: no roll expected, a die means nothing
    assert rules.suggest(s.state, DieFace("burke", "CANCEL")) == ()


def test_house_rules_in_data_change_the_game() -> None:
    s = table(deal=KNOWN, options={"house": {"quarantine": {"blocks_voting": True},
                                             "setup": {"health": 3}}})
    assert [p.health for p in s.state.players] == [3, 3, 3, 3]
    with pytest.raises(SetupError, match="not a rule the data file knows"):
        table(options={"house": {"dragons": 1}})


def test_the_rules_summary_marks_house_defaults() -> None:
    text = get_game("burkes-gambit").rules_summary()
    assert "Quarantine:" in text and "[house]" in text and "Stowaway" in text
    assert "4p 3, 5p 4, 6p 5, 7p 6, 8p 6" in text


def test_a_death_during_the_vote_starts_it_again_and_can_end_it() -> None:
    """Dropping only the votes for the dead would show every phone who had cast them: after
    any death in the vote, everyone living votes again."""
    s = table(deal=KNOWN, options={"engines_to_earth": 1})
    act(s, "roll", 0, face="engine")
    act(s, "vote", 0, target=1)  # Ann votes for Ben
    act(s, "vote", 2, target=0)
    act(s, "correct", None, counter="health", target=1, value=0, reason="Marine's ability")
    assert s.state.votes == {} and s.state.phase == "vote"
    assert s.view(None)["waiting_for"] == [0, 2]  # Ann's vote for Ben is not singled out
    assert any("everyone living votes again" in n for n in s.history[-1].to_dict(None)["notes"])
    act(s, "vote", 0, target=2)
    act(s, "correct", None, counter="health", target=2, value=0, reason="ruling")
    # Cat died: Ann votes again, alone (Dan, the Stowaway, does not vote).
    assert s.state.phase == "vote" and s.state.votes == {} and s.view(None)["waiting_for"] == [0]
    act(s, "vote", 0, target=3)
    assert s.state.ejected == 3 and s.outcome is not None
    # Cat carried the parasite: her death dealt it again, to Ann or Dan (Ben is dead too).
    infected = s.state.players[3].parasite == "infected"
    assert [p.parasite for p in s.state.players if p.alive].count("infected") == 1
    assert s.outcome.reason == ("infected_ejected" if infected else "clean_ejected")


def vote_choices(session: TableSession, seat: int) -> tuple[Any, ...]:
    vote = next(a for a in session.legal_actions(seat) if a.name == "vote")
    return vote.params[0].choices


def test_a_vote_is_for_another_player_unless_the_table_says_yourself_too() -> None:
    """"Point a finger towards the player they want ejected": at another player by default;
    house vote.for_yourself lets Cat, whom a scan found infected, vote herself out."""
    s = table(deal=KNOWN, options={"engines_to_earth": 1})
    act(s, "roll", 0, face="engine")
    assert vote_choices(s, 2) == (0, 1, 3)
    with pytest.raises(IllegalActionError, match="you vote for another living player, not"
                       " yourself"):
        act(s, "vote", 2, target=2)
    assert s.state.votes == {}
    assert "[house: a vote is for another player, not yourself]" in \
        get_game("burkes-gambit").rules_summary()

    house = {"engines_to_earth": 1, "house": {"vote": {"for_yourself": True}}}
    s = table(deal=KNOWN, options=house)
    act(s, "roll", 0, face="engine")
    assert vote_choices(s, 2) == (0, 1, 2, 3)
    act(s, "correct", None, counter="health", target=3, value=0, reason="test")
    with pytest.raises(IllegalActionError, match="you vote for a living player: seat 3"):
        act(s, "vote", 2, target=3)
    act(s, "vote", 2, target=2)
    act(s, "vote", 0, target=2)
    act(s, "vote", 1, target=0)
    assert s.state.ejected == 2 and s.outcome is not None
    assert s.outcome.reason == "infected_ejected"
    assert "[house: a player may vote for themselves]" in \
        get_game("burkes-gambit").rules_summary(house)
    from companion.games.burkes_gambit.book import Book
    packaged = Book.default().data
    with pytest.raises(SetupError, match="rule 'vote.for_yourself' must be true or false"):
        Book.check({**packaged, "vote": {"for_yourself": "yes"}})


def test_a_cancel_on_a_stall_can_itself_be_cancelled() -> None:
    s = table(deal=KNOWN)
    act(s, "roll", 0, face="cancel")
    act(s, "reserve_die", 0)
    act(s, "roll", 1, face="stall")
    act(s, "resolve", 1)  # Ann could cancel the Stall; she waits
    act(s, "carry_out", 1)
    act(s, "roll", 2, face="cancel")
    act(s, "resolve", 2, what="stall")
    assert s.state.phase == "cancel" and s.state.stalls == 1  # Ann may answer
    act(s, "cancel", 0, what="waiting")  # Ann cancels Cat's Cancel: the Stall stays
    assert s.state.stalls == 1 and s.state.phase == "turn" and s.view(None)["turn"] == 3
    assert s.view(None)["bag"] == 20


def test_a_reserved_cancel_on_a_quarantine_out_of_turn_keeps_the_turn() -> None:
    s = table(deal=KNOWN)
    act(s, "roll", 0, face="quarantine")
    act(s, "resolve", 0, target=3)
    act(s, "roll", 1, face="cancel")
    act(s, "reserve_die", 1)
    act(s, "roll", 2, face="id_check")  # Cat holds a die when Ben cancels the quarantine
    act(s, "cancel", 1, what="quarantine:3")
    assert not s.view(None)["players"][3]["quarantined"]
    assert s.view(None)["turn"] == 2 and s.view(None)["die"] == {"face": "id_check",
                                                                 "rerolled": False}


def stall_and_bens_cancel() -> TableSession:
    """Ann's Stall stands in the centre, Ben holds a Cancel in reserve; Dan's turn."""
    s = table(deal=KNOWN)
    act(s, "roll", 0, face="stall")
    act(s, "resolve", 0)
    act(s, "roll", 1, face="cancel")
    act(s, "reserve_die", 1)
    act(s, "roll", 2, face="id_check")
    act(s, "return_die", 2)
    return s


def test_a_cancel_of_a_stall_inside_another_window_leaves_that_action_waiting() -> None:
    s = stall_and_bens_cancel()
    act(s, "roll", 3, face="insta_kill")
    act(s, "resolve", 3, target=0)  # Ben could cancel it
    act(s, "cancel", 1, what="stall")  # he stops the Stall instead: the Insta-kill still waits
    assert s.history[-1].notes == ("Dan's Insta-kill on Ann waits until this Cancel is settled",
                                   "The Stall in the centre is cancelled",
                                   "Back to Dan's Insta-kill on Ann", "Ann dies",
                                   "Ann was Salvage Crew, clean", "Ben's turn")
    view = s.view(None)
    assert view["stalls"] == 0 and view["bag"] == 21 and view["turn"] == 1


def test_a_cancelled_quarantine_inside_another_window_reopens_it_for_more_cancels() -> None:
    s = table(deal=KNOWN)
    act(s, "roll", 0, face="cancel")
    act(s, "reserve_die", 0)
    act(s, "roll", 1, face="cancel")
    act(s, "reserve_die", 1)
    act(s, "roll", 2, face="quarantine")
    act(s, "resolve", 2, target=1)
    act(s, "carry_out", 2)  # Ben is in quarantine until Cat's next turn: skipped
    act(s, "roll", 3, face="damage_heal")
    act(s, "resolve", 3, target=2, choice="damage")
    act(s, "cancel", 0, what="quarantine:1")  # nobody free can answer Ann: it is done at once
    assert s.history[-1].notes == (
        "Dan's Damage or heal (damage) on Cat waits until this Cancel is settled",
        "Ben's quarantine is cancelled", "Back to Dan's Damage or heal (damage) on Cat")
    assert s.state.phase == "cancel" and s.view(None)["waiting_for"] == [3]  # Ben may cancel it
    act(s, "cancel", 1, what="waiting")
    assert "Dan's Damage or heal is cancelled; the dice go back to the bag" in s.history[-1].notes
    assert s.state.players[2].health == 2 and s.view(None)["bag"] == 21


def test_a_cancel_of_a_cancel_inside_another_window_then_that_action_goes_ahead() -> None:
    s = table(deal=KNOWN)
    act(s, "roll", 0, face="cancel")
    act(s, "reserve_die", 0)
    act(s, "roll", 1, face="cancel")
    act(s, "reserve_die", 1)
    act(s, "roll", 2, face="quarantine")
    act(s, "resolve", 2, target=3)
    act(s, "carry_out", 2)  # Dan is skipped
    act(s, "roll", 0, face="damage_heal")
    act(s, "resolve", 0, target=2, choice="damage")
    before = s.view(None)
    act(s, "cancel", 1, what="quarantine:3")  # Ann may cancel Ben's Cancel: her own action waits
    assert s.view(None)["pending"] == {
        "actor": 1, "face": "cancel", "target": None, "choice": "quarantine:3", "cancels": [],
        "cancelled": False, "held": [{"actor": 0, "face": "damage_heal", "target": 2,
                                      "choice": "damage", "cancels": [], "cancelled": False}]}
    assert [f.value for f in s.table_view(None).facts if f.key == "held"] == [
        "Ann's Damage or heal (damage) on Cat"]
    s.undo()  # the window within a window is taken back whole
    assert s.view(None) == before
    act(s, "cancel", 1, what="quarantine:3")
    act(s, "cancel", 0, what="waiting")
    assert s.history[-1].notes == ("Ben's Cancel is cancelled; the dice go back to the bag",
                                   "Back to Ann's Damage or heal (damage) on Cat",
                                   "Cat is at 1 health", "Ben's turn")
    view = s.view(None)
    assert view["players"][3]["quarantined"] and view["players"][2]["health"] == 1
    again = TableSession.replay(s.setup, [r.action for r in s.history])
    assert again.view(None) == view


def test_a_cancel_whose_stall_is_gone_comes_to_nothing() -> None:
    s = stall_and_bens_cancel()
    act(s, "roll", 3, face="cancel")
    act(s, "resolve", 3, what="stall")
    act(s, "cancel", 1, what="stall")  # the same Stall, by Ben: his Cancel settles first
    assert s.history[-1].notes[-3:] == ("Back to Dan's Cancel of the Stall in the centre",
                                        "Dan's Cancel comes to nothing", "Ann's turn")
    view = s.view(None)
    assert view["stalls"] == 0 and view["bag"] == 21


def test_an_empty_bag_lets_the_player_pass() -> None:
    s = table(deal=KNOWN, options={"house": {"setup": {"dice": 1}}, "engines_to_earth": 1})
    act(s, "roll", 0, face="stall")
    act(s, "resolve", 0)  # the only die waits in the centre
    names = [a.name for a in s.legal_actions(1)]
    assert "roll" not in names and "pass_turn" in names
    with pytest.raises(IllegalActionError, match="the bag is empty: pass$"):  # none reserved
        act(s, "roll", 1, face="engine")
    act(s, "pass_turn", 1)
    assert s.view(None)["turn"] == 2 and s.view(None)["bag"] == 0


def test_with_real_cards_the_winners_are_named_as_ids_are_told() -> None:
    s = table(deal={"roles": {"0": "captain", "1": "marine", "2": "pilot", "3": "doctor"}},
              options={"engines_to_earth": 1})
    act(s, "roll", 0, face="engine")
    for voter, target in ((0, 2), (1, 2), (2, 0), (3, 2)):
        act(s, "vote", voter, target=target)
    act(s, "ejected_revealed", None, parasite="infected")
    assert s.outcome is not None and s.outcome.winners == ()  # no ID card known yet
    act(s, "id_seen", 0, team="crew")
    act(s, "id_seen", 2, team="specialist")
    # 4 players have one specialist card: Cat's tells that Ben and Dan are crew too.
    assert s.outcome.winners == (0, 1, 3)
    assert not s.history[-1].private  # after the end, nothing is secret


def test_the_summary_says_the_house_voting_rule_either_way() -> None:
    rules = get_game("burkes-gambit")
    assert "a quarantined player does not vote" in rules.rules_summary(
        {"house": {"quarantine": {"blocks_voting": True}}})
    assert "End: when the engines reach Earth" in rules.rules_summary(
        {"house": {"quarantine": {"blocks_voting": True}}})


def test_dead_revealed_is_offered_only_when_cards_wait() -> None:
    s = table(deal=KNOWN)
    assert "dead_revealed" not in [a.name for a in s.legal_actions(None)]


def test_a_death_from_a_held_action_at_a_table_dealt_by_hand_waits_for_its_cards() -> None:
    """The death ends nothing until the table turns the cards face up; then the turn passes
    once (not once for the death and once for the cards)."""
    s = table(deal={}, start=False)
    for seat, role in enumerate(("marine", "pilot", "doctor", "captain")):
        act(s, "role_seen", seat, role=role)
    act(s, "end_heads_down", None)
    act(s, "roll", 3, face="stall")
    act(s, "resolve", 3)
    act(s, "roll", 0, face="cancel")
    act(s, "reserve_die", 0)
    act(s, "roll", 1, face="id_check")
    act(s, "return_die", 1)
    act(s, "roll", 2, face="insta_kill")
    act(s, "resolve", 2, target=3)
    act(s, "cancel", 0, what="stall")  # the Insta-kill is held, then goes ahead: Dan dies
    assert s.state.phase == "reveal" and s.view(None)["turn"] == 2
    act(s, "dead_revealed", None, target=3, team="crew", parasite="clean")
    assert s.state.phase == "turn" and s.view(None)["turn"] == 0


def test_a_target_refused_says_why_in_the_rules_words() -> None:
    s = table(deal=KNOWN)
    for name, face, params, reason in (
            ("resolve", "scan_any", {"target": 0}, "not on yourself: on another living player"),
            ("resolve", "id_check", {"target": 0}, "not on yourself"),
            ("resolve", "scan_neighbour", {"target": 2},
             "seat 2 (Cat) is not your living left or right neighbour")):
        act(s, "roll", 0, face=face)
        with pytest.raises(IllegalActionError, match=re.escape(reason)):
            act(s, name, 0, **params)
        act(s, "return_die", 0)
        for seat in (1, 2, 3):
            act(s, "roll", seat, face="id_check")
            act(s, "return_die", seat)
    act(s, "correct", None, counter="health", target=1, value=0, reason="Ben fell")
    act(s, "roll", 0, face="damage_heal")
    with pytest.raises(IllegalActionError, match=re.escape("seat 1 (Ben) is dead")):
        act(s, "resolve", 0, target=1, choice="heal")


def test_a_cancel_window_and_the_vote_are_named_on_the_phone_not_called_a_turn() -> None:
    """Ben's Quarantine waits on a Cancel: his phone says to go on once nobody cancels, not
    "Your turn"; at Earth each voter's phone asks for the vote."""
    s = table(deal=KNOWN, options={"engines_to_earth": 1})
    act(s, "roll", 0, face="cancel")
    act(s, "reserve_die", 0)
    act(s, "roll", 1, face="quarantine")
    assert s.table_view(1).prompt == ""  # his own turn: the phone says "Your turn"
    act(s, "resolve", 1, target=0)
    assert s.table_view(1).turn == 1
    assert s.table_view(1).prompt == "Your Quarantine is about to happen: go on once nobody" \
        " cancels it"
    assert [s.table_view(seat).prompt for seat in (0, 2, 3)] == ["", "", ""]
    act(s, "carry_out", 1)
    act(s, "roll", 2, face="stall")
    act(s, "resolve", 2)
    act(s, "roll", 3, face="engine")
    act(s, "roll", 1, face="engine")
    assert s.table_view(0).prompt == "The ship reaches Earth: vote whom to eject"
    assert s.table_view(3).prompt == ""  # the Stowaway does not vote


def test_a_correction_starts_at_what_it_corrects_as_it_is_now() -> None:
    s = table(deal=KNOWN)
    act(s, "correct", None, counter="health", target=1, value=2, reason="test")
    spec = next(a for a in s.legal_actions(None) if a.name == "correct")
    value = next(p for p in spec.params if p.name == "value")
    assert value.starts_on == ("counter", "target")  # the order of each key's values
    starts = dict(value.starts_by)
    assert starts[("health", 1)] == 2 and starts[("health", 0)] == s.state.players[0].health
    assert starts[("engines", 3)] == s.state.engines and starts[("stalls", 0)] == s.state.stalls


def test_who_may_answer_a_cancel_window_comes_out_the_same_from_the_tables_knowledge() -> None:
    """Two Cancels in reserve, a crew member's and a Specialist's: both may answer, on every
    screen, and nothing the table may not know (whose side they are on) changes that."""
    from tests.conformance import check_knowledge, check_screens

    s = table(deal=KNOWN)
    act(s, "roll", 0, face="cancel")
    act(s, "reserve_die", 0)
    act(s, "roll", 1, face="cancel")
    act(s, "reserve_die", 1)
    act(s, "roll", 2, face="damage_heal")
    before = s.state
    act(s, "resolve", 2, target=3, choice="damage")
    assert s.state.phase == "cancel" and s.table_view(None).may_answer == (0, 1)
    check_knowledge(s, s.history[-1], before)
    check_screens(s)
