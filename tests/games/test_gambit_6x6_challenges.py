"""Gambit (6x6): claims and challenges, settled from the secret the companion holds; the Moat
and the Kamikaze declared by the other side; the Detective's look."""

from __future__ import annotations

from companion.engine import TableSession
from tests.games.test_gambit_6x6_moves import arrange
from tests.games.test_gambit_6x6_setup import board, do, powers, refused, started


def names(session: TableSession, seat: int) -> list[str]:
    return [a.name for a in session.legal_actions(seat)]


# Ann's A2 holds Diagonal + Sitting, A3 Ghost, A4 Moat. Ben's B1 Sidewinder, B2 Bulldozer +
# Kamikaze, B4 Detective (test_gambit_6x6_setup.py).

def test_a_true_claim_costs_the_challenger_a_piece_and_the_piece_that_power() -> None:
    session = started()
    do(session, "move", 0, piece="b1", to="d3")  # A2, claiming Diagonal (true)
    assert names(session, 1) == ["accept", "challenge"]
    text = do(session, "challenge", 1, power="diagonal")
    assert text == ("Ben challenges Ann's claim that A2 holds Diagonal | True: A2 holds Diagonal"
                    " and loses it; Ben loses a piece and Ann places a new power")
    assert powers(session, "A2") == (None, "sitting")
    # The seed's order: Ben first gives up a piece of his choice...
    assert names(session, 0) == [] and names(session, 1) == ["give_up"]
    assert do(session, "give_up", 1, piece="B6") == "Ben gives up B6"
    assert session.state.lost_count(1) == 1
    # ... then Ann places a new Movement power, in secret (a power her team does not hold);
    # the move stands and Ben's turn comes.
    assert names(session, 1) == [] and names(session, 0) == ["place_new_power"]
    spec = session.legal_actions(0)[0]
    assert spec.params[0].choices == ("diagonal", "sidewinder", "bulldozer")
    assert do(session, "place_new_power", 0, power="sidewinder", piece="A2") == \
        "Ann places a new movement power"
    assert powers(session, "A2") == ("sidewinder", "sitting")
    assert board(session)["d3"] == ["A2"] and "f6" not in board(session)
    assert session.state.phase == "turn" and session.state.turn == 1


def test_the_new_power_is_everyones_log_line_but_only_its_seats_secret() -> None:
    """Placed last, the new power's line carries what follows it (here the Detective's look,
    which undo cannot take back): everyone sees that it was placed, not which or where."""
    session = started()
    arrange(session, {"c3": ["A3"], "d4": ["B2"], "f1": ["A6"], "b4": ["B4"]}, turn=1)
    do(session, "detect", 1, piece="B4", target="A3")  # B4 is a Detective
    do(session, "challenge", 0, power="detective")
    do(session, "give_up", 0, piece="A6")
    text = do(session, "place_new_power", 1, power="moat", piece="B4")
    assert text == "Ben places a new action power | Ben learns A3's powers"
    assert powers(session, "B4") == (None, "moat")
    seen = session.history_for(0)[-1].to_dict(0)
    assert seen["action"] == {"action": "place_new_power", "seat": 1}
    assert session.history_for(1)[-1].to_dict(1)["action"]["piece"] == "B4"
    assert not session.can_undo_public() and session.state.turn == 0


def test_a_caught_bluff_costs_the_bluffer_a_piece_and_undoes_the_move() -> None:
    session = started()
    do(session, "move", 0, piece="c1", to="e3")  # A3 (a Ghost) claims Diagonal: a bluff
    text = do(session, "challenge", 1, power="diagonal")
    assert text.endswith("A bluff: A3 does not hold Diagonal; Ann loses a piece"
                         " | Ann's action is undone")
    assert board(session)["c1"] == ["A3"] and "e3" not in board(session)
    assert powers(session, "A3") == ("ghost", None)
    assert names(session, 0) == ["give_up"]
    do(session, "give_up", 0, piece="A6")
    assert session.state.turn == 1 and session.state.phase == "turn"  # the turn is lost


def test_the_other_reading_lets_the_bluffer_move_again() -> None:
    session = started({"house": {"challenge": {"bluff_turn": "remake"}}})
    do(session, "move", 0, piece="c1", to="e3")
    do(session, "challenge", 1, power="diagonal")
    do(session, "give_up", 0, piece="A6")
    assert session.state.turn == 0 and "move" in names(session, 0)


