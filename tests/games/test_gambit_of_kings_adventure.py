"""The adventure rules, AV I and AV II: the movement roll and the card it picks, the boxed-in
and none-left rules, the adventure effects an even roll unlocks, dice combat (who rolls which
die, the Giant's extra die, ties, the failed attack on a Castle), re-rolls, AV I's second move,
AV II's combat without dice. The card rows are fixed (tables.ROWS): light 1 Knight, 2 Griffin,
3 Paladin, 4 Lion, 5 Giant, 6 Elf, 7 Soldier, 8 Castle; dark 1 Orc, 2 Dragon, 3 Lich, 4 Dire
Wolf, 5 Ogre, 6 Death Knight, 7 Skeleton, 8 Castle."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import pytest

from companion.engine import Action, DieFace, IllegalActionError, TableSession, UndoError
from tests.games.test_gambit_of_kings_tables import (
    CARD,
    act,
    move,
    names,
    notes,
    pieces,
    reach,
    refused,
    refused_move,
    second,
    table,
)

APART = "a1 light castle, j10 dark castle"
NONE = {"light": 0, "dark": 0}  # no tokens: a fight ends as soon as its dice are in


def fight(session: TableSession, *dice: tuple[int, str, int]) -> None:
    """Enter combat dice: (seat, die, face)."""
    for seat, die, face in dice:
        act(session, seat, "combat_roll", die=die, face=face)


# --- the movement roll ----------------------------------------------------------------------

def test_the_roll_picks_the_card_and_that_piece_must_move() -> None:
    session = table(f"{APART}, e4 light knight, c3 light elf", mode="adventure")
    assert names(session) == ["roll"]
    act(session, 0, "roll", face=CARD["knight"])
    assert reach(session, "e4") and reach(session, "c3") == set()
    assert session.table_view(0).status == \
        "Ann to move (the roll is 1, the Knight's card: a Knight moves)"
    assert refused_move(session, 0, "c3", "d4") == ("cannot move by Ann: the roll is 1, the"
                                                   " Knight's card: a Knight moves (not the Elf"
                                                   " on c3)")
    assert session.state.unlocked is None  # an odd roll unlocks nothing


def test_no_piece_of_that_type_left_moves_any_piece() -> None:
    session = table(f"{APART}, e4 light knight, c3 light elf", mode="adventure")
    act(session, 0, "roll", face=CARD["lion"])
    assert reach(session, "e4") and reach(session, "c3")
    assert "no Lion is left, so any piece moves" in session.table_view(0).status


def test_a_boxed_in_piece_must_be_freed() -> None:
    session = table("e1 light castle, j10 dark castle, a1 light knight, a2 light soldier,"
                    " b1 light elf, b2 light soldier, h4 light paladin", mode="adventure",
                    tokens={"light": 0, "dark": 0})
    act(session, 0, "roll", face=CARD["knight"])
    assert "every Knight is boxed in, so a piece that frees one moves" in \
        session.table_view(0).status
    # The Soldier on a2 steps aside, or the Elf on b1 leaves; the Paladin frees nothing.
    assert reach(session, "a2") == {"a3", "a4"} and reach(session, "b1") == {"c2", "d3"}
    assert reach(session, "h4") == set() and reach(session, "b2") == set()
    assert refused_move(session, 0, "h4", "h5").endswith(
        "every Knight is boxed in, so a piece that frees one moves (not the Paladin on h4)")


def test_when_nothing_frees_a_boxed_in_piece_any_piece_moves() -> None:
    """The Knight is boxed in by its own Castle (which never moves) and its own Giant (boxed
    in itself): no single move frees it, so any piece moves."""
    session = table("a2 light castle, j10 dark castle, a1 light knight, b1 light giant,"
                    " b2 light soldier, c2 light soldier, c1 light elf", mode="adventure",
                    tokens=NONE)
    act(session, 0, "roll", face=CARD["knight"])
    assert session.table_view(0).status == (
        "Ann to move (the roll is 1, the Knight's card: every Knight is boxed in and no move"
        " frees one, so any piece moves)")
    assert reach(session, "a1") == set() == reach(session, "b1")
    assert reach(session, "b2") == {"b3", "b4"} and reach(session, "c1") == {"d2", "e3"}


def test_a_roll_of_eight_is_the_castle_card_any_piece_moves_with_its_own_effect() -> None:
    session = table(f"{APART}, e4 light knight, c3 light elf, e6 dark orc", mode="adventure")
    act(session, 0, "roll", face=8)
    assert notes(session) == ["the roll is 8, the Castle's card: any piece moves; an even roll"
                              " unlocks the adventure effect of each piece that moves"]
    assert "f6" in reach(session, "c3")  # the Elf's 3 diagonally
    assert "e7" in reach(session, "e4")  # the Knight flies over the Orc


def test_with_none_of_the_cards_type_left_the_piece_that_moves_has_its_own_effect() -> None:
    """"If you no longer have any pieces which match the card, move any piece instead": an
    even roll unlocks the effect of the piece that moves, not the missing piece's."""
    session = table(f"{APART}, e5 light elf, c3 light knight, c4 dark orc", mode="adventure")
    act(session, 0, "roll", face=CARD["griffin"])
    assert notes(session) == ["the roll is 2, the Griffin's card: no Griffin is left, so any"
                              " piece moves; an even roll unlocks the adventure effect of each"
                              " piece that moves"]
    assert {"h8", "b8", "h2"} <= reach(session, "e5") and "c5" in reach(session, "c3")
    move(session, 0, "e5", "h8")
    assert "h8 light elf" in pieces(session)


