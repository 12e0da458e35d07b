"""Gambit (6x6): where pieces may go and what each move claims, and the refusals of moves
no power allows. Positions are arranged directly (`arrange`) to test one rule at a time; the
goldens play whole games through the log."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from companion.engine import TableSession
from tests.games.test_gambit_6x6_setup import board, do, refused, started


def arrange(session: TableSession, stacks: dict[str, list[str]], turn: int = 0) -> None:
    """Put the pieces where a test needs them; the others leave the board without counting
    as lost (test-only: the log does not replay to it). A new state, as every action makes
    one: the session works out what a state allows once (by its identity)."""
    state = session._state = copy.deepcopy(session.state)
    state.stacks = {cell: list(stack) for cell, stack in stacks.items()}
    placed = {p for stack in stacks.values() for p in stack}
    for piece in state.pieces.values():
        piece.lost, piece.counts = piece.id not in placed, piece.id in placed
    state.turn = turn


def destinations(session: TableSession, seat: int, cell: str, action: str = "move") -> set[str]:
    spec = next(a for a in session.legal_actions(seat) if a.name == action)
    param = spec.params[1]
    return set(dict(param.choices_by).get(cell, ()))


OPEN = {"a1": ["A1"], "b1": ["A2"], "c1": ["A3"], "d1": ["A4"], "e1": ["A5"], "f1": ["A6"],
        "a6": ["B1"], "b6": ["B2"], "c6": ["B3"], "d6": ["B4"], "e6": ["B5"], "f6": ["B6"]}


def test_a_plain_move_is_one_or_two_squares_straight_and_not_through_pieces() -> None:
    session = started()
    arrange(session, {k: v for k, v in OPEN.items() if k not in ("c1", "c6")}
            | {"c3": ["A3"], "c4": ["B3"]})
    reach = destinations(session, 0, "c3")
    # Straight 1 or 2: c2 c1 b3 a3 d3 e3; c4 holds B3 (a Sitter could sit there); c5 is past it.
    assert {"c2", "c1", "b3", "a3", "d3", "e3"} <= reach
    assert "c5" in reach  # only as a Ghost
    assert "d4" in reach and "e5" in reach  # only as a Diagonal
    assert "d2" in reach  # diagonal too: a 2-square move does not turn
    assert "a5" in reach  # two squares diagonally
    assert "c6" not in reach and "f3" not in reach  # three squares


@pytest.mark.parametrize(("to", "claims"), [
    ("c2", ""), ("e3", ""), ("c5", ", claiming Ghost"), ("d4", ", claiming Diagonal"),
    ("e5", ", claiming Diagonal"), ("c4", " onto B3, claiming Sitting"),
])
def test_a_move_claims_what_it_needs(to: str, claims: str) -> None:
    session = started()
    arrange(session, {k: v for k, v in OPEN.items() if k not in ("c1", "c6")}
            | {"c3": ["A3"], "c4": ["B3"]})
    text = do(session, "move", 0, piece="c3", to=to)
    assert text.split(" | ")[0] == f"Ann moves A3 c3-{to}{claims}"


def test_each_square_a_piece_may_reach_says_what_going_there_claims() -> None:
    """A phone marks the squares that claim a power before the move is chosen."""
    session = started()
    arrange(session, {k: v for k, v in OPEN.items() if k not in ("c1", "c6")}
            | {"c3": ["A3"], "c4": ["B3"]})
    spec = next(a for a in session.legal_actions(0) if a.name == "move")
    to = spec.params[1]
    notes = dict(zip(dict(to.choices_by)["c3"], dict(to.notes_by)["c3"], strict=True))
    assert notes["c2"] == notes["e3"] == ""
    assert notes["c5"] == "Claims Ghost" and notes["d4"] == "Claims Diagonal"
    assert notes["c4"] == "Claims Sitting"


def test_a_diagonal_cannot_pass_a_piece_and_ghost_cannot_go_with_it() -> None:
    session = started()
    arrange(session, {k: v for k, v in OPEN.items() if k not in ("c1", "d6")}
            | {"c3": ["A3"], "d4": ["B4"]})
    assert "e5" not in destinations(session, 0, "c3")
    reason = refused(session, "move", 0, piece="c3", to="b4", ghost=True)
    assert reason == ("a piece holds one Movement power: this move needs Diagonal, so it cannot"
                      " claim Ghost too")


def test_a_move_no_power_allows_is_refused_with_the_reason() -> None:
    session = started()
    reason = refused(session, "move", 0, piece="a1", to="a4")
    assert reason.startswith("no power moves a piece from a1 to a4: a piece moves 1 or 2"
                             " squares in a straight line")
    assert refused(session, "move", 0, piece="a6", to="a5") == \
        "the piece on top of a6 is not yours"
    assert refused(session, "move", 0, piece="c3", to="c4") == "there is no piece on c3"
    assert refused(session, "move", 1, piece="a6", to="a5") == "not your turn: it is Ann's"


def test_the_sidewinder_jumps_from_the_far_left_square_to_the_far_right_one() -> None:
    """"This piece can move from the far left side of the board to the far right side of the
    board in one move, and vice versa": from the edge square only (house: moves.sidewinder)."""
    session = started()
    arrange(session, {"a3": ["A1"], "b3": ["A2"], "f1": ["A6"], "d6": ["B4"]})
    reach = destinations(session, 0, "a3")
    assert "f3" in reach and "e3" not in reach
    assert "f3" not in destinations(session, 0, "b3")  # not from the edge: no jump
    assert refused(session, "move", 0, piece="b3", to="f3").endswith(
        "a Sidewinder from a row's far left square to its far right one, a Sitter onto a piece")
    assert "a1" in destinations(session, 0, "f1")  # and vice versa
    text = do(session, "move", 0, piece="a3", to="f3")
    assert text.split(" | ")[0] == "Ann moves A1 a3-f3, claiming Sidewinder"


