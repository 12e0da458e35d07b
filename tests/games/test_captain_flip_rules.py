"""Captain Flip's rules, step by step, against the rulebook (seeds/004) and RULES.md §5: a
turn, every Character, every board's spaces, the end of the game and the refusals. Expected
numbers are worked out from the rulebook's texts, written beside each case.

``Table`` (also used by the other Captain Flip tests) plays a game from a real bag: each draw
names the side seen and, if it matters, the back, and the helper finds such a tile in the bag.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.engine import (
    Action,
    GameSetup,
    IllegalActionError,
    SetupError,
    TableSession,
    get_game,
)
from companion.games.captain_flip.book import CHARACTERS
from companion.games.captain_flip.components import tile_sides
from companion.games.captain_flip.state import State

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")


class Table:
    """A game played through the rules' own actions, as phones or a transcript would."""

    def __init__(self, players: int = 2, board: str = "A", **options: Any) -> None:
        self.session = TableSession(GameSetup("captain-flip", NAMES[:players],
                                              {"board": board, **options}, seed=1),
                                    get_game("captain-flip"))

    @property
    def state(self) -> State:
        state: State = self.session.state
        return state

    def tile(self, face: str, back: str | None = None) -> str:
        """A tile in the bag showing ``face`` (with ``back`` on its other side)."""
        for number in self.state.bag:
            assert number is not None
            sides = tile_sides()[number]
            if face in sides and (back is None or back in sides and back != face):
                return f"{number:02d}"
        raise AssertionError(f"no {face}/{back} tile left in the bag")

    def act(self, name: str, seat: int | None = -1, **params: Any) -> None:
        self.session.submit(Action(name, self.state.turn if seat == -1 else seat, params))

    def draw(self, face: str, back: str | None = None) -> None:
        self.act("draw", face=face, tile=self.tile(face, back))

    def play(self, face: str, cell: str, back: str | None = None, flip: bool = False) -> None:
        """One placement: draw ``face`` (its back ``back``), flip it if asked, place it."""
        self.draw(face, back)
        if flip:
            self.act("flip")
        self.act("place", cell=cell)

    def coins(self, seat: int) -> int:
        return self.state.players[seat].coins

    def refused(self, name: str, reason: str, seat: int | None = -1, **params: Any) -> None:
        """The action is refused with ``reason`` and changes nothing."""
        before = self.state
        with pytest.raises(IllegalActionError, match=re.escape(reason)):
            self.act(name, seat, **params)
        assert self.session.state is before

    def notes(self) -> list[str]:
        return list(self.session.history[-1].notes)


# --- a turn ---------------------------------------------------------------------------------

def test_a_turn_draws_places_pays_and_passes_clockwise() -> None:
    table = Table(3)
    table.play("gunner", "a1")  # Gunner: take 5 coins
    assert table.coins(0) == 5 and table.state.turn == 1
    assert "Ann takes 5 coins (Gunner on a1)" in table.notes()
    table.play("swabby", "a1")
    table.play("swabby", "a1")
    assert table.state.turn == 0 and table.state.round == 2


def test_a_drawn_tile_flips_once_and_the_new_side_is_kept() -> None:
    table = Table()
    table.draw("lookout", back="gunner")
    table.act("flip")
    assert table.state.hand is not None and table.state.hand.up == "gunner"
    assert "The other side is a Gunner: it must be kept" in table.notes()
    table.refused("flip", "the tile was flipped once already: the Gunner must be placed as it is")
    table.act("place", cell="c1")
    assert table.coins(0) == 5


def test_a_tile_told_by_its_side_alone_is_flipped_by_the_side_it_then_shows() -> None:
    """Nobody at the table reads a tile's number (it would tell the back): a phone asks only
    the side seen, and a flip the side the tile then shows, which the companion could not
    know either."""
    table = Table()
    draw = next(s for s in table.session.legal_actions(0) if s.name == "draw")
    assert [p.name for p in draw.params if p.asked] == ["face"]
    assert draw.to_dict()["params"][1]["asked"] is False
    in_bag = len(table.state.bag)
    table.act("draw", face="lookout")
    assert table.state.hand is not None and table.state.hand.down is None
    assert len(table.state.bag) == in_bag - 1
    table.refused("flip", "missing field 'face'")
    table.refused("flip", "a tile's two sides differ: it showed a Lookout; tell the side it"
                  " shows once turned over", face="lookout")
    table.act("flip", face="gunner")
    hand = table.state.hand
    assert hand is not None and hand.up == "gunner" and hand.both_seen
    assert hand.number is not None and set(tile_sides()[hand.number]) == {"lookout", "gunner"}
    assert hand.number not in table.state.bag and len(table.state.bag) == in_bag - 1
    assert "The other side is a Gunner: it must be kept" in table.notes()
    table.act("place", cell="c1")
    assert table.coins(0) == 5


