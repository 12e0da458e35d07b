"""A house edit of a captain's number changes its words too, and edits the rules cannot run
with are refused at setup, naming the key."""

from typing import Any

import pytest

from companion.engine import SetupError
from companion.games.captains_gambit.book import Book
from companion.games.captains_gambit.summary import rules_summary
from tests.conftest import cg_table

SEVEN = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")


def summary(house: dict[str, Any]) -> list[str]:
    return [line.strip() for line in rules_summary(Book.load(house)).splitlines()]


def captain_block(lines: list[str], label: str) -> str:
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{label} ("))
    return "\n".join(lines[start:start + 5])


def cap(name: str, **numbers: Any) -> dict[str, Any]:
    return {"captains": {name: numbers}}


@pytest.mark.parametrize("house, label, packaged, edited", [
    (cap("prospero", reveal_energy=6), "Prospero", "at least 8 energy", "at least 6 energy"),
    (cap("prospero", reveal_spends_energy=False), "Prospero", "energy (spent)",
     "energy (not spent)"),
    (cap("prospero", deadline_round=10), "Prospero", "round-11 turn", "round-10 turn"),
    (cap("lady_macbeth", reveal_blood=5), "Lady Macbeth", "at least 3 blood",
     "at least 5 blood"),
    (cap("lady_macbeth", deadline_round=9), "Lady Macbeth", "round-11 turn", "round-9 turn"),
    (cap("richard_iii", reveal_damage=5), "Richard III", "takes 10 damage", "takes 5 damage"),
    (cap("richard_iii", reveal_spends_energy=True), "Richard III", "Energy is not spent",
     "Energy is all spent"),
    (cap("rosalind", alone_round=6), "Rosalind", "end of round 8", "end of round 6"),
    (cap("rosalind", loses_at_death=3), "Rosalind", "reaches 2.", "reaches 3."),
    (cap("portia", victim_least_blood=1), "Portia", "ties count, even at 0",
     "the victim needs at least 1 blood"),
    (cap("hamlet", loses_without_killer=True), "Hamlet", "someone else's kill credit.",
     "or with nobody's"),
    (cap("brutus", loses_without_killer=True), "Brutus", "someone else's kill credit.",
     "or with nobody's"),
    (cap("tybalt", loses_without_killer=True), "Tybalt", "anyone else's hand.",
     "or with nobody's kill credit"),
    (cap("mercutio", loses_without_killer=True), "Mercutio", "anyone else's hand.",
     "or with nobody's kill credit"),
    ({"setup": {"rounds": 13}}, "Puck", "when round 12 ends", "when round 13 ends"),
    (cap("titus", last_stand_damage_per_blood=2), "Titus", "takes 1 damage per blood",
     "takes 2 damage per blood"),
])
def test_the_summary_says_the_tables_captain_numbers(house: dict[str, Any], label: str,
                                                     packaged: str, edited: str) -> None:
    assert packaged in captain_block(summary({}), label)
    block = captain_block(summary(house), label)
    assert edited in block and packaged not in block


def test_the_summary_says_who_can_win_while_dead() -> None:
    assert "A dead captain wins nothing, except: Cordelia, Titus." in summary({})
    house = {"setup": {"dead_can_win": ["cordelia", "titus", "iago"]}}
    assert "A dead captain wins nothing, except: Cordelia, Titus, Iago." in summary(house)


def test_a_phone_shows_its_captains_words_with_the_tables_numbers() -> None:
    table = cg_table({0: "prospero", 1: "iago", 2: "portia", 3: "puck"},
                     options={"house": cap("prospero", reveal_energy=6, deadline_round=10)})
    fact = next(f for f in table.table_view(0).secrets if f.key == "captain")
    assert "at least 6 energy (spent)" in fact.detail and "round-10 turn" in fact.detail


@pytest.mark.parametrize("text, reason", [
    ("Reveal with at least {reveal_enrgy} energy.", "names a number the captain does not"),
    ("Reveal ({reveal_spends_energy}).", "a yes/no number needs words"),
])
def test_a_captain_text_the_data_cannot_fill_is_refused(text: str, reason: str) -> None:
    with pytest.raises(SetupError, match=rf"'captains\.prospero\.win' .*{reason}"):
        Book.load(cap("prospero", win=text))


@pytest.mark.parametrize("house, reason", [
    (cap("rosalind", alone_round=0), "'captains.rosalind.alone_round' must be from 1 to 12"),
    (cap("rosalind", alone_round=13), "'captains.rosalind.alone_round' must be from 1 to 12"),
    (cap("rosalind", loses_at_death=0), "'captains.rosalind.loses_at_death' must be at least 1"),
    (cap("prospero", deadline_round=0), "'captains.prospero.deadline_round' must be from 1 to"),
    (cap("prospero", deadline_round=99), "'captains.prospero.deadline_round' must be from 1"),
    ({"setup": {"rounds": 10}}, "'captains.prospero.deadline_round' must be from 1 to 10"),
    (cap("romeo", partner="ghost"), "'captains.romeo.partner' must be another captain of the"
                                    " game, not 'ghost'"),
    (cap("juliet", partner="juliet"), "'captains.juliet.partner' must be another captain"),
])
def test_a_captain_number_the_rules_cannot_run_with_is_refused(house: dict[str, Any],
                                                               reason: str) -> None:
    with pytest.raises(SetupError, match=reason.replace(".", r"\.")):
        cg_table({0: "rosalind", 1: "iago", 2: "portia", 3: "puck", 4: "prospero",
                  5: "hamlet", 6: "cordelia"}, seats=SEVEN, options={"house": house})


def test_edits_within_range_are_accepted() -> None:
    book = Book.load({"setup": {"rounds": 10},
                      "captains": {"prospero": {"deadline_round": 10},
                                   "lady_macbeth": {"deadline_round": 1},
                                   "rosalind": {"alone_round": 10, "loses_at_death": 1},
                                   "romeo": {"partner": "mercutio"}}})
    assert book.captain("prospero")["deadline_round"] == 10


def test_house_rulings_are_marked_house_as_in_the_other_games() -> None:
    lines = summary({})
    assert "Strike (simple, cost 1) [house]: Deal 1 damage to a living opponent. You gain 1"\
           " blood, even if it is Shielded." in lines
    assert "Prospero (ascension) [house]" in lines
    assert not any("[house default]" in line for line in lines)