def test_where_the_cards_piece_must_move_only_its_effect_is_unlocked() -> None:
    """The Soldier's card, even, its Soldier boxed in: the Elf that frees it moves by its
    standard movement (not 3 diagonally)."""
    session = table(f"{APART}, e2 light soldier, d2 light giant, f2 light giant, e3 light elf",
                    mode="adventure", card_rows=second("soldier"))
    act(session, 0, "roll", face=2)
    assert "every Soldier is boxed in" in session.table_view(0).status
    assert session.state.unlocked == "soldier" and not session.state.own_effects
    assert reach(session, "e3") == {"d4", "c5", "f4", "g5"}


def test_a_roll_when_none_is_expected_or_an_impossible_face_is_refused() -> None:
    session = table(f"{APART}, e4 light knight", mode="adventure")
    assert refused(session, 0, "roll", face=9) == \
        "cannot roll by Ann: the movement die (a d8) shows 1 to 8, not 9"
    assert refused(session, 0, "roll", face=0) .endswith("not 0")
    assert refused(session, 0, "roll", face="3") .endswith("not '3'")
    assert refused(session, 1, "roll", face=3) == "cannot roll by Ben: it is Ann's turn"
    assert refused_move(session, 0, "e4", "e5") == \
        "cannot move by Ann: not now: Ann to roll the movement die (d8)"
    act(session, 0, "roll", face=1)
    assert refused(session, 0, "roll", face=1) == "cannot roll by Ann: not now: Ann to move"
    assert refused(session, 1, "combat_roll", die="orc_d6", face=2) == \
        "cannot combat_roll by Ben: no combat dice are expected now"


def test_a_token_rerolls_the_movement_die_before_moving() -> None:
    session = table(f"{APART}, e4 light knight, c3 light elf", mode="adventure",
                    tokens={"light": 1, "dark": 0})
    act(session, 0, "roll", face=CARD["knight"])
    act(session, 0, "reroll_movement", face=CARD["elf"])
    assert session.state.roll == 6 and session.state.unlocked == "elf"
    assert session.state.tokens == [0, 0] and reach(session, "c3") and not reach(session, "e4")
    assert "reroll_movement" not in names(session)


# --- adventure effects ----------------------------------------------------------------------

def test_an_even_roll_unlocks_the_giants_backward_move_without_attacking() -> None:
    rows = second("giant")
    position = f"{APART}, e5 light giant, e3 dark orc"
    session = table(position, mode="adventure", card_rows=rows)
    act(session, 0, "roll", face=2)  # the Giant's card, even
    assert {"e4", "d4", "c3", "f4", "g3", "h2"} <= reach(session, "e5")
    assert "e3" not in reach(session, "e5")  # backward only without attacking
    assert refused_move(session, 0, "e5", "e3") == (
        "cannot move by Ann: the Giant may not attack going 2 squares backward: e5 to e3"
        " would attack Ben's Orc")
    session = table(position, mode="adventure")
    act(session, 0, "roll", face=CARD["giant"])  # 5: odd, no effect
    assert not {"e4", "d4"} & reach(session, "e5")


def test_the_elf_goes_three_diagonally_without_attacking() -> None:
    session = table(f"{APART}, e5 light elf, h8 dark orc, b2 dark skeleton", mode="adventure")
    act(session, 0, "roll", face=CARD["elf"])
    assert reach(session, "e5") == {"d6", "c7", "b8", "f6", "g7", "d4", "c3", "f4", "g3", "h2"}


def test_the_soldier_goes_two_forward_attacking() -> None:
    rows = second("soldier")
    session = table(f"{APART}, e4 light soldier, e6 dark orc", mode="adventure",
                    card_rows=rows)
    act(session, 0, "roll", face=2)
    assert reach(session, "e4") == {"e5", "e6", "d4", "f4"}


def test_the_griffins_flight_cannot_be_stopped() -> None:
    session = table(f"{APART}, e4 light griffin, e5 dark ogre, e6 light giant",
                    mode="adventure")
    act(session, 0, "roll", face=CARD["griffin"])
    assert {"e5", "e7"} <= reach(session, "e4")


def test_the_lion_hunts_the_piece_moved_last_turn() -> None:
    session = table(f"{APART}, a3 light lion, h9 dark orc, j7 dark skeleton", mode="av1",
                    first="dark", tokens=NONE)
    act(session, 1, "roll", face=1)
    move(session, 1, "h9", "g8")  # the Orc moves
    act(session, 0, "roll", face=CARD["lion"])
    assert "g8" in reach(session, "a3")  # b3, then c4, d5 and on to g8
    assert not {"e6", "f7"} & reach(session, "a3")  # going on is only to attack
    assert refused_move(session, 0, "a3", "f7").endswith(
        "the Lion reaches f7 from a3 only by going on diagonally, to attack a piece moved"
        " during the last turn: f7 is empty")
    session = table(f"{APART}, a3 light lion, h9 dark orc, f7 dark skeleton", mode="av1",
                    first="dark", tokens=NONE)
    act(session, 1, "roll", face=1)
    move(session, 1, "h9", "g8")  # the Orc moves, not the Skeleton
    act(session, 0, "roll", face=CARD["lion"])
    assert refused_move(session, 0, "a3", "f7").endswith(
        "to attack a piece moved during the last turn: Ben's Skeleton did not move then")