def test_a_tile_told_by_number_flips_as_before_and_the_tile_in_hand_is_the_truth() -> None:
    """A camera's draw (the number read) flips without a word; told a side its number does
    not have, the companion takes the tile for what the table sees (a misread sticker)."""
    table = Table()
    table.draw("lookout", back="gunner")
    flip = next(s for s in table.session.legal_actions(0) if s.name == "flip")
    assert flip.params == ()
    table.refused("flip", "the companion knows this tile's other side (the camera read its"
                  " number): flip it without naming a side", face="gunner")
    table.act("flip")
    assert table.state.hand is not None and table.state.hand.up == "gunner"
    table.act("place", cell="c1")
    table.act("draw", seat=1, face="swabby")
    table.act("flip", seat=1, face="cook")
    table.act("place", seat=1, cell="a1")
    table.play("swabby", "a1", back="parrot")
    table.play("swabby", "b1", back="navigator")
    table.play("monkey", "b1")  # next to the Swabby on a1 whose back was told with its number
    monkey = next(s for s in table.session.legal_actions(0) if s.name == "monkey_flip")
    assert [p.name for p in monkey.params] == ["cell"]
    table.refused("monkey_flip", "flip without naming a side", cell="a1", face="parrot")


def test_a_monkey_next_to_a_tile_of_unknown_back_asks_the_side_for_every_tile() -> None:
    """The question is the same whichever neighbour's back is known, so it tells nothing."""
    table = Table()
    table.act("draw", face="swabby")  # by its side alone: its back unknown
    table.act("place", cell="a1")
    table.play("swabby", "a1")
    table.play("swabby", "b1", back="parrot")
    table.play("swabby", "b1")
    table.play("monkey", "a2")  # next to a1 only (b2 is empty)
    spec = next(s for s in table.session.legal_actions(0) if s.name == "monkey_flip")
    cell, face = spec.params
    assert set(cell.choices) == {"a1"} and face.depends_on == "cell"
    assert dict(face.choices_by)["a1"] == tuple(c for c in CHARACTERS if c != "swabby")
    table.refused("monkey_flip", "missing field 'face'", cell="a1")
    table.refused("monkey_flip", "a tile's two sides differ: it showed a Swabby", cell="a1",
                  face="swabby")
    table.act("monkey_flip", cell="a1", face="gunner")
    tile = table.state.players[0].spaces["a1"]
    assert tile.up == "gunner" and tile.down == "swabby" and tile.both_seen
    assert table.coins(0) == 1 + 5 and "a1 turns from Swabby to Gunner" in table.notes()


def test_a_monkey_between_a_known_back_and_an_unknown_one_asks_the_same_of_both() -> None:
    """A code review planted a question offering only a known back's side: no test saw it."""
    table = Table()
    table.act("draw", face="swabby")  # a1: by its side alone
    table.act("place", cell="a1")
    table.play("swabby", "a1")
    table.play("cook", "b1", back="parrot")  # b1 and b2: numbers read by the camera
    table.play("swabby", "b1")
    table.play("cook", "b2", back="parrot")
    table.play("swabby", "b2")
    table.play("monkey", "a2")  # next to a1 (back unknown) and b2 (back known: a Parrot)
    spec = next(s for s in table.session.legal_actions(0) if s.name == "monkey_flip")
    cell, face = spec.params
    assert set(cell.choices) == {"a1", "b2"}
    by_cell = dict(face.choices_by)
    assert set(by_cell["a1"]) == set(CHARACTERS) - {"swabby"}
    assert set(by_cell["b2"]) == set(CHARACTERS) - {"cook"}


