"""A data file's texts with a table's numbers in them (``data_text``), shared by every game
whose words name its numbers."""

from __future__ import annotations

import pytest

from companion.engine import data_text


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
