"""The standard rules and TAR: turns, destroying by landing, the Soldier's promotion, winning
by moving onto the enemy Castle, passing, the draw, the table's ruling; and TAR's tokens that
unlock an adventure effect for a turn."""

from __future__ import annotations

from tests.games.test_gambit_of_kings_tables import (
    act,
    move,
    names,
    notes,
    pieces,
    reach,
    refused,
    refused_move,
    table,
)

APART = "a1 light castle, j10 dark castle"


def test_players_alternate_one_piece_a_turn() -> None:
    session = table()
    move(session, 0, "b2", "a3")  # an Elf
    assert session.state.turn == 1 and names(session, 0) == []
    assert refused_move(session, 0, "a3", "b4") == "cannot move by Ann: it is Ben's turn"
    move(session, 1, "a9", "a8")  # a Skeleton
    assert session.state.turn == 0 and session.state.turns == 2
    assert session.history[-1].text == "Ben's Skeleton a9 to a8"


def test_landing_on_an_enemy_piece_destroys_it() -> None:
    session = table(f"{APART}, e4 light knight, e6 dark orc")
    move(session, 0, "e4", "e6")
    assert session.history[-1].text == "Ann's Knight e4 to e6: destroys Ben's Orc"
    assert notes(session) == ["Ben's Orc on e6 is destroyed"]
    assert "e6 light knight" in pieces(session)
    assert session.state.lost == [[], ["elf"]]
    lost = next(f for f in session.table_view(None).players[1].facts if f.key == "lost")
    assert lost.value == "Orc"


def test_moving_onto_the_enemy_castle_wins() -> None:
    session = table("a1 light castle, e10 dark castle, e7 light griffin, e9 dark skeleton,"
                    " e8 dark orc")
    move(session, 0, "e7", "e10")  # flying over the Orc and the Skeleton
    assert session.outcome is not None and session.outcome.winners == (0,)
    assert session.outcome.reason == "castle_taken"
    assert notes(session)[-1] == "Ann wins: the Exiled King's Castle is taken"
    view = session.table_view(0)
    assert view.ending is not None and view.ending.text == \
        "Ann wins: the Exiled King's Castle is taken"
    assert names(session, 0) == names(session, 1) == []
    assert refused_move(session, 1, "e8", "e7") == "cannot move by Ben: the game is over"


def test_a_soldier_is_promoted_on_the_farthest_row() -> None:
    session = table(f"{APART}, e9 light soldier, c2 dark skeleton")
    move(session, 0, "e9", "e10")
    assert "e10 light knight" in pieces(session)
    assert notes(session) == ["Ann's Soldier reached the farthest row: it becomes a Knight"]
    move(session, 1, "c2", "c1")
    assert "c1 dark death knight" in pieces(session)
    assert reach(session, "e10") >= {"e7", "h10"}  # it moves as a Knight now


def test_a_soldier_is_promoted_on_destroying_a_greater_piece_only() -> None:
    session = table(f"{APART}, e4 light soldier, e5 dark lich, c4 light soldier, c5 dark orc")
    move(session, 0, "c4", "c5")
    assert "c5 light soldier" in pieces(session)  # an Orc is a lesser piece
    move(session, 1, "e5", "e6")
    move(session, 0, "e4", "e5")
    move(session, 1, "e6", "e5")  # the Lich takes the Soldier back
    session = table(f"{APART}, e4 light soldier, e5 dark lich")
    move(session, 0, "e4", "e5")
    assert "e5 light knight" in pieces(session)
    assert notes(session)[-1] == \
        "Ann's Soldier destroyed a greater piece: it becomes a Knight"


def test_a_player_who_cannot_move_passes() -> None:
    session = table("a1 light castle, j10 dark castle, h5 dark orc")  # a Castle alone
    assert "move" not in names(session) and "pass" in names(session)
    assert session.table_view(0).status == "Ann cannot move any piece: Ann passes"
    act(session, 0, "pass")
    assert session.state.turn == 1 and session.history[-1].text == \
        "Ann cannot move any piece and passes"
    assert refused(session, 1, "pass") == \
        "cannot pass by Ben: a piece can move: a turn moves exactly one piece"


def test_a_draw_after_the_quiet_turns_of_the_house_rule() -> None:
    session = table(f"{APART}, e4 light knight, e7 dark orc", house={"draw": {"quiet_turns": 4}})
    for seat, origin, target in [(0, "e4", "f4"), (1, "e7", "d6"), (0, "f4", "f5")]:
        move(session, seat, origin, target)
    assert session.outcome is None
    quiet = next(f for f in session.table_view(None).facts if f.key == "quiet")
    assert quiet.value == "3 of 4"
    move(session, 1, "d6", "c5")
    assert session.outcome is not None and session.outcome.winners == ()
    assert session.outcome.reason == "quiet_draw"
    assert notes(session) == ["a draw: 4 turns in a row with no piece destroyed"]