def test_a_tile_goes_on_the_lowest_empty_space_of_a_column() -> None:
    table = Table()
    table.draw("swabby")
    table.refused("place", "c2 is not the lowest empty space of column c: c1 is", cell="c2")
    table.refused("place", "there is no space 'a3' on board A (its spaces: a1, a2, b1, b2, b3, c1,",
                  cell="a3")
    table.act("place", cell="a1")
    table.play("swabby", "a1")
    table.draw("swabby")
    table.refused("place", "a1 already holds a tile (Swabby); column a's lowest empty space"
                  " is a2", cell="a1")
    table.act("place", cell="a2")  # column a (2 spaces) is now full
    table.play("swabby", "a2")
    table.draw("swabby")
    table.refused("place", "a2 already holds a tile (Swabby): column a is full", cell="a2")
    table.refused("place", "a1 already holds a tile (Swabby): column a is full", cell="a1")
    table.refused("place", "b2 is not the lowest empty space of column b: b1 is", cell="b2")


def test_columns_need_not_start_on_the_bottom_row() -> None:
    """Board A's column d is two spaces, rows 3 and 4 (RULES.md: c3 floats)."""
    table = Table()
    table.draw("swabby")
    table.refused("place", "d4 is not the lowest empty space of column d: d3 is", cell="d4")
    table.act("place", cell="d3")
    assert "d3" in table.state.players[0].spaces


def test_a_draw_is_refused_when_none_is_expected_and_never_for_where_a_tile_is() -> None:
    """A tile told again (a misread sticker, or a probe) is taken as its twin, the tile with
    the same two sides: a refusal saying where the tile is, or only refusing it, would tell
    the drawer the backs of other players' tiles (a blind review found "tile 07 is not in the
    bag: it is on Ann's board")."""
    table = Table()
    tile = table.tile("cook")
    table.refused("draw", "it is Ann's turn", seat=1, face="cook", tile=tile)
    table.act("draw", face="cook", tile=tile)
    table.refused("draw", "not now: Ann keeps or flips the Cook, then places it", face="cook",
                  tile=table.tile("cook"))
    table.act("place", cell="a1")
    assert tile_sides()[1] == ("swabby", "cartographer")  # our numbering
    table.refused("draw", "tile 01 has no gunner side", seat=1, face="gunner", tile="01")
    in_bag = len(table.state.bag)
    table.act("draw", seat=1, face="cook", tile=tile)
    hand = table.state.hand
    assert hand is not None and hand.number != int(tile)
    assert tile_sides()[hand.number] == tile_sides()[int(tile)]  # its twin, from the bag
    assert len(table.state.bag) == in_bag - 1


def test_a_seat_learns_nothing_of_a_tiles_back_by_naming_it() -> None:
    """Two tables that differ only in which Cook Ann drew (07, a Swabby behind; 21, a
    Cartographer): every draw Ben may name is taken alike, in words and in what he sees."""
    tables = []
    for number in ("07", "21"):
        table = Table()
        table.act("draw", face="cook", tile=number)
        table.act("place", cell="a1")
        tables.append(table)
    for face, number in (("swabby", "07"), ("cartographer", "21"), ("swabby", "08")):
        action = Action("draw", 1, {"face": face, "tile": number})
        seen = []
        for table in tables:
            record = table.session.check(action)
            after = table.session.rules.table_view(record.transition.state, 1)
            seen.append((record.text, after.to_dict()))
        assert seen[0] == seen[1]


def test_the_table_does_not_play_a_players_turn() -> None:
    table = Table()
    table.refused("draw", "the player whose turn it is does this, not the table", seat=None,
                  face="cook", tile=table.tile("cook"))


# --- the Characters ----------------------------------------------------------------------

def test_cook_takes_a_coin_per_character_in_its_row_itself_included() -> None:
    table = Table()
    table.play("swabby", "a1")
    table.play("swabby", "a1")
    table.play("lookout", "e1")
    table.play("swabby", "b1")
    table.play("cook", "c1")  # row 1: a1, e1 and the Cook on c1
    assert table.coins(0) == 3


def test_navigator_takes_two_coins_per_cartographer_on_its_board() -> None:
    table = Table()
    table.play("cartographer", "a1")  # takes the map: +1 at the end of Ann's turn
    table.play("cartographer", "a1")  # Ben takes it from Ann: +1 for Ben
    table.play("cartographer", "b1")  # Ann takes it back: +1
    table.play("swabby", "b1")
    table.play("navigator", "c1")  # 2 Cartographers: +4, and the map's coin: +1
    assert table.coins(0) == 1 + 1 + 4 + 1
    assert table.coins(1) == 1