def test_the_winner_of_a_challenge_may_pick_the_lost_piece_by_the_other_reading() -> None:
    session = started({"house": {"challenge": {"loser_chooses": False}}})
    do(session, "move", 0, piece="c1", to="e3")
    do(session, "challenge", 1, power="diagonal")
    assert names(session, 0) == [] and names(session, 1) == ["give_up"]
    assert do(session, "give_up", 1, piece="A4") == "Ben takes A4 from Ann | Ann loses A4"


def test_the_held_reading_gives_as_many_new_powers_as_the_piece_held() -> None:
    session = started({"house": {"challenge": {"reward": "held"}}})
    do(session, "move", 0, piece="b1", to="d3")
    do(session, "challenge", 1, power="diagonal")
    groups = [o.group for o in session.state.owed if o.kind == "reassign"]
    assert groups == ["movement", "action"]


def test_a_challenge_needs_an_open_claim_and_a_power_of_this_game() -> None:
    session = started()
    assert refused(session, "challenge", 1, power="diagonal") == \
        "no claim is open to a challenge"
    do(session, "move", 0, piece="a1", to="a3")  # a plain move: nothing to answer
    assert session.state.turn == 1 and session.state.phase == "turn"
    do(session, "move", 1, piece="b6", to="d4")  # B2 claims Diagonal
    assert refused(session, "challenge", 0, power="teleport").startswith(
        "'teleport' is not a power of this game (powers: diagonal, ghost, sidewinder,")
    assert refused(session, "challenge", 0, power="ghost") == \
        "nobody claimed Ghost here (open claims: diagonal)"
    assert refused(session, "challenge", 1, power="diagonal").startswith("not yours to answer")


def test_a_moat_sends_the_move_back_and_keeps_the_mover_away_this_turn() -> None:
    session = started()
    arrange(session, {"d3": ["A4"], "a1": ["A1"], "d5": ["B4"], "f6": ["B6"]}, turn=1)
    do(session, "move", 1, piece="d5", to="d4")  # next to A4, a true Moat
    assert names(session, 0) == ["accept", "declare_moat"]
    do(session, "declare_moat", 0, piece="A4")
    assert names(session, 0) == [] and names(session, 1) == ["accept", "challenge"]
    text = do(session, "accept", 1)
    assert text == "Ben accepts the Moat on A4 and will move again | Ben's action is undone" \
        " | Ben moves again"
    assert board(session)["d5"] == ["B4"] and session.state.turn == 1
    dest = next(a for a in session.legal_actions(1) if a.name == "move").params[1]
    notes = dict(zip(dict(dest.choices_by)["d5"], dict(dest.notes_by)["d5"], strict=True))
    assert notes["d4"] == "Claims Ghost"  # the phone marks it: only a Ghost may go there now
    assert notes["d6"] == ""  # away from the Moat: a plain move
    for to in ("d4", "c4"):  # a plain move, a Diagonal's
        assert refused(session, "move", 1, piece="d5", to=to) == (
            "the Moat on A4 sent your last try back: no piece of yours but a Ghost may finish"
            " around it this turn")
    do(session, "move", 1, piece="d5", to="d4", ghost=True)  # a Ghost may go there
    assert "declare_moat" not in names(session, 0)


def test_a_true_moat_challenged_costs_the_mover_a_piece_and_the_moat_its_power() -> None:
    session = started()
    arrange(session, {"d3": ["A4"], "a1": ["A1"], "d5": ["B4"], "f6": ["B6"]}, turn=1)
    do(session, "move", 1, piece="d5", to="d4")
    do(session, "declare_moat", 0, piece="A4")
    text = do(session, "challenge", 1, power="moat")
    assert "True: A4 holds Moat" in text and "Ben's action is undone" in text
    assert powers(session, "A4") == (None, None)
    assert [(o.kind, o.seat) for o in session.state.owed] == [("lose", 1), ("reassign", 0)]
    do(session, "give_up", 1, piece="B6")
    do(session, "place_new_power", 0, power="moat", piece="A1")  # it may be placed again
    assert session.state.turn == 1 and board(session)["d5"] == ["B4"]