def test_the_sidewinder_wrap_reading_crosses_the_edge_in_one_or_two_squares() -> None:
    session = started({"house": {"moves": {"sidewinder": "wrap"}}})
    arrange(session, {"a3": ["A1"], "b3": ["A2"], "e1": ["A5"], "d6": ["B4"]})
    reach = destinations(session, 0, "a3")
    assert {"f3", "e3"} <= reach  # one or two squares across the edge
    assert "f3" not in destinations(session, 0, "b3")  # through A1 on a3: Ghost too
    assert refused(session, "move", 0, piece="a3", to="d3").endswith(
        "a Sidewinder across the left or right edge, a Sitter onto a piece")
    text = do(session, "move", 0, piece="a3", to="e3")
    assert text.split(" | ")[0] == "Ann moves A1 a3-e3, claiming Sidewinder"


def test_the_other_reading_lets_a_two_square_move_turn() -> None:
    session = started({"house": {"moves": {"straight": False}}})
    arrange(session, {"c3": ["A3"], "d6": ["B4"]})
    text = do(session, "move", 0, piece="c3", to="d4")
    assert text.split(" | ")[0] == "Ann moves A3 c3-d4"


def test_a_sitter_stack_moves_only_from_its_top() -> None:
    session = started()
    arrange(session, {"c3": ["A3"], "c4": ["B3"], "a6": ["B1"], "f1": ["A6"]})
    do(session, "move", 0, piece="c3", to="c4")  # A3 sits on B3, claiming Sitting
    do(session, "accept", 1)
    assert board(session)["c4"] == ["B3", "A3"]
    assert "c4" not in dict(next(a for a in session.legal_actions(1) if a.name == "move")
                            .params[1].choices_by)
    assert refused(session, "move", 1, piece="c4", to="c5") == (
        "your B3 on c4 is sat on by Ann's A3: a sat-on piece cannot move until the sitter"
        " moves off")
    view = session.table_view(None)
    cell = next(c for b in view.boards for c in b.cells if c.id == "c4")
    assert [p.id for p in cell.pieces] == ["B3", "A3"]  # bottom first


def test_a_bulldozer_pushes_one_square_on_into_an_empty_square() -> None:
    session = started()
    arrange(session, {"c3": ["A3"], "c4": ["B3"], "d4": ["A4"], "d5": ["B4"], "a6": ["B1"],
                      "f1": ["A1"]})
    assert destinations(session, 0, "c3", "bulldoze") == {"c4"}
    assert refused(session, "bulldoze", 0, piece="c3", target="d4") == (
        "a Bulldozer pushes a piece on a square next to it (not diagonally) one square on,"
        " into an empty square: it cannot push from c3 to d4")
    assert refused(session, "bulldoze", 0, piece="f1", target="f2") == (
        "there is no piece on f2 to push")
    assert refused(session, "bulldoze", 0, piece="e5", target="e6") == (
        "no piece of yours on e5 can push")
    text = do(session, "bulldoze", 0, piece="c3", target="c4")
    assert text.split(" | ")[0] == "Ann's A3 pushes B3 from c4 to c5, claiming Bulldozer"
    assert board(session)["c4"] == ["A3"] and board(session)["c5"] == ["B3"]


