"""Gambit (6x6): the table can always overrule the companion, with a reason, logged for all,
showing no power: a piece put where it really is (where undo cannot reach, past a look), off
the board or back, and a result declared."""

from __future__ import annotations

from tests.games.test_gambit_6x6_moves import arrange
from tests.games.test_gambit_6x6_setup import board, do, refused, started


def test_a_piece_is_put_right_past_a_look_that_undo_cannot_reach() -> None:
    session = started()
    arrange(session, {"c3": ["A3"], "d4": ["B2"], "f1": ["A6"], "b4": ["B4"]}, turn=1)
    do(session, "detect", 1, piece="B4", target="A3")  # B4 is a Detective
    do(session, "accept", 0)
    assert not session.can_undo_public()  # Ben has seen A3's powers
    # A6 really stands on e1: the table says so.
    text = do(session, "set_piece", None, piece="A6", square="e1", reason="it was never on f1")
    assert text == "Table ruling: A6 is on e1, not on f1 (it was never on f1)"
    assert board(session)["e1"] == ["A6"] and "f1" not in board(session)
    # everyone reads the same line, which names no power
    for seat in (0, 1):
        line = session.history_for(seat)[-1].to_dict(seat)
        assert line["text"] == text and line["action"]["square"] == "e1"
    assert "ghost" not in text.lower()


def test_a_ruling_can_be_undone_like_any_public_action() -> None:
    session = started()
    do(session, "move", 0, piece="a1", to="a2")  # plain: no claim
    do(session, "set_piece", None, piece="A1", square="a3", reason="it went two squares")
    assert board(session)["a3"] == ["A1"]
    session.undo_public()
    assert board(session)["a2"] == ["A1"] and len(session.history) == 5


def test_a_piece_put_on_another_sits_on_it_and_its_sitters_stay_behind() -> None:
    session = started()
    arrange(session, {"c3": ["B2", "A2"], "d4": ["B4"], "a1": ["A1"]}, turn=0)
    do(session, "set_piece", None, piece="B2", square="d4", reason="B2 went to d4")
    assert board(session)["d4"] == ["B4", "B2"]  # on top: it sits on B4
    assert board(session)["c3"] == ["A2"]  # A2, which sat on B2, settles onto c3


def test_off_the_board_is_a_loss_that_counts_and_can_end_the_game() -> None:
    session = started()
    arrange(session, {"a1": ["A1"], "b1": ["A2"], "a6": ["B1"]}, turn=0)
    for piece in ("B2", "B3", "B4"):  # test-only: three of Ben's already lost, counting
        session.state.pieces[piece].lost = session.state.pieces[piece].counts = True
    text = do(session, "set_piece", None, piece="B1", square="off", reason="taken earlier")
    assert text.startswith("Table ruling: B1 is off the board (lost), not on a6 (taken"
                           " earlier) | Ben loses B1")
    assert session.outcome is not None and session.outcome.winners == (0,)
    assert session.outcome.reason == "losses"


def test_a_lost_piece_comes_back_into_play() -> None:
    session = started()
    arrange(session, {"a1": ["A1"], "a6": ["B1"]}, turn=0)  # A2 is off, not counted
    session.state.pieces["A2"].counts = True
    assert session.view(None)["players"][0]["counters"][1]["value"] == 1  # Ann: 1 lost
    do(session, "set_piece", None, piece="A2", square="b1", reason="A2 was never taken")
    assert board(session)["b1"] == ["A2"]
    assert session.view(None)["players"][0]["counters"][1]["value"] == 0


def test_a_ruling_is_the_tables_between_actions_with_a_reason() -> None:
    session = started()
    assert refused(session, "set_piece", 0, piece="A1", square="a2", reason="x") == \
        "only the table (its host) puts a piece right"
    assert refused(session, "set_piece", None, piece="A1", square="a1", reason="x") == \
        "A1 is on a1 already"
    assert refused(session, "set_piece", None, piece="A1", square="a2", reason="  ") == \
        "a ruling needs a reason: say why, for the log"
    do(session, "move", 0, piece="b1", to="c2")  # claims Diagonal: Ben may answer
    assert refused(session, "set_piece", None, piece="A1", square="a2", reason="x") == \
        "not now: between actions only (finish the one under way, or undo it)"


def test_the_table_declares_a_result_at_any_time() -> None:
    session = started()
    assert refused(session, "declare", 1, result="Ann", reason="x") == \
        "only the table declares a result"
    assert refused(session, "declare", None, result="Cat", reason="x").startswith(
        "result must be one of")
    text = do(session, "declare", None, result="Ann", reason="Ben concedes")
    assert text.startswith("The table declares Ann the winner (Ben concedes)")
    assert text.endswith("The table's ruling: Ann wins")
    assert session.outcome is not None and session.outcome.winners == (0,)
    assert session.view(1)["ending"]["text"] == "The table's ruling: Ann wins"
    assert refused(session, "declare", None, result="draw", reason="x") == "the game is over"


def test_a_draw_declared_has_no_winner() -> None:
    session = started()
    do(session, "declare", None, result="draw", reason="agreed")
    assert session.outcome is not None and session.outcome.winners == ()
    assert session.view(0)["ending"]["text"] == "The table's ruling: a draw"
