"""A table keeps the rules it began with: its setup records the game's rule data, so that a
data file edited later (a table correcting a number, a companion updated) does not change a
game in progress, nor the replay of its log, while a new table plays by the edit."""

from __future__ import annotations

import copy
import json
import random
import sys
import tomllib
from importlib import resources
from typing import Any

import pytest

from companion.engine import (
    GameSetup,
    TableSession,
    all_games,
    get_game,
    house_between,
    parse_setup,
)
from companion.engine import house as house_module
from companion.engine.random_play import random_step

# For each game with a data file: one rule a table might edit, and its edited value.
EDITS = {
    "captains-gambit": ("setup.starting_health", 14),
    "burkes-gambit": ("vote.for_yourself", True),
    "captain-flip": ("coins.below_zero", True),
    "gambit-6x6": ("moves.sidewinder", "wrap"),
    "gambit-of-kings": ("effects.even_roll", "card"),
}
SEATS = ("Ann", "Ben", "Cat", "Dan")


def edited(data: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(data)
    *path, last = key.split(".")
    inner = out
    for part in path:
        inner = inner[part]
    assert inner[last] != value
    inner[last] = value
    return out


def edit_the_data_file(monkeypatch: pytest.MonkeyPatch, game: str) -> dict[str, Any]:
    """What a restart after an edit of the game's data/rules.toml meets: the edited data."""
    book = get_game(game).rule_book
    assert book is not None
    key, value = EDITS[game]
    now = edited(book.packaged(), key, value)
    monkeypatch.setattr(book, "packaged", staticmethod(lambda: now))
    monkeypatch.setattr(house_module, "_DEFAULTS", {})  # the packaged book, checked once
    module = sys.modules[book.__module__]
    if hasattr(module, "_BOOKS"):  # a game's own cache of books by house edits
        monkeypatch.setattr(module, "_BOOKS", {})
    return now


@pytest.mark.parametrize("game", sorted(EDITS))
def test_a_game_in_progress_keeps_its_rules_when_the_data_file_is_edited(
        game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = get_game(game)
    seats = SEATS[:rules.info.min_players]
    began = TableSession(GameSetup(game, seats, seed=7))
    assert began.setup.book == rules.rule_book.packaged()  # type: ignore[union-attr]
    rng = random.Random(3)
    actions = [a for a in (random_step(began, rng) for _ in range(25)) if a is not None]
    assert actions
    summary = rules.rules_summary(began.options)
    recorded = parse_setup(json.loads(json.dumps(began.setup.to_dict())))  # as stored
    # rebuilt while the data is the same, a table holds no copy of its own (memory per table)
    assert TableSession(recorded).setup.book is rules.rule_book.packaged()  # type: ignore

    seen = [began.table_view(seat) for seat in (None, *range(len(seats)))]
    now = edit_the_data_file(monkeypatch, game)
    again = TableSession.replay(recorded, actions)
    # every phone sees the same table, log and legal moves (a state may name its house edits)
    assert [again.table_view(seat) for seat in (None, *range(len(seats)))] == seen
    assert rules.rules_summary(again.options) == summary
    assert again.setup == recorded  # the record itself is not rewritten

    fresh = TableSession(GameSetup(game, seats, seed=7))  # a table begun after the edit
    assert fresh.setup.book == now and fresh.options == {}
    assert rules.rules_summary(fresh.options) != summary


def test_a_tables_own_house_edits_still_apply_on_the_rules_it_began_with(
        monkeypatch: pytest.MonkeyPatch) -> None:
    house = {"moves": {"straight": False}}
    began = TableSession(GameSetup("gambit-6x6", ("Ann", "Ben"), {"house": house}, seed=1))
    edit_the_data_file(monkeypatch, "gambit-6x6")  # the Sidewinder now wraps by default
    again = TableSession(parse_setup(json.loads(json.dumps(began.setup.to_dict()))))
    # said as edits of the data as it is now: its own edit, and the edge it began with
    assert again.options == {"house": {"moves": {"sidewinder": "edge", "straight": False}}}
    assert again.setup.options == {"house": house}  # what the table chose, as it chose it
    assert again.table_view(0) == began.table_view(0)


def test_the_edits_between_two_versions_of_a_book() -> None:
    base = {"a": 1, "b": {"c": "x", "d": True}, "gone": 2}
    wanted = {"a": 2, "b": {"c": "x", "d": False}, "new": 5, "gone": "two"}
    # what differs; a key the data has no more, or a value of another kind, cannot be said
    assert house_between(base, wanted) == {"a": 2, "b": {"d": False}}
    assert house_between(base, base) == {}


def test_a_transcript_without_the_rule_data_plays_by_the_data_of_today() -> None:
    setup = parse_setup({"game": "gambit-6x6", "seats": ["Ann", "Ben"], "seed": 1})
    assert setup.book is None
    session = TableSession(setup)
    assert session.setup.book == get_game("gambit-6x6").rule_book.packaged()  # type: ignore
    with pytest.raises(Exception, match="\"book\" must be an object"):
        parse_setup({"game": "gambit-6x6", "seats": ["Ann", "Ben"], "book": [1]})


@pytest.mark.parametrize("game", [g.info.slug for g in all_games()])
def test_every_game_with_a_data_file_names_its_rule_book(game: str) -> None:
    """Else its tables would not record the data they began with."""
    rules = get_game(game)
    package = type(rules).__module__.rpartition(".")[0]
    data = resources.files(package).joinpath("data/rules.toml")
    if not data.is_file():
        assert rules.rule_book is None
        return
    assert rules.rule_book is not None
    assert rules.rule_book.packaged() == tomllib.loads(data.read_text(encoding="utf-8"))


def test_a_house_edit_of_a_rule_the_data_no_longer_has_is_said_not_applied(
        monkeypatch: pytest.MonkeyPatch) -> None:
    house = {"moves": {"straight": False, "sidewinder": "wrap"}}
    began = TableSession(GameSetup("gambit-6x6", ("Ann", "Ben"), {"house": house}, seed=1))
    assert began.house_dropped == ()
    book = get_game("gambit-6x6").rule_book
    assert book is not None
    now = copy.deepcopy(book.packaged())
    del now["moves"]["straight"]  # an update took the rule away
    monkeypatch.setattr(book, "packaged", staticmethod(lambda: now))
    monkeypatch.setattr(house_module, "_DEFAULTS", {})
    again = TableSession(parse_setup(json.loads(json.dumps(began.setup.to_dict()))))
    assert again.house_dropped == ("moves.straight",)
    assert again.options == {"house": {"moves": {"sidewinder": "wrap"}}}
