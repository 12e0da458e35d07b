"""House rules: a table's overrides of a game's data file, and the rule book they make (no
I/O: a game reads its own data file)."""

from __future__ import annotations

import copy
import re
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self, cast

from companion.engine.actions import Param, as_json
from companion.engine.errors import SetupError

NAME_LENGTH = 40  # a name a table gives in its own words (a card the rulebook does not name)

# A data file's kinds of value, in the words of a transcript's JSON.
_KINDS = {bool: "true or false", int: "a whole number", float: "a number", str: "text",
          list: "a list"}


class _DataWords(string.Formatter):
    # A house edit may change a text: only a value's name (``{key}``, ``{key[1]}``) and
    # the forms below, never an attribute nor a width ("{health:>2000000000}" would build a
    # string of gigabytes while a table is being created).
    _FIELD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[0-9]+\])?")

    def get_field(self, field_name: str, args: Any, kwargs: Any) -> Any:
        if not self._FIELD.fullmatch(field_name):
            raise ValueError(f"{{{field_name}}} is not a value's name: write {{key}} or"
                             " {key[1]}")
        return super().get_field(field_name, args, kwargs)

    def format_field(self, value: Any, format_spec: str) -> Any:
        if "|" in format_spec:
            yes, _, no = format_spec.partition("|")
            return yes if value else no
        if isinstance(value, bool):
            raise ValueError("a yes/no number needs words: {key:if yes|if no}")
        if format_spec.isalpha() and len(format_spec) > 1:
            noun = format_spec.removesuffix("s") if value == 1 else format_spec
            return f"{value} {noun}"
        if format_spec:
            raise ValueError(f"{{key:{format_spec}}} is not a form a text may use: {{key}},"
                             " {key:nouns} or {key:if yes|if no}")
        return super().format_field(value, format_spec)


_DATA_WORDS = _DataWords()


def data_text(text: object, values: Mapping[str, Any]) -> str:
    """A data file's text with a table's numbers in it, so one house edit changes a rule and
    its words: ``{key}`` a value (``{key[1]}`` one of a list), ``{key:coins}`` a count and its
    noun ("1 coin", "5 coins"), ``{key:if yes|if no}`` words chosen by a yes/no (or 0 / not 0)
    value. A bare yes/no is refused (ValueError), as is a key ``values`` lacks (KeyError)."""
    return _DATA_WORDS.vformat(str(text), (), values)


def merge_house(base: Mapping[str, Any], override: Mapping[str, Any],
                path: str = "") -> dict[str, Any]:
    """``base`` with the values of ``override`` (same structure, only what changes).
    Unknown keys and values of another type are refused, naming the key."""
    out = dict(base)
    for key, value in override.items():
        where = f"{path}.{key}" if path else key
        if key not in base:
            known = ", ".join(map(str, base))
            raise SetupError(f"house option {where!r} is not a rule the data file knows"
                             f" ({f'{path} has' if path else 'it has'}: {known})")
        if isinstance(base[key], Mapping):
            if not isinstance(value, Mapping):
                raise SetupError(f"house option {where!r} must be a table of values")
            out[key] = merge_house(base[key], value, where)
        elif type(value) is not type(base[key]):
            raise SetupError(
                f"house option {where!r} must be"
                f" {_KINDS.get(type(base[key]), type(base[key]).__name__)}, not {as_json(value)}"
            )
        else:
            out[key] = value
    return out


def house_reading(data: Mapping[str, Any], key: str, label: str,
            choices: Mapping[str, str] | None = None) -> Param:
    """A house reading a phone offers when a table is created: the data file's ``key``
    ("moves.sidewinder"), what it decides, and for a text value each value it may take with
    its words, or (no ``choices``) any words of the table's (a card's name). Its default is
    the value in ``data`` (the packaged file); a value chosen goes into the option ``house``,
    nested by the key's parts."""
    value: Any = data
    for part in key.split("."):
        value = value[part]
    if isinstance(value, bool):
        return Param(key, "flag", label, default=value)
    if isinstance(value, str) and choices is None:
        return Param(key, "text", label, maximum=NAME_LENGTH, default=value)
    if not isinstance(value, str) or choices is None or value not in choices \
            or not all(isinstance(c, str) for c in choices):
        raise ValueError(f"a house reading is a yes/no, or a text (with its choices, its own"
                         f" value among them, or free words): {key!r} is {value!r}")
    return Param(key, "choice", label, choices=tuple(choices), labels=tuple(choices.values()),
                 default=value)


def house_between(base: Mapping[str, Any], wanted: Mapping[str, Any]) -> dict[str, Any]:
    """The house edits that make ``base`` into ``wanted`` (two versions of one game's rule
    data): only what differs. A key ``base`` lacks, or holds as another kind of value, cannot
    be said as an edit and is left out; a key only ``base`` has keeps its value."""
    out: dict[str, Any] = {}
    for key, value in wanted.items():
        if key not in base:
            continue
        if isinstance(value, Mapping) and isinstance(base[key], Mapping):
            inner = house_between(base[key], value)
            if inner:
                out[key] = inner
        elif type(value) is type(base[key]) and value != base[key]:
            out[key] = value
    return out