def test_by_the_other_reading_a_lost_challenge_of_a_moat_costs_no_piece() -> None:
    session = started({"house": {"challenge": {"moat_costs_piece": False}}})
    arrange(session, {"d3": ["A4"], "a1": ["A1"], "d5": ["B4"], "f6": ["B6"]}, turn=1)
    do(session, "move", 1, piece="d5", to="d4")
    do(session, "declare_moat", 0, piece="A4")
    do(session, "challenge", 1, power="moat")
    assert [o.kind for o in session.state.owed] == ["reassign"]


def test_a_bluffed_moat_caught_costs_its_claimer_a_piece_and_the_move_stands() -> None:
    session = started()
    arrange(session, {"d3": ["A1"], "a1": ["A6"], "d5": ["B4"], "f6": ["B6"]}, turn=1)
    do(session, "move", 1, piece="d5", to="d4")
    do(session, "declare_moat", 0, piece="A1")
    text = do(session, "challenge", 1, power="moat")
    assert "A bluff: A1 does not hold Moat; Ann loses a piece" in text
    do(session, "give_up", 0, piece="A6")
    assert board(session)["d4"] == ["B4"] and session.state.turn == 0


def test_a_ghost_claim_is_not_stopped_by_a_moat_unless_it_is_caught() -> None:
    session = started()
    arrange(session, {"d3": ["A4"], "a1": ["A1"], "d5": ["B4"], "f6": ["B6"]}, turn=1)
    text = do(session, "move", 1, piece="d5", to="d4", ghost=True)
    assert text == "Ben moves B4 d5-d4, claiming Ghost"
    assert names(session, 0) == ["accept", "challenge"]
    do(session, "challenge", 0, power="ghost")  # B4 is no Ghost, but the move needs none
    do(session, "give_up", 1, piece="B6")
    assert board(session)["d4"] == ["B4"]  # it stands: a plain move
    assert names(session, 0) == ["accept", "declare_moat"]  # now a Moat may stop it


def test_a_ghost_caught_bluffing_beside_the_moat_that_sent_it_back_is_undone() -> None:
    """After a Moat sent the move back, only a Ghost may finish beside it: that claim is what
    makes the re-made move valid, so a caught bluff undoes it ("If a bluff call reveals the
    last move to be invalid, it must be undone")."""
    session = started()
    arrange(session, {"d3": ["A4"], "a1": ["A1"], "d5": ["B4"], "f6": ["B6"]}, turn=1)
    do(session, "move", 1, piece="d5", to="d4")
    do(session, "declare_moat", 0, piece="A4")
    do(session, "accept", 1)
    do(session, "move", 1, piece="d5", to="d4", ghost=True)  # B4 is no Ghost
    text = do(session, "challenge", 0, power="ghost")
    assert text.endswith("A bluff: B4 does not hold Ghost; Ben loses a piece"
                         " | Ben's action is undone")
    do(session, "give_up", 1, piece="B6")
    assert board(session)["d5"] == ["B4"] and "d4" not in board(session)
    assert session.state.phase == "turn" and session.state.turn == 0  # the turn is lost


def test_a_kamikaze_removes_the_sitter_and_becomes_a_normal_piece() -> None:
    session = started()
    arrange(session, {"b3": ["A2"], "b4": ["B2"], "f1": ["A6"], "f6": ["B6"]})
    do(session, "move", 0, piece="b3", to="b4")  # A2 sits on B2 (a true Kamikaze)
    assert names(session, 1) == ["accept", "challenge", "declare_kamikaze"]
    do(session, "declare_kamikaze", 1)
    text = do(session, "accept", 0)
    assert text == ("Ann accepts the Kamikaze of B2 | A2 leaves the board; B2 becomes a normal"
                    " piece | Ann loses A2")
    assert board(session)["b4"] == ["B2"] and powers(session, "B2") == (None, None)
    assert session.state.lost_count(0) == 1 and session.state.turn == 1


def test_a_kamikaze_shown_true_also_costs_the_challenger_a_piece() -> None:
    session = started()
    arrange(session, {"b3": ["A2"], "b4": ["B2"], "f1": ["A6"], "a1": ["A1"], "f6": ["B6"]})
    do(session, "move", 0, piece="b3", to="b4")
    do(session, "declare_kamikaze", 1)
    do(session, "challenge", 0, power="kamikaze")
    assert [(o.kind, o.seat) for o in session.state.owed] == [("lose", 0), ("reassign", 1)]
    do(session, "give_up", 0, piece="A6")
    do(session, "place_new_power", 1, power="kamikaze", piece="B6")
    assert session.state.lost_count(0) == 2 and session.state.outcome is None