def test_the_treasure_map_pays_its_holder_at_the_end_of_their_own_turn_only() -> None:
    table = Table(3)
    table.play("cartographer", "a1")
    assert table.state.map_holder == 0 and table.coins(0) == 1
    table.play("swabby", "a1")
    table.play("swabby", "a1")
    assert table.coins(0) == 1  # not at the end of Ben's or Cat's turn
    table.play("swabby", "b1")
    assert table.coins(0) == 2


def test_monkey_takes_a_coin_and_flips_a_chosen_neighbour_whose_effect_applies() -> None:
    table = Table()
    table.play("swabby", "a1", back="gunner")
    table.play("swabby", "a1")
    table.play("monkey", "b1")  # +1, then flip a1: Swabby -> Gunner, +5
    assert table.state.phase == "monkey"
    table.refused("monkey_flip", "c1 is empty: flip a1", cell="c1")
    table.act("monkey_flip", cell="a1")
    assert table.state.players[0].spaces["a1"].up == "gunner"
    assert table.coins(0) == 6 and table.state.turn == 1
    assert "a1 turns from Swabby to Gunner" in table.notes()


def test_a_monkey_with_no_neighbour_only_takes_its_coin() -> None:
    """FAQ: a Monkey placed next to no tile does not flip."""
    table = Table()
    table.play("monkey", "a1")
    assert table.coins(0) == 1 and table.state.turn == 1
    assert "The Monkey on a1 flips nothing: no tile is next to it" in table.notes()


def test_a_monkey_chain_through_a_parrot() -> None:
    """A Monkey flips a Cook whose back is a Monkey, that Monkey flips a Swabby whose back is
    a Parrot, and the Parrot draws a tile: every revealed Character's immediate effect applies,
    then the first Monkey's space bonus, then the turn ends."""
    table = Table()
    table.play("cook", "c1", back="monkey")  # row 1 holds the Cook alone: +1
    table.play("swabby", "a1")
    table.play("swabby", "c2", back="parrot")
    table.play("swabby", "a2")
    table.play("monkey", "b1")  # +1, and c1 is its only neighbour with a tile
    table.act("monkey_flip", cell="c1")  # Cook -> Monkey: +1, flips a neighbour of c1
    assert table.state.phase == "monkey"
    table.refused("monkey_flip", "d3 is empty: flip one of b1, c2", cell="d3")
    table.act("monkey_flip", cell="c2")  # Swabby -> Parrot: another tile
    assert table.state.phase == "draw" and table.state.turn == 0
    table.play("gunner", "c3")  # +5
    assert table.coins(0) == 1 + 1 + 1 + 5 and table.state.turn == 1
    faces = table.state.faces(0)
    assert (faces["c1"], faces["c2"], faces["c3"]) == ("monkey", "parrot", "gunner")


def test_a_revealed_parrot_draws_and_plays_another_tile_before_the_space_bonus() -> None:
    table = Table()
    table.play("swabby", "c1", back="parrot")
    table.play("swabby", "a1")
    table.play("swabby", "c2")
    table.play("swabby", "a2")
    table.play("swabby", "c3")
    table.play("swabby", "b1")
    table.play("swabby", "c4")  # Ann's c1..c4 filled; c5 pays +5
    table.play("swabby", "b2")
    table.play("monkey", "b1")  # +1; flip c1 (Swabby -> Parrot): draw another tile
    table.act("monkey_flip", cell="c1")
    assert table.state.phase == "draw" and table.state.turn == 0
    assert table.state.steps[-1].kind == "parrot"
    table.play("gunner", "c5")  # +5, then c5's bonus +5; b1 has no bonus
    assert table.coins(0) == 1 + 5 + 5 and table.state.turn == 1


def test_a_parrot_placed_draws_and_plays_another_tile() -> None:
    table = Table()
    table.play("parrot", "a1")
    assert table.state.phase == "draw" and table.state.turn == 0
    table.play("gunner", "b1")
    assert table.coins(0) == 5 and table.state.turn == 1