def test_the_knight_flies_on_an_even_roll_of_its_card() -> None:
    rows = second("knight")
    session = table(f"{APART}, e4 light knight, e5 dark orc", mode="adventure",
                    card_rows=rows)
    act(session, 0, "roll", face=2)
    assert {"e5", "e6", "e7"} <= reach(session, "e4")
    session = table(f"{APART}, e4 light knight, e5 dark ogre", mode="adventure",
                    card_rows=rows)
    act(session, 0, "roll", face=2)
    assert "e5" in reach(session, "e4") and "e6" not in reach(session, "e4")  # not a Giant


# --- combat ---------------------------------------------------------------------------------

def knight_attacks_orc(**options: Any) -> TableSession:
    """Ann's Knight on e4 attacks Ben's Orc on e6 (no tokens: no re-rolls)."""
    session = table(f"{APART}, e4 light knight, e6 dark orc", mode="adventure", tokens=NONE,
                    **options)
    act(session, 0, "roll", face=CARD["knight"])
    move(session, 0, "e4", "e6")
    return session


def test_who_rolls_which_die() -> None:
    session = knight_attacks_orc()
    assert session.history[-1].text == "Ann's Knight e4 to e6: attacks Ben's Orc"
    assert session.state.phase == "combat"
    assert session.table_view(0).status == \
        "Combat: waiting for Ann's Knight's d8, Ann's d6 for the Orc, Ben's Orc's d6"
    ann = next(s for s in session.legal_actions(0) if s.name == "combat_roll")
    ben = next(s for s in session.legal_actions(1) if s.name == "combat_roll")
    assert ann.params[0].choices == ("knight_d8", "d6_for_the_orc") and ann.kind == "reaction"
    assert dict(ann.params[1].choices_by) == {"knight_d8": (1, 2, 3, 4, 5, 6, 7, 8),
                                              "d6_for_the_orc": (1, 2, 3, 4, 5, 6)}
    assert ben.params[0].choices == ("orc_d6",)
    assert set(session.table_view(None).waiting_for) == {0, 1}
    assert refused(session, 1, "combat_roll", die="knight_d8", face=2) == (
        "cannot combat_roll by Ben: 'knight_d8' is not one of your dice to roll now (orc_d6)")
    assert refused(session, 0, "combat_roll", die="d6_for_the_orc", face=7) == \
        "cannot combat_roll by Ann: the d6 for the Orc shows 1 to 6, not 7"


def test_each_phone_names_the_dice_it_must_enter_and_a_losing_side_its_choice() -> None:
    """Combat is not a turn: each side's phone says which dice it rolls, then the losing side
    that it may re-roll or accept (not "Your turn")."""
    session = knight_attacks_orc()
    assert session.table_view(0).prompt == ("Combat: roll your Knight's d8 and d6 for the Orc"
                                            " and enter them")
    assert session.table_view(1).prompt == "Combat: roll your Orc's d6 and enter it"
    fight(session, (0, "knight_d8", 2), (0, "d6_for_the_orc", 1))
    assert session.table_view(0).prompt == ""  # nothing asked of Ann until Ben's die is in
    rerolls = table(f"{APART}, e4 light knight, e6 dark orc", mode="adventure",
                    tokens={"light": 1, "dark": 1})
    act(rerolls, 0, "roll", face=CARD["knight"])
    assert rerolls.table_view(0).prompt == ""  # the movement roll is the turn itself
    move(rerolls, 0, "e4", "e6")
    fight(rerolls, (0, "knight_d8", 2), (0, "d6_for_the_orc", 1), (1, "orc_d6", 4))
    assert rerolls.table_view(0).prompt == ("You are losing the combat: re-roll one of your"
                                            " dice, or accept")
    assert rerolls.table_view(1).prompt == ""


def test_the_highest_die_wins_and_the_attacker_wins_ties() -> None:
    session = knight_attacks_orc()
    fight(session, (0, "knight_d8", 2), (0, "d6_for_the_orc", 5), (1, "orc_d6", 5))
    assert notes(session) == ["5 against 5: Ann wins the fight", "Ben's Orc on e6 is destroyed"]
    assert "e6 light knight" in pieces(session) and session.state.turn == 1


def test_a_lost_attack_destroys_the_attacker() -> None:
    session = knight_attacks_orc()
    fight(session, (1, "orc_d6", 6), (0, "knight_d8", 5), (0, "d6_for_the_orc", 1))
    assert notes(session) == ["5 against 6: Ben wins the fight", "Ann's Knight on e4 is destroyed"]
    assert pieces(session) == ["a1 light castle", "e6 dark orc", "j10 dark castle"]
    assert session.state.lost == [["knight"], []]


def test_a_table_may_count_the_sum_of_the_dice() -> None:
    session = knight_attacks_orc(house={"dice": {"compare": "sum"}})
    fight(session, (1, "orc_d6", 6), (0, "knight_d8", 5), (0, "d6_for_the_orc", 1))
    assert notes(session)[0] == "6 against 6: Ann wins the fight"


