"""The rule book: Captain's Gambit's numbers and texts, read from data/rules.toml.

A table corrects a house default by editing that file or by passing the table option
``house`` with the same structure (only the values it changes).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache, cached_property
from importlib import resources
from typing import Any

from companion.engine import RuleBook, SetupError, check_one_of, check_whole_numbers, data_text

PERMITS = ("barrage", "shield", "drain", "overcharge", "fortify", "network")
WILDCARDS = ("identity_theft", "diplomatic_immunity")
SHEET_ACTIONS = ("strike", "charge", "heal", "donate", "barrage", "drain", "overcharge", "fortify",
                 "network")


@cache
def _packaged() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data/rules.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


_TARGETS = ("none", "opponent", "anyone", "other")
_AT_LEAST_ONE = ("starting_health", "rounds", "hand_size")
CAPTAIN_TEXTS = ("win", "lose", "reveal", "prologue", "note")
_ROUNDS = ("deadline_round", "alone_round")


def _check_captains(data: Mapping[str, Any]) -> None:
    """Captains' numbers the rules can run with, and texts that name only their numbers."""
    rounds = data["setup"]["rounds"]
    for name, captain in data["captains"].items():
        for key in _ROUNDS:
            if key in captain and not 1 <= captain[key] <= rounds:
                raise SetupError(f"rule 'captains.{name}.{key}' must be from 1 to {rounds}"
                                 f" (setup.rounds), not {captain[key]}")
        if "loses_at_death" in captain and captain["loses_at_death"] < 1:
            raise SetupError(f"rule 'captains.{name}.loses_at_death' must be at least 1")
        partner = captain.get("partner")
        if partner is not None and (partner not in data["captains"] or partner == name):
            raise SetupError(f"rule 'captains.{name}.partner' must be another captain of the"
                             f" game, not {partner!r}")
        for key in CAPTAIN_TEXTS:
            _check_text(data, "captains", name, key)


def _check_text(data: Mapping[str, Any], section: str, name: str, key: str) -> None:
    """A text names only numbers of its own entry or of ``setup``."""
    try:
        Book.text_in(data, section, name, key)
    except (KeyError, ValueError, IndexError) as exc:
        whose = section.removesuffix("s")  # "the action", "the captain"
        raise SetupError(f"rule '{section}.{name}.{key}' names a number the {whose} does not"
                         f" have ({exc}): use its own keys or setup's, in braces") from None


def _check(data: Mapping[str, Any]) -> None:
    """Refuse a rule book (edited file or house option) that the rules cannot run with."""
    check_whole_numbers(data)
    for key in _AT_LEAST_ONE:
        if data["setup"][key] < 1:
            raise SetupError(f"rule 'setup.{key}' must be at least 1")
    for name, action in data["actions"].items():
        if name != "shield":
            check_one_of(f"rule 'actions.{name}.target'", action.get("target"), _TARGETS)
        expected = ("reaction",) if name == "shield" else ("simple", "permit")
        if action.get("kind") not in expected:
            raise SetupError(f"rule 'actions.{name}.kind' must be {' or '.join(expected)}")
        if action["kind"] == "permit" and name not in PERMITS:
            # a claim of a card the deck does not hold could never be shown
            raise SetupError(f"rule 'actions.{name}.kind' must be simple: there is no"
                             f" {action.get('label', name)} permit in the deck to claim (the"
                             f" permits are {', '.join(PERMITS)})")
    for key, low, high in (("permit_copies", 1, 8), ("wildcard_copies", 0, 4)):
        for count, copies in data["setup"][key].items():
            if not low <= copies <= high:
                raise SetupError(f"rule 'setup.{key}.{count}' must be from {low} to {high}")
    for name in data["actions"]:
        _check_text(data, "actions", name, "text")
    _check_captains(data)
    if not data["setup"]["hand_size"] <= 4:
        raise SetupError("rule 'setup.hand_size' must be at most 4")
    known = set(data["captains"])
    if not set(data["setup"]["dead_can_win"]) <= known:
        raise SetupError("rule 'setup.dead_can_win' must list captains the data file describes")
    for count, names in data["pool"].items():
        if not isinstance(names, list) or not set(names) <= known:
            raise SetupError(f"rule 'pool.{count}' must list captains the data file describes")
    for group, swap in data["warp_in"].items():
        old, new = swap.get("replaces", []), swap.get("with", [])
        if len(old) != len(new) or not set(old) | set(new) <= known:
            raise SetupError(f"rule 'warp_in.{group}' must swap as many known captains as it"
                             " replaces")


