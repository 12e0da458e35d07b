"""A data file's texts with a table's numbers in them (``data_text``), shared by every game
whose words name its numbers; the house readings a phone offers (``house_reading``); a
table's edits in words (``house_changes``); a choice refused with what was given."""

from __future__ import annotations

import pytest

from companion.engine import SetupError, check_one_of, data_text, house_changes, house_reading


def test_a_text_names_its_numbers_and_counts_its_nouns() -> None:
    assert data_text("Take {coins:coins}.", {"coins": 1}) == "Take 1 coin."
    assert data_text("Take {coins:coins}.", {"coins": 5}) == "Take 5 coins."
    assert data_text("round {rounds}, then {cols[1]}", {"rounds": 12, "cols": [0, 4]}) == \
        "round 12, then 4"


def test_yes_or_no_numbers_choose_their_words_and_need_them() -> None:
    text = "Reveal ({spends:spent|not spent}){least:, at least {least}|}"
    assert data_text(text, {"spends": True, "least": 2}) == "Reveal (spent), at least 2"
    assert data_text(text, {"spends": False, "least": 0}) == "Reveal (not spent)"
    with pytest.raises(ValueError, match="needs words"):
        data_text("Reveal ({spends})", {"spends": True})
    with pytest.raises(KeyError):
        data_text("Take {gold:coins}.", {"coins": 1})


DATA = {"moves": {"sidewinder": "edge", "straight": True}, "draw": {"quiet_turns": 80}}


def test_a_house_reading_is_a_flag_or_a_choice_with_the_packaged_value_chosen() -> None:
    flag = house_reading(DATA, "moves.straight", "A 2-square move goes straight")
    assert (flag.name, flag.kind, flag.default) == ("moves.straight", "flag", True)
    choice = house_reading(DATA, "moves.sidewinder", "The Sidewinder moves",
                           {"edge": "Far left square to far right", "wrap": "Across the edge"})
    assert (choice.kind, choice.choices, choice.default) == ("choice", ("edge", "wrap"), "edge")
    assert choice.labels == ("Far left square to far right", "Across the edge")


def test_a_house_reading_of_a_text_without_choices_takes_the_tables_own_words() -> None:
    name = house_reading({"roles": {"role_7": {"label": "Role 7"}}}, "roles.role_7.label",
                         "Role 7: the name on your card")
    assert (name.kind, name.default, name.maximum) == ("text", "Role 7", 40)


@pytest.mark.parametrize(("key", "choices"), [
    ("moves.sidewinder", {"wrap": "Across the edge"}),  # its own value among them
    ("draw.quiet_turns", {"80": "80 turns"}),  # a number is no reading a phone offers
])
def test_a_house_reading_that_cannot_be_offered_is_refused(
        key: str, choices: dict[str, str] | None) -> None:
    with pytest.raises(ValueError, match="a house reading is a yes/no, or a text"):
        house_reading(DATA, key, "label", choices)


@pytest.mark.parametrize(("text", "why"), [
    ("heal up to {health:>2000000000}", "not a form a text may use"),  # gigabytes of spaces
    ("{health:08d}", "not a form a text may use"),
    ("{health.__class__}", "not a value's name"),
    ("{health.real}", "not a value's name"),
])
def test_a_text_may_not_pad_nor_reach_into_a_value(text: str, why: str) -> None:
    """A table's house edit may change a text: it gets names and the forms above only."""
    with pytest.raises(ValueError, match=why):
        data_text(text, {"health": 2})


def test_a_tables_edits_are_listed_in_the_words_of_its_readings() -> None:
    readings = (house_reading(DATA, "moves.straight", "A 2-square move goes straight"),
                house_reading(DATA, "moves.sidewinder", "The Sidewinder moves",
                              {"edge": "Far left square to far right", "wrap": "Across the edge"}))
    house = {"moves": {"sidewinder": "wrap", "straight": False}, "draw": {"quiet_turns": 40}}
    assert house_changes(house, readings) == [
        "The Sidewinder moves: Across the edge", "A 2-square move goes straight: no",
        "draw.quiet_turns: 40"]
    # a rule no phone offers is named by its key; a value is written as a transcript writes it
    assert house_changes({"vote": {"for_yourself": True, "texts": ["a", "b"]}}) == [
        "vote.for_yourself: true", 'vote.texts: ["a", "b"]']
    assert house_changes(None, readings) == house_changes({}, readings) == []


def test_a_choice_refused_names_the_value_given() -> None:
    assert check_one_of("rule 'moves.sidewinder'", "wrap", ("edge", "wrap")) == "wrap"
    with pytest.raises(SetupError) as refused:
        check_one_of("rule 'moves.sidewinder'", "teleport", ("edge", "wrap"))
    assert str(refused.value) == \
        "rule 'moves.sidewinder' must be one of edge, wrap, not \"teleport\""
    with pytest.raises(SetupError, match=r"must be one of edge, wrap, not 3$"):
        check_one_of("rule 'moves.sidewinder'", 3, ("edge", "wrap"))