def kept_as_begun(packaged: Mapping[str, Any], recorded: Mapping[str, Any],
                  edits: Mapping[str, Any]) -> dict[str, Any]:
    """``edits`` (house edits of ``packaged``) with those that keep a table playing as it
    began where an update added a rule: the packaged data's ``added`` table names each rule
    an update added (dotted) with the value the game played by before it, which a table whose
    ``recorded`` data lacks that rule keeps (its log, played by the old rule, must replay)."""
    out = copy.deepcopy(dict(edits))
    for key, before in (packaged.get("added") or {}).items():
        if not has_rule(recorded, key, before):
            *path, last = key.split(".")
            inner: dict[str, Any] = out
            for part in path:
                inner = inner.setdefault(part, {})
            inner[last] = before
    return out


def house_edits(house: Mapping[str, Any], path: str = "") -> list[tuple[str, Any]]:
    """Each value a nested house edit sets, by its dotted key: ("moves.sidewinder", "wrap")."""
    out: list[tuple[str, Any]] = []
    for key, value in house.items():
        where = f"{path}.{key}" if path else str(key)
        out += house_edits(value, where) if isinstance(value, Mapping) else [(where, value)]
    return out


def has_rule(data: Mapping[str, Any], key: str, value: Any) -> bool:
    """Whether rule data holds the rule ``key`` (dotted) with a value of ``value``'s kind:
    whether an edit of it can be said on that data."""
    found: Any = data
    for part in key.split("."):
        if not isinstance(found, Mapping) or part not in found:
            return False
        found = found[part]
    return type(found) is type(value)


def house_changes(house: Any, readings: Sequence[Param] = ()) -> list[str]:
    """A table's house edits in words, one line for each value it sets, so that the table
    sees what it changed apart from the companion's defaults: a reading a phone offers in that
    reading's words ("The Sidewinder moves: Across the edge, 1 or 2 squares"), any other by its
    data key ("vote.for_yourself: true")."""
    by_key = {reading.name: reading for reading in readings}
    lines: list[str] = []
    for key, value in house_edits(house) if isinstance(house, Mapping) else ():
        reading = by_key.get(key)
        if reading is None:
            lines.append(f"{key}: {as_json(value)}")
        elif reading.kind == "flag":
            lines.append(f"{reading.label}: {'yes' if value else 'no'}")
        else:
            words = dict(zip(reading.choices, reading.labels, strict=True))
            lines.append(f"{reading.label}: {words.get(value, as_json(value))}")
    return lines


def check_one_of(what: str, value: Any, allowed: Sequence[str]) -> str:
    """``value`` when it is one of ``allowed``; else a SetupError naming ``what`` ("rule
    'effects.even_roll'"), what it may be and what it was."""
    if value not in allowed:
        raise SetupError(f"{what} must be one of {', '.join(allowed)}, not {as_json(value)}")
    return str(value)


def check_whole_numbers(data: Any, path: str = "") -> None:
    """Every number in a rule book is a whole number of at least 0."""
    if isinstance(data, Mapping):
        for key, value in data.items():
            check_whole_numbers(value, f"{path}.{key}" if path else str(key))
    elif isinstance(data, int) and not isinstance(data, bool) and data < 0:
        raise SetupError(f"rule {path!r} must be 0 or more, not {data}")


def with_house(packaged: Mapping[str, Any], house: Any,
               check: Callable[[Mapping[str, Any]], None]) -> dict[str, Any] | None:
    """A game's rule data with a table's `house` option applied and checked; None when the
    table changes nothing (the game then uses its packaged, already checked, book)."""
    if house is not None and not isinstance(house, Mapping):
        raise SetupError("the option \"house\" must be an object of rule overrides")
    if not house:
        return None
    merged = merge_house(packaged, house)
    check(merged)
    return merged


@dataclass(frozen=True)
class RuleBook:
    """A game's numbers and texts in force at one table: its packaged rule data, with the
    table's house overrides applied and checked. A game's book says where its data comes from
    (``packaged``) and what the rules need of it (``check``)."""

    data: Mapping[str, Any]

    @staticmethod
    def packaged() -> Mapping[str, Any]:
        raise NotImplementedError

    @staticmethod
    def check(data: Mapping[str, Any]) -> None:
        raise NotImplementedError

    @classmethod
    def load(cls, house: Mapping[str, Any] | None = None) -> Self:
        data = with_house(cls.packaged(), house, cls.check)
        return cls.default() if data is None else cls(data)

    @classmethod
    def default(cls) -> Self:
        """The packaged book, checked once."""
        if cls not in _DEFAULTS:
            cls.check(cls.packaged())
            _DEFAULTS[cls] = cls(cls.packaged())
        return cast(Self, _DEFAULTS[cls])


_DEFAULTS: dict[type[RuleBook], RuleBook] = {}
