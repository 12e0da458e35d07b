"""Physical components (cards, pieces, tiles, board corners) and the QR payloads printed on
their stickers. Each game lists its own components (``GameRules.components``); this module
keeps the payload grammar and finds a component by payload among every registered game's.

A payload is ``GC1/<GAME>/<KIND>/<NAME>[/<MORE>...]``: 3 to 5 segments after ``GC1``, each
``[A-Z0-9-]+``, so that it fits QR alphanumeric mode. ``<GAME>`` is a game's code
(``GameInfo.code``). A component's id is its payload without ``GC1/``. Parsing is this
module's job, not vision's: vision only turns pixels into text.

A sticker is printed as a QR code of its payload, or, for a component that declares a
``marker``, as that numbered square marker of the ``MARKER_FAMILY`` (pieces and tiles: a
marker reads at a third of a QR code's size, benchmarks/vision/bench_codes.py); the registry
maps a marker's number back to its component, so a marker stands for its payload everywhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.engine.errors import RulesError

PREFIX = "GC1"
_SEGMENT = re.compile(r"[A-Z0-9-]+")
# The square markers printed on pieces and tiles: AprilTag 36h11 (587 numbers, any two at
# least 11 bits apart, so a damaged marker is missed, never read as another).
MARKER_FAMILY = "DICT_APRILTAG_36h11"
MARKER_NUMBERS = 587
MARKER_CELLS = 8  # across a marker: 6 bits and a black border
MARKER_MARGIN = 1  # white cells printed around it: what keeps it apart from a dark piece


class InvalidPayloadError(RulesError):
    """Text that does not fit the payload grammar (not one of our stickers)."""


class UnknownComponentError(RulesError):
    """A well-formed payload that names no component the registry knows."""


@dataclass(frozen=True)
class Component:
    """One physical card, tile or piece (one face of a two-sided tile)."""

    id: str  # the payload without "GC1/": the game's code, the kind, the name, more
    game: str  # the game's slug
    kind: str  # the game's own word for what it is: a card kind, a piece, a tile
    name: str
    label: str  # what the sticker says under the code
    copy: int | None = None  # which copy, for cards printed several times
    face: str | None = None  # the side showing, for two-sided tiles
    marker: int | None = None  # the square marker printed on its sticker (None: a QR code)
    size_mm: float | None = None  # the sticker's printed side (None: the standard QR sticker)

    @property
    def payload(self) -> str:
        return f"{PREFIX}/{self.id}"


def title_of(name: str) -> str:
    """A sticker's words for a payload name: ``BLUE-MOON`` -> ``Blue Moon``."""
    return name.replace("-", " ").title().replace("Iii", "III")


def cards(code: str, slug: str, kind: str, names: Iterable[str],
          copies: int = 0) -> list[Component]:
    """One component per name (``copies``: that many of each, numbered from 1)."""
    if not copies:
        return [Component(f"{code}/{kind}/{n}", slug, kind, n, title_of(n)) for n in names]
    return [Component(f"{code}/{kind}/{n}/{c}", slug, kind, n, f"{title_of(n)} {c}/{copies}", c)
            for n in names for c in range(1, copies + 1)]


class ComponentRegistry:
    """Every registered game's components, by game code and by id."""

    def __init__(self) -> None:
        self._by_code: dict[str, tuple[str, tuple[Component, ...]]] = {}
        self._by_id: dict[str, Component] = {}
        self._by_marker: dict[int, Component] = {}

    def register(self, code: str, slug: str, components: Sequence[Component]) -> None:
        if not _SEGMENT.fullmatch(code):
            raise ValueError(f"game code {code!r} is not [A-Z0-9-]+")
        known = self._by_code.get(code)
        if known is not None and known[0] != slug:
            raise ValueError(f"game code {code!r} is registered twice")
        for component in components:
            check_payload(component.payload, codes=(code,))
            if component.id.split("/")[0] != code or component.game != slug:
                raise ValueError(f"{component.id} does not belong to {slug} ({code})")
            if component.marker is not None:
                if not 0 <= component.marker < MARKER_NUMBERS:
                    raise ValueError(f"{component.id}: marker {component.marker} is not one of"
                                     f" 0 to {MARKER_NUMBERS - 1}")
                holder = self._by_marker.get(component.marker)
                if holder is not None and holder.game != slug:
                    raise ValueError(f"{component.id}: marker {component.marker} is"
                                     f" {holder.id}'s")
        markers = [c.marker for c in components if c.marker is not None]
        if len(set(markers)) != len(markers):
            raise ValueError(f"{slug} prints one marker number on two stickers")
        self._by_code[code] = (slug, tuple(components))
        self._by_id.update((c.id, c) for c in components)
        self._by_marker.update((c.marker, c) for c in components if c.marker is not None)

    def codes(self) -> dict[str, str]:
        """Game code -> slug."""
        return {code: slug for code, (slug, _) in self._by_code.items()}

    def all(self) -> tuple[Component, ...]:
        return tuple(c for code in sorted(self._by_code) for c in self._by_code[code][1])

    def of(self, game: str) -> list[Component]:
        """Every component of one game, by slug (``game-slug``) or code."""
        wanted = game.strip()
        for code, (slug, found) in self._by_code.items():
            if found and (wanted.upper() == code or wanted.lower().replace("_", "-") == slug):
                return list(found)
        known = ", ".join(sorted(slug for slug, found in self._by_code.values() if found))
        raise UnknownComponentError(f"no components for game {game!r} (games with stickers:"
                                    f" {known or 'none'})")

    def find(self, component_id: str) -> Component | None:
        return self._by_id.get(component_id)

    def by_marker(self, number: int) -> Component | None:
        """The component whose sticker carries marker ``number`` (None: none of ours)."""
        return self._by_marker.get(number)

    def marker_numbers(self, game: str) -> tuple[int, ...]:
        """The marker numbers one game's stickers carry (by slug), in order."""
        return tuple(sorted(n for n, c in self._by_marker.items() if c.game == game))


REGISTRY = ComponentRegistry()


def all_components() -> tuple[Component, ...]:
    return REGISTRY.all()


def component_games() -> list[str]:
    """The slugs of the games that have stickers."""
    return sorted(REGISTRY.codes().values())


def components_of(game: str) -> list[Component]:
    """Every component of one game, by slug or code."""
    return REGISTRY.of(game)


def check_payload(text: str, codes: Iterable[str] | None = None) -> list[str]:
    """The payload's segments after ``GC1``; raises InvalidPayloadError naming what is wrong.
    ``codes``: the game codes it may name (default: the registered games')."""
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
    if segments[0] not in (REGISTRY.codes() if codes is None else tuple(codes)):
        raise InvalidPayloadError(f"{text!r}: unknown game code {segments[0]!r}")
    return segments


def marker_component(number: int) -> Component | None:
    """The component a square marker stands for (None: a number no sticker of ours carries)."""
    return REGISTRY.by_marker(number)


def parse_payload(text: str) -> Component:
    """The component a sticker names. Raises InvalidPayloadError or UnknownComponentError."""
    segments = check_payload(text)
    component = REGISTRY.find("/".join(segments))
    if component is None:
        raise UnknownComponentError(f"{text!r} names no component the companion knows")
    return component
