"""Gambit (6x6): refusals found by a blind review (scenarios written from the rulebook first),
which must give the real reason in the players' words, and only from public facts."""

from __future__ import annotations

from tests.games.test_gambit_6x6_moves import arrange
from tests.games.test_gambit_6x6_setup import do, refused, started

# Ann's A2 holds Diagonal + Sitting, A3 Ghost, A4 Moat. Ben's B1 Sidewinder, B2 Bulldozer +
# Kamikaze, B4 Detective (test_gambit_6x6_setup.py).


def test_a_moat_against_a_ghost_claim_names_the_ghost_not_the_squares() -> None:
    """A4 (a Moat) stands next to where B4 finishes; B4's move claims Ghost, so no Moat can
    stop it. The refusal used to say that no piece of Ann's was next to the square."""
    session = started()
    arrange(session, {"d3": ["A4"], "d6": ["B4"], "a1": ["A1"], "a6": ["B1"]}, turn=1)
    do(session, "move", 1, piece="d6", to="d4", ghost=True)
    assert refused(session, "declare_moat", 0, piece="A4") == (
        "Ben's move claims Ghost, and no Moat stops a Ghost: challenge the Ghost first (if it"
        " is a bluff, you may then declare the Moat)")


def test_a_moat_with_no_piece_beside_the_square_names_the_square() -> None:
    session = started()
    arrange(session, {"a6": ["B1"], "d2": ["A4"], "a1": ["A1"]}, turn=1)
    do(session, "move", 1, piece="a6", to="f6")  # claims Sidewinder: Ann may answer
    assert refused(session, "declare_moat", 0, piece="A4") == \
        "no piece of yours is next to f6, where Ben's piece finished"


def test_a_sat_on_piece_is_refused_as_sat_on_not_as_someone_elses() -> None:
    """B2 under Ann's Sitter A2: Ben tapping b4 learns why B2 cannot move or push."""
    session = started()
    arrange(session, {"b4": ["B2", "A2"], "b3": ["A3"], "a5": ["B1"], "a4": ["A1"],
                      "f1": ["A6"]}, turn=1)
    reason = ("your B2 on b4 is sat on by Ann's A2: a sat-on piece cannot move until the"
              " sitter moves off")
    assert refused(session, "move", 1, piece="b4", to="c4") == reason
    assert refused(session, "bulldoze", 1, piece="b4", target="b3") == reason
    # A square with only another team's piece keeps its plain reason.
    assert refused(session, "move", 1, piece="f1", to="f2") == \
        "the piece on top of f1 is not yours"


def test_a_pieces_name_typed_for_its_square_is_refused_with_a_hint() -> None:
    """A move names squares (a Detective names pieces): "A3" is read as the square a3."""
    session = started()
    assert refused(session, "move", 0, piece="A3", to="c2") == (
        "there is no piece on a3 (your A3 stands on c1: name the square a piece stands on,"
        " not the piece)")
    assert refused(session, "move", 0, piece="b3", to="c2") == "there is no piece on b3"


def test_the_move_sheet_names_each_piece_as_the_board_does() -> None:
    """The board shows "A4"; the sheet said "d1". It now says "A4 (d1)"."""
    session = started()
    move = next(spec for spec in session.legal_actions(0) if spec.name == "move")
    piece = move.params[0]
    for cell, label in zip(piece.choices, piece.labels, strict=True):
        top = session.state.top(cell)
        assert top is not None and label == f"{top.id} ({cell})"
    assert piece.labels


def test_a_moat_named_under_the_piece_sitting_on_it_says_it_guards_only_around_it() -> None:
    """A fifth blind review got "piece must be one of A1, not 'A4'" for the Moat B4 sat on:
    as if A4 were not Ann's."""
    session = started()
    arrange(session, {"d3": ["A4"], "d2": ["A1"], "d4": ["B4"], "a6": ["B1"]}, turn=1)
    do(session, "move", 1, piece="d4", to="d3")  # onto A4: a claim of Sitting
    assert refused(session, "declare_moat", 0, piece="A4") == (
        "A4 is under Ben's B4 on d3: a Moat guards the squares around it, not its own (yours"
        " next to d3: A1)")
