"""Found by a blind review (scenarios written from the rulebook before reading the code):
refusals of `lay_card` and `unlock` that name the real reason in the players' words, and a
Soldier that takes the Castle on its farthest row (the win is the last word)."""

from __future__ import annotations

import pytest

from companion.engine import RulesError
from tests.games.test_gambit_of_kings_tables import act, move, notes, pieces, refused, table

APART = "a1 light castle, j10 dark castle"


def test_laying_the_other_sides_card_names_the_side() -> None:
    session = table(mode="adventure", card_rows="choose")
    assert refused(session, 0, "lay_card", piece="orc") == (
        "cannot lay_card by Ann: the Orc is a dark piece: Ann lays the light side's cards")
    assert refused(session, 1, "lay_card", piece="light paladin") == (
        "cannot lay_card by Ben: the Paladin is a light piece: Ben lays the dark side's cards")


def test_laying_the_castle_says_it_is_always_last() -> None:
    session = table(mode="adventure", card_rows="choose")
    assert refused(session, 0, "lay_card", piece="castle") == (
        "cannot lay_card by Ann: the Castle is always card 8, the last: lay the other seven")


def test_laying_a_card_twice_names_where_it_lies() -> None:
    session = table(mode="adventure", card_rows="choose")
    act(session, 0, "lay_card", piece="griffin")
    act(session, 0, "lay_card", piece="knight")
    assert refused(session, 0, "lay_card", piece="Knight") == (
        "cannot lay_card by Ann: the Knight is card 2 already")


def test_laying_no_piece_at_all_lists_the_cards_left() -> None:
    session = table(mode="adventure", card_rows="choose")
    message = refused(session, 0, "lay_card", piece="dragonfly")
    assert message.startswith("cannot lay_card by Ann: 'dragonfly' is not a piece:")


def test_unlocking_the_other_sides_piece_names_its_owner() -> None:
    session = table(APART + ", e4 light knight, e6 dark orc", mode="tar")
    assert refused(session, 0, "unlock", piece="orc") == (
        "cannot unlock by Ann: the Orc is Ben's piece: unlock one of your own")


def test_unlocking_a_piece_off_the_board_or_without_a_moving_effect_says_so() -> None:
    session = table(APART + ", e4 light knight, c3 light paladin, e6 dark orc", mode="tar")
    assert refused(session, 0, "unlock", piece="griffin") == (
        "cannot unlock by Ann: you have no Griffin on the board")
    assert refused(session, 0, "unlock", piece="paladin") == (
        "cannot unlock by Ann: the Paladin's adventure effect (1 free re-roll during combat"
        " this turn) changes no move, and the Tactical adventure rules (TAR) have no combat"
        " dice")
    assert refused(session, 0, "unlock", piece="castle") == (  # no dice to speak of
        "cannot unlock by Ann: the Castle's adventure effect (Move any piece) changes no move:"
        " in the Tactical adventure rules (TAR) any piece may move anyway")


def test_unlocking_with_no_piece_whose_effect_changes_a_move_names_the_pieces_left() -> None:
    session = table(APART + ", c3 light paladin, e6 dark orc", mode="tar")
    assert refused(session, 0, "unlock", piece="griffin") == (
        "cannot unlock by Ann: none of your pieces has an adventure effect that changes a move"
        " (the Castle: Move any piece; the Paladin: 1 free re-roll during combat this turn)")


def test_a_soldier_taking_the_castle_on_its_farthest_row_the_win_is_the_last_word() -> None:
    session = table("a1 light castle, e10 dark castle, e9 light soldier, c8 dark orc")
    move(session, 0, "e9", "e10")
    assert session.outcome is not None and session.outcome.winners == (0,)
    assert notes(session) == ["Ben's Castle on e10 is destroyed",
                              "Ann's Soldier reached the farthest row: it becomes a Knight",
                              "Ann wins: the Exiled King's Castle is taken"]
    assert "e10 light knight" in pieces(session)


def test_tokens_left_in_a_mode_without_tokens_say_there_are_none() -> None:
    with pytest.raises(RulesError) as caught:
        table(mode="standard", tokens={"light": 2, "dark": 1})
    assert str(caught.value) == "option tokens: there are no tokens in the Standard rules"
