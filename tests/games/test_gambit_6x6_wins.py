"""Gambit (6x6): the two wins (three pieces on the far row, sat-on pieces not counting; the
opponent's fourth loss), the draw after quiet turns, and the Player Powers."""

from __future__ import annotations

import pytest

from companion.engine import TableSession
from tests.games.test_gambit_6x6_challenges import names
from tests.games.test_gambit_6x6_moves import arrange
from tests.games.test_gambit_6x6_setup import board, do, powers, refused, started


def test_three_pieces_on_the_far_row_win() -> None:
    session = started()
    arrange(session, {"a6": ["A1"], "b6": ["A2"], "c5": ["A3"], "f1": ["B6"], "e1": ["B5"]})
    text = do(session, "move", 0, piece="c5", to="c6")
    assert text.endswith("Ann wins with 3 pieces on the far row")
    assert session.state.outcome is not None and session.state.outcome.winners == (0,)
    view = session.table_view(None)
    assert view.ending is not None and view.ending.winners == (0,)
    # At the end every power is shown to everyone.
    facts = {f.key: f.value for f in view.players[1].facts}
    assert "B2 Bulldozer + Kamikaze" in facts["revealed"]


def test_a_sat_on_piece_does_not_count_but_its_sitter_may() -> None:
    session = started()
    arrange(session, {"a6": ["A1"], "b6": ["A2", "B2"], "c5": ["A3"], "f1": ["B6"],
                      "e1": ["B5"]})
    do(session, "move", 0, piece="c5", to="c6")  # two count: A2 is sat on
    do(session, "accept", 1)  # (Ben's B2 stands next to c6: he might have called a Moat)
    assert session.state.outcome is None and session.state.scoring(0) == ["A1", "A3"]
    # Ben's B6 climbs... Ann's sitter stack: A4 sits on B2 (on A2) at b6 and counts.
    arrange(session, {"a6": ["A1"], "b6": ["A2", "B2"], "b5": ["A4"], "c6": ["A3"],
                      "f1": ["B6"], "e1": ["B5"]})
    do(session, "move", 0, piece="b5", to="b6")  # claiming Sitting: a stack of three
    assert board(session)["b6"] == ["A2", "B2", "A4"]
    do(session, "accept", 1)
    assert session.state.outcome is not None and session.state.outcome.winners == (0,)


def test_the_fourth_lost_piece_loses_at_once() -> None:
    session = started()
    for piece in ("B3", "B4", "B5"):
        session.state.pieces[piece].lost = True
        session.state.stacks.pop(next(c for c, s in session.state.stacks.items() if piece in s))
    do(session, "move", 0, piece="c1", to="e3")  # a bluff: A3 is no Diagonal
    do(session, "challenge", 1, power="diagonal")
    do(session, "give_up", 0, piece="A6")
    do(session, "move", 1, piece="b6", to="d4")  # B2 is no Diagonal either
    do(session, "challenge", 0, power="diagonal")
    text = do(session, "give_up", 1, piece="B6")
    # With two players the game is over: no "Ben is out of the game" before the win.
    assert text.endswith("Ben gives up B6 | Ann wins: Ben has lost 4 pieces")
    assert session.state.outcome is not None and session.state.outcome.reason == "losses"


def test_quiet_turns_end_in_a_draw_by_the_table_rule() -> None:
    session = started({"house": {"win": {"quiet_turns": 3}}})
    for seat, (piece, to) in enumerate([("a1", "a2"), ("a6", "a5"), ("a2", "a1")]):
        do(session, "move", seat % 2, piece=piece, to=to)
    assert session.state.outcome is not None and session.state.outcome.winners == ()
    assert session.table_view(None).ending is not None
    # the header counts the turns played, not the one the draw kept from starting (a blind
    # review read "Turn 4 · Game over" after three)
    assert session.state.turns == 3
    assert session.table_view(None).headline.startswith("Turn 3")


