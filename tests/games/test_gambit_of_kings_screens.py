"""What the phones and the command line show of a Gambit of Kings table: the board (turned
round for the dark side), whose piece is whose, the lit squares after a tap, the last move,
the fight's dice, captured pieces; `companion rules` and `companion replay`; the docs."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.engine import view_problems
from companion.games.gambit_of_kings.moves import MOVES
from tests.conftest import ROOT, TRANSCRIPTS
from tests.games.test_gambit_of_kings_tables import act, move, table

APART = "a1 light castle, j10 dark castle"


def test_the_board_is_drawn_square_by_square_and_turned_for_the_dark_side() -> None:
    view = table().table_view(1)
    board = view.boards[0]
    assert (board.rows, board.cols, board.turned_for) == (10, 10, (1,))
    cells = {c.id: c for c in board.cells}
    assert len(cells) == 100
    assert (cells["a1"].row, cells["a1"].col) == (9, 0) and (cells["j10"].row,
                                                             cells["j10"].col) == (0, 9)
    castle = cells["e10"].pieces[0]
    assert (castle.label, castle.owner, castle.title) == ("Ca", 1, "Ben's Castle (dark)")
    labels = {side: {p.label for c in board.cells for p in c.pieces if p.owner == side}
              for side in (0, 1)}
    assert labels == {0: {"Ca", "Pa", "Gi", "Kn", "Gr", "Li", "El", "So"},
                      1: {"Ca", "Lc", "Og", "DK", "Dr", "DW", "Or", "Sk"}}
    assert all(len(p.label) <= 2 for c in board.cells for p in c.pieces)  # 10 across a phone


def test_a_tap_on_a_piece_lights_its_squares() -> None:
    session = table(f"{APART}, e5 light elf, j3 light soldier")
    spec = next(a for a in session.table_view(0).actions if a.name == "move")
    first, then = spec.params
    assert (first.kind, first.board, set(first.choices)) == ("cell", "board", {"e5", "j3"})
    assert then.depends_on == "from" and dict(then.choices_by)["e5"] == (
        "d6", "c7", "f6", "g7", "d4", "c3", "f4", "g3")
    assert view_problems(session.table_view(0)) == []
    assert [a.name for a in session.table_view(1).actions] == []


def test_the_last_move_is_marked() -> None:
    session = table()
    assert not [c for c in session.table_view(None).boards[0].cells if c.terrain]
    move(session, 0, "b2", "d4")
    marked = {c.id for c in session.table_view(1).boards[0].cells if c.terrain == "last-move"}
    assert marked == {"b2", "d4"}
    fact = next(f for f in session.table_view(None).facts if f.key == "last_move")
    assert fact.value == "b2 to d4"


def test_players_show_their_side_pieces_tokens_cards_and_losses() -> None:
    session = table(f"{APART}, e4 light knight, e6 dark orc, e7 dark skeleton",
                    mode="adventure", tokens={"light": 2, "dark": 0})
    act(session, 0, "roll", face=1)
    move(session, 0, "e4", "e6")
    view = session.table_view(None)
    combat = next(f for f in view.facts if f.key == "combat")
    assert combat.value == "Ann's Knight from e4 attacks Ben's Orc on e6"
    assert combat.detail == "Ann's Knight's d8: ? · Ann's d6 for the Orc: ? · Ben's Orc's d6: ?"
    for seat, die, face in [(0, "knight_d8", 7), (0, "d6_for_the_orc", 1), (1, "orc_d6", 3)]:
        act(session, seat, "combat_roll", die=die, face=face)
    ben = session.table_view(None).players[1]
    assert [(c.key, c.value, c.maximum) for c in ben.counters] == [("pieces", 2, None),
                                                                   ("tokens", 0, 3)]
    facts = {f.key: f.value for f in ben.facts}
    assert facts["plays"] == "dark (the Exiled King's)" and facts["lost"] == "Orc"
    assert facts["card_row"].startswith("1 Orc · 2 Dragon · 3 Lich") and \
        facts["card_row"].endswith("8 Castle")


def test_every_screen_of_a_fight_can_be_drawn() -> None:
    session = table(f"{APART}, e4 light giant, e5 dark orc", mode="adventure")
    act(session, 0, "roll", face=5)
    move(session, 0, "e4", "e5")
    for seat in (None, 0, 1):
        assert view_problems(session.table_view(seat)) == []
        json.dumps(session.table_view(seat).to_dict())
    assert session.table_view(None).turn == 0


def test_companion_rules_marks_the_house_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "gambit-of-kings"]) == 0
    text = capsys.readouterr().out
    for words in ["Paladin / Lich", "Giant / Ogre", "Knight / Death Knight", "Griffin / Dragon",
                  "Lion / Dire Wolf", "Elf / Orc", "Soldier / Skeleton", "[house",
                  "Draw: 100 turns in a row with no piece destroyed [house]",
                  "av1: Adventure variant I (AV I):", "a roll of 8 moves two different pieces",
                  "a lesser piece can't destroy a Giant/Ogre", "standard [house]",
                  "1 token each; a token re-rolls the movement die [house]",
                  "becomes a Knight / Death Knight"]:
        assert words in text, words


def test_companion_rules_marks_every_house_reading() -> None:
    """house-rulings.md: every house ruling is visible, in the summary and marked."""
    from companion.games.gambit_of_kings.rules import GambitOfKingsRules
    text = GambitOfKingsRules().rules_summary()
    for words in [
        "an extra d8 against lesser pieces, attacking or defending [house]",
        "on destroying a greater piece (attacking or defending [house])",
        "2 spaces forward (attacking too); d6 [house: effect, die]",
        "A player who cannot move passes [house].",
        "judged as if the move lands, or any piece when none does [house]",
        "only the side losing may re-roll one of its dice, and only when that die's highest"
        " face would turn the fight [house]",
        "av1: Adventure variant I (AV I): a d8 movement roll picks a card of the row (the"
        " Castle 8th); any piece may move; an even roll unlocks the adventure effect of each"
        " piece that moves [house]",
        "on the Castle's card or with none of the card's type left, the piece that moves has its"
        " own instead [house]",
    ]:
        assert words in text, words
    house = GambitOfKingsRules().rules_summary({"house": {"effects": {"even_roll": "card"}}})
    assert "any piece may move; an even roll unlocks the card's adventure effect, for a piece" \
        " of that type only [house]" in house


def test_the_docs_say_which_options_the_phone_offers() -> None:
    from companion.games.gambit_of_kings.rules import _OPTIONS, INFO
    text = (ROOT / "docs" / "gambit-of-kings.md").read_text()
    said = text.split("## Setup")[1].split("| option |")[0]
    offered = {p.name for p in INFO.options}
    assert "the phone offers each when a table is created, except" in said
    for name in _OPTIONS:
        assert (f"`{name}`" in said) == (name not in offered), name


def test_companion_replay_draws_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    path = TRANSCRIPTS / "gambit_of_kings" / "standard-a-griffin-takes-the-castle.jsonl"
    assert main(["replay", str(path), "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert "The board:" in out and "Ann wins: the Exiled King's Castle is taken" in out
    rows = out.split("The board:\n")[1].splitlines()
    # Ben sits across the board: his own back rank, turned round, is at the bottom.
    assert rows[9].split() == ["Dr", "DK", "Og", "DW", "Gr", "Lc", "DW", "Og", "DK", "Dr"][::-1]


def test_there_are_golden_games() -> None:
    found = sorted(p.stem for p in (TRANSCRIPTS / "gambit_of_kings").glob("*.jsonl"))
    assert {"standard-a-griffin-takes-the-castle", "av1-a-double-move-and-a-hunt",
            "adventure-a-promotion-and-a-castle-that-holds",
            "tar-tokens-unlock-the-knights-flight"} <= set(found)


def test_every_action_and_option_is_documented() -> None:
    text = (ROOT / "docs" / "gambit-of-kings.md").read_text()
    from companion.games.gambit_of_kings.rules import INFO
    missing = [name for name in [*MOVES, *(p.name for p in INFO.options), "tokens", "house"]
               if f"`{name}`" not in text]
    assert missing == []
    assert "## Decisions" in text


def test_the_table_hears_the_end_of_a_fight_and_of_the_game() -> None:
    session = table("a1 light castle, e9 dark castle, e8 light soldier, c5 dark orc",
                    mode="av1", tokens={"light": 0, "dark": 0})
    act(session, 0, "roll", face=3)
    move(session, 0, "e8", "e9")
    for seat, die, face in [(0, "soldier_d6", 2), (0, "d10_for_the_castle", 1),
                            (1, "castle_d10", 7)]:
        act(session, seat, "combat_roll", die=die, face=face)
    assert session.rules.announce(session.history[-1].events) == \
        "2 against 7: the defender wins."
    act(session, 1, "roll", face=1)
    move(session, 1, "c5", "d4")
    act(session, 0, "roll", face=3)
    move(session, 0, "e8", "e9")
    for seat, die, face in [(0, "soldier_d6", 6), (0, "d10_for_the_castle", 1),
                            (1, "castle_d10", 6)]:
        act(session, seat, "combat_roll", die=die, face=face)
    assert session.rules.announce(session.history[-1].events) == \
        "6 against 6: the attacker wins. The dark Castle falls."