def test_by_the_other_reading_a_kamikazed_sitter_is_not_a_loss() -> None:
    session = started({"house": {"challenge": {"kamikaze_counts": False,
                                               "kamikaze_keeps": "movement"}}})
    arrange(session, {"b3": ["A2"], "b4": ["B2"], "f1": ["A6"], "f6": ["B6"]})
    do(session, "move", 0, piece="b3", to="b4")
    do(session, "declare_kamikaze", 1)
    do(session, "accept", 0)
    assert session.state.lost_count(0) == 0 and powers(session, "B2") == ("bulldozer", None)


def test_a_bluffed_kamikaze_caught_leaves_the_sitter_where_it_sits() -> None:
    session = started()
    arrange(session, {"b3": ["A2"], "b4": ["B1"], "f1": ["A6"], "f6": ["B6"]})
    do(session, "move", 0, piece="b3", to="b4")
    do(session, "declare_kamikaze", 1)
    assert "A bluff: B1 does not hold Kamikaze" in do(session, "challenge", 0, power="kamikaze")
    do(session, "give_up", 1, piece="B6")
    assert board(session)["b4"] == ["B1", "A2"]
    assert names(session, 1) == ["accept", "challenge"]  # the Sitting claim is still open


def test_a_detective_learns_the_powers_only_once_the_claim_stands() -> None:
    session = started()
    arrange(session, {"c3": ["A3"], "d4": ["B2"], "f1": ["A6"], "b4": ["B4"]}, turn=1)
    do(session, "detect", 1, piece="B4", target="A3")
    assert session.state.notes[1] == []  # not before Ann has answered
    text = do(session, "accept", 0)
    assert text == "Ann lets Ben's Detective stand | Ben learns A3's powers"
    assert session.state.notes[1] == ["A3 (Detective, turn 1): Ghost"]
    ben = {f.label: f.value for f in session.table_view(1).secrets}
    assert ben["You learned"] == "A3 (Detective, turn 1): Ghost"
    assert not any("Ghost" in f.value for f in session.table_view(0).secrets
                   if f.label == "You learned")
    assert not session.can_undo_public()  # a look cannot be taken back


def test_a_detective_caught_bluffing_learns_nothing() -> None:
    session = started()
    arrange(session, {"c3": ["A3"], "d4": ["B2"], "f1": ["A6"], "b4": ["B4"]}, turn=1)
    do(session, "detect", 1, piece="B2", target="A3")  # B2 is no Detective
    do(session, "challenge", 0, power="detective")
    do(session, "give_up", 1, piece="B4")
    assert session.state.notes[1] == [] and session.state.turn == 0


def test_a_bulldozer_may_push_into_a_moat_but_not_finish_beside_one() -> None:
    session = started()
    # A4 (a Moat) on a2: B5 is pushed next to it, to b3; the Bulldozer ends on c3, out of range.
    arrange(session, {"a2": ["A4"], "f1": ["A6"], "d3": ["B2"], "c3": ["B5"], "f6": ["B6"]},
            turn=1)
    do(session, "bulldoze", 1, piece="d3", target="c3")
    assert board(session)["b3"] == ["B5"] and board(session)["c3"] == ["B2"]
    assert names(session, 0) == ["accept", "challenge"]
    # A4 on b2: the Bulldozer would finish next to it, on c3.
    session = started()
    arrange(session, {"b2": ["A4"], "f1": ["A6"], "d3": ["B2"], "c3": ["B5"], "f6": ["B6"]},
            turn=1)
    do(session, "bulldoze", 1, piece="d3", target="c3")
    assert names(session, 0) == ["accept", "challenge", "declare_moat"]
    do(session, "declare_moat", 0, piece="A4")
    do(session, "accept", 1)
    assert board(session)["c3"] == ["B5"] and board(session)["d3"] == ["B2"]  # all undone