def test_the_giant_has_an_extra_d8_against_lesser_pieces_attacking_or_defending() -> None:
    session = table(f"{APART}, e4 light giant, e5 dark orc", mode="adventure", tokens=NONE)
    act(session, 0, "roll", face=CARD["giant"])
    move(session, 0, "e4", "e5")
    assert [(d.id, d.seat) for d in session.state.combat.dice] == [  # type: ignore[union-attr]
        ("giant_d8", 0), ("d6_for_the_orc", 0), ("extra_d8", 0), ("orc_d6", 1)]
    fight(session, (0, "giant_d8", 1), (0, "d6_for_the_orc", 1), (0, "extra_d8", 6),
          (1, "orc_d6", 5))
    assert notes(session)[0] == "6 against 5: Ann wins the fight"
    session = table(f"{APART}, e4 light giant, d5 dark orc", mode="adventure", tokens=NONE,
                    first="dark")
    act(session, 1, "roll", face=1)
    move(session, 1, "d5", "e4")  # the Orc attacks the Giant
    assert [(d.id, d.seat) for d in session.state.combat.dice] == [  # type: ignore[union-attr]
        ("orc_d6", 1), ("d8_for_the_giant", 1), ("giant_d8", 0), ("extra_d8", 0)]


def test_no_extra_die_between_greater_pieces() -> None:
    session = table(f"{APART}, e4 light giant, e5 dark lich", mode="adventure", tokens=NONE)
    act(session, 0, "roll", face=CARD["giant"])
    move(session, 0, "e4", "e5")
    assert [d.id for d in session.state.combat.dice] == [  # type: ignore[union-attr]
        "giant_d8", "d10_for_the_lich", "lich_d10"]


def test_a_defending_soldier_that_destroys_a_greater_piece_is_promoted() -> None:
    session = table(f"{APART}, e4 light knight, e6 dark skeleton", mode="adventure",
                    tokens=NONE)
    act(session, 0, "roll", face=CARD["knight"])
    move(session, 0, "e4", "e6")
    fight(session, (0, "knight_d8", 1), (0, "d6_for_the_skeleton", 1), (1, "skeleton_d6", 2))
    assert "e6 dark death knight" in pieces(session)
    assert notes(session)[-1] == \
        "Ben's Skeleton destroyed a greater piece: it becomes a Death Knight"


@pytest.mark.parametrize(("position", "origin", "stays"), [
    # walking: the square before the Castle
    ("a1 light castle, e9 dark castle, e6 light knight", "e6", "e8"),
    # flying over pieces: the nearest free square of its path
    ("a1 light castle, e9 dark castle, e6 light griffin, e8 dark orc", "e6", "e7"),
    ("a1 light castle, e9 dark castle, e6 light griffin, e8 dark orc, e7 light elf", "e6", "e6"),
    # next to the Castle: it stays where it was
    ("a1 light castle, e9 dark castle, e8 light knight", "e8", "e8"),
])
def test_a_failed_attack_on_the_castle_leaves_the_attacker_nearest_it_on_its_path(
        position: str, origin: str, stays: str) -> None:
    """"Remains on the closest (unoccupied in the case of flying) square to the Castle from
    which it moved"; the rules summary says so too (it said "beside it", wrong for a flier
    whose path is full next to the Castle)."""
    session = table(position, mode="av1", tokens=NONE)
    act(session, 0, "roll", face=1)
    move(session, 0, origin, "e9")
    kind = session.state.combat.piece.kind  # type: ignore[union-attr]
    fight(session, (0, f"{kind}_d8", 3), (0, "d10_for_the_castle", 4), (1, "castle_d10", 9))
    assert notes(session) == ["4 against 9: Ben wins the fight",
                              f"the attack on the Castle fails: the attacker stays on {stays}"]
    assert f"{stays} light {kind}" in pieces(session) and "e9 dark castle" in pieces(session)
    assert session.state.lost == [[], []] and session.outcome is None
    assert ("a failed attack on the Castle leaves the attacker on the free square of its path"
            " nearest the Castle") in session.rules.rules_summary({"mode": "av1"})


def test_winning_the_fight_against_the_castle_wins_the_game() -> None:
    session = table("a1 light castle, e9 dark castle, e8 light soldier", mode="av1",
                    tokens=NONE)
    act(session, 0, "roll", face=3)
    move(session, 0, "e8", "e9")
    fight(session, (0, "soldier_d6", 6), (0, "d10_for_the_castle", 2), (1, "castle_d10", 6))
    assert session.outcome is not None and session.outcome.winners == (0,)
    assert "e9 dark castle" not in pieces(session)


# --- re-rolls -------------------------------------------------------------------------------