def test_destroying_a_piece_restarts_the_quiet_count() -> None:
    session = table(f"{APART}, e4 light knight, e7 dark orc, d6 dark elf",
                    house={"draw": {"quiet_turns": 3}})
    move(session, 0, "e4", "d4")
    move(session, 1, "e7", "f6")
    assert session.state.quiet == 2
    move(session, 0, "d4", "d6")  # destroys the Orc on d6
    assert session.state.quiet == 0 and session.outcome is None
    move(session, 1, "f6", "g5")
    move(session, 0, "d6", "d7")
    assert session.outcome is None
    move(session, 1, "g5", "h4")
    assert session.outcome is not None and session.state.quiet == 3


def test_the_table_may_declare_a_result() -> None:
    session = table()
    spec = next(s for s in session.legal_actions(None) if s.name == "declare")
    assert spec.ruling and spec.kind == "table"
    assert refused(session, 0, "declare", result="dark", reason="x") == \
        "cannot declare by Ann: only the table declares a result"
    assert refused(session, None, "declare", result="dark", reason=" ") == \
        "cannot declare by the table: a ruling needs a reason: say why, for the log"
    act(session, None, "declare", result="dark", reason="Ann concedes")
    assert session.outcome is not None and session.outcome.winners == (1,)
    assert session.history[-1].text == "The table declares Ben the winner (Ann concedes)"
    ending = session.table_view(None).ending
    assert ending is not None and ending.text == "Ben wins, by the table's ruling (Ann concedes)"


# --- TAR ------------------------------------------------------------------------------------

def test_tar_a_token_unlocks_one_pieces_effect_for_the_turn() -> None:
    session = table(f"{APART}, e4 light knight, e5 dark orc, c3 light giant, e9 dark skeleton",
                    mode="tar")
    assert "e6" not in reach(session, "e4")
    spec = next(s for s in session.legal_actions(0) if s.name == "unlock")
    assert set(spec.params[0].choices) == {"knight", "giant"}  # the Castle's has no use here
    act(session, 0, "unlock", piece="knight")
    assert session.state.tokens == [2, 3] and session.history[-1].notes == \
        ("Ann has 2 tokens left",)
    assert {"e6", "e7"} <= reach(session, "e4")  # it flies over the Orc this turn
    assert "c2" not in reach(session, "c3")  # the Giant's effect is not unlocked
    assert refused(session, 0, "unlock", piece="giant") == \
        "cannot unlock by Ann: an effect is unlocked this turn already"
    move(session, 0, "e4", "e7")
    move(session, 1, "e5", "d4")
    assert session.state.unlocked is None  # for one turn only: no flight over the Skeleton
    assert "e9" in reach(session, "e7") and "e10" not in reach(session, "e7")


def test_tar_a_piece_to_unlock_is_named_as_setup_takes_it() -> None:
    session = table(f"{APART}, e8 dark death knight, e7 light elf", mode="tar", first="dark")
    act(session, 1, "unlock", piece="Death Knight")
    assert session.state.unlocked == "knight" and session.history[-1].text == (
        "Ben spends a token: the Death Knight's adventure effect (Can fly (jump) over pieces)")


def test_tar_no_dice_landing_destroys_and_tokens_run_out() -> None:
    session = table(f"{APART}, c3 light giant, c4 dark orc, h8 dark skeleton", mode="tar",
                    tokens={"light": 1, "dark": 0})
    act(session, 0, "unlock", piece="giant")
    move(session, 0, "c3", "c4")  # the Giant attacks forward as usual: no dice
    assert session.state.phase == "move" and "c4 light giant" in pieces(session)
    assert "unlock" not in names(session, 1)  # Ben has no token
    move(session, 1, "h8", "h7")
    assert refused(session, 0, "unlock", piece="giant") == \
        "cannot unlock by Ann: you have no token left"


def test_the_rolls_and_card_rows_of_the_adventure_rules_are_not_in_the_standard_rules() -> None:
    session = table()
    assert refused(session, 0, "roll", face=3) == (
        "cannot roll by Ann: there is no movement roll in the Standard rules")
    assert refused(session, 0, "reroll_movement", face=3) == (
        "cannot reroll_movement by Ann: there is no movement roll in the Standard rules")
    assert refused(session, 0, "lay_card", piece="knight") == (
        "cannot lay_card by Ann: there are no card rows in the Standard rules")
    session = table(mode="tar")
    assert refused(session, 0, "roll", face=3) == (
        "cannot roll by Ann: there is no movement roll in the Tactical adventure rules (TAR)")
