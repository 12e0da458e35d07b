"""Actions (what a seat does or what the table observed) and their specs (what a UI can offer)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.engine.errors import RulesError

ParamKind = Literal["seat", "number", "choice", "choices", "text", "flag", "cell"]

# Keys of an action's dict form that are not parameters.
_RESERVED = ("action", "seat")


def as_json(value: Any) -> str:
    """A value in a message as a transcript (JSON) writes it: ``true``, ``null``, ``"5"``
    (text), ``1.5``, ``[1, 2]``; not Python's ``True``, ``None`` or ``'5'``."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _shown(value: Any) -> str:
    """A value that should have been one of some names: a name as 'name' (as messages quote
    names), anything else as JSON."""
    return repr(value) if isinstance(value, str) else as_json(value)


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of an action, described so that a phone can render a control for it.

    ``seat``: one of ``choices`` (seat numbers); ``choice``: one of ``choices`` (strings);
    ``choices``: a list of ``minimum``..``maximum`` items from ``choices`` (repeats allowed as
    far as ``choices`` repeats them); ``number``: a whole number from ``minimum`` to ``maximum``;
    ``text``: free text of at most ``maximum`` characters; ``flag``: true or false;
    ``cell``: one of ``choices``, cell ids of the board ``board`` of the table view (a phone
    draws it as a tap on that board).

    ``depends_on``: the values allowed depend on another parameter's value (a piece's
    destinations on the cell it moves from): ``choices_by`` gives them for each value of that
    parameter, and ``choices`` is their union; ``notes_by``, where a choice's line depends on
    that value too, a line for each of them (a square a piece reaches only by claiming a power).

    ``starts_on``: a number starts at what it is now, which depends on other parameters'
    values (a correction of Ben's health starts at his health): ``starts_by`` gives it for
    each tuple of those parameters' values, in the order ``starts_on`` names them.

    ``asked`` False: a phone does not ask it and it may be left out; the camera, a transcript
    or the API gives it when it is known (the number on a tile's sticker, which nobody at the
    table reads).
    """

    name: str
    kind: ParamKind
    label: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    default: Any = None  # a parameter with a default may be left out
    board: str | None = None  # for a cell: which board of the table view
    depends_on: str | None = None
    choices_by: tuple[tuple[Any, tuple[Any, ...]], ...] = ()
    labels: tuple[str, ...] = ()  # what a player reads for each of ``choices``, in order
    notes: tuple[str, ...] = ()  # a line under each of ``choices`` (what a power does)
    notes_by: tuple[tuple[Any, tuple[str, ...]], ...] = ()  # in the order of choices_by's
    starts_on: tuple[str, ...] = ()
    starts_by: tuple[tuple[tuple[Any, ...], int], ...] = ()
    asked: bool = True

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "label": self.label}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["min"] = self.minimum
        if self.maximum is not None:
            out["max"] = self.maximum
        if self.default is not None:
            out["default"] = self.default
        if self.board is not None:
            out["board"] = self.board
        if self.depends_on is not None:
            out["depends_on"] = self.depends_on
            out["choices_by"] = [[key, list(values)] for key, values in self.choices_by]
            if self.notes_by:
                out["notes_by"] = [[key, list(notes)] for key, notes in self.notes_by]
        if self.labels:
            out["labels"] = list(self.labels)
        if self.notes:
            out["notes"] = list(self.notes)
        if self.starts_on:
            out["starts_on"] = list(self.starts_on)
            out["starts_by"] = [[list(key), start] for key, start in self.starts_by]
        if not self.asked:
            out["asked"] = False
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Param:
        """A parameter from its ``to_dict`` form (what the API sends a phone)."""
        return cls(data["name"], data["kind"], data["label"], tuple(data.get("choices", ())),
                   data.get("min"), data.get("max"), data.get("default"), data.get("board"),
                   data.get("depends_on"),
                   tuple((key, tuple(values)) for key, values in data.get("choices_by", ())),
                   tuple(data.get("labels", ())), tuple(data.get("notes", ())),
                   tuple((key, tuple(notes)) for key, notes in data.get("notes_by", ())),
                   tuple(data.get("starts_on", ())),
                   tuple((tuple(key), start) for key, start in data.get("starts_by", ())),
                   data.get("asked", True))

    def allowed(self, params: Mapping[str, Any]) -> tuple[Any, ...]:
        """The values allowed once the other parameters are ``params``."""
        if self.depends_on is None:
            return self.choices
        on = params.get(self.depends_on)
        return next((values for key, values in self.choices_by if key == on), ())

    def problem(self, value: Any) -> str | None:
        """Why ``value`` does not fit this parameter, or None when it does."""
        if self.kind in ("seat", "number"):
            if not isinstance(value, int) or isinstance(value, bool):
                return f"{self.name} must be a whole number, not {as_json(value)}"
            if self.kind == "seat" and value not in self.choices:
                allowed = ", ".join(str(c) for c in self.choices) or "none"
                return f"{self.name} must be one of seats {allowed}, not {value}"
            if self.minimum is not None and value < self.minimum:
                return f"{self.name} must be at least {self.minimum}, not {value}"
            if self.maximum is not None and value > self.maximum:
                return f"{self.name} must be at most {self.maximum}, not {value}"
            return None
        if self.kind in ("choice", "cell"):
            if value not in self.choices:
                return f"{self.name} must be one of {_listed(self.choices)}, not {_shown(value)}"
            return None
        if self.kind == "flag":
            return None if isinstance(value, bool) else f"{self.name} must be true or false"
        if self.kind == "text":
            if not isinstance(value, str):
                return f"{self.name} must be text, not {as_json(value)}"
            if self.maximum is not None and len(value) > self.maximum:
                return f"{self.name} is longer than {self.maximum} characters"
            return None
        # choices: a list drawn from the multiset `choices`
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return f"{self.name} must be a list of names, not {as_json(value)}"
        if self.minimum is not None and len(value) < self.minimum:
            return f"{self.name} needs at least {self.minimum} items"
        if self.maximum is not None and len(value) > self.maximum:
            return f"{self.name} takes at most {self.maximum} items"
        pool = list(self.choices)
        for item in value:
            if item not in pool:
                if item in self.choices:  # named more often than it is there
                    return (f"{self.name}: {item!r} can be named only"
                            f" {_times(list(self.choices).count(item))}, not"
                            f" {_times(value.count(item))}")
                kinds = tuple(dict.fromkeys(self.choices))  # a multiset: each name once
                return f"{self.name}: {item!r} is not one of {_listed(kinds)}"
            pool.remove(item)
        return None


def _listed(choices: tuple[Any, ...], most: int = 12) -> str:
    """Choices for a message: all of them, or the first and last of a long list."""
    if len(choices) <= most:
        return ", ".join(map(str, choices))
    return (f"{', '.join(map(str, choices[:3]))}, ..., {choices[-1]}"
            f" ({len(choices)} in all)")


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """An action a seat may take now, with its parameters: enough for a generic phone UI.

    ``kind`` is ``move`` (a seat's own step: on its turn, or any time for a die held in
    reserve), ``reaction`` (in another seat's window), ``input``
    (a private fact a seat tells the companion) or ``table`` (the table or its host).
    ``ruling``: the table overrides the rules with it (a correction, a look it allows, a
    winner it declares), rather than playing a step of the game. ``covered``: that the seat
    is offered it at all is a secret (Viola's choice of a dead captain), so a phone keeps its
    button under the seat's covered secrets, not in sight of a neighbour.
    """

    name: str
    label: str
    kind: str = "move"
    params: tuple[Param, ...] = ()
    cost: int = 0
    note: str = ""
    ruling: bool = False
    covered: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "kind": self.kind,
            "cost": self.cost,
            "note": self.note,
            "ruling": self.ruling,
            "covered": self.covered,
            "params": [p.to_dict() for p in self.params],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ActionSpec:
        """A spec from its ``to_dict`` form (what the API sends a phone)."""
        return cls(data["name"], data["label"], data.get("kind", "move"),
                   tuple(Param.from_dict(p) for p in data.get("params", ())),
                   data.get("cost", 0), data.get("note", ""), data.get("ruling", False),
                   data.get("covered", False))

    def missing(self, params: Mapping[str, Any]) -> str | None:
        """A field the spec needs and these parameters lack."""
        for p in self.params:
            if p.name not in params and p.default is None and p.asked:
                # what it may be, for whoever writes a transcript or calls the API
                some = [str(c) for c in dict.fromkeys(p.choices)] if p.kind == "choice" else []
                listed = ", ".join(some[:8]) + (", ..." if len(some) > 8 else "")
                return f"missing field {p.name!r}" + (f" (one of: {listed})" if some else "")
        return None

    def in_words(self, reason: str) -> str:
        """``reason`` with a field that begins it named by its label, as a player reads it:
        "amount must be at most 3" -> "Energy to give must be at most 3"."""
        for p in self.params:
            if p.label and (reason.startswith(f"{p.name} ") or reason.startswith(f"{p.name}:")):
                return p.label + reason[len(p.name):]
        return reason

    def problem(self, params: Mapping[str, Any]) -> str | None:
        """Why these parameter values do not fit this spec, or None when they do."""
        known = {p.name for p in self.params}
        for name in params:
            if name not in known:
                return f"unknown field {name!r}"
        reason = self.missing(params)
        if reason:
            return reason
        for p in self.params:
            if p.name not in params:
                continue
            reason = p.problem(params[p.name])
            if reason:
                return reason
            if p.depends_on is not None and params[p.name] not in p.allowed(params):
                return (f"{p.name} {params[p.name]!r} does not go with {p.depends_on}"
                        f" {params.get(p.depends_on)!r}")
        return None


@dataclass(frozen=True)
class Action:
    """One line of a game: ``seat`` (None: the table itself) does ``name`` with ``params``."""

    name: str
    seat: int | None = None
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.name, "seat": self.seat, **self.params}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        """Build an action from its transcript form ``{"action": ..., "seat": ..., ...}``."""
        name = data.get("action")
        if not isinstance(name, str) or not name:
            raise RulesError("an action needs an \"action\" field with its name")
        seat = data.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise RulesError(f"\"seat\" must be a seat number or null, not {as_json(seat)}")
        params = {k: v for k, v in data.items() if k not in _RESERVED}
        return cls(name=name, seat=seat, params=params)
