"""What the phones show of Captain Flip: the boards, the before-you-commit payouts, the score
sheet at any time, nothing of a tile's unseen side; and what the camera's readings suggest."""

from __future__ import annotations

import json

from companion.engine import Action, parse_payload
from companion.games.captain_flip import preview
from companion.games.captain_flip.components import tile_sides
from tests.games.test_captain_flip_rules import Table


def facts(table: Table) -> dict[str, tuple[str, str, str]]:
    return {f.key: (f.label, f.value, f.detail) for f in table.session.table_view(0).facts}


def test_each_player_has_a_board_of_fifteen_spaces_with_their_tiles() -> None:
    table = Table(3, board="B")
    table.play("cook", "a1")
    view = table.session.table_view(None)
    assert [b.owner for b in view.boards] == [1, 2, 0]  # Ben's turn: his board first
    ann = view.boards[2]
    assert len(ann.cells) == 15 and ann.title == "The Kraken"
    a1 = ann.cell("a1")
    assert a1 is not None and [p.title for p in a1.pieces] == ["Cook"]
    assert {c.id: c.terrain for c in ann.cells}["d1"] == "bonus"


def test_the_unseen_side_of_a_drawn_tile_shows_nowhere() -> None:
    """Two tables that differ only in the back of the drawn Cook look the same on every
    screen, and to the log; a flip shows it."""
    seen = []
    for back in ("monkey", "gunner"):
        table = Table()
        table.draw("cook", back=back)
        views = [table.session.table_view(seat).to_dict() for seat in (None, 0, 1)]
        for view in views:
            view.pop("log")
        seen.append((json.dumps(views), table.session.history[-1].text,
                     table.session.history[-1].notes))
    assert seen[0] == seen[1]
    table.act("flip")
    assert facts(table)["drawn"][1] == "Gunner (flipped)"


def test_the_unseen_sides_of_tiles_on_the_boards_show_nowhere() -> None:
    seen = []
    for back in ("monkey", "gunner"):
        table = Table()
        table.play("cook", "a1", back=back)
        table.play("swabby", "a1")
        seen.append(json.dumps(table.session.table_view(1).to_dict()))
    assert seen[0] == seen[1]


def test_what_may_be_known_has_no_tile_numbers_nor_unseen_sides() -> None:
    table = Table()
    table.play("cook", "a1", back="monkey")
    table.draw("lookout", back="parrot")
    known = table.session.rules.as_known_to(table.state, 1)
    hand = known.hand
    assert hand is not None and hand.number is None and hand.down is None
    assert known.players[0].spaces["a1"].down is None and known.seed is None
    assert set(known.bag) == {None} and len(known.bag) == 70


def test_a_flip_cannot_be_undone_a_draw_can() -> None:
    table = Table()
    table.draw("cook")
    assert table.session.can_undo()
    table.act("flip")
    assert not table.session.can_undo()


def test_before_you_commit_each_space_kept_or_flipped() -> None:
    """Board D. Ann has a Swabby on b1 and a Lookout on b2, 0 coins. A Cook drawn: on a2 its
    row (row 2) holds b2: +2; on b3 it covers the Lookout (-4 at the end); on c1 row 1 holds
    b1: +2; on d3 alone: +1; e3 costs a coin Ann does not have: not offered."""
    table = Table(board="D")
    table.play("swabby", "b1")
    table.play("gunner", "b1")
    table.play("lookout", "b2")
    table.play("swabby", "b2")
    table.draw("cook", back="monkey")
    shown = facts(table)
    assert {k for k in shown if k.startswith("payout:")} == {"payout:a2", "payout:b3",
                                                             "payout:c1", "payout:d3"}
    assert shown["payout:a2"][1] == "Cook +2 now"
    assert shown["payout:b3"][1] == "Cook +1 now, end −4"
    assert shown["payout:c1"][1] == "Cook +2 now"
    assert shown["payout:d3"][1] == "Cook +1 now"
    # Flipped: the back is any other Character: a Gunner's 5 at most now; a Lookout's 4 at
    # most at the end, a Parrot's -1 at least (Swabby +1, Carpenter +3 in between).
    assert shown["payout:d3"][2] == "Flipped: 0 to +5 now (and maybe more), end −1 to +4"
    assert "one of Swabby, Cartographer, Navigator, Carpenter, Monkey, Gunner, Parrot and" \
           " Lookout" in shown["drawn"][2]
    table.act("flip")
    shown = facts(table)
    assert shown["payout:a2"][1] == "Monkey +1 now and a flip"  # b2 is next to a2
    assert shown["payout:d3"][1] == "Monkey +1 now"  # nothing next to d3
    assert shown["payout:d3"][2] == ""


