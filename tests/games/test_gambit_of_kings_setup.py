"""Setting up a Gambit of Kings table: the standard layout (house data), positions written out
(to resume a game, follow a diagram or report a bug) and what is refused in them, who moves
first, the card rows of the adventure rules, the options and the house rules."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.engine import GameSetup, SetupError, TableSession
from companion.games.gambit_of_kings.rules import GambitOfKingsRules
from tests.games.test_gambit_of_kings_tables import (
    ROWS,
    SEATS,
    act,
    move,
    pieces,
    reach,
    refused,
    refused_move,
    table,
)

RULES = GambitOfKingsRules()


def setup(options: dict[str, object], seats: tuple[str, ...] = SEATS,
          seed: int | str = 1, deal: dict[str, object] | None = None) -> object:
    return RULES.setup(GameSetup("gambit-of-kings", seats, options, seed=seed, deal=deal))


def test_the_standard_layout_has_twenty_pieces_a_side() -> None:
    session = table()
    board = session.state.board
    for side in (0, 1):
        kinds = Counter(p.kind for p in board.values() if p.side == side)
        assert kinds == {"soldier": 5, "elf": 5, "castle": 1, "paladin": 1, "knight": 2,
                         "griffin": 2, "giant": 2, "lion": 2}
    ranks = {side: {int(sq[1:]) for sq, p in board.items() if p.side == side} for side in (0, 1)}
    assert ranks == {0: {1, 2}, 1: {9, 10}}
    assert board["e1"].kind == board["e10"].kind == "castle"
    # The dark side mirrors the light one across the middle of the board.
    for where, piece in board.items():
        if piece.side == 0:
            across = board[f"{where[0]}{11 - int(where[1:])}"]
            assert (across.side, across.kind) == (1, piece.kind)


def test_the_layout_is_house_data_a_table_can_change() -> None:
    back = ["castle", "griffin", "knight", "giant", "lion", "paladin", "lion", "giant",
            "knight", "griffin"]
    session = table(house={"layouts": {"standard": {"back": back}}})
    assert session.state.board["a1"].kind == "castle" and session.state.board["a10"].kind == \
        "castle"
    with pytest.raises(SetupError, match="exactly one Castle a side"):
        table(house={"layouts": {"standard": {"back": ["paladin"] * 10}}})


def test_a_written_position_starts_the_game() -> None:
    session = table("e1 light castle, e10 Dark Castle, d4 knight, c7 Death Knight, f5 lich",
                    first="dark")
    assert pieces(session) == ["e1 light castle", "d4 light knight", "f5 dark lich",
                               "c7 dark death knight", "e10 dark castle"]
    assert session.state.turn == 1


def test_a_position_from_a_replay_resumes_the_same_game() -> None:
    """The view's pieces, tokens and card rows, given back as options, rebuild the table."""
    session = table(mode="av1", dice_by="companion", seed=4)
    for _ in range(3):
        act(session, session.state.turn, "roll")
        spec = next(s for s in session.legal_actions(session.state.turn) if s.name == "move")
        origin = spec.params[0].choices[0]
        move(session, session.state.turn, origin, dict(spec.params[1].choices_by)[origin][0])
        while session.state.phase == "second":
            act(session, session.state.turn, "end_turn")
    view = session.view(None)
    again = table(mode="av1", dice_by="companion", pieces=view["pieces"], first=view["turn"],
                  card_rows=view["card_rows"], tokens=view["tokens"])
    assert pieces(again) == pieces(session) and len(pieces(session)) == 40
    assert again.state.cards == session.state.cards and again.state.turn == session.state.turn