def test_the_losing_side_may_reroll_with_a_token_or_accept() -> None:
    session = table(f"{APART}, e4 light knight, e6 dark orc", mode="adventure",
                    tokens={"light": 1, "dark": 1})
    act(session, 0, "roll", face=CARD["knight"])
    move(session, 0, "e4", "e6")
    fight(session, (0, "knight_d8", 2), (0, "d6_for_the_orc", 1), (1, "orc_d6", 4))
    assert session.state.phase == "combat" and session.table_view(None).waiting_for == (0,)
    assert names(session, 0) == ["reroll_combat", "accept"] and names(session, 1) == []
    assert session.table_view(0).status == \
        "Combat: Ann is losing and may re-roll a die, or accept"
    assert refused(session, 1, "accept") == ("cannot accept by Ben: only the side losing the"
                                             " fight may re-roll or accept, once every die is in")
    assert refused(session, 0, "reroll_combat", die="orc_d6", face=5) == (
        "cannot reroll_combat by Ann: 'orc_d6' is not one of your dice to re-roll now"
        " (knight_d8, d6_for_the_orc)")
    act(session, 0, "reroll_combat", die="knight_d8", face=5)
    assert session.history[-1].text == "Ann re-rolls the Knight's d8 (a token): 5"
    # Now Ben is losing, has a token, and his d6 could beat 5.
    assert names(session, 1) == ["reroll_combat", "accept"] and names(session, 0) == []
    act(session, 1, "reroll_combat", die="orc_d6", face=3)
    # Ben still loses and has no token left: the fight ends by itself.
    assert session.state.phase == "roll" and "e6 light knight" in pieces(session)
    assert session.state.tokens == [0, 0]


def test_a_fight_ends_when_no_reroll_of_the_losers_dice_could_turn_it() -> None:
    """"The highest roll wins (attacker wins ties) and the loser's piece is destroyed": the
    loser's one d6 shows 6 at best, and the Knight's 7 beats it, so nobody waits for Ben."""
    session = table(f"{APART}, e4 light knight, e6 dark orc", mode="adventure")
    act(session, 0, "roll", face=CARD["knight"])
    move(session, 0, "e4", "e6")
    fight(session, (0, "knight_d8", 7), (0, "d6_for_the_orc", 2), (1, "orc_d6", 3))
    assert notes(session) == ["7 against 3: Ann wins the fight", "Ben's Orc on e6 is destroyed"]
    assert session.state.phase == "roll" and session.state.tokens == [3, 3]


@pytest.mark.parametrize(("attack", "defence", "house", "waits"), [
    ((8, 1), 8, None, None),  # the defender's d8 at best ties, and the attacker wins ties
    ((1, 1), 8, None, 0),  # the attacker's d8 at best ties: that would win, so Ann may re-roll
    ((3, 3), 2, {"dice": {"compare": "sum"}}, 1),  # 6 against a d8 of 8 at best: 8 would win
    ((4, 4), 1, {"dice": {"compare": "sum"}}, None),  # 8 against 8 at best: a tie
])
def test_the_fight_waits_only_for_a_loser_whose_reroll_could_turn_it(
        attack: tuple[int, int], defence: int, house: dict[str, Any] | None,
        waits: int | None) -> None:
    options: dict[str, Any] = {"house": house} if house else {}
    session = table(f"{APART}, e4 light knight, e6 dark death knight", mode="av1", **options)
    act(session, 0, "roll", face=1)
    move(session, 0, "e4", "e6")
    fight(session, (0, "knight_d8", attack[0]), (0, "d8_for_the_death_knight", attack[1]),
          (1, "death_knight_d8", defence))
    assert session.state.phase == ("combat" if waits is not None else "roll")
    assert session.table_view(None).waiting_for == ((waits,) if waits is not None else (1,))


def test_only_a_die_that_could_turn_the_fight_is_rerolled() -> None:
    """A re-roll that cannot change who wins would spend a token for nothing (found by a
    blind tester): the Knight's d8 shows 8 at best against the Lich's 9, so only the d10 for
    the Lich is offered, and the d8 is refused saying so."""
    session = table(f"{APART}, d4 light knight, d6 dark lich", mode="adventure")
    act(session, 0, "roll", face=CARD["knight"])
    move(session, 0, "d4", "d6")
    fight(session, (0, "knight_d8", 3), (0, "d10_for_the_lich", 2), (1, "lich_d10", 9))
    spec = next(a for a in session.legal_actions(0) if a.name == "reroll_combat")
    assert spec.params[0].choices == ("d10_for_the_lich",)
    assert refused(session, 0, "reroll_combat", die="knight_d8", face=8) == (
        "cannot reroll_combat by Ann: the Knight's d8 cannot turn the fight, even at 8:"
        " re-roll the d10 for the Lich")
    assert session.state.tokens == [3, 3]  # nothing spent
    act(session, 0, "reroll_combat", die="d10_for_the_lich", face=10)
    assert notes(session)[0] == "Ann has 2 tokens left"


def test_a_table_begun_before_that_rule_still_rerolls_any_die() -> None:
    """A table's log was played by the rules it began with: one begun before only turning
    dice could be re-rolled (its recorded rule data has no `dice.reroll`) keeps re-rolling
    any, or its log would no longer replay and the table would be lost at the next start."""
    new = table(f"{APART}, d4 light knight, d6 dark lich", mode="adventure")
    before = copy.deepcopy(dict(new.setup.book or {}))
    del before["dice"]["reroll"], before["added"]
    old = TableSession(replace(new.setup, book=before))
    for session in (new, old):
        act(session, 0, "roll", face=CARD["knight"])
        move(session, 0, "d4", "d6")
        fight(session, (0, "knight_d8", 3), (0, "d10_for_the_lich", 2), (1, "lich_d10", 9))
    wasted = Action("reroll_combat", 0, {"die": "knight_d8", "face": 8})
    with pytest.raises(IllegalActionError):
        new.submit(wasted)
    old.submit(wasted)
    assert old.state.tokens == [2, 3] and old.options["house"] == {"dice": {"reroll": "any"}}
    replayed = TableSession.replay(old.setup, [r.action for r in old.history])
    assert replayed.state.tokens == [2, 3]


