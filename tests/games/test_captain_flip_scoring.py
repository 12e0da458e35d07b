"""End-of-game scoring, rule by rule, and the ranking: against the rulebook's texts and its
own example (Lily: 13 coins held, 15 more at the end)."""

from __future__ import annotations

import pytest

from companion.games.captain_flip import scoring
from companion.games.captain_flip.state import State, Tile
from tests.games.test_captain_flip_rules import Table


def board(table: Table, seat: int, faces: dict[str, str], coins: int = 0) -> State:
    """``seat``'s board set to ``faces`` (cell -> Character), holding ``coins``."""
    state = table.session.state
    state.players[seat].spaces = {cell: Tile(None, face, None) for cell, face in faces.items()}
    state.players[seat].coins = coins
    return state


def test_the_rulebooks_example_lily_gains_15_at_the_end() -> None:
    """Seed: 13 coins; Swabbies in 3 columns: 9; one of three Carpenters worth 3 (the others
    have a Gunner in their row or column); one of two Lookouts worth 4 (the other has a
    Character above); the Parrot: -1. 13 + 15 = 28."""
    table = Table()
    state = board(table, 0, {"a1": "swabby", "a2": "parrot", "b1": "swabby", "b2": "carpenter",
                             "c1": "lookout", "c2": "gunner", "c3": "carpenter", "d3": "cook",
                             "d4": "carpenter", "e1": "swabby", "e2": "cook", "e3": "lookout"},
                  coins=13)
    score = scoring.score(state, 0)
    assert score.swabbies == 9
    assert score.carpenters == (0, 0, 3)  # b2 (row of c2's Gunner), c3 (its column), d4
    assert score.lookouts == (0, 4)  # c1 (c2 above it), e3 (top of its column)
    assert score.parrots == -1
    assert score.total == 28 and not score.lost


@pytest.mark.parametrize(("columns", "coins"), [(0, None), (1, 1), (2, 4), (3, 9), (4, 16),
                                                (5, 25)])
def test_swabbies_pay_by_the_columns_that_hold_one(columns: int, coins: int | None) -> None:
    table = Table()
    cells = ["a1", "b1", "c1", "d3", "e1"][:columns]
    faces = {cell: "swabby" for cell in cells}
    if columns:
        faces["a2"] = "swabby"  # a second Swabby in a column counts once
    state = board(table, 0, faces)
    assert scoring.score(state, 0).swabbies == coins


def test_a_carpenter_is_blocked_by_a_gunner_in_its_row_or_column_not_a_diagonal() -> None:
    table = Table()
    # Row 3 on board A is b3, c3, d3, e3. The Gunner on e3 blocks d3 and c3 (its row); the
    # Gunner on c1 blocks c3 too (its column); b2 is only diagonal to c1: it pays.
    state = board(table, 0, {"b1": "cook", "b2": "carpenter", "c1": "gunner", "c2": "cook",
                             "c3": "carpenter", "e1": "cook", "e2": "cook", "e3": "gunner",
                             "d3": "carpenter"})
    assert scoring.score(state, 0).carpenters == (3, 0, 0)  # b2, c3, d3 (row of e3)


def test_a_lookout_pays_only_with_nobody_above_it() -> None:
    table = Table()
    state = board(table, 0, {"a1": "lookout", "a2": "lookout", "d3": "lookout",
                             "c1": "lookout", "c2": "swabby"})
    assert scoring.score(state, 0).lookouts == (0, 4, 0, 4)  # a1, a2, c1, d3


def test_the_parrots_penalty_never_takes_coins_below_zero_unless_the_house_says() -> None:
    table = Table()
    state = board(table, 0, {"a1": "parrot", "b1": "parrot", "c1": "parrot"}, coins=2)
    score = scoring.score(state, 0)
    assert score.parrots == -2 and score.total == 0
    house = Table(house={"coins": {"below_zero": True}})
    state = board(house, 0, {"a1": "parrot", "b1": "parrot", "c1": "parrot"}, coins=2)
    assert scoring.score(state, 0).total == -1