@pytest.mark.parametrize(("pieces_given", "reason"), [
    ("e1 light castle, e10 dark castle, e1 light knight", "position: two pieces on e1"),
    ("e10 dark castle, e4 light knight", "the light side needs exactly one Castle, not 0"),
    ("e1 light castle, e10 dark castle, f10 dark castle",
     "the dark side needs exactly one Castle, not 2"),
    ("e1 light castle, e10 dark castle, k4 light knight",
     "position: 'k4' is not a square of the board (a1 to j10)"),
    ("e1 light castle, e10 dark castle, e0 light knight", "'e0' is not a square"),
    ("e1 light castle, e10 dark castle, e4 light dragonfly",
     "position: 'light dragonfly' on e4 is not a piece of either side"),
    ("e1 castle, e10 dark castle", "say whose Castle is on e1"),
    ("e1 light castle, e10 dark castle, e2", 'position: no piece named on e2 (write it as'
     ' "e2 light knight")'),
    ("e1 light castle, e10 dark castle, e4 light lich",
     "'light lich' on e4: the Lich is a dark piece"),
    ("e1 light castle, e10 dark castle, e10 light soldier", "two pieces on e10"),
    ("e1 light castle, e10 dark castle, d10 light soldier",
     "a Soldier on d10, its farthest row, would already be promoted"),
    ("e1 light castle, e10 dark castle, d1 dark skeleton",
     "a Skeleton on d1, its farthest row, would already be promoted"),
])
def test_a_malformed_position_is_refused_at_setup(pieces_given: str, reason: str) -> None:
    with pytest.raises(SetupError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        table(pieces_given)


def test_a_position_may_be_a_mapping_or_a_list() -> None:
    given = {"e1": "light castle", "E10": "dark castle", "c3": "orc"}
    assert pieces(table(given)) == pieces(table(["e1 light castle", "e10 dark castle",
                                                 "c3 dark orc"]))
    with pytest.raises(SetupError, match="must be named in words"):
        table({"e1": "light castle", "e10": 3})  # type: ignore[dict-item]


# --- who moves first ------------------------------------------------------------------------

def test_the_companions_coin_chooses_the_first_player_from_the_seed() -> None:
    firsts = {seed: setup({"first": "coin"}, seed=seed).first for seed in range(20)}
    assert set(firsts.values()) == {0, 1}  # both sides win the toss at some table
    assert all(setup({}, seed=seed).first == first for seed, first in firsts.items())
    session = TableSession(GameSetup("gambit-of-kings", SEATS, {}, seed=3))
    fact = next(f for f in session.table_view(None).facts if f.key == "first")
    assert fact.value == f"{SEATS[session.state.first]} (the companion's coin)"


@pytest.mark.parametrize(("first", "seat"), [("light", 0), ("dark", 1)])
def test_a_table_may_choose_who_moves_first(first: str, seat: int) -> None:
    for seed in range(5):
        assert setup({"first": first}, seed=seed).turn == seat


# --- card rows ------------------------------------------------------------------------------

def test_the_companion_shuffles_each_row_with_the_castle_eighth() -> None:
    rows = [setup({"mode": "adventure"}, seed=seed).cards for seed in range(6)]
    for row in rows:
        for side in (0, 1):
            assert row[side][-1] == "castle" and sorted(row[side]) == sorted(
                ["castle", "paladin", "giant", "knight", "griffin", "lion", "elf", "soldier"])
    assert len({tuple(r[0]) for r in rows}) > 1  # seeded, not fixed
    assert setup({"mode": "adventure"}, seed=2).cards == rows[2]


def test_the_players_may_lay_out_their_own_rows() -> None:
    session = table(mode="adventure", card_rows="choose")
    assert session.state.phase == "laying" and session.table_view(None).waiting_for == (0, 1)
    spec = next(s for s in session.legal_actions(1) if s.name == "lay_card")
    assert set(spec.params[0].choices) == {"lich", "ogre", "death_knight", "dragon",
                                           "dire_wolf", "orc", "skeleton"}
    for name in ["soldier", "elf", "lion", "griffin", "knight", "giant", "paladin"]:
        act(session, 0, "lay_card", piece=name)
    assert session.state.cards[0] == ["soldier", "elf", "lion", "griffin", "knight", "giant",
                                      "paladin", "castle"]
    assert session.state.phase == "laying"
    act(session, 1, "lay_card", piece="dire_wolf")
    spec = next(s for s in session.legal_actions(1) if s.name == "lay_card")
    assert "dire_wolf" not in spec.params[0].choices and spec.params[0].label == "Card 2"
    for name in ["orc", "skeleton", "dragon", "death_knight", "ogre", "lich"]:
        act(session, 1, "lay_card", piece=name)
    assert session.state.phase == "roll" and session.state.cards[1][0] == "lion"


def test_a_card_is_laid_by_any_name_setup_takes() -> None:
    session = table(mode="adventure", card_rows="choose")
    act(session, 1, "lay_card", piece="Dire Wolf")
    assert session.history[-1].text == "Ben lays card 1: Dire Wolf"
    act(session, 1, "lay_card", piece="death knight")
    act(session, 1, "lay_card", piece="dark griffin")  # the kind, with the side
    assert session.state.laying[1] == ["lion", "knight", "griffin"]
    assert refused(session, 0, "lay_card", piece="Orc") == (
        "cannot lay_card by Ann: the Orc is a dark piece: Ann lays the light side's cards")


def test_rows_given_by_the_table() -> None:
    session = table(mode="adventure", card_rows={
        "light": ["Soldier", "Elf", "Lion", "Griffin", "Knight", "Giant", "Paladin", "Castle"],
        "dark": ["death knight", "orc", "skeleton", "dragon", "dire wolf", "ogre", "lich"]})
    assert session.state.cards[1][:2] == ["knight", "elf"] and session.state.phase == "roll"
    for rows, reason in [
        ({"light": ROWS["light"]}, "give both rows"),
        ({"light": ROWS["light"][:6], "dark": ROWS["dark"]}, "the light row must hold each"),
        ({"light": ROWS["light"], "dark": ["lich"] * 7}, "the dark row must hold each"),
        ({"light": ROWS["dark"], "dark": ROWS["dark"]}, "'orc' is not a piece of the light"),
    ]:
        with pytest.raises(SetupError, match=reason):
            table(mode="adventure", card_rows=rows)


def test_modes_without_a_movement_roll_have_no_rows() -> None:
    for mode in ("standard", "tar"):
        session = table(mode=mode, card_rows="choose")
        assert session.state.cards == [[], []] and session.state.phase == "move"


# --- options --------------------------------------------------------------------------------

@pytest.mark.parametrize(("options", "reason"), [
    ({"mode": "chess"}, "option 'mode' must be one of standard, tar, av2, av1, adventure,"
                        " not \"chess\""),
    ({"first": "white"}, "option 'first' must be one of coin, light, dark"),
    ({"dice_by": "camera"}, "option 'dice_by' must be one of companion, table"),
    ({"layout": "diagram-7"}, "option 'layout' must be one of standard"),
    ({"speed": 3}, "unknown option 'speed'"),
    ({"tokens": {"light": -1, "dark": 3}}, "option tokens must give each side's tokens"),
    ({"mode": "av2", "tokens": {"light": 9, "dark": 1}},
     r"option tokens: Adventure variant II \(AV II\) gives each side 1 re-roll token, so at"
     " most 1 can be left"),
    ({"tokens": {"light": 1, "dark": 0}}, "there are no tokens in the Standard rules"),
    ({"house": {"pieces": {"knight": {"wings": True}}}},
     "house option 'pieces.knight.wings' is not a rule"),
    ({"house": {"pieces": {"knight": {"effect": {"kind": "teleport"}}}}},
     "rule 'pieces.knight.effect.kind' must be one of"),
    ({"house": {"dice": {"compare": "lowest"}}},
     "rule 'dice.compare' must be one of highest, sum, not \"lowest\""),
    ({"house": {"pieces": {"castle": {"moves": [{"dirs": ["F"], "max": 1}]}}}},
     "the Castle never moves"),
    ({"house": {"pieces": {"elf": {"moves": [{"dirs": ["UP"], "max": 1}]}}}},
     "must list directions from F, B, L, R"),
    ({"house": {"effects": {"even_roll": "sometimes"}}},
     "rule 'effects.even_roll' must be one of mover, card, not \"sometimes\""),
    ({"house": {"pieces": {"knight": {"effect": {"kind": "moves"}}}}},
     "rule 'pieces.knight.effect.text' must say what its moves are"),
    # a second Castle would lose the game while the first still stands
    ({"house": {"pieces": {"soldier": {"promotes_to": "castle"}}}},
     "rule 'pieces.soldier.promotes_to' cannot be the Castle: each side holds exactly one"
     " Castle"),
    # decision 21: the expansions' larger card rows are not built
    ({"house": {"dice": {"movement_die": 10}}},
     r"rule 'dice.movement_die' must be at most 8: the card row has 8 cards \(the expansions'"
     r" larger rows, where a roll above the row loses the turn, are not built\)"),
    ({"pieces": ""}, "option \"pieces\" is empty: give a position"),
    ({"pieces": "  "}, "option \"pieces\" is empty"),
])
def test_bad_options_are_refused(options: dict[str, object], reason: str) -> None:
    with pytest.raises(SetupError, match=reason):
        setup(options)


def test_two_players_and_no_hidden_deal() -> None:
    with pytest.raises(SetupError, match="for 2 players, not 3"):
        setup({}, seats=("Ann", "Ben", "Cat"))
    with pytest.raises(SetupError, match="no hidden deal"):
        setup({}, deal={})


def test_tokens_by_mode_and_given() -> None:
    assert [setup({"mode": m}).tokens for m in ("standard", "adventure", "av1", "av2", "tar")] \
        == [[0, 0], [3, 3], [3, 3], [1, 1], [3, 3]]
    assert setup({"mode": "tar", "tokens": {"light": 1, "dark": 0}}).tokens == [1, 0]


# --- squares as typed -----------------------------------------------------------------------

def test_a_square_reads_the_same_in_a_position_and_in_a_move_whatever_its_case() -> None:
    """One reading of a typed square for setup and moves: "D4", " d4 " and "d4" are one
    square, so a table can type a move as it typed the position."""
    typed = table(" A1 light castle, J10 dark castle,  D4  Knight, H8 orc")
    plain = table("a1 light castle, j10 dark castle, d4 knight, h8 orc")
    assert pieces(typed) == pieces(plain)
    target = sorted(reach(plain, "d4"))[0]
    move(plain, 0, "d4", target)
    move(typed, 0, " D4", f"{target.upper()} ")
    assert pieces(typed) == pieces(plain)
    assert typed.history[-1].text == plain.history[-1].text == f"Ann's Knight d4 to {target}"
    # A square off the board is named as read, and in the same words as at setup.
    assert "'k4' is not a square of the board (a1 to j10)" in refused_move(typed, 1, "K4", "k5")
    with pytest.raises(SetupError, match=r"'k4' is not a square of the board \(a1 to j10\)"):
        table("a1 light castle, j10 dark castle, K4 knight")