def test_a_bulldozer_pushes_a_whole_stack_unless_the_table_says_not() -> None:
    session = started()
    arrange(session, {"c2": ["A3"], "c3": ["B3", "A2"], "a6": ["B1"]})
    do(session, "bulldoze", 0, piece="c2", target="c3")
    assert board(session)["c4"] == ["B3", "A2"]
    session = started({"house": {"moves": {"push_stacks": False}}})
    arrange(session, {"c2": ["A3"], "c3": ["B3", "A2"], "a6": ["B1"]})
    assert destinations(session, 0, "c2", "bulldoze") == set()


def test_a_detective_looks_at_a_piece_next_to_it() -> None:
    session = started()
    arrange(session, {"c3": ["A3"], "d4": ["B2"], "a6": ["B1"]})
    spec = next(a for a in session.legal_actions(0) if a.name == "detect")
    assert spec.params[0].choices == ("A3",) and spec.params[1].choices == ("B2",)


def _kinds(session: TableSession, seat: int) -> list[str]:
    return [a.name for a in session.legal_actions(seat)]


def test_pass_is_only_for_a_player_who_cannot_move() -> None:
    session = started()
    assert "pass" not in _kinds(session, 0)
    assert refused(session, "pass", 0) == ("you can still move a piece without claiming a"
                                           " power: a pass is only for a player who cannot")
    arrange(session, {"c3": ["B3", "A3"], "c4": ["B4", "A4"], "a6": ["B1"]})
    assert "move" in _kinds(session, 0) and "pass" not in _kinds(session, 0)  # sitters move off
    arrange(session, {"c3": ["A3", "B3"], "a6": ["B1"]})
    assert _kinds(session, 0) == ["pass"]
    do(session, "pass", 0)
    assert session.state.turn == 1


def test_a_player_who_could_only_claim_a_power_may_pass() -> None:
    """The seed has no pass, and nobody is made to bluff: with nothing to do but claim a
    power (a Detective's look; a Sitter's, a Ghost's, a Diagonal's move...), a pass is
    allowed."""
    session = started()
    arrange(session, {"a1": ["A1", "B1"], "c3": ["A3", "B3"], "d3": ["B4"], "f6": ["B6"]})
    assert _kinds(session, 0) == ["detect", "pass"]  # both of Ann's pieces are sat on
    assert do(session, "pass", 0) == "Ann passes: nothing to do without claiming a power"
    assert session.state.turn == 1
    arrange(session, {"a1": ["A1"], "a2": ["B1"], "b1": ["B2"], "f6": ["B6"]})
    assert "pass" in _kinds(session, 0) and "move" in _kinds(session, 0)  # boxed in a corner


def test_a_usable_magician_stops_a_pass_and_one_that_cannot_be_used_does_not() -> None:
    """(Holding a Magician used to refuse a pass even when it could not be used: no action
    was left at all.)"""
    session = started({"player_powers": True})
    session.state.held_powers[0] = ["magician"]
    arrange(session, {"a1": ["A1", "B1"], "f6": ["B6"]})  # no piece of Ann's stands alone
    assert _kinds(session, 0) == ["pass"]
    arrange(session, {"a1": ["A1", "B1"], "c3": ["A3"], "c4": ["B3"], "c2": ["B2"],
                      "b3": ["B4"], "d3": ["B5"], "f6": ["B6"]})  # A3 boxed in, alone
    assert refused(session, "pass", 0) == ("you can still use your Magician: a pass is only"
                                           " for a player who cannot")


def test_by_the_other_reading_a_pass_waits_until_no_claim_is_left_either() -> None:
    session = started({"house": {"moves": {"pass_if_only_claims": False}}})
    arrange(session, {"a1": ["A1", "B1"], "c3": ["A3", "B3"], "d3": ["B4"], "f6": ["B6"]})
    assert _kinds(session, 0) == ["detect"]
    assert refused(session, "pass", 0) == ("you can still act by claiming a power: a pass is"
                                           " only for a player who cannot")


# --- refusals that name the rule that stops the move (a blind test's findings) ---------------

def test_a_blocked_square_is_named_as_blocked() -> None:
    session = started({"board": "bridges"})
    assert refused(session, "move", 0, piece="a1", to="a3") == (
        "a3 is blocked on this board: no piece moves onto it")
    arrange(session, {"b3": ["A2"], "f1": ["A6"], "f6": ["B6"]})
    assert refused(session, "move", 0, piece="b3", to="d5") == (
        "c4 is blocked on this board: no piece moves across it, not even a Ghost")
    assert refused(session, "move", 0, piece="b3", to="z9") == (
        "'z9' is not a square of this board")


def test_sitting_on_an_own_piece_under_the_other_reading_says_so() -> None:
    session = started({"house": {"moves": {"sit_on_own": False}}})
    assert refused(session, "move", 0, piece="d1", to="c1") == (
        "c1 holds your own A3: by this table's rule a Sitter sits only on another team's"
        " piece")