def test_the_companions_dice_and_a_token_outside_tar_say_why_not() -> None:
    """Refusals that say what is so, not "not now" (found by a blind tester)."""
    rolled = table(f"{APART}, e4 light knight, e6 dark orc", mode="av1",
                   dice_by="companion", seed=0)
    act(rolled, 0, "roll")
    move(rolled, 0, "e4", "e6")
    assert rolled.state.phase == "combat"  # seed 0: Ann loses and may re-roll or accept
    assert refused(rolled, 0, "combat_roll", die="knight_d8", face=3) == (
        "cannot combat_roll by Ann: the companion rolls the combat dice at this table")
    adventure = table(f"{APART}, e4 light knight", mode="adventure")
    assert refused(adventure, 0, "unlock", piece="knight") == (
        "cannot unlock by Ann: tokens unlock adventure effects only in the tactical adventure"
        " rules (TAR)")


def test_the_paladins_even_roll_gives_one_free_reroll() -> None:
    session = table(f"{APART}, e4 light paladin, e6 dark orc", mode="av1",
                    card_rows=second("paladin"), tokens={"light": 1, "dark": 0})
    act(session, 0, "roll", face=2)
    assert not session.state.free_reroll  # AV I: it comes with the Paladin, once it moves
    move(session, 0, "e4", "e6")
    assert session.state.free_reroll
    fight(session, (0, "paladin_d10", 1), (0, "d6_for_the_orc", 1), (1, "orc_d6", 6))
    spec = next(s for s in session.legal_actions(0) if s.name == "reroll_combat")
    assert spec.label == "Re-roll one of your dice (free: this turn's adventure effect)"
    act(session, 0, "reroll_combat", die="paladin_d10", face=2)
    assert session.state.tokens == [1, 0] and not session.state.free_reroll
    act(session, 0, "reroll_combat", die="paladin_d10", face=3)  # now the token
    assert session.state.tokens == [0, 0] and session.state.phase == "roll"
    assert "e4 light paladin" not in pieces(session)  # 3 against 6: destroyed


def test_av1_the_free_reroll_is_the_moving_paladins_not_the_cards() -> None:
    position = f"{APART}, e4 light paladin, g4 light knight, e6 dark orc, g6 dark orc"
    session = table(position, mode="av1", card_rows=second("paladin"), tokens=NONE)
    act(session, 0, "roll", face=2)  # the Paladin's card, but the Knight attacks
    move(session, 0, "g4", "g6")
    fight(session, (0, "knight_d8", 1), (0, "d6_for_the_orc", 1), (1, "orc_d6", 6))
    assert session.state.phase == "roll"  # no free re-roll: the Knight's effect is flight
    session = table(position, mode="av1", tokens=NONE)
    act(session, 0, "roll", face=CARD["lion"])  # even: the Paladin that moves has its own
    move(session, 0, "e4", "e6")
    fight(session, (0, "paladin_d10", 1), (0, "d6_for_the_orc", 1), (1, "orc_d6", 6))
    assert names(session, 0) == ["reroll_combat", "accept"]
    spec = next(s for s in session.legal_actions(0) if s.name == "reroll_combat")
    assert spec.label == "Re-roll one of your dice (free: this turn's adventure effect)"


# --- AV I -----------------------------------------------------------------------------------

def test_av1_an_even_roll_unlocks_the_effect_of_the_piece_that_moves() -> None:
    """AV I: "You may then move any piece, but adventure effects are still unlocked only by
    even rolls": whichever card an even roll picks, the piece that moves has its own effect."""
    session = table(f"{APART}, e5 light elf, c3 light knight, c4 dark orc", mode="av1",
                    tokens=NONE)
    act(session, 0, "roll", face=CARD["griffin"])
    assert notes(session) == ["card 2, the Griffin; an even roll unlocks the adventure effect"
                              " of each piece that moves"]
    assert {"h8", "b8", "h2"} <= reach(session, "e5")  # the Elf's 3 diagonally
    assert "c5" in reach(session, "c3")  # the Knight flies over the Orc
    fact = next(f for f in session.table_view(0).facts if f.key == "effect")
    assert (fact.value, fact.detail) == ("the moving piece's own",
                                         "unlocked for this turn by an even roll")
    assert session.view(None)["unlocked"] == "each piece that moves"
    move(session, 0, "c3", "c5")
    assert "c5 light knight" in pieces(session)
    act(session, 1, "roll", face=1)
    assert not session.state.own_effects  # an odd roll unlocks nothing


def test_av1_on_an_eight_each_of_the_two_pieces_has_its_own_effect() -> None:
    session = table(f"{APART}, e5 light elf, c3 light knight, c4 dark orc, c6 dark skeleton",
                    mode="av1", tokens=NONE)
    act(session, 0, "roll", face=8)
    move(session, 0, "e5", "h8")  # the Elf's 3 diagonally
    assert session.state.phase == "second"
    assert "c5" in reach(session, "c3")  # the Knight flies over the Orc...
    assert refused_move(session, 0, "c3", "c6") == (  # ...but the second piece can't attack
        "cannot move by Ann: the second piece moved can't attack: c3 to c6 would attack Ben's"
        " Skeleton")
    move(session, 0, "c3", "c5")
    assert {"h8 light elf", "c5 light knight"} <= set(pieces(session))