def _powers_table(roll: bool = False) -> TableSession:
    return started({"player_powers": True, "roll_player_powers": roll})


def test_reaching_the_far_row_earns_a_player_power_announced_to_all() -> None:
    session = _powers_table()
    arrange(session, {"a5": ["A1"], "f1": ["A6"], "f6": ["B6"], "e6": ["B5"]})
    do(session, "move", 0, piece="a5", to="a6")
    assert session.state.phase == "earn" and names(session, 0) == ["take_player_power"]
    text = do(session, "take_player_power", 0, power="magician")
    assert text == "Ann takes the Player Power Magician | Ann gains the Player Power Magician"
    assert session.state.held_powers[0] == ["magician"] and session.state.turn == 1
    facts = {f.key: f.value for f in session.table_view(1).players[0].facts}
    assert facts["player_powers"] == "Magician"


def test_rolled_player_powers_come_at_once_unless_the_die_is_wild() -> None:
    for seed in range(30):
        session = started({"player_powers": True, "roll_player_powers": True}, seed=seed)
        arrange(session, {"a5": ["A1"], "f1": ["A6"], "f6": ["B6"], "e6": ["B5"]})
        do(session, "move", 0, piece="a5", to="a6")
        if session.state.phase == "earn":
            assert session.history[-1].notes == ("Ann rolls a wild die for a Player Power",)
        else:
            assert len(session.state.held_powers[0]) == 1 and session.state.turn == 1
        # its dice are seeded: an undo past a roll would show the table the next die
        assert session.history[-1].reveals and not session.can_undo_public()


def test_the_magician_swaps_places_with_an_opponents_piece() -> None:
    session = _powers_table()
    arrange(session, {"c2": ["A3"], "f1": ["A6"], "d5": ["B4"], "f6": ["B6", "A5"]})
    assert refused(session, "magician", 0, piece="c2", target="d5") == "you hold no Magician"
    session.state.held_powers[0] = ["magician"]
    assert "f6" not in next(a for a in session.legal_actions(0) if a.name == "magician"
                            ).params[1].choices  # a stack does not swap
    do(session, "magician", 0, piece="c2", target="d5")
    assert board(session)["d5"] == ["A3"] and board(session)["c2"] == ["B4"]
    assert session.state.held_powers[0] == [] and session.state.turn == 1


def test_the_sensei_passes_named_powers_on_and_bluff_checks_apply() -> None:
    session = _powers_table()
    session.state.held_powers[0] = ["sensei", "sensei"]
    do(session, "sensei", 0, piece="A2", to="A5", powers=["diagonal", "sitting"])
    do(session, "accept", 1)
    assert powers(session, "A2") == (None, None) and powers(session, "A5") == ("diagonal",
                                                                              "sitting")
    do(session, "move", 1, piece="a6", to="a5")
    # A bluff (A1 holds nothing) caught: A1 loses a piece and nothing moves.
    do(session, "sensei", 0, piece="A1", to="A6", powers=["ghost"])
    assert "A bluff: A1 does not hold Ghost" in do(session, "challenge", 1, power="ghost")
    do(session, "give_up", 0, piece="A6")
    assert powers(session, "A6") == (None, None) and session.state.held_powers[0] == []


def test_the_witch_doctor_swaps_for_the_claimed_powers_and_spends_a_turn() -> None:
    session = _powers_table()
    session.state.held_powers[1] = ["witch_doctor"]
    do(session, "move", 0, piece="c1", to="e3")  # A3 (a Ghost) claims Diagonal: a bluff
    assert names(session, 1) == ["accept", "challenge", "witch_doctor"]
    do(session, "witch_doctor", 1, piece="B1")  # B1 holds Sidewinder
    assert powers(session, "B1") == ("diagonal", None)  # a bluffed power becomes real
    assert powers(session, "A3") == ("sidewinder", None)
    assert board(session)["e3"] == ["A3"]  # the move stands
    assert session.state.turn == 0  # Ben's turn is spent: Ann again
    assert any("A3 took Sidewinder from your B1" in n for n in session.state.notes[1])


