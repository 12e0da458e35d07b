"""The rule book: Gambit (6x6)'s powers, boards and choices, read from data/rules.toml.

A table corrects a choice by editing that file or with the table option ``house`` (the same
structure, only what changes).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from companion.engine import RuleBook, SetupError, check_one_of, check_whole_numbers
from companion.games.gambit_6x6.board import FILES

GROUPS = ("movement", "action")
SIDES = ("south", "north", "west", "east")
_CHOICES = {"moves.sidewinder": ("wrap", "edge"), "challenge.reward": ("one", "held"),
            "challenge.bluff_turn": ("lost", "remake"),
            "challenge.kamikaze_keeps": ("none", "movement")}


@cache
def _packaged() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data/rules.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _check(data: Mapping[str, Any]) -> None:
    """Refuse a rule book (edited file or house option) the rules cannot run with."""
    check_whole_numbers(data)
    for group in GROUPS:
        faces = sorted(p["die"] for p in data["powers"].values() if p["group"] == group)
        if faces != [1, 2, 3, 4]:
            raise SetupError(f"the {group} powers must hold die faces 1 to 4, one each")
    if sorted(p["die"] for p in data["player_powers"].values()) != [1, 2, 3, 4]:
        raise SetupError("the player powers must hold die faces 1 to 4, one each")
    if not set(data["dice"]["wild"]) <= {5, 6}:
        raise SetupError("rule 'dice.wild' may list only the faces 5 and 6")
    for key, allowed in _CHOICES.items():
        section, name = key.split(".")
        check_one_of(f"rule {key!r}", data[section][name], allowed)
    for rule in ("far_row", "losses"):
        if data["win"][rule] < 1:
            raise SetupError(f"rule 'win.{rule}' must be at least 1")
    for name, board in data["boards"].items():
        for key, most in (("cols", len(FILES)), ("rows", 10)):
            if not 2 <= board[key] <= most:
                raise SetupError(f"rule 'boards.{name}.{key}' must be from 2 to {most}")
        if not 2 <= board["pieces"] <= min(board["cols"], board["rows"]):
            raise SetupError(f"rule 'boards.{name}.pieces' must be from 2 to the board's side"
                             f" ({min(board['cols'], board['rows'])})")
        for count, sides in board["sides"].items():
            if not set(sides) <= set(SIDES) or len(set(sides)) != len(sides) \
                    or len(sides) != int(count):
                raise SetupError(f"rule 'boards.{name}.sides.{count}' must name {count}"
                                 f" different sides of {', '.join(SIDES)}")


class Book(RuleBook):
    """The powers, boards and choices in force at one table."""

    packaged = staticmethod(_packaged)
    check = staticmethod(_check)

    def rule(self, section: str, name: str) -> Any:
        return self.data[section][name]

    def powers(self, group: str | None = None) -> tuple[str, ...]:
        """The power ids of a group (None: both), in die order."""
        found = [(p["group"], p["die"], name) for name, p in self.data["powers"].items()
                 if group in (None, p["group"])]
        return tuple(name for _, _, name in sorted(found, key=lambda f: (GROUPS.index(f[0]),
                                                                         f[1])))

    def group(self, power: str) -> str:
        return str(self.data["powers"][power]["group"])

    def label(self, name: str) -> str:
        """What players read for a power or a player power."""
        for section in ("powers", "player_powers"):
            if name in self.data[section]:
                return str(self.data[section][name]["label"])
        return name.replace("_", " ").title()

    def text(self, name: str) -> str:
        for section in ("powers", "player_powers"):
            if name in self.data[section]:
                return str(self.data[section][name]["text"])
        return ""

    def player_powers(self) -> tuple[str, ...]:
        table = self.data["player_powers"]
        return tuple(sorted(table, key=lambda name: table[name]["die"]))

    def face(self, group: str | None, face: int) -> str | None:
        """The power (or, with group None, the player power) a die face gives; None: wild."""
        if face in self.data["dice"]["wild"]:
            return None
        table = self.data["powers"] if group else self.data["player_powers"]
        return next(str(name) for name, p in table.items()
                    if p["die"] == face and (group is None or p["group"] == group))

    def boards(self) -> tuple[str, ...]:
        return tuple(self.data["boards"])

    def board(self, name: str) -> Mapping[str, Any]:
        entry: Mapping[str, Any] = self.data["boards"][name]
        return entry