def test_a_moat_pushed_and_sent_back_cannot_be_pushed_the_same_way_again() -> None:
    """A Bulldozer that pushes the Moat itself lands beside the Moat's new square; sent back,
    it may not make the same push again (else the turn could loop for ever): the Moat's
    eight squares count from where the push would take it."""
    session = started()
    arrange(session, {"c3": ["A4"], "a1": ["A1"], "c4": ["B2"], "f6": ["B6"]}, turn=1)
    do(session, "bulldoze", 1, piece="c4", target="c3")  # A4 to c2, B2 on c3 beside it
    do(session, "declare_moat", 0, piece="A4")
    do(session, "accept", 1)
    assert board(session)["c3"] == ["A4"] and board(session)["c4"] == ["B2"]
    assert refused(session, "bulldoze", 1, piece="c4", target="c3") == (
        "the Moat on A4 sent your last try back: your Bulldozer may not finish around it this"
        " turn")
    assert "bulldoze" not in names(session, 1)
    do(session, "move", 1, piece="c4", to="c5")  # elsewhere: the turn goes on
    assert session.state.turn == 0


def test_a_true_moat_that_costs_no_piece_is_logged_without_a_lost_piece() -> None:
    session = started({"house": {"challenge": {"moat_costs_piece": False}}})
    arrange(session, {"d3": ["A4"], "a1": ["A1"], "d5": ["B4"], "f6": ["B6"]}, turn=1)
    do(session, "move", 1, piece="d5", to="d4")
    do(session, "declare_moat", 0, piece="A4")
    text = do(session, "challenge", 1, power="moat")
    assert "True: A4 holds Moat and loses it; Ann places a new power" in text
    assert "Ben loses a piece" not in text


def test_a_kamikaze_that_keeps_the_movement_power_is_not_called_a_normal_piece() -> None:
    session = started({"house": {"challenge": {"kamikaze_keeps": "movement"}}})
    arrange(session, {"b3": ["A2"], "b4": ["B2"], "f1": ["A6"], "f6": ["B6"]})
    do(session, "move", 0, piece="b3", to="b4")
    do(session, "declare_kamikaze", 1)
    text = do(session, "accept", 0)
    assert text.endswith("A2 leaves the board; B2 loses its Action power and keeps any"
                         " Movement power | Ann loses A2")
    assert powers(session, "B2") == ("bulldozer", None)


def prompts(session: TableSession) -> list[str]:
    """What each seat's turn card says is asked of it ("": nothing, or a plain turn)."""
    return [session.table_view(seat).prompt for seat in range(len(session.setup.seats))]


def test_a_penalty_and_an_answer_are_named_on_the_phone_not_called_a_turn() -> None:
    """Ann, whose turn it is, owes a piece for a caught bluff: her phone says so, not "Your
    turn"; so do the answer before it, the new power after an honest claim and the move again
    of the other reading."""
    session = started({"house": {"challenge": {"bluff_turn": "remake"}}})
    assert prompts(session) == ["", ""]  # a plain turn: the phone says "Your turn"
    do(session, "move", 0, piece="c1", to="e3")  # A3 (a Ghost) claims Diagonal: a bluff
    assert prompts(session) == ["", "Answer Ann's move A3 c1-e3, claiming Diagonal: let it stand"
                                 " or challenge it"]
    do(session, "challenge", 1, power="diagonal")
    assert session.table_view(0).turn == 0  # still Ann's turn...
    assert prompts(session) == ["You must give up a piece: you lost a challenge", ""]
    give_up = next(spec for spec in session.legal_actions(0) if spec.name == "give_up")
    labels = dict(zip(give_up.params[0].choices, give_up.params[0].labels, strict=True))
    assert labels["A1"] == "A1 (a1)"  # each piece with its square, to find it on the board
    do(session, "give_up", 0, piece="A6")
    assert prompts(session) == ["Move again: your last try was a bluff and is undone", ""]
    assert session.table_view(None).status == "Ann to move (again: the last try was a bluff," \
        " undone)"
    # An honest claim: the challenger gives up a piece, then the honest side places a power.
    honest = started()
    do(honest, "move", 0, piece="b1", to="d3")  # A2 holds Diagonal
    do(honest, "challenge", 1, power="diagonal")
    assert prompts(honest) == ["", "You must give up a piece: you lost a challenge"]
    do(honest, "give_up", 1, piece="B6")
    assert prompts(honest) == ["Place a new movement power on one of your pieces, in secret:"
                               " your piece was shown honest", ""]
    # By the other reading the winner takes the piece: named as taking it.
    taker = started({"house": {"challenge": {"loser_chooses": False}}})
    do(taker, "move", 0, piece="c1", to="e3")
    do(taker, "challenge", 1, power="diagonal")
    assert prompts(taker) == ["", "Take one of Ann's pieces: Ann lost the challenge"]