@pytest.mark.parametrize("needs", [True, False])
def test_the_witch_doctor_swaps_only_powers_its_piece_holds(needs: bool) -> None:
    """The seed: "The Witch Doctor can only swap legitimately held Powers"; a table that
    lets a piece with none take the claimed power sets ``witch_doctor_needs_powers``."""
    session = started({"player_powers": True,
                       "house": {"challenge": {"witch_doctor_needs_powers": needs}}})
    session.state.held_powers[1] = ["witch_doctor"]
    empty = next(p.id for p in session.state.pieces.values()
                 if p.seat == 1 and p.movement is None)
    do(session, "move", 0, piece="c1", to="e3")  # A3 claims Diagonal
    if needs:
        assert "holds no movement power to swap for the Diagonal" in refused(
            session, "witch_doctor", 1, piece=empty)
    else:
        do(session, "witch_doctor", 1, piece=empty)
        assert powers(session, empty)[0] == "diagonal" and powers(session, "A3")[0] is None


def test_the_juggernaut_may_undo_a_far_row_win() -> None:
    session = _powers_table()
    session.state.held_powers[1] = ["juggernaut"]
    arrange(session, {"a6": ["A1"], "b6": ["A2"], "c5": ["A3"], "d5": ["B2"], "f1": ["B6"]})
    do(session, "move", 0, piece="c5", to="c6")
    do(session, "accept", 1)
    assert session.state.phase == "juggernaut" and session.state.outcome is None
    assert names(session, 1) == ["use_juggernaut", "let_win_stand"]
    do(session, "use_juggernaut", 1)
    # B2 bulldozes A3 off the far row? It cannot (no square beyond): it sits on A3 instead.
    do(session, "move", 1, piece="d5", to="c6")
    do(session, "accept", 0)
    assert session.state.outcome is None and session.state.scoring(0) == ["A1", "A2"]
    assert session.history[-1].notes[-1] == "Ann's win is undone"
    assert session.state.held_powers[1] == []


def test_a_win_undone_keeps_the_player_power_its_move_earned() -> None:
    """The seed: "Every time a player moves a piece into scoring position, they attain a
    Player Power", even the move whose win a Juggernaut then undoes."""
    session = _powers_table()
    session.state.held_powers[1] = ["juggernaut"]
    arrange(session, {"a6": ["A1"], "b6": ["A2"], "c5": ["A3"], "a4": ["B1"], "f1": ["B6"]})
    do(session, "move", 0, piece="c5", to="c6")  # A3 comes onto the far row: a win
    do(session, "use_juggernaut", 1)
    do(session, "move", 1, piece="a4", to="a6")  # B1 sits on A1: two count
    do(session, "accept", 0)
    assert session.state.outcome is None and session.state.scoring(0) == ["A2", "A3"]
    assert session.state.phase == "earn" and names(session, 0) == ["take_player_power"]
    do(session, "take_player_power", 0, power="sensei")
    assert session.state.held_powers[0] == ["sensei"]


@pytest.mark.parametrize("skips", [True, False])
def test_the_juggernaut_takes_up_its_holders_next_turn(skips: bool) -> None:
    """The seed: "Using a Player Power takes up a full turn", as the Witch Doctor's does; a
    table that reads the Juggernaut's move as one more, free, sets
    ``juggernaut_skips_turn`` false (the holder then moves again at once)."""
    # The Juggernaut given by hand, without the option: no Player Power earned to take first.
    session = started({} if skips else {"house": {"challenge": {"juggernaut_skips_turn": False}}})
    session.state.held_powers[1] = ["juggernaut"]
    arrange(session, {"a6": ["A1"], "b6": ["A2"], "c5": ["A3"], "d5": ["B2"], "f1": ["B6"]})
    do(session, "move", 0, piece="c5", to="c6")
    do(session, "accept", 1)
    do(session, "use_juggernaut", 1)
    do(session, "move", 1, piece="d5", to="c6")  # B2 sits on A3: the win is undone
    text = do(session, "accept", 0)
    if skips:
        assert text.endswith("Ann's win is undone | Ben's turn is spent (Juggernaut)")
        assert session.state.turn == 0
    else:
        assert session.state.turn == 1