class Book(RuleBook):
    """The numbers and texts in force at one table."""

    packaged = staticmethod(_packaged)
    check = staticmethod(_check)

    def setup(self, key: str) -> Any:
        return self.data["setup"][key]

    def action(self, name: str) -> Mapping[str, Any]:
        entry: Mapping[str, Any] = self.data["actions"][name]
        return entry

    def action_text(self, name: str) -> str:
        """An action's text with this table's numbers in it."""
        return self.text_in(self.data, "actions", name, "text")

    def captain_text(self, name: str, key: str) -> str:
        """A captain's ``win``, ``lose``, ``reveal``, ... text with this table's numbers in it
        ("" when the captain has none)."""
        return self.text_in(self.data, "captains", name, key)

    @staticmethod
    def text_in(data: Mapping[str, Any], section: str, name: str, key: str) -> str:
        """An action's or a captain's text, its ``{key}`` numbers its own or setup's."""
        entry = data[section][name]
        return data_text(entry.get(key, ""), {**data["setup"], **entry})

    def captain(self, name: str) -> Mapping[str, Any]:
        entry: Mapping[str, Any] = self.data["captains"][name]
        return entry

    @cached_property
    def notes(self) -> dict[tuple[str, str], str]:
        """The claim notes made so far, by (card, effect): offered on
        every move of every seat, made once (a few dozen at most)."""
        return {}

    @cached_property
    def _labels(self) -> dict[str, str]:
        """Every captain's, action's and wildcard's label, by id (read on every move)."""
        return {name: str(entry["label"]) for section in ("wildcards", "actions", "captains")
                for name, entry in self.data[section].items()}

    def label(self, name: str) -> str:
        """Display name of a captain, action or wildcard id."""
        found = self._labels.get(name)
        return found if found is not None else name.replace("_", " ").title()

    def copies(self, key: str, players: int) -> int:
        return int(self.data["setup"][key][str(players)])

    def pool(self, players: int, warp_in: list[str]) -> list[str]:
        """The captain pool for a player count, with the chosen Warp In groups swapped in."""
        pool: list[str] = []
        for count in range(4, players + 1):
            pool += self.data["pool"].get(str(count), [])
        for group in warp_in:
            swap = self.data["warp_in"].get(group)
            if swap is None:
                known = ", ".join(self.data["warp_in"])
                raise SetupError(f"unknown Warp In group {group!r} (known: {known})")
            for old, new in zip(swap["replaces"], swap["with"], strict=False):
                if old in pool:
                    pool[pool.index(old)] = new
        return pool

    def centre_captains(self) -> tuple[str, ...]:
        return tuple(self.data["pool"]["centre"])

    def warp_in_groups(self) -> tuple[str, ...]:
        return tuple(self.data["warp_in"])

    def warp_in_labels(self) -> tuple[str, ...]:
        """Each Warp In group in words: "King Lear and Othello (for Cordelia and Brutus)"."""
        def names(captains: list[str]) -> str:
            labels = [self.label(c) for c in captains]
            return " and ".join(labels) if len(labels) < 3 else ", ".join(labels)
        return tuple(f"{names(swap['with'])} (for {names(swap['replaces'])})"
                     for swap in self.data["warp_in"].values())

    def prologue_captains(self) -> tuple[str, ...]:
        """Captains with a part in the Prologue (a `prologue` text in the data)."""
        return tuple(name for name, entry in self.data["captains"].items() if "prologue" in entry)
