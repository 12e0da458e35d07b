"""Captain Flip, a second blind review (2026-11-28): scenarios written from the rulebook
(seeds/004) and RULES.md §5 before reading the engine, each worked out by hand beside it, and
the two things the review changed: a draw always takes one tile out of the bag (a misread
sticker once left the count alone, which told every phone about tiles on the boards), and a
refused Monkey flip says why.
"""

from __future__ import annotations

from typing import Any

from companion.engine import Action
from tests.games.test_captain_flip_rules import Table

NAV = "navigator"  # with no Cartographer on its board a Navigator takes 0: a neutral filler


def views(table: Table) -> list[dict[str, Any]]:
    """What every phone (and the table) sees."""
    return [table.session.table_view(seat).to_dict() for seat in (None, 0, 1)]


# --- the bag never tells where the tiles are -----------------------------------------------

def test_a_draw_takes_a_tile_from_the_bag_even_when_the_one_named_and_its_twin_are_out() -> None:
    """Ann and Ben each place a Swabby, face up, their backs unseen. In one game they are the
    two Swabby/Navigator tiles (03, 04), in the other the two Swabby/Carpenter tiles (05, 06).
    Ann then draws a Navigator and names 03 (a misread, or a probe). A real tile left the bag
    both times, so the count drops both times; if it did not, "Tiles in the bag" would tell
    everyone that both Swabbies hide a Navigator."""
    seen = []
    for ann, ben in (("03", "04"), ("05", "06")):
        table = Table()
        table.act("draw", face="swabby", tile=ann)
        table.act("place", cell="a1")
        table.act("draw", face="swabby", tile=ben)
        table.act("place", cell="a1")
        in_bag = len(table.state.bag)
        table.act("draw", face=NAV, tile="03")
        assert len(table.state.bag) == in_bag - 1 == 69
        assert table.state.hand is not None and table.state.hand.up == NAV
        seen.append(views(table))
    assert seen[0] == seen[1]


def test_misread_draws_keep_the_bag_count_equal_to_the_tiles_not_drawn() -> None:
    """Five players name tile 03 (a Navigator side) for every draw, long after 03 and its twin
    are out: each draw still takes one tile, so the count stays 72 less the draws."""
    table = Table(5)
    while table.state.phase != "over":
        table.act("draw", face=NAV, tile="03")
        table.act("place", cell=table.state.open_cells(table.state.turn)[0])
        assert len(table.state.bag) == 72 - table.state.drawn
    assert table.state.drawn > 2


# --- refusals say why ------------------------------------------------------------------------

def monkey_waiting() -> Table:
    """Ann's Monkey on b2 waits to flip b1, its only neighbour with a tile (a1 is diagonal,
    a2 and c2 are empty)."""
    table = Table()
    table.play("cook", "a1")
    table.play(NAV, "a1")
    table.play(NAV, "b1")
    table.play(NAV, "a2")
    table.play("monkey", "b2")
    assert table.state.phase == "monkey"
    return table


def test_a_refused_monkey_flip_names_the_reason_and_the_tiles_it_may_flip() -> None:
    table = monkey_waiting()
    table.refused("monkey_flip", "a1 is only diagonal to the Monkey on b2: flip b1", cell="a1")
    table.refused("monkey_flip", "c2 is empty: flip b1", cell="c2")
    table.refused("monkey_flip", "b2 is the Monkey itself: flip b1", cell="b2")
    table.refused("monkey_flip", "there is no space 'd1' on board A: flip b1", cell="d1")
    table.refused("monkey_flip", "there is no space '[1]' on board A", cell=[1])
    table.act("monkey_flip", cell="b1")


def test_a_space_typed_in_capitals_or_with_spaces_is_the_space_the_board_names() -> None:
    """A player typing "A1" or " b1 " on a phone means a1 and b1; the log names them so."""
    table = Table()
    table.act("draw", face=NAV, tile="03")
    table.act("place", cell=" A1 ")
    assert "a1" in table.state.players[0].spaces
    table = monkey_waiting()
    table.act("monkey_flip", cell="B1")
    assert table.state.phase != "monkey"
    assert "b1" in table.session.history[-1].text


def test_a_monkey_with_no_neighbour_refuses_a_flip_with_the_reason() -> None:
    """FAQ: a Monkey placed next to no tile does not flip. A flip then is refused because no
    Monkey waits, not because of whose turn it is."""
    table = Table()
    table.play("monkey", "a1")
    assert table.coins(0) == 1 and table.state.turn == 1
    table.refused("monkey_flip", "no Monkey is waiting to flip a tile (Ben draws a tile)",
                  seat=0, cell="a1")
    table.refused("monkey_flip", "no Monkey is waiting to flip a tile (Ben draws a tile)",
                  seat=1, cell="a1")


# --- scenarios from the rulebook, worked out by hand ------------------------------------------

def test_a_revealed_monkey_may_turn_back_the_monkey_that_revealed_it() -> None:
    """Ann: a1 Cook (a Monkey behind), a2 Navigator; her Monkey on b1 (a Cartographer behind)
    flips a1: the Monkey there takes 1 and flips b1, its neighbour: the Cartographer takes the
    map, whose coin comes at the end of the turn. 1 (Cook) + 1 + 1 + 1 = 4."""
    table = Table()
    table.play("cook", "a1", back="monkey")
    table.play(NAV, "a1")
    table.play(NAV, "a2")
    table.play(NAV, "a2")
    table.play("monkey", "b1", back="cartographer")
    table.act("monkey_flip", cell="a1")
    table.act("monkey_flip", cell="b1")
    assert table.state.faces(0)["b1"] == "cartographer"
    assert table.state.map_holder == 0 and table.coins(0) == 4 and table.state.turn == 1