def test_a_parrot_with_no_space_left_draws_nothing() -> None:
    """Seed silent: a Parrot that fills its board draws nothing. (A board fills up only if
    the game runs to five columns: a house rule here.)"""
    table = Table(house={"end": {"columns": 5}})
    cells = ("a1", "a2", "b1", "b2", "b3", "c1", "c2", "c3", "c4", "c5", "d3", "d4", "e1", "e2")
    quiet = ("swabby", "lookout", "carpenter")  # no immediate effect
    for n, cell in enumerate(cells):
        table.play(quiet[n % 3], cell)
        table.play(quiet[(n + 1) % 3], cell)
    table.play("parrot", "e3")
    assert "The Parrot draws nothing: no space can take another tile" in table.notes()
    assert table.state.turn == 1 and table.state.ended_by == 0


def test_gunners_pay_five_and_three_lose_the_game() -> None:
    table = Table(house={"end": {"columns": 1}})
    table.play("gunner", "a1")
    table.play("swabby", "c1")
    table.play("gunner", "b1")
    table.play("swabby", "c2")
    table.play("gunner", "a2")  # Ann completes column a: Ben plays the last turn
    table.play("lookout", "d3")
    outcome = table.session.outcome
    assert outcome is not None and outcome.winners == (1,)
    assert table.coins(0) == 15 and 0 in outcome.details["lost"]


# --- the boards ------------------------------------------------------------------------------

# RULES.md §5.3, cell by cell, with our cell names (column letter, row from the bottom).
BOARDS = {
    "A": {"a": "12", "b": "123", "c": "12345", "d": "34", "e": "123",
          "bonus": {"b3": "Map", "c5": "+5", "e3": "+3"}},
    "B": {"a": "12", "b": "123", "c": "12345", "d": "1", "e": "1234",
          "bonus": {"a2": "1/0", "b3": "2/1", "c5": "6/3", "d1": "0/2", "e4": "4/2"}},
    "C": {"a": "123", "b": "123", "c": "12", "d": "12345", "e": "12",
          "bonus": {"a3": "Map", "b3": "Same 6", "d5": "Diff 4"}},
    "D": {"a": "234", "b": "1234", "c": "12345", "d": "34", "e": "3",
          "bonus": {"a4": "+3", "b4": "2×col", "c5": "1×kind", "e3": "−1"}},
}


@pytest.mark.parametrize("letter", sorted(BOARDS))
def test_each_board_has_the_spaces_and_bonuses_of_rules_md(letter: str) -> None:
    layout = Table(board=letter).state.layout
    expected = BOARDS[letter]
    cells = {f"{column}{row}" for column in "abcde" for row in str(expected[column])}
    assert set(layout.spaces) == cells and len(cells) == 15
    assert {s.cell: s.label for s in layout.spaces.values() if s.label} == expected["bonus"]


def test_board_a_column_bonuses() -> None:
    table = Table()
    for ann, ben in (("e1", "c1"), ("e2", "c2"), ("e3", "c3")):
        table.play("swabby", ann)
        table.play("lookout", ben)
    assert table.coins(0) == 3  # e3: take 3 coins
    for ann, ben in (("b1", "a1"), ("b2", "a2"), ("b3", "b1")):
        table.play("swabby", ann)
        table.play("lookout", ben)
    # b3: take the Treasure Map, which pays its coin at the end of the turn.
    assert table.state.map_holder == 0 and table.coins(0) == 3 + 1
    for ann, ben in (("c1", "b2"), ("c2", "b3"), ("c3", "e1"), ("c4", "e2"), ("c5", "e3")):
        table.play("swabby", ann)
        table.play("lookout", ben)
    # The map's coin at the end of Ann's c1 and c2 turns, until Ben's b3 takes the map; then
    # c5: take 5 coins.
    assert table.state.map_holder == 1
    assert table.coins(0) == 3 + 1 + 1 + 1 + 5


def test_board_b_kraken_spaces_pay_the_first_player_then_the_others() -> None:
    """Board B, d1 is "0/2": the first player to cover it takes nothing, every later one 2."""
    table = Table(3, board="B")
    table.play("swabby", "d1")
    table.play("swabby", "d1")
    table.play("swabby", "d1")
    assert [table.coins(s) for s in range(3)] == [0, 2, 2]
    # a2 is "1/0": Ben covers it first this time.
    table.play("swabby", "a1")
    table.play("swabby", "a1")
    table.play("swabby", "a1")
    table.play("swabby", "b1")
    table.play("swabby", "a2")
    table.play("swabby", "a2")
    table.play("swabby", "a2")
    assert [table.coins(s) for s in range(3)] == [0, 3, 2]


