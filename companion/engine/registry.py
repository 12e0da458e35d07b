"""The game registry: games register themselves on import (OpenSpiel style), with their
components, so that shared layers find everything about a game here and never import it."""

from __future__ import annotations

from companion.engine.boards import CORNER_PAYLOAD_MAX
from companion.engine.components import REGISTRY
from companion.engine.errors import UnknownGameError
from companion.engine.rules import GameRules

_GAMES: dict[str, GameRules] = {}


def register_game(rules: GameRules) -> GameRules:
    """Add a game under its slug, and its components under its code; registering the same
    slug twice is a bug."""
    slug = rules.info.slug
    if slug in _GAMES and _GAMES[slug] is not rules:
        raise ValueError(f"game {slug!r} is registered twice")
    REGISTRY.register(rules.info.code, slug, rules.components())
    for shape in rules.physical_boards():  # a board's corners are stickers of the game
        for corner in shape.corners:
            found = REGISTRY.find(corner)
            if found is None or found.game != slug or found.marker is not None \
                    or len(found.payload) > CORNER_PAYLOAD_MAX:
                raise ValueError(f"{slug}: corner {corner!r} of board {shape.name!r} must be"
                                 f" a QR sticker of the game, its payload at most"
                                 f" {CORNER_PAYLOAD_MAX} characters")
    _GAMES[slug] = rules
    return rules


def get_game(name: str) -> GameRules:
    """The game registered as ``name`` (a slug; underscores work for hyphens)."""
    slug = name.strip().lower().replace("_", "-")
    try:
        return _GAMES[slug]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise UnknownGameError(f"unknown game {name!r} (known games: {known})") from None


def all_games() -> list[GameRules]:
    """Every registered game, by slug."""
    return [_GAMES[slug] for slug in sorted(_GAMES)]