def test_before_you_commit_counts_the_map_and_what_a_pending_bonus_gains() -> None:
    """Board D: a Parrot on b4 (2 coins per completed column) draws a tile; on a4 that tile
    completes column a: +3 of its own, and the Parrot's space pays 2 more."""
    table = Table(board="D")
    for ann, ben in (("a2", "a2"), ("a3", "a3"), ("b1", "b1"), ("b2", "b2"), ("b3", "b3")):
        table.play("swabby", ann)
        table.play("lookout", ben)
    table.play("parrot", "b4")
    table.draw("carpenter", back="cartographer")
    shown = facts(table)
    assert shown["payout:a4"][1] == "Carpenter +5 now, end +3"
    assert shown["payout:c1"][1] == "Carpenter 0 now, end +3"
    table.act("flip")  # a Cartographer: the map, and its coin at the end of this turn
    assert facts(table)["payout:c1"][1] == "Cartographer +1 now"


def test_a_flip_may_not_show_a_pair_whose_tiles_were_both_seen() -> None:
    table = Table()
    for _ in range(2):  # both Cook/Monkey tiles turned over in front of everyone
        table.draw("cook", back="monkey")
        table.act("flip")
        table.act("place", cell=table.state.open_cells(table.state.turn)[0])
    table.draw("cook")
    assert "monkey" not in preview.possible_backs(table.state, "cook")
    assert len(preview.possible_backs(table.state, "cook")) == 7


def test_the_score_sheet_is_there_at_any_time_as_if_the_game_ended_now() -> None:
    table = Table()
    table.play("lookout", "a1")
    table.play("parrot", "a1")
    table.play("swabby", "b1")  # Ben's Parrot's tile
    sheet = table.session.table_view(None).score_sheet
    assert sheet is not None and sheet.title == "If the game ended now"
    assert sheet.rules == ("Coins held", "Swabbies", "Lookout 1", "Parrots")
    ann, ben = sheet.columns
    assert ann.scores == (0, None, 4, None) and ann.total == 4
    assert ben.scores == (0, 1, None, -1) and ben.total == 0  # the Swabby's coin pays it
    for column in sheet.columns:
        assert column.total == sum(s or 0 for s in column.scores)


# --- the camera ------------------------------------------------------------------------------

def suggest(table: Table, payload: str) -> list[Action]:
    return list(table.session.rules.suggest(table.state, parse_payload(payload)))


def test_a_sticker_read_in_the_draw_is_that_tile_drawn() -> None:
    table = Table()
    assert suggest(table, "GC1/CF/TILE/07/COOK") == [
        Action("draw", 0, {"face": "cook", "tile": "07"})]


def test_the_other_side_of_the_tile_in_hand_read_is_its_flip() -> None:
    table = Table()
    table.act("draw", face="cook", tile="07")  # tile 07: Swabby / Cook
    assert suggest(table, "GC1/CF/TILE/07/SWABBY") == [Action("flip", 0)]
    assert suggest(table, "GC1/CF/TILE/07/COOK") == []


def test_a_tile_read_next_to_a_monkey_on_its_other_side_is_the_monkeys_flip() -> None:
    table = Table()
    table.act("draw", face="cook", tile="07")
    table.act("place", cell="a1")
    table.play("swabby", "a1")
    table.play("monkey", "b1")
    assert suggest(table, "GC1/CF/TILE/07/SWABBY") == [Action("monkey_flip", 0, {"cell": "a1"})]


def test_a_sticker_of_a_tile_on_a_board_is_not_offered_as_a_draw() -> None:
    """The camera sees the boards' tiles too: only a tile still in the bag is a draw."""
    table = Table()
    table.act("draw", face="cook", tile="07")
    table.act("place", cell="a1")
    assert suggest(table, "GC1/CF/TILE/07/COOK") == []
    assert [a.params for a in suggest(table, "GC1/CF/TILE/08/COOK")] == [
        {"face": "cook", "tile": "08"}]