def test_board_c_end_bonuses_count_only_covered_columns() -> None:
    table = Table(board="C")
    for cell, ben in (("b1", "swabby"), ("b2", "lookout"), ("b3", "swabby")):
        table.play("cook", cell)  # one Cook a row: +1 each
        table.play(ben, cell)
    sheet = table.session.table_view(None).score_sheet
    assert sheet is not None
    same, different = sheet.rules.index("Column b: all identical"), \
        sheet.rules.index("Column d: all different")
    assert [c.scores[same] for c in sheet.columns] == [6, 0]
    assert [c.scores[different] for c in sheet.columns] == [None, None]  # d5 not covered
    assert sheet.columns[0].total == 3 + 6


def test_board_d_cost_space_needs_and_takes_a_coin() -> None:
    table = Table(board="D")
    table.draw("swabby")
    table.refused("place", "e3 costs 1 coin to cover and Ann has none", cell="e3")
    assert "e3" not in table.session.legal_actions(0)[-1].params[0].choices
    table.act("place", cell="b1")
    table.play("gunner", "b1")
    table.play("gunner", "b2")
    table.play("swabby", "e3")  # Ben pays 1 of his 5
    assert table.coins(1) == 4 and "Ben pays 1 coin to cover e3" in table.notes()


def test_board_d_bonuses_per_completed_column_and_per_kind() -> None:
    table = Table(board="D")
    for cell in ("a2", "a3", "a4"):  # a4: +3, and column a complete
        table.play("carpenter", cell)
        table.play("carpenter", cell)
    for cell, face in (("b1", "cook"), ("b2", "swabby"), ("b3", "swabby"), ("b4", "lookout")):
        table.play(face, cell)
        table.play("carpenter", cell)
    # Cook on b1: row 1 has b1 alone (a starts on row 2): +1. b4: 2 x 2 complete columns.
    assert table.coins(0) == 3 + 1 + 4
    for cell, face in (("c1", "swabby"), ("c2", "lookout"), ("c3", "swabby"), ("c4", "carpenter"),
                       ("c5", "parrot")):
        table.play(face, cell)
        if face == "parrot":
            table.play("lookout", "d3")  # the Parrot's extra tile
        table.play("carpenter", cell)
    # c5: 1 coin per kind in column c: Swabby, Lookout, Carpenter, Parrot.
    assert table.coins(0) == 3 + 1 + 4 + 4


# --- the end ---------------------------------------------------------------------------------

def test_the_round_is_finished_after_a_player_completes_the_columns() -> None:
    table = Table(3, house={"end": {"columns": 1}})
    table.play("swabby", "a1")
    table.play("swabby", "a1")
    table.play("swabby", "a1")
    table.play("swabby", "b1")
    table.play("swabby", "a2")  # Ben completes column a: the round ends with Cat
    assert table.state.ended_by == 1
    assert "Ben has completed 1 column: the round ends with Cat's turn" in table.notes()
    table.play("swabby", "b1")
    assert table.session.outcome is not None


def test_the_game_ends_at_once_when_the_last_player_completes_the_columns() -> None:
    table = Table(2, house={"end": {"columns": 1}})
    table.play("swabby", "a1")
    table.play("swabby", "a1")
    table.play("swabby", "b1")
    table.play("swabby", "a2")
    assert table.session.outcome is not None
    assert "Ben has completed 1 column: the game ends now" in table.notes()


def test_the_companion_draws_from_a_seeded_bag_and_logs_what_it_shows() -> None:
    def first_draws(seed: int) -> list[str]:
        session = TableSession(GameSetup("captain-flip", NAMES[:2], {"companion_draws": True},
                                         seed=seed))
        out = []
        for _ in range(3):
            session.submit(Action("draw", session.state.turn))
            out.append(session.state.hand.up)
            session.submit(Action("place", session.state.turn,
                                  {"cell": session.state.open_cells(session.state.turn)[0]}))
        return out

    assert first_draws(3) == first_draws(3)
    assert first_draws(3) != first_draws(4) or first_draws(3) != first_draws(5)