def test_a_juggernaut_move_that_leaves_the_win_lets_it_stand() -> None:
    """The seed: one more move "to invalidate a win". A move that completes the holder's own
    far row but leaves the winner's does not take the win over."""
    session = _powers_table()
    session.state.held_powers[1] = ["juggernaut"]
    arrange(session, {"a6": ["A1"], "b6": ["A2"], "c5": ["A3"], "d1": ["B2"], "e1": ["B3"],
                      "f2": ["B4"]})
    do(session, "move", 0, piece="c5", to="c6")
    assert session.state.phase == "juggernaut"
    do(session, "use_juggernaut", 1)
    do(session, "move", 1, piece="f2", to="f1")  # Ben's third piece on his far row
    while session.state.phase == "answering":
        do(session, "accept", 0)
    assert session.state.outcome is not None and session.state.outcome.winners == (0,)


def test_a_juggernaut_holder_may_let_the_win_stand() -> None:
    session = _powers_table()
    session.state.held_powers[1] = ["juggernaut"]
    arrange(session, {"a6": ["A1"], "b6": ["A2"], "c5": ["A3"], "d5": ["B2"], "f1": ["B6"]})
    do(session, "move", 0, piece="c5", to="c6")
    do(session, "accept", 1)
    do(session, "let_win_stand", 1)
    assert session.state.outcome is not None and session.state.outcome.winners == (0,)


def test_a_witch_doctor_against_a_look_is_refused_for_the_look_not_for_holding_none() -> None:
    """The refusal says what the seat can know: it holds a Witch Doctor, and a Witch Doctor
    answers a claimed move, not a Detective's look (it never tells another seat's powers)."""
    session = _powers_table()
    session.state.held_powers[1] = ["witch_doctor"]
    arrange(session, {"c3": ["A3"], "d4": ["B2"], "f1": ["A6"], "b4": ["B4"]}, turn=1)
    do(session, "detect", 1, piece="B4", target="A3")
    session.state.held_powers[0] = ["witch_doctor"]
    assert refused(session, "witch_doctor", 0, piece="A3") == (
        "a Witch Doctor answers a claimed move or push, not a Detective's look")
    session.state.held_powers[0] = []
    assert refused(session, "witch_doctor", 0, piece="A3") == "you hold no Witch Doctor"


def test_the_sensei_refuses_one_piece_to_itself_and_no_powers_named() -> None:
    session = _powers_table()
    session.state.held_powers[0] = ["sensei"]
    assert refused(session, "sensei", 0, piece="A2", to="A2", powers=["diagonal"]) == (
        "a Sensei passes powers from one of your pieces to another: A2 cannot pass them to"
        " itself")
    assert refused(session, "sensei", 0, piece="A2", to="A5", powers=[]) == (
        "name the powers to pass on: one or two (one of each group)")


def test_a_win_by_one_piece_is_written_in_the_singular() -> None:
    session = started({"house": {"win": {"far_row": 1}}})
    arrange(session, {"a5": ["A1"], "f1": ["A6"], "f6": ["B6"]})
    text = do(session, "move", 0, piece="a5", to="a6")
    assert text.endswith("Ann wins with 1 piece on the far row")
    session = started({"house": {"win": {"losses": 1}}})
    do(session, "move", 0, piece="c1", to="e3")  # A3 is no Diagonal
    do(session, "challenge", 1, power="diagonal")
    assert do(session, "give_up", 0, piece="A6").endswith(
        "Ben wins: Ann has lost 1 piece")
