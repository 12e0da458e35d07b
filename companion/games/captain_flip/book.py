"""The rule book: Captain Flip's numbers, texts and Adventure boards, read from
data/rules.toml. A table corrects a value by editing that file or with the option ``house``."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from typing import Any

from companion.engine import RuleBook, SetupError, check_whole_numbers, data_text

CHARACTERS = ("swabby", "cartographer", "navigator", "carpenter", "cook", "monkey", "gunner",
              "parrot", "lookout")
BOARDS = ("A", "B", "C", "D")
COLUMNS = "abcde"
ROWS = 5


@dataclass(frozen=True)
class Bonus:
    """What a space gives: ``kind`` is coins, map, race (first/then), same, different (both at
    the end of the game), per_column or per_kind; ``then`` is a race's later amount."""

    kind: str
    amount: int = 0
    then: int = 0

    @property
    def at_the_end(self) -> bool:
        return self.kind in ("same", "different")


@dataclass(frozen=True)
class Space:
    cell: str  # "a1": column a, the bottom row counted 1
    column: int  # 0 (a) to 4 (e)
    row: int  # 0 is the top row as drawn
    bonus: Bonus | None = None
    cost: int = 0
    label: str = ""  # what the board prints there ("+5", "6/3")


@dataclass(frozen=True)
class Layout:
    """One Adventure board: its spaces, and each column's spaces from the bottom up."""

    letter: str
    name: str
    spaces: Mapping[str, Space]
    columns: tuple[tuple[str, ...], ...]

    def top(self, column: int) -> str:
        return self.columns[column][-1]

    def column_of(self, cell: str) -> int:
        return self.spaces[cell].column

    def neighbours(self, cell: str) -> list[str]:
        """The spaces orthogonally next to ``cell`` (seed: diagonals and gaps are not)."""
        here = self.spaces[cell]
        near = ((here.column - 1, here.row), (here.column + 1, here.row),
                (here.column, here.row - 1), (here.column, here.row + 1))
        return [c for c in (cell_id(col, row) for col, row in near
                            if 0 <= col < len(COLUMNS) and 0 <= row < ROWS)
                if c in self.spaces]

    def bonus_spaces(self) -> list[Space]:
        return [s for s in self.spaces.values() if s.bonus is not None]


def cell_id(column: int, row: int) -> str:
    """``a1`` is column a, bottom row; rows count up from the bottom as columns fill."""
    return f"{COLUMNS[column]}{ROWS - row}"


_TOKENS: list[tuple[re.Pattern[str], Any]] = [
    (re.compile(r"\+(\d+)"), lambda m: Bonus("coins", int(m[1]))),
    (re.compile(r"map"), lambda m: Bonus("map")),
    (re.compile(r"(\d+)/(\d+)"), lambda m: Bonus("race", int(m[1]), int(m[2]))),
    (re.compile(r"same\+(\d+)"), lambda m: Bonus("same", int(m[1]))),
    (re.compile(r"diff\+(\d+)"), lambda m: Bonus("different", int(m[1]))),
    (re.compile(r"(\d+)\*cols"), lambda m: Bonus("per_column", int(m[1]))),
    (re.compile(r"(\d+)\*kinds"), lambda m: Bonus("per_kind", int(m[1]))),
]
_LABELS = {"coins": "+{a}", "map": "Map", "race": "{a}/{t}", "same": "Same {a}",
           "different": "Diff {a}",
           "per_column": "{a}×col", "per_kind": "{a}×kind"}


def _space(token: str, column: int, row: int, letter: str) -> Space | None:
    cell = cell_id(column, row)
    if token == ".":
        return None
    if token == "o":
        return Space(cell, column, row)
    cost = re.fullmatch(r"pay-(\d+)", token)
    if cost:
        return Space(cell, column, row, cost=int(cost[1]), label=f"−{cost[1]}")
    for pattern, make in _TOKENS:
        found = pattern.fullmatch(token)
        if found:
            bonus: Bonus = make(found)
            label = _LABELS[bonus.kind].format(a=bonus.amount, t=bonus.then)
            return Space(cell, column, row, bonus, label=label)
    raise SetupError(f"board {letter}: {token!r} in {cell} is not a space the rules know")