def test_the_parrots_penalty_comes_after_the_other_characters() -> None:
    """The rulebook's order: Swabbies, Carpenters, Lookouts, then the Parrot: with 0 coins
    held, a Lookout's 4 pays the Parrot."""
    table = Table()
    state = board(table, 0, {"a1": "parrot", "b1": "lookout"})
    assert scoring.score(state, 0).total == 3


def test_the_parrots_limit_counts_board_cs_bonuses_too() -> None:
    """The limit keeps the total from going below 0, not the coins at some point of the
    sheet: with 0 coins held, three Parrots and board C's 6 for their identical column, the
    sheet says 6 - 3 = 3 (the rulebook adds a column at a time, so the Parrots and the bonus
    of column b are one step)."""
    table = Table(board="C")
    state = board(table, 0, {"b1": "parrot", "b2": "parrot", "b3": "parrot"})
    score = scoring.score(state, 0)
    assert score.parrots == -3 and score.board == (6, None) and score.total == 3


def test_board_c_identical_and_different_columns() -> None:
    table = Table(board="C")
    state = board(table, 0, {"b1": "cook", "b2": "cook", "b3": "cook",
                             "d1": "cook", "d2": "swabby", "d3": "lookout", "d4": "gunner",
                             "d5": "parrot"})
    assert scoring.score(state, 0).board == (6, 4)
    state = board(table, 1, {"b1": "cook", "b2": "cook", "b3": "swabby",
                             "d1": "cook", "d2": "cook", "d3": "lookout", "d4": "gunner",
                             "d5": "parrot"})
    assert scoring.score(state, 1).board == (0, 0)
    state = board(table, 1, {"b1": "cook", "b2": "cook"})
    assert scoring.score(state, 1).board == (None, None)  # not covered: no bonus


def test_three_gunners_lose_and_the_house_may_score_them_zero() -> None:
    table = Table()
    faces = {"a1": "gunner", "b1": "gunner", "c1": "gunner"}
    score = scoring.score(board(table, 0, faces, coins=15), 0)
    assert score.lost and score.total == 15
    house = Table(house={"characters": {"gunner": {"score_zero": True}}})
    score = scoring.score(board(house, 0, faces, coins=15), 0)
    assert score.lost and score.total == 0 and score.zeroed == -15


def make(seat: int, total: int, lost: bool = False) -> scoring.Score:
    return scoring.Score(seat, total, None, (), (), None, (), 3 if lost else 0, lost)


def test_most_coins_wins() -> None:
    result = scoring.ranking([make(0, 30), make(1, 28), make(2, 31)], None)
    assert result.winners == (2,) and result.reason == "most_coins"
    assert result.places == ((2, 1), (0, 2), (1, 3))


def test_a_tie_is_won_by_the_treasure_map_else_shared() -> None:
    tied = [make(0, 30), make(1, 30), make(2, 12)]
    won = scoring.ranking(tied, 1)
    assert won.winners == (1,) and won.reason == "map_breaks_tie"
    assert won.places == ((1, 1), (0, 2), (2, 3))
    shared = scoring.ranking(tied, 2)  # the map is with someone not in the tie
    assert shared.winners == (0, 1) and shared.reason == "shared"
    assert shared.places == ((0, 1), (1, 1), (2, 3))


def test_three_gunners_rank_after_everyone_even_players_on_zero() -> None:
    result = scoring.ranking([make(0, 40, lost=True), make(1, 0), make(2, 0)], None)
    assert result.winners == (1, 2) and result.reason == "shared"
    assert result.places == ((1, 1), (2, 1), (0, 3))
    nobody = scoring.ranking([make(0, 40, lost=True), make(1, 9, lost=True)], 0)
    assert nobody.winners == () and nobody.reason == "everyone_lost"
    assert nobody.places == ((0, 1), (1, 2))