def test_the_desert_islands_kinds_bonus_counts_the_column_after_the_monkeys_flip() -> None:
    """Board D, column c: Swabby, Cook (+1), Navigator, Navigator with a Gunner behind, then a
    Monkey on c5 (+1) flips c4 to its Gunner (+5); only then c5's bonus: five different
    Characters, 5. Ann holds 1 + 1 + 5 + 5 = 12."""
    table = Table(board="D")
    for cell, face, back in (("c1", "swabby", None), ("c2", "cook", None), ("c3", NAV, None),
                             ("c4", NAV, "gunner")):
        table.play(face, cell, back=back)
        table.play(NAV, {"c1": "b1", "c2": "b2", "c3": "b3", "c4": "a2"}[cell])
    table.play("monkey", "c5")
    table.act("monkey_flip", cell="c4")
    assert table.coins(0) == 12


def test_the_desert_islands_column_bonus_counts_this_column_and_the_one_space_paid_for() -> None:
    """Board D: a Monkey (+1) pays for e3 (-1, a column of one space), then d3, d4 and column b:
    b4's bonus counts columns e, d and b, 3 x 2 = 6. Ben's a4 takes 3."""
    table = Table(board="D")
    table.play("monkey", "c1")
    table.play(NAV, "c1")
    for ann, ben in (("e3", "c2"), ("d3", "c3"), ("d4", "c4"), ("b1", "a2"), ("b2", "a3"),
                     ("b3", "a4")):
        table.play(NAV, ann)
        table.play(NAV, ben)
    table.play(NAV, "b4")
    assert (table.coins(0), table.coins(1)) == (6, 3)


def test_the_krakens_single_space_pays_the_first_player_at_the_table_nothing() -> None:
    """Board B, d1 (0, then 2): Ann covers it first, then Ben and Cat take 2 each."""
    table = Table(3, board="B")
    for _ in range(3):
        table.play(NAV, "d1")
    assert [table.coins(s) for s in range(3)] == [0, 2, 2]


def test_the_treasure_maps_coin_comes_once_a_turn_even_with_a_parrot() -> None:
    """Ann's Cartographer takes the map (+1 at the end of her turn). Next turn her Parrot draws
    another Cartographer: still one coin at the end of that turn. 2 held, the Parrot -1."""
    table = Table()
    table.play("cartographer", "a1")
    table.play(NAV, "a1")
    table.play("parrot", "a2")
    table.play("cartographer", "b1")
    assert table.coins(0) == 2 and table.state.turn == 1


def test_a_monkey_turning_a_gunner_over_saves_a_player_from_three_gunners() -> None:
    """Three Gunners (15), then a Monkey on c4 (+1) turns c3's Gunner to its Cook (+1, alone in
    row 3): two Gunners are left on the board."""
    table = Table()
    for cell, back in (("c1", None), ("c2", None), ("c3", "cook")):
        table.play("gunner", cell, back=back)
        table.play(NAV, {"c1": "a1", "c2": "a2", "c3": "b1"}[cell])
    table.play("monkey", "c4")
    table.act("monkey_flip", cell="c3")
    assert table.coins(0) == 17
    assert list(table.state.faces(0).values()).count("gunner") == 2


def test_the_last_seat_completing_four_columns_ends_the_game_at_once() -> None:
    """Seed: "If the last player is the one who completed their fourth column, the game ends
    immediately." Ben (last seat): Lookouts a1, a2, d3, d4, b1, b2, Swabbies b3 (the map),
    e1, e2, e3 (+3). Held: the map's coin on his last four turns, 4, and 3: 7. End: Swabbies in
    b and e, 4; Lookouts on top of a and d, 8: 19. Ann, Navigators only: 0."""
    table = Table()
    ben = ["a1", "a2", "d3", "d4", "b1", "b2", "b3", "e1", "e2", "e3"]
    for turn, (ann, cell) in enumerate(zip(["c1", "c2", "c3", "c4", "a1", "a2", "b1", "b2",
                                            "e1", "e2"], ben, strict=True)):
        table.play(NAV, ann)
        table.play("lookout" if turn < 6 else "swabby", cell)
    outcome = table.state.outcome
    assert table.state.phase == "over" and outcome is not None
    assert outcome.to_dict()["totals"] == [0, 19]
    assert outcome.to_dict()["winners"] == [1]


def test_a_tie_with_the_map_held_by_a_third_player_is_shared() -> None:
    """Three players; the host sets Ann's coins so that she ties Ben, while Cat holds the map:
    'Otherwise, tied players share the victory.'"""
    table = Table(3)
    ann = ["c1", "c2", "c3", "c4", "a1", "a2", "b1", "b2", "e1", "e2"]
    ben = ["a1", "a2", "d3", "d4", "b1", "b2", "b3", "e1", "e2", "e3"]
    cat = ["lookout"] * 7 + ["cartographer", NAV, NAV]
    for turn in range(10):
        table.play(NAV, ann[turn])
        if turn == 9:
            # Ben: the map's coin on turn 7 and 8 (Cat takes it on her turn 8), e3's 3: 5;
            # Swabbies in b and e 4, Lookouts on a2 and d4 8: 17.
            table.session.submit(Action("correct_coins", None,
                                        {"player": 0, "coins": 17, "reason": "a test"}))
        table.play("lookout" if turn < 6 else "swabby", ben[turn])
        table.play(cat[turn], ann[turn])
    outcome = table.state.outcome
    assert outcome is not None and table.state.map_holder == 2
    # Cat: the map's coin 3, Navigators 2 + 2: 7; Lookouts on c4 and a2: 15.
    assert outcome.to_dict()["totals"] == [17, 17, 15]
    assert outcome.to_dict()["winners"] == [0, 1]
    assert outcome.to_dict()["reason"] == "shared"