def parse_layout(letter: str, data: Mapping[str, Any]) -> Layout:
    """A board from its rows of text; raises SetupError naming what is wrong."""
    grid = data["grid"]
    if len(grid) != ROWS or any(len(str(line).split()) != len(COLUMNS) for line in grid):
        raise SetupError(f"board {letter}: the grid must be {ROWS} rows of {len(COLUMNS)} cells")
    spaces: dict[str, Space] = {}
    for row, line in enumerate(grid):
        for column, token in enumerate(str(line).split()):
            space = _space(token, column, row, letter)
            if space is not None:
                spaces[space.cell] = space
    columns = []
    for column in range(len(COLUMNS)):
        cells = sorted((s for s in spaces.values() if s.column == column), key=lambda s: -s.row)
        if not cells:
            raise SetupError(f"board {letter}: column {COLUMNS[column]} has no space")
        rows = [s.row for s in cells]
        if rows != list(range(rows[0], rows[0] - len(rows), -1)):
            raise SetupError(f"board {letter}: column {COLUMNS[column]} has a gap")
        for space in cells[:-1]:
            if space.bonus is not None:
                raise SetupError(f"board {letter}: a bonus on {space.cell}, which is not the"
                                 " highest space of its column")
        columns.append(tuple(s.cell for s in cells))
    return Layout(letter, str(data["name"]), spaces, tuple(columns))


@cache
def _packaged() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data/rules.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def text_of(data: Mapping[str, Any], name: str) -> str:
    """A Character's text (``treasure_map``: the Map's) with the table's numbers in it: its
    own keys in braces, as ``{coins:coins}`` or ``{by_columns[1]}``."""
    entry = data["treasure_map"] if name == "treasure_map" else data["characters"][name]
    return data_text(entry["text"], entry)


def _check(data: Mapping[str, Any]) -> None:
    check_whole_numbers(data)
    if set(data["characters"]) != set(CHARACTERS):
        raise SetupError(f"the data file must describe exactly the characters"
                         f" {', '.join(CHARACTERS)}")
    for name in ("treasure_map", *CHARACTERS):
        try:
            text_of(data, name)
        except (KeyError, ValueError, IndexError, AttributeError, TypeError) as exc:
            rule = name if name == "treasure_map" else f"characters.{name}"
            raise SetupError(f"rule '{rule}.text' names a number it does not have ({exc}):"
                             " use its own keys, in braces") from None
    if len(data["characters"]["swabby"]["by_columns"]) != len(COLUMNS) + 1:
        raise SetupError("rule 'characters.swabby.by_columns' needs a value for 0 to 5 columns")
    if not 1 <= data["end"]["columns"] <= len(COLUMNS):
        raise SetupError("rule 'end.columns' must be from 1 to 5")
    if data["characters"]["gunner"]["lose_at"] < 1:
        raise SetupError("rule 'characters.gunner.lose_at' must be at least 1")
    for letter in BOARDS:
        parse_layout(letter, data["boards"][letter])


class Book(RuleBook):
    """The numbers, texts and boards in force at one table."""

    packaged = staticmethod(_packaged)
    check = staticmethod(_check)

    @cached_property
    def layouts(self) -> dict[str, Layout]:
        """The four boards, parsed once per book (a book's data never changes)."""
        return {letter: parse_layout(letter, self.data["boards"][letter]) for letter in BOARDS}

    def layout(self, letter: str) -> Layout:
        return self.layouts[letter]

    def character(self, name: str) -> Mapping[str, Any]:
        entry: Mapping[str, Any] = self.data["characters"][name]
        return entry

    def number(self, name: str, key: str) -> int:
        return int(self.data["characters"][name][key])

    def label(self, name: str) -> str:
        return str(self.data["characters"][name]["label"])

    def text(self, name: str) -> str:
        """What the player aid says of a Character (``treasure_map``: of the Map), with this
        table's numbers."""
        return text_of(self.data, name)

    def short(self, name: str) -> str:
        return str(self.data["characters"][name]["short"])

    def mark(self, name: str) -> str:
        """Two letters, where even the short name does not fit (another player's board)."""
        # a table begun before marks were data keeps its recorded rule data: its short name
        return str(self.data["characters"][name].get("mark") or self.short(name))

    def swabby_coins(self, columns: int) -> int:
        return int(self.data["characters"]["swabby"]["by_columns"][columns])

    @property
    def columns_to_end(self) -> int:
        return int(self.data["end"]["columns"])

    @property
    def bag_empty_finishes_round(self) -> bool:
        return bool(self.data["end"]["bag_empty_finishes_round"])

    @property
    def supply(self) -> int:
        return int(self.data["coins"]["supply"])

    @property
    def below_zero(self) -> bool:
        return bool(self.data["coins"]["below_zero"])

    @property
    def map_coins(self) -> int:
        return int(self.data["treasure_map"]["coins"])

    @property
    def gunners_score_zero(self) -> bool:
        return bool(self.data["characters"]["gunner"]["score_zero"])

