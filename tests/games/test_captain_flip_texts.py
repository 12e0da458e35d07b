"""Captain Flip's Character and Treasure Map texts carry the table's numbers: a house edit of
a number changes what the rules summary and the screen say, the packaged wording stays the
player aid's, and a text naming a number its Character lacks is refused at setup."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine import GameSetup, SetupError, TableSession, get_game
from companion.games.captain_flip.book import CHARACTERS, Book
from tests.games.test_captain_flip_rules import Table

SLUG = "captain-flip"
AID = {  # the player aid's wording, word for word
    "treasure_map": "If you have the Treasure Map at the end of your turn, take 1 coin.",
    "swabby": "Endgame: take 1/4/9/16/25 coins if you have at least 1 Swabby in 1/2/3/4/5"
              " columns.",
    "navigator": "Take 2 coins per Cartographer on your board.",
    "parrot": "Draw and play a new tile. Endgame: lose 1 coin.",
    "cook": "Take 1 coin per Character in their row, including the Cook themselves.",
    "gunner": "Take 5 coins. Endgame: if you have 3 or more Gunners on your board, you lose the"
              " game.",
    "carpenter": "Endgame: take 3 coins if there is no Gunner in their row or column.",
    "monkey": "Take 1 coin then flip one adjacent tile. Apply the effects of the revealed"
              " Character.",
    "lookout": "Endgame: take 4 coins if there is no Character above this tile, in this"
               " column.",
}


def test_the_packaged_texts_are_the_player_aids() -> None:
    book = Book.default()
    for name, text in AID.items():
        assert book.text(name) == text
    summary = get_game(SLUG).rules_summary()
    assert AID["treasure_map"] in summary
    for name in CHARACTERS:
        assert f"  {book.label(name)}: {book.text(name)}" in summary.splitlines()


@pytest.mark.parametrize(("house", "line"), [
    ({"characters": {"gunner": {"coins": 6, "lose_at": 4}}},
     "Gunner: Take 6 coins. Endgame: if you have 4 or more Gunners on your board"),
    ({"characters": {"parrot": {"penalty": 2}}}, "Parrot: Draw and play a new tile. Endgame: lose"
                                                 " 2 coins."),
    ({"characters": {"navigator": {"per_cartographer": 1}}}, "Navigator: Take 1 coin per"),
    ({"characters": {"cook": {"per_tile_in_row": 2}}}, "Cook: Take 2 coins per Character"),
    ({"characters": {"carpenter": {"coins": 4}}}, "Carpenter: Endgame: take 4 coins if"),
    ({"characters": {"monkey": {"coins": 2}}}, "Monkey: Take 2 coins then flip"),
    ({"characters": {"lookout": {"coins": 5}}}, "Lookout: Endgame: take 5 coins if"),
    ({"characters": {"swabby": {"by_columns": [0, 2, 5, 10, 17, 26]}}},
     "Swabby: Endgame: take 2/5/10/17/26 coins if"),
    ({"treasure_map": {"coins": 2}}, "the end of your turn, take 2 coins."),
])
def test_a_house_number_shows_in_the_rules_summary(house: dict[str, Any], line: str) -> None:
    summary = get_game(SLUG).rules_summary({"house": house})
    assert line in summary
    assert summary != get_game(SLUG).rules_summary()


def test_the_drawn_tile_and_the_map_on_screen_carry_the_house_numbers() -> None:
    table = Table(house={
        "characters": {"gunner": {"coins": 6}}, "treasure_map": {"coins": 2}})
    table.draw("gunner")
    shown = {f.key: f.detail for f in table.session.table_view(0).facts}
    assert shown["treasure_map"] == "If you have the Treasure Map at the end of your turn," \
                                    " take 2 coins."
    assert shown["drawn"].startswith("Take 6 coins. Endgame: if you have 3 or more Gunners")


@pytest.mark.parametrize("text", ["Take {bogus} coins.", "Take {coins:q}.",
                                  "Take {by_columns[9]} coins.", "Take {coins."])
def test_a_text_naming_what_its_character_lacks_is_refused_at_setup(text: str) -> None:
    name = "swabby" if "by_columns" in text else "gunner"
    house = {"characters": {name: {"text": text}}}
    with pytest.raises(SetupError, match=f"'characters.{name}.text'"):
        Book.load(house)
    with pytest.raises(SetupError):
        TableSession(GameSetup(SLUG, ("Ann", "Ben"), {"board": "A", "house": house}, seed=1))