def test_undo_stops_at_a_tile_the_companion_drew_but_not_at_one_told_by_the_table() -> None:
    """The companion's bag is in a seeded order: an undo past its draw would show the table
    the next tile before the turn is played again. A tile drawn from a real bag and told to
    the companion can still be taken back (a wrong number typed)."""
    session = TableSession(GameSetup("captain-flip", NAMES[:2], {"companion_draws": True},
                                     seed=3))
    session.submit(Action("draw", session.state.turn))
    assert session.history[-1].reveals and not session.can_undo_public()
    table = Table()
    table.draw("gunner")
    assert table.session.can_undo_public()


def test_the_host_corrects_coins_and_everyone_reads_it() -> None:
    table = Table()
    table.play("gunner", "a1")
    table.refused("correct_coins", "only the table (its host) corrects coins", seat=0,
                  player=0, coins=4)
    for blank in ({"reason": " "}, {}):  # blank, or left out: the log must say why
        with pytest.raises(IllegalActionError, match="reason"):
            table.act("correct_coins", None, player=0, coins=4, **blank)
    spec = next(a for a in table.session.legal_actions(None) if a.name == "correct_coins")
    assert spec.params[1].starts_on == ("player",)
    starts = dict(spec.params[1].starts_by)  # the box starts at the coins held now
    assert starts[(0,)] == table.coins(0) == 5 and starts[(1,)] == table.coins(1)
    table.act("correct_coins", seat=None, player=0, coins=4, reason="one coin fell")
    assert table.coins(0) == 4
    record = table.session.history[-1]
    assert record.text == "Table correction: Ann holds 4 coins (one coin fell)"
    assert record.notes == ("Ann's coins corrected by −1",)


def test_setup_refuses_what_the_game_does_not_have() -> None:
    rules = get_game("captain-flip")
    for options, reason in (({"board": "E"}, "option \"board\" must be one of A, B, C, D,"
                                              " not \"E\""),
                            ({"companion_draws": "yes"}, "must be true or false"),
                            ({"colour": 1}, "unknown option 'colour'")):
        with pytest.raises(SetupError, match=re.escape(reason)):
            rules.setup(GameSetup("captain-flip", NAMES[:2], options))
    for seats in (NAMES[:1], (*NAMES, "Fay")):
        with pytest.raises(SetupError, match="2 to 5 players"):
            rules.setup(GameSetup("captain-flip", seats))
    with pytest.raises(SetupError, match="no deal"):
        rules.setup(GameSetup("captain-flip", NAMES[:2], deal={}))


def test_an_empty_bag_finishes_the_round() -> None:
    """Seed silent: with five players and a house rule that plays on to five columns (15
    spaces each, 75 > 72 tiles), the bag runs out: the round is finished as after four
    columns, each turn left passing with nothing to draw, and the game is scored as usual."""
    table = Table(5, companion_draws=True, house={"end": {"columns": 5}})
    session = table.session
    while session.outcome is None:
        turn = table.state.turn
        if table.state.phase == "draw":
            table.act("draw")
        elif table.state.phase == "monkey":
            table.act("monkey_flip", cell=session.legal_actions(turn)[0].params[0].choices[0])
        else:
            table.act("place", cell=table.state.open_cells(turn)[-1])
    assert not table.state.bag and table.state.turn == table.state.last_seat()
    last_draw = next(r for r in reversed(session.history) if r.action.name == "draw")
    passed = [n for n in session.history[-1].notes if n.startswith("The bag is empty: ")]
    assert len(passed) == table.state.last_seat() - last_draw.action.seat > 0  # this seed: yes
    assert session.outcome.details["game_end"] in ("bag_empty", "columns")
    ending = session.table_view(None).ending
    assert ending is not None
    if session.outcome.details["game_end"] == "bag_empty":
        assert ending.text.endswith("(the bag ran out)")


def test_a_table_whose_rule_data_has_no_marks_shows_short_names_on_small_boards() -> None:
    """A table begun before Characters had marks keeps its recorded rule data: another
    player's small board shows the short name there, as before, not an error."""
    import copy

    from companion.games.captain_flip.book import Book

    data = copy.deepcopy(dict(Book.packaged()))
    assert Book(data).mark("carpenter") == "Cp"
    for character in data["characters"].values():
        character.pop("mark")
    assert Book(data).mark("carpenter") == "Carpent."