def test_a_table_may_keep_an_even_roll_to_the_cards_piece() -> None:
    """The house switch effects.even_roll = "card": only a piece of the card rolled has its
    effect, whichever piece moves."""
    house = {"effects": {"even_roll": "card"}}
    position = f"{APART}, e5 light elf, c3 light knight, c4 dark orc"
    session = table(position, mode="av1", tokens=NONE, house=house)
    act(session, 0, "roll", face=CARD["griffin"])
    assert session.state.unlocked == "griffin" and not session.state.own_effects
    assert "h8" not in reach(session, "e5") and "c5" not in reach(session, "c3")
    assert notes(session)[0].endswith("an even roll unlocks its adventure effect: Flight can't"
                                      " be stopped (it flies over a Giant/Ogre)")
    session = table(position, mode="av1", tokens=NONE, house=house, card_rows=second("elf"))
    act(session, 0, "roll", face=2)  # the Elf's card
    assert "h8" in reach(session, "e5") and "c5" not in reach(session, "c3")
    session = table(position, mode="adventure", house=house)
    act(session, 0, "roll", face=CARD["griffin"])  # no Griffin left: any piece, no effect
    assert "h8" not in reach(session, "e5") and "c5" not in reach(session, "c3")


def test_av1_any_piece_moves_and_an_eight_moves_two_pieces() -> None:
    session = table(f"{APART}, e4 light knight, c3 light elf, d5 dark orc", mode="av1",
                    tokens=NONE)
    act(session, 0, "roll", face=3)
    assert reach(session, "e4") and reach(session, "c3")  # the Paladin's card: any piece
    move(session, 0, "c3", "b4")
    assert session.state.turn == 1
    act(session, 1, "roll", face=1)
    move(session, 1, "d5", "e6")
    act(session, 0, "roll", face=8)
    move(session, 0, "b4", "c5")
    assert session.state.phase == "second" and names(session) == ["move", "end_turn"]
    assert refused_move(session, 0, "c5", "d6") == ("cannot move by Ann: the Elf on c5 has moved"
                                                   " this turn: the second move is another"
                                                   " piece's")
    assert refused_move(session, 0, "e4", "e6") == ("cannot move by Ann: the second piece moved"
                                                   " can't attack: e4 to e6 would attack Ben's"
                                                   " Orc")
    move(session, 0, "e4", "f4")
    assert session.state.turn == 1 and session.view(None)["last_move"] == [["b4", "c5"],
                                                                           ["e4", "f4"]]


def test_av1_the_second_move_may_be_skipped() -> None:
    session = table(f"{APART}, e4 light knight, c3 light elf", mode="av1", tokens=NONE)
    act(session, 0, "roll", face=8)
    move(session, 0, "c3", "b4")
    act(session, 0, "end_turn")
    assert session.state.turn == 1
    assert session.history[-1].text == "Ann ends the turn without a second move"


def test_av1_no_second_move_when_no_other_piece_can_move() -> None:
    session = table(f"{APART}, e4 light knight", mode="av1", tokens=NONE)
    act(session, 0, "roll", face=8)
    move(session, 0, "e4", "e5")
    assert session.state.turn == 1 and session.state.phase == "roll"


def test_av1_a_fight_comes_before_the_second_move() -> None:
    session = table(f"{APART}, e4 light knight, c3 light elf, e6 dark orc", mode="av1",
                    tokens=NONE)
    act(session, 0, "roll", face=8)
    move(session, 0, "e4", "e6")
    fight(session, (0, "knight_d8", 8), (0, "d6_for_the_orc", 1), (1, "orc_d6", 1))
    assert session.state.phase == "second" and reach(session, "c3")


# --- AV II ----------------------------------------------------------------------------------

def test_av2_landing_destroys_without_dice() -> None:
    session = table(f"{APART}, e4 light knight, e6 dark orc", mode="av2")
    act(session, 0, "roll", face=1)
    move(session, 0, "e4", "e6")
    assert session.state.phase == "roll" and "e6 light knight" in pieces(session)


def test_av2_a_lesser_piece_cannot_destroy_a_giant() -> None:
    session = table(f"{APART}, e4 light elf, f5 dark ogre, e5 light knight, e6 dark giant",
                    mode="av2")
    act(session, 0, "roll", face=1)
    assert "f5" not in reach(session, "e4")
    assert refused_move(session, 0, "e4", "f5") == (
        "cannot move by Ann: a lesser piece can't destroy a Giant or an Ogre (AV II): the Elf"
        " cannot attack Ben's Ogre on f5")
    assert "e6" in reach(session, "e5")  # a greater piece may attack a Giant
    session = table(f"{APART}, e4 light knight, e5 dark ogre", mode="av2")
    act(session, 0, "roll", face=1)
    move(session, 0, "e4", "e5")  # a greater piece can
    assert "e5 light knight" in pieces(session)