def test_a_tile_told_by_its_side_alone_is_read_by_the_camera_when_it_is_turned_over() -> None:
    """Its number stood in for it: the sticker under the camera (another Cook tile, in truth)
    is its flip told with the side read, and the number read is a draw still to be had."""
    table = Table()
    table.act("draw", face="cook")  # the camera missed it: the side told by a tap
    hand = table.state.hand
    assert hand is not None and hand.number is not None and hand.down is None
    stand_in = f"{hand.number:02d}"
    assert suggest(table, "GC1/CF/TILE/21/CARTOGRAPHER") == [  # 21: Cartographer / Cook
        Action("flip", 0, {"face": "cartographer"})]
    assert suggest(table, "GC1/CF/TILE/21/COOK") == []  # the side already told
    table.act("place", cell="a1")
    # Ben's draw may be the very tile whose number stood in for Ann's: it is offered, and is
    # that tile or its twin (the same back); every number is still in one place.
    assert [a.params for a in suggest(table, f"GC1/CF/TILE/{stand_in}/COOK")] == [
        {"face": "cook", "tile": stand_in}]
    in_bag = len(table.state.bag)
    table.act("draw", seat=1, face="cook", tile=stand_in)
    state = table.state
    assert state.hand is not None and state.hand.number is not None
    assert tile_sides()[state.hand.number] == tile_sides()[int(stand_in)]
    ann = state.players[0].spaces["a1"]
    assert "cook" in tile_sides()[ann.number or 0]
    assert len(state.bag) == in_bag - 1
    numbers = [*state.bag, ann.number, state.hand.number]
    assert sorted(numbers) == sorted(tile_sides())


def test_a_number_that_stood_in_is_given_up_to_the_tile_it_names() -> None:
    table = Table(3)
    table.act("draw", face="cook")  # stands in as 07, the first Cook in the bag
    table.act("place", cell="a1")
    table.act("draw", seat=1, face="cook", tile="08")  # 07's twin, read by the camera
    table.act("place", seat=1, cell="a1")
    assert suggest(table, "GC1/CF/TILE/07/SWABBY") == [
        Action("draw", 2, {"face": "swabby", "tile": "07"})]
    table.act("draw", seat=2, face="swabby", tile="07")
    state = table.state
    assert state.hand is not None and state.hand.number == 7 and state.hand.down == "cook"
    ann = state.players[0].spaces["a1"]
    assert ann.number not in (7, 8) and "cook" in tile_sides()[ann.number or 0]
    assert ann.down is None
    assert sorted([*state.bag, ann.number, 8, 7]) == sorted(tile_sides())


def test_a_number_that_stood_in_stays_a_draw_after_its_tile_is_turned_over() -> None:
    """Ann's Cook, told by its side, took 07's number; turned over, a Swabby: it may be 07 or
    its twin 08, so 07 read in Ben's draw is still his draw (a review found it ignored)."""
    table = Table()
    table.act("draw", face="cook")
    table.act("flip", face="swabby")
    table.act("place", cell="a1")
    assert suggest(table, "GC1/CF/TILE/07/COOK") == [
        Action("draw", 1, {"face": "cook", "tile": "07"})]
    table.act("draw", seat=1, face="cook", tile="07")
    state = table.state
    assert state.hand is not None and state.hand.number in (7, 8)
    assert state.hand.down == "swabby"
    assert sorted([*state.bag, state.players[0].spaces["a1"].number, state.hand.number]) == \
        sorted(tile_sides())


def test_a_monkey_asking_the_side_is_offered_it_by_the_camera() -> None:
    table = Table()
    table.act("draw", face="swabby")
    table.act("place", cell="a1")
    table.play("swabby", "a1")
    table.play("monkey", "a2")
    assert suggest(table, "GC1/CF/TILE/11/GUNNER") == [  # 11: Swabby / Gunner
        Action("monkey_flip", 0, {"cell": "a1", "face": "gunner"})]
    assert suggest(table, "GC1/CF/TILE/21/COOK") == []  # no Swabby side: not that tile


def test_the_companion_drawing_takes_no_camera_reading() -> None:
    table = Table(companion_draws=True)
    assert suggest(table, "GC1/CF/TILE/07/COOK") == []


def test_a_draw_on_what_a_seat_knows_keeps_the_count() -> None:
    """The camera's checks try actions on what every seat knows, where the bag's numbers are
    unknown: a draw by its side there took a number from an empty list (a code review)."""
    table = Table()
    rules = table.session.rules
    known = rules.as_known_to(table.state, None)
    after = rules.apply(known, Action("draw", 0, {"face": "cook"})).state
    assert len(after.bag) == len(known.bag) - 1 and after.hand.up == "cook"
