"""The rule book: Gambit of Kings' pieces, movements, dice, ways to play and layouts, read from
data/rules.toml.

A table corrects a house default by editing that file or with the table option ``house``
(same structure, only what changes).
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from companion.engine import RuleBook, SetupError, check_one_of, check_whole_numbers

KINDS = ("castle", "paladin", "giant", "knight", "griffin", "lion", "elf", "soldier")
CASTLE = "castle"
GIANT = "giant"  # AV II: a lesser piece can't destroy it
SIDES = ("light", "dark")  # seat 0 plays light, seat 1 dark
MODES = ("standard", "tar", "av2", "av1", "adventure")  # the phone's order: simplest first
# The owner's directions as (file, rank) steps for the light side; the dark side's are turned.
DIRECTIONS = {"F": (0, 1), "B": (0, -1), "L": (-1, 0), "R": (1, 0),
              "FL": (-1, 1), "FR": (1, 1), "BL": (-1, -1), "BR": (1, -1)}
EFFECTS = ("any_piece", "reroll", "moves", "fly", "unstoppable", "hunt")
TOKEN_USES = ("none", "reroll", "unlock")
EVEN_ROLLS = ("mover", "card")  # whose effect an even roll unlocks where any piece may move
COMPARES = ("highest", "sum")
REROLLS = ("turning", "any")  # which of its dice a side losing a fight may re-roll


@dataclass(frozen=True)
class Pattern:
    """One way a piece moves: ``low`` to ``high`` squares along one of ``dirs`` (``high`` 0:
    any distance); with ``then``, one straight square and then 1 to ``then`` squares on."""

    dirs: tuple[str, ...]
    low: int
    high: int
    then_low: int = 0
    then_high: int = 0
    capture: bool = True


@dataclass(frozen=True)
class Mode:
    """One way to play (data/rules.toml, [modes])."""

    name: str
    label: str
    roll: bool
    card_rules: bool
    combat: bool
    tokens: int
    token_use: str
    double_move: int
    giant_safe: bool


@cache
def _packaged() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data/rules.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _check_patterns(where: str, patterns: Any) -> None:
    if not isinstance(patterns, list):
        raise SetupError(f"rule {where!r} must be a list of move patterns")
    for number, pattern in enumerate(patterns, start=1):
        at = f"{where}[{number}]"
        if not isinstance(pattern, Mapping):
            raise SetupError(f"rule {at!r} must be a table (dirs, min, max, then, capture)")
        unknown = set(pattern) - {"dirs", "min", "max", "then", "capture"}
        if unknown:
            raise SetupError(f"rule {at!r} has an unknown key {sorted(unknown)[0]!r}")
        dirs = pattern.get("dirs")
        if not isinstance(dirs, list) or not dirs or not set(dirs) <= set(DIRECTIONS):
            raise SetupError(f"rule {at + '.dirs'!r} must list directions from"
                             f" {', '.join(DIRECTIONS)}")
        low, high = pattern.get("min", 1), pattern.get("max", 0)
        for key, value in (("min", low), ("max", high), ("then", pattern.get("then", 0))):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise SetupError(f"rule {at + '.' + key!r} must be a whole number")
        if low < 1 or (high and high < low):
            raise SetupError(f"rule {at!r} must go at least 1 square, and max (0: any) at least"
                             " min")
        if not isinstance(pattern.get("capture", True), bool):
            raise SetupError(f"rule {at + '.capture'!r} must be true or false")


def _check(data: Mapping[str, Any]) -> None:
    """Refuse a rule book (edited file or house option) the rules cannot play with."""
    check_whole_numbers(data)
    if not 4 <= data["board"]["size"] <= 26:
        raise SetupError("rule 'board.size' must be from 4 to 26")
    if set(data["pieces"]) != set(KINDS):
        raise SetupError(f"the data file must describe exactly the pieces {', '.join(KINDS)}")
    for kind, piece in data["pieces"].items():
        where = f"pieces.{kind}"
        if piece["tier"] not in ("greater", "lesser"):
            raise SetupError(f"rule '{where}.tier' must be greater or lesser")
        if piece["die"] < 2:
            raise SetupError(f"rule '{where}.die' must be a die of at least 2 sides")
        for side in SIDES:
            label = piece["labels"][side]
            if not 1 <= len(label) <= 3:
                raise SetupError(f"rule '{where}.labels.{side}' must be 1 to 3 characters")
        _check_patterns(f"{where}.moves", piece["moves"])
        effect = piece["effect"]
        check_one_of(f"rule '{where}.effect.kind'", effect["kind"], EFFECTS)
        _check_patterns(f"{where}.effect.moves", effect.get("moves", []))
        if effect["kind"] == "moves" and not effect.get("text"):
            raise SetupError(f"rule '{where}.effect.text' must say what its moves are")
        if piece["promotes_to"] not in ("", *KINDS):
            raise SetupError(f"rule '{where}.promotes_to' must name a piece, or be \"\"")
        if piece["promotes_to"] == CASTLE:
            raise SetupError(f"rule '{where}.promotes_to' cannot be the Castle: each side holds"
                             " exactly one Castle")
    if data["pieces"][CASTLE]["moves"]:
        raise SetupError("rule 'pieces.castle.moves' must be empty: the Castle never moves")
    check_one_of("rule 'effects.even_roll'", data["effects"]["even_roll"], EVEN_ROLLS)
    if set(data["effects"]["texts"]) != set(EFFECTS) - {"moves"}:
        raise SetupError("rule 'effects.texts' must give the text of every kind of effect but"
                         " moves")
    check_one_of("rule 'dice.compare'", data["dice"]["compare"], COMPARES)
    check_one_of("rule 'dice.reroll'", data["dice"]["reroll"], REROLLS)
    if not 2 <= data["dice"]["movement_die"] <= 20 or data["dice"]["extra_die"] < 2:
        raise SetupError("rules 'dice.movement_die' and 'dice.extra_die' must be real dice")
    if data["dice"]["movement_die"] > len(KINDS):
        raise SetupError(f"rule 'dice.movement_die' must be at most {len(KINDS)}: the card row"
                         f" has {len(KINDS)} cards (the expansions' larger rows, where a roll"
                         " above the row loses the turn, are not built)")
    if set(data["modes"]) != set(MODES):
        raise SetupError(f"the data file must describe exactly the modes {', '.join(MODES)}")
    for name, mode in data["modes"].items():
        check_one_of(f"rule 'modes.{name}.token_use'", mode["token_use"], TOKEN_USES)
    size = data["board"]["size"]
    for name, layout in data["layouts"].items():
        rows = (layout["back"], layout["front"])
        if any(len(row) != size or not set(row) <= set(KINDS) for row in rows):
            raise SetupError(f"rule 'layouts.{name}' must give {size} pieces a row, by name")
        if [*rows[0], *rows[1]].count(CASTLE) != 1:
            raise SetupError(f"rule 'layouts.{name}' must hold exactly one Castle a side")


class Book(RuleBook):
    """The numbers, movements and texts in force at one table."""

    packaged = staticmethod(_packaged)
    check = staticmethod(_check)

    def piece(self, kind: str) -> Mapping[str, Any]:
        entry: Mapping[str, Any] = self.data["pieces"][kind]
        return entry

    @property
    def size(self) -> int:
        return int(self.data["board"]["size"])

    @property
    def quiet_turns(self) -> int:
        return int(self.data["draw"]["quiet_turns"])

    @property
    def compare(self) -> str:
        return str(self.data["dice"]["compare"])

    @property
    def reroll_turning_only(self) -> bool:
        """Only a die whose highest face would win the fight may be re-rolled (else any)."""
        return bool(self.data["dice"]["reroll"] == "turning")

    @property
    def movement_die(self) -> int:
        return int(self.data["dice"]["movement_die"])

    @property
    def extra_die(self) -> int:
        return int(self.data["dice"]["extra_die"])

    def side_name(self, side: int) -> str:
        return str(self.data["sides"][SIDES[side]])

    def name(self, kind: str, side: int) -> str:
        return str(self.piece(kind)["names"][SIDES[side]])

    def label(self, kind: str, side: int) -> str:
        return str(self.piece(kind)["labels"][SIDES[side]])

    def greater(self, kind: str) -> bool:
        return bool(self.piece(kind)["tier"] == "greater")

    def die(self, kind: str) -> int:
        return int(self.piece(kind)["die"])

    def flies(self, kind: str) -> bool:
        return bool(self.piece(kind).get("flies", False))

    def blocks_flight(self, kind: str) -> bool:
        return bool(self.piece(kind).get("blocks_flight", False))

    def has_extra_die(self, kind: str) -> bool:
        return bool(self.piece(kind).get("extra_die", False))

    def promotes_to(self, kind: str) -> str | None:
        """What the piece becomes on its far row or on destroying a greater piece (None:
        nothing; the data's "")."""
        return str(self.piece(kind)["promotes_to"]) or None

    def movement(self, kind: str) -> str:
        return str(self.piece(kind)["movement"])

    def exact(self, kind: str) -> bool:
        return bool(self.piece(kind).get("exact", False))

    def moves(self, kind: str) -> tuple[Pattern, ...]:
        return self._kept(("moves", kind), lambda: self._patterns(kind, self.piece(kind)["moves"]))

    def effect(self, kind: str) -> str:
        return str(self.piece(kind)["effect"]["kind"])

    def effect_text(self, kind: str) -> str:
        """What the effect says: a `moves` effect its own words, any other its kind's."""
        effect = self.piece(kind)["effect"]
        if effect["kind"] == "moves":
            return str(effect["text"])
        return str(self.data["effects"]["texts"][effect["kind"]])

    @property
    def mover_effects(self) -> bool:
        """Where any piece may move, an even roll unlocks the effect of each piece that moves
        (False: only a piece of the card rolled has its effect)."""
        return bool(self.data["effects"]["even_roll"] == "mover")

    def kind_of(self, seat: int, name: str) -> str | None:
        """The kind of the seat's piece called ``name`` as setup takes it ("Dire Wolf",
        "dire_wolf", "dark lion", "lion"); None: no piece of that seat."""
        side = SIDES[seat]
        found = self.kind_named(f"{side} {name}") or self.kind_named(name)
        return found[1] if found is not None and found[0] in (None, seat) else None

    def piece_id(self, kind: str, seat: int) -> str:
        """The seat's name of ``kind`` as the phones offer it: "death_knight"."""
        return self.name(kind, seat).lower().replace(" ", "_")

    def effect_moves(self, kind: str) -> tuple[Pattern, ...]:
        return self._kept(("effect", kind), lambda: self._patterns(
            kind, self.piece(kind)["effect"].get("moves", [])))

    def _kept(self, key: tuple[str, str],
              make: Callable[[], tuple[Pattern, ...]]) -> tuple[Pattern, ...]:
        """Patterns read once per book (the book never changes)."""
        kept: dict[tuple[str, str], tuple[Pattern, ...]] = self.__dict__.setdefault("_read", {})
        if key not in kept:
            kept[key] = make()
        return kept[key]

    def _patterns(self, kind: str, data: Any) -> tuple[Pattern, ...]:
        """The patterns as data gives them; an exact piece goes only the full distance."""
        exact = self.exact(kind)
        out = []
        for p in data:
            high, then = int(p.get("max", 0)), int(p.get("then", 0))
            low = high if exact and high else int(p.get("min", 1))
            out.append(Pattern(tuple(p["dirs"]), low, high, (then if exact else 1) if then else 0,
                               then, bool(p.get("capture", True))))
        return tuple(out)

    def mode(self, name: str) -> Mode:
        m = self.data["modes"][name]
        return Mode(name, str(m["label"]), bool(m["roll"]), bool(m["card_rules"]),
                    bool(m["combat"]), int(m["tokens"]), str(m["token_use"]),
                    int(m["double_move"]), bool(m["giant_safe"]))

    def layouts(self) -> list[str]:
        return list(self.data["layouts"])

    def layout(self, name: str) -> tuple[list[str], list[str]]:
        """The light side's back and front ranks, from file a."""
        entry = self.data["layouts"][name]
        return list(entry["back"]), list(entry["front"])

    def kind_named(self, text: str) -> tuple[int | None, str] | None:
        """The side (None: not said) and kind a name stands for: "dark castle", "Death Knight",
        "lich", "light knight", "knight" (the light side's name)."""
        words = text.strip().lower().replace("_", " ").replace("-", " ").split()
        side: int | None = None
        if words and words[0] in SIDES:
            side = SIDES.index(words[0])
            words = words[1:]
        wanted = " ".join(words)
        for kind in KINDS:
            if side is not None and wanted == kind:
                return side, kind
            for index, name in enumerate(SIDES):
                if wanted == str(self.piece(kind)["names"][name]).lower() and \
                        side in (None, index):
                    both = self.name(kind, 0).lower() == self.name(kind, 1).lower()
                    return (side if both else index), kind
        return None


_BOOKS: dict[str, Book] = {}


def book_for(house: Mapping[str, Any] | None) -> Book:
    """The book of a table with these house overrides (None: none), read and checked once."""
    if not house:
        return Book.default()
    key = json.dumps(house, sort_keys=True)
    if key not in _BOOKS:
        _BOOKS[key] = Book.load(house)
    return _BOOKS[key]