def test_av2_the_one_token_rerolls_the_movement_die() -> None:
    session = table(f"{APART}, e4 light knight", mode="av2")
    assert session.state.tokens == [1, 1]
    act(session, 0, "roll", face=3)
    act(session, 0, "reroll_movement", face=8)
    assert session.state.roll == 8 and session.state.tokens == [0, 1]
    assert refused(session, 0, "reroll_movement", face=2) == \
        "cannot reroll_movement by Ann: you have no re-roll token"


# --- the companion's dice and the camera's --------------------------------------------------

def test_the_companion_rolls_every_die_seeded_and_logged() -> None:
    def play(seed: int) -> list[str]:
        session = table(f"{APART}, e4 light knight, e5 dark orc", mode="av1",
                        dice_by="companion", seed=seed, tokens=NONE)
        spec = next(s for s in session.legal_actions(0) if s.name == "roll")
        assert spec.params == ()
        # what a phone's preview shows: no die before it is rolled
        assert session.check(Action("roll", 0)).text == \
            "Ann rolls the movement die (rolled by the companion)"
        act(session, 0, "roll")
        move(session, 0, "e4", "e5")
        return [r.text for r in session.history] + [n for r in session.history for n in r.notes]

    first = play(3)
    assert first == play(3)  # the same seed rolls the same
    assert first[0] == "Ann rolls the movement die (rolled by the companion)"
    assert any(line.startswith("the die shows ") for line in first)
    assert any(line.startswith("Ann's Knight's d8: ") for line in first)
    assert any(line.startswith("Ben's Orc's d6: ") for line in first)
    assert len({tuple(play(seed)) for seed in range(6)}) > 1


def test_undo_stops_at_a_die_the_companion_rolled() -> None:
    """Its dice are seeded by how many it has rolled: an undo past one shows the table the
    next dice, so a die the companion rolled is taken back only with a reason (a wrong input
    corrected in the open), and the same dice come again: an undo never rerolls luck."""
    session = table(f"{APART}, e4 light knight, e6 dark orc", mode="av1",
                    dice_by="companion", seed=5, tokens=NONE)
    act(session, 0, "roll")
    assert not session.can_undo()
    with pytest.raises(UndoError, match="it revealed hidden information"):
        session.undo()
    move(session, 0, "e4", "e6")  # an attack: the companion rolls its dice
    assert session.state.rolls == 4 and not session.can_undo()
    assert session.public_undo_refusal() == (
        f"cannot undo {session.history[-1].text} without a reason: it revealed hidden"
        " information (it stays seen; to correct a wrong input, undo it saying why)")
    seen = session.history[-1].notes
    session.undo_public(past_reveal=True)
    assert session.state.rolls == 1
    move(session, 0, "e4", "e6")
    assert session.history[-1].notes == seen  # the same dice: undoing rerolls nothing
    dice = table(f"{APART}, e4 light knight, e6 dark orc", mode="av1", tokens=NONE)
    act(dice, 0, "roll", face=1)
    move(dice, 0, "e4", "e6")
    assert dice.can_undo()  # dice rolled at the table: nothing hidden was shown
    dice.undo()
    assert dice.can_undo()


def test_the_camera_reads_a_d6_for_whoever_must_roll_it() -> None:
    session = table(f"{APART}, e4 light knight, e6 dark orc", mode="adventure", tokens=NONE)
    rules = session.rules
    assert rules.suggest(session.state, DieFace("d6", 4)) == ()  # the movement die is a d8
    assert rules.suggest(session.state, DieFace("d8", 1)) == (Action("roll", 0, {"face": 1}),)
    act(session, 0, "roll", face=1)
    move(session, 0, "e4", "e6")
    assert rules.suggest(session.state, DieFace("d6", 4)) == (
        Action("combat_roll", 0, {"die": "d6_for_the_orc", "face": 4}),
        Action("combat_roll", 1, {"die": "orc_d6", "face": 4}))
    act(session, 1, "combat_roll", die="orc_d6", face=4)
    assert rules.suggest(session.state, DieFace("d6", 2)) == (
        Action("combat_roll", 0, {"die": "d6_for_the_orc", "face": 2}),)
    companion = table(f"{APART}, e4 light knight", mode="adventure", dice_by="companion")
    assert companion.rules.suggest(companion.state, DieFace("d8", 2)) == ()


def test_av1_a_second_soldier_is_told_the_second_move_cannot_attack() -> None:
    """After an 8 the Soldier has its 2-forward attack (its own effect); the rule that stops
    it is the second move's, not its standard 2 forward without attacking."""
    session = table(f"{APART}, c3 light knight, d4 light soldier, d6 dark skeleton",
                    mode="av1", tokens=NONE)
    act(session, 0, "roll", face=8)
    move(session, 0, "c3", "c5")
    assert refused_move(session, 0, "d4", "d6") == (
        "cannot move by Ann: the second piece moved can't attack: d4 to d6 would attack Ben's"
        " Skeleton")


def test_a_failed_attack_that_left_the_attacker_in_place_is_shown_as_failed() -> None:
    session = table("a1 light castle, e9 dark castle, e8 light knight", mode="av1",
                    tokens=NONE)
    act(session, 0, "roll", face=1)
    move(session, 0, "e8", "e9")
    fight(session, (0, "knight_d8", 3), (0, "d10_for_the_castle", 4), (1, "castle_d10", 9))
    fact = next(f for f in session.table_view(None).facts if f.key == "last_move")
    assert fact.value == "the attack from e8 failed"
