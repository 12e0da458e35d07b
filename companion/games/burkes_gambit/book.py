"""The rule book: Burke's Gambit's numbers and texts, read from data/rules.toml.

A table corrects a house default by editing that file or with the table option ``house``
(same structure, only what changes).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from companion.engine import (
    NAME_LENGTH,
    UNSHOWN,
    RuleBook,
    SetupError,
    check_one_of,
    check_whole_numbers,
    data_text,
    same_name,
    unshowable,
)

FACES = ("damage_heal", "scan_neighbour", "scan_any", "id_check", "engine", "stall", "reshuffle",
         "insta_kill", "quarantine", "cancel")
TARGETS = ("none", "any", "other", "neighbour")


@cache
def _packaged() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data/rules.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _check(data: Mapping[str, Any]) -> None:
    check_whole_numbers(data)
    setup = data["setup"]
    if not 1 <= setup["health"] <= 9:
        raise SetupError("rule 'setup.health' must be from 1 to 9")
    if setup["dice"] < 1:
        raise SetupError("rule 'setup.dice' must be at least 1: the game is played with the bag's"
                         " dice")
    for count in range(4, 9):
        if not 1 <= setup["specialists"][str(count)] < count:
            raise SetupError(f"rule 'setup.specialists.{count}' must leave at least one crew")
        if setup["engines_to_earth"][str(count)] < 1:
            raise SetupError(f"rule 'setup.engines_to_earth.{count}' must be at least 1")
    if set(data["faces"]) != set(FACES):
        raise SetupError(f"the data file must describe exactly the faces {', '.join(FACES)}")
    for name, face in data["faces"].items():
        check_one_of(f"rule 'faces.{name}.target'", face.get("target"), TARGETS)
        if not isinstance(face.get("cancellable"), bool):
            raise SetupError(f"rule 'faces.{name}.cancellable' must be true or false")
        try:
            _effect(data, name)
        except (KeyError, ValueError, IndexError) as exc:
            raise SetupError(f"rule 'faces.{name}.effect' names a number the data file does not"
                             f" have ({exc}): use the face's own keys, setup's or quarantine's,"
                             " in braces") from None
    if not isinstance(data["vote"]["for_yourself"], bool):
        raise SetupError("rule 'vote.for_yourself' must be true or false")
    for name, role in data["roles"].items():
        if not isinstance(role.get("votes", True), bool):
            raise SetupError(f"rule 'roles.{name}.votes' must be true or false")
    if "captain" not in data["roles"] or len(data["roles"]) < 8:
        raise SetupError("the data file must describe the Captain and at least 8 roles")
    for kind in ("faces", "roles"):
        _check_labels(data[kind], kind)


def _check_labels(entries: Mapping[str, Any], kind: str) -> None:
    """Labels are what players read and say ("Ann has the Doctor card"): never blank, never
    two alike (case and spaces aside)."""
    seen: dict[str, str] = {}
    for name, entry in entries.items():
        label = entry.get("label")
        if not isinstance(label, str) or not label.strip():
            raise SetupError(f"rule '{kind}.{name}.label' must name it: players read it")
        if len(label) > NAME_LENGTH:
            raise SetupError(f"rule '{kind}.{name}.label' is longer than {NAME_LENGTH}"
                             " characters: a phone shows it on a button")
        if unshowable(label):
            raise SetupError(f"rule '{kind}.{name}.label' {UNSHOWN}")
        key = " ".join(same_name(label).split())
        if key in seen:
            raise SetupError(f"rule '{kind}.{name}.label' ({label!r}) is the label of"
                             f" '{kind}.{seen[key]}' already: players could not tell them apart")
        seen[key] = name


def _effect(data: Mapping[str, Any], name: str) -> str:
    """A face's effect text with the table's numbers in it: ``{health}`` (setup's),
    ``{blocks_voting:words if true|words if false}`` (quarantine's), the face's own keys."""
    face = data["faces"][name]
    return data_text(face["effect"], {**data["setup"], **data["quarantine"], **face})


class Book(RuleBook):
    """The numbers and texts in force at one table."""

    packaged = staticmethod(_packaged)
    check = staticmethod(_check)

    def specialists(self, players: int) -> int:
        return int(self.data["setup"]["specialists"][str(players)])

    def engines_to_earth(self, players: int) -> int:
        return int(self.data["setup"]["engines_to_earth"][str(players)])

    @property
    def dice(self) -> int:
        return int(self.data["setup"]["dice"])

    @property
    def health(self) -> int:
        return int(self.data["setup"]["health"])

    def face(self, name: str) -> Mapping[str, Any]:
        entry: Mapping[str, Any] = self.data["faces"][name]
        return entry

    def face_effect(self, name: str) -> str:
        """What a face does, in this table's numbers (a house edit changes rule and words)."""
        return _effect(self.data, name)

    def cancellable(self, name: str) -> bool:
        """Whether a Cancel may stop this face's action (``faces.NAME.cancellable``)."""
        return bool(self.data["faces"][name]["cancellable"])

    def face_label(self, name: str) -> str:
        return str(self.data["faces"][name]["label"])

    def face_named(self, seen: str) -> str | None:
        """The face a camera reading or a typed name stands for (its id, label or alias)."""
        key = str(seen).strip().upper().replace("_", "-").replace(" ", "-")
        for name, face in self.data["faces"].items():
            names = {name.upper().replace("_", "-"), str(face["label"]).upper().replace(" ", "-"),
                     *(str(a).upper() for a in face.get("aliases", []))}
            if key in names:
                return str(name)
        return None

    def roles(self) -> list[str]:
        return list(self.data["roles"])

    def role_label(self, name: str) -> str:
        return str(self.data["roles"][name]["label"])

    def role_ability(self, name: str) -> str:
        return str(self.data["roles"][name].get("ability", ""))

    def role_votes(self, name: str | None) -> bool:
        return name is None or bool(self.data["roles"][name].get("votes", True))

    @property
    def quarantined_vote(self) -> bool:
        return not self.data["quarantine"]["blocks_voting"]

    @property
    def vote_for_yourself(self) -> bool:
        return bool(self.data["vote"]["for_yourself"])
