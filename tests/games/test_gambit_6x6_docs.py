"""docs/gambit-6x6.md stays in step with the game: every action, option, power, Player Power
and board is documented, and every choice of the data file has its decision."""

from __future__ import annotations

from companion.games.gambit_6x6 import RULES
from companion.games.gambit_6x6.book import Book
from companion.games.gambit_6x6.moves import MOVE_SET
from tests.conftest import ROOT

DOC = (ROOT / "docs" / "gambit-6x6.md").read_text()


def test_every_action_option_and_id_is_documented() -> None:
    book = Book.default()
    names = [*MOVE_SET.by_name, *(o.name for o in RULES.info.options), "house",
             *book.powers(), *book.player_powers(), *book.boards()]
    assert [name for name in names if f"`{name}`" not in DOC] == []


def test_every_choice_in_the_data_file_has_its_decision() -> None:
    decisions = DOC.split("## Decisions", 1)[1]
    book = Book.default()
    for section in ("moves", "challenge"):
        for rule in book.data[section]:
            assert f"`{section}.{rule}" in decisions, f"{section}.{rule}"
    for rule in ("win.quiet_turns", "setup.most_moats", "boards."):
        assert f"`{rule}" in decisions, rule