WRAP = {"house": {"moves": {"sidewinder": "wrap"}}}


@pytest.mark.parametrize(("options", "stacks", "cell", "to", "needs"), [
    (WRAP, {"a2": ["A1"], "f2": ["A6"], "f6": ["B6"]}, "a2", "e2", "Sidewinder and Ghost"),
    ({}, {"c3": ["A3"], "d4": ["B4"], "f6": ["B6"]}, "c3", "e5", "Diagonal and Ghost"),
])
def test_a_move_that_needs_two_movement_powers_says_a_piece_holds_one(
        options: dict[str, Any], stacks: dict[str, list[str]], cell: str, to: str,
        needs: str) -> None:
    session = started(options)
    arrange(session, stacks)
    assert refused(session, "move", 0, piece=cell, to=to) == (
        f"a piece holds one Movement power: {cell} to {to} would need {needs}")


def test_a_diagonal_claiming_ghost_beside_a_moat_is_refused_for_the_two_powers() -> None:
    """Beside a Moat that sent the move back, a Diagonal that also claims Ghost is refused
    because a piece holds one Movement power, not because of the Moat (it claims Ghost)."""
    session = started()
    arrange(session, {"d3": ["A4"], "a1": ["A1"], "d5": ["B4"], "f6": ["B6"]}, turn=1)
    do(session, "move", 1, piece="d5", to="d4")
    do(session, "declare_moat", 0, piece="A4")
    do(session, "accept", 1)
    assert refused(session, "move", 1, piece="d5", to="c4", ghost=True) == (
        "a piece holds one Movement power: this move needs Diagonal, so it cannot claim Ghost"
        " too")


def test_a_push_names_why_it_cannot_be_made() -> None:
    session = started()
    arrange(session, {"b2": ["A2"], "a2": ["B1"], "c2": ["B3"], "c1": ["A3"], "f6": ["B6"],
                      "b3": ["B2"], "b4": ["A4"]})
    assert refused(session, "bulldoze", 0, piece="b2", target="a2") == (
        "the piece on a2 would be pushed off the board: a Bulldozer pushes into an empty"
        " square")
    assert refused(session, "bulldoze", 0, piece="b2", target="b3") == (
        "b4, beyond b3, is not empty: a Bulldozer pushes into an empty square")
    session = started({"house": {"moves": {"push_stacks": False}}})
    arrange(session, {"b3": ["A2"], "c3": ["B3", "A3"], "f6": ["B6"], "b4": ["B4"]})
    assert refused(session, "bulldoze", 0, piece="b3", target="c3") == (
        "c3 holds a stack: by this table's rule a Bulldozer pushes only a lone piece")
    session = started({"board": "bridges"})
    arrange(session, {"c6": ["A3"], "c5": ["B3"], "f6": ["B6"], "e2": ["A5"], "e3": ["B5"]})
    assert refused(session, "bulldoze", 0, piece="c6", target="c5") == (
        "the piece on c5 would be pushed onto a blocked square: a Bulldozer pushes into an"
        " empty square")


def test_a_player_with_nothing_to_push_is_told_what_a_push_needs() -> None:
    session = started()
    arrange(session, {"c1": ["A3"], "d1": ["B4"], "e1": ["A5"], "f6": ["B6"]})
    assert refused(session, "bulldoze", 0, piece="e1", target="d1") == (
        "none of your pieces can push: a Bulldozer pushes a piece next to it (not diagonally)"
        " one square on, into an empty square")


def test_the_strict_pass_does_not_say_it_is_for_a_player_who_could_only_claim() -> None:
    session = started({"house": {"moves": {"pass_if_only_claims": False}}})
    arrange(session, {"a1": ["A1", "B1"], "f6": ["B6"]})
    spec = next(a for a in session.legal_actions(0) if a.name == "pass")
    assert spec.label == "Pass (nothing to do, not even by claiming a power)"
    assert do(session, "pass", 0) == "Ann passes: nothing to do, not even by claiming a power"


def test_squares_typed_in_capitals_or_with_spaces_are_the_boards_squares() -> None:
    """A move typed by hand ("C3", " c4 ") reads its squares as the board names them, for the
    move itself, its claims and its log line; a push reads them the same way."""
    typed, plain = started(), started()
    for session in (typed, plain):
        arrange(session, {k: v for k, v in OPEN.items() if k not in ("c1", "c6")}
                | {"c3": ["A3"], "c4": ["B3"]})
    assert refused(typed, "move", 0, piece="C5 ", to="c3") == "there is no piece on c5"
    said = do(plain, "move", 0, piece="c3", to="d4")
    assert do(typed, "move", 0, piece=" C3", to="D4 ") == said
    assert board(typed) == board(plain)
