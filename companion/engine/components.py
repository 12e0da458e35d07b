"""Every physical component of the five games, and the QR payloads printed on their stickers.

A payload is ``GC1/<GAME>/<KIND>/<NAME>[/<MORE>...]``: 3 to 5 segments after ``GC1``, each
``[A-Z0-9-]+``, so that it fits QR alphanumeric mode. Games: ``CG`` Captain's Gambit, ``BG``
Burke's Gambit, ``GK`` Gambit of Kings, ``G6`` Gambit (6x6), ``CF`` Captain Flip. Examples:
``GC1/CG/CAPTAIN/LADY-MACBETH``, ``GC1/CG/PERMIT/BARRAGE/3`` (copy 3),
``GC1/CF/TILE/07/COOK`` (tile 07, Cook side up). A component's id is its payload without
``GC1/``. Parsing is this module's job, not vision's: vision only turns pixels into text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from companion.engine.errors import RulesError

PREFIX = "GC1"
_SEGMENT = re.compile(r"[A-Z0-9-]+")

GAME_CODES = {
    "CG": "captains-gambit",
    "BG": "burkes-gambit",
    "GK": "gambit-of-kings",
    "G6": "gambit",
    "CF": "captain-flip",
}


class InvalidPayloadError(RulesError):
    """Text that does not fit the payload grammar (not one of our stickers)."""


class UnknownComponentError(RulesError):
    """A well-formed payload that names no component the registry knows."""


@dataclass(frozen=True)
class Component:
    """One physical card, tile or piece (one face of a two-sided tile)."""

    id: str  # the payload without "GC1/", e.g. "CG/PERMIT/BARRAGE/3"
    game: str  # game slug, e.g. "captains-gambit"
    kind: str  # CAPTAIN, PERMIT, WILDCARD, ID, PARASITE, ROLE, CARD, PIECE, TILE
    name: str  # CAPTAIN name, permit type, character...
    label: str  # what the sticker says under the code
    copy: int | None = None  # which copy, for cards printed several times
    face: str | None = None  # the side showing, for two-sided tiles

    @property
    def payload(self) -> str:
        return f"{PREFIX}/{self.id}"


def _title(name: str) -> str:
    return name.replace("-", " ").title().replace("Iii", "III")


def _cards(game: str, kind: str, names: list[str], copies: int = 0) -> list[Component]:
    slug = GAME_CODES[game]
    if not copies:
        return [Component(f"{game}/{kind}/{n}", slug, kind, n, _title(n)) for n in names]
    return [Component(f"{game}/{kind}/{n}/{c}", slug, kind, n, f"{_title(n)} {c}/{copies}", c)
            for n in names for c in range(1, copies + 1)]


CG_CAPTAINS = ["HAMLET", "PORTIA", "PROSPERO", "LADY-MACBETH", "IAGO", "PUCK", "CORDELIA",
               "BRUTUS", "ROMEO", "JULIET", "RICHARD-III", "ROSALIND", "VIOLA", "KING-LEAR",
               "OTHELLO", "TYBALT", "MERCUTIO", "TITUS", "IMOGEN"]
CG_PERMITS = ["BARRAGE", "SHIELD", "DRAIN", "OVERCHARGE", "FORTIFY", "NETWORK"]
CG_WILDCARDS = ["IDENTITY-THEFT", "DIPLOMATIC-IMMUNITY"]
# Burke's Gambit: 7 of the 13 role names are unknown; tables rename them in the game's data.
BG_ROLES = ["CAPTAIN", "MARINE", "COMMS-OFFICER", "DOCTOR", "PILOT", "STOWAWAY",
            *[f"ROLE-{n}" for n in range(7, 14)]]
GK_LIGHT = ["CASTLE", "PALADIN", "GIANT", "KNIGHT", "GRIFFIN", "LION", "ELF", "SOLDIER"]
GK_DARK = ["CASTLE", "LICH", "OGRE", "DEATH-KNIGHT", "DRAGON", "DIRE-WOLF", "ORC", "SKELETON"]
CF_CHARACTERS = ["SWABBY", "CARTOGRAPHER", "NAVIGATOR", "CARPENTER", "COOK", "MONKEY", "GUNNER",
                 "PARROT", "LOOKOUT"]


def _captain_flip_tiles() -> list[Component]:
    """72 two-sided tiles: every pair of different characters on exactly 2 tiles.

    Numbering is ours (the printed tiles carry none): pairs in the order of CF_CHARACTERS,
    each pair twice, so tile 01 and 02 are Swabby/Cartographer.
    """
    out = []
    number = 0
    for first, second in combinations(CF_CHARACTERS, 2):
        for _ in range(2):
            number += 1
            for face, other in ((first, second), (second, first)):
                out.append(Component(f"CF/TILE/{number:02d}/{face}", "captain-flip", "TILE",
                                     face, f"Tile {number:02d}: {_title(face)} (back:"
                                     f" {_title(other)})", face=face))
    return out


@cache
def all_components() -> tuple[Component, ...]:
    parts = [
        *_cards("CG", "CAPTAIN", CG_CAPTAINS),
        *_cards("CG", "PERMIT", CG_PERMITS, copies=4),
        *_cards("CG", "WILDCARD", CG_WILDCARDS, copies=2),
        *_cards("BG", "ID", ["CREW"], copies=5),
        *_cards("BG", "ID", ["ASS"], copies=3),
        *_cards("BG", "PARASITE", ["INFECTED"]),
        *_cards("BG", "PARASITE", ["CLEAN"], copies=7),
        *_cards("BG", "ROLE", BG_ROLES),
        *[Component(f"GK/CARD/LIGHT/{n}", "gambit-of-kings", "CARD", n, f"{_title(n)} (light)")
          for n in GK_LIGHT],
        *[Component(f"GK/CARD/DARK/{n}", "gambit-of-kings", "CARD", n, f"{_title(n)} (dark)")
          for n in GK_DARK],
        *[Component(f"G6/PIECE/{team}/{n}", "gambit", "PIECE", f"{team}{n}",
                    f"Team {team} piece {n}", n) for team in "AB" for n in range(1, 7)],
        *_captain_flip_tiles(),
    ]
    return tuple(parts)


@cache
def _by_id() -> dict[str, Component]:
    return {c.id: c for c in all_components()}


def components_of(game: str) -> list[Component]:
    """Every component of one game, by slug (``captains-gambit``) or code (``CG``)."""
    slug = GAME_CODES.get(game.upper(), game.lower().replace("_", "-"))
    found = [c for c in all_components() if c.game == slug]
    if not found:
        raise UnknownComponentError(f"no components for game {game!r}")
    return found


def check_payload(text: str) -> list[str]:
    """The payload's segments after ``GC1``; raises InvalidPayloadError naming what is wrong."""
    parts = text.split("/")
    if parts[0] != PREFIX:
        raise InvalidPayloadError(f"{text!r} is not a companion sticker (it must start {PREFIX}/)")
    segments = parts[1:]
    if not 3 <= len(segments) <= 5:
        raise InvalidPayloadError(f"{text!r} has {len(segments)} segments after {PREFIX};"
                                  " a sticker has 3 to 5")
    for segment in segments:
        if not _SEGMENT.fullmatch(segment):
            raise InvalidPayloadError(f"{text!r}: segment {segment!r} is not [A-Z0-9-]+")
    if segments[0] not in GAME_CODES:
        raise InvalidPayloadError(f"{text!r}: unknown game code {segments[0]!r}")
    return segments


def parse_payload(text: str) -> Component:
    """The component a sticker names. Raises InvalidPayloadError or UnknownComponentError."""
    segments = check_payload(text)
    component = _by_id().get("/".join(segments))
    if component is None:
        raise UnknownComponentError(f"{text!r} names no component the companion knows")
    return component
