"""The game registry: games register themselves on import (OpenSpiel style)."""

from __future__ import annotations

from companion.engine.errors import UnknownGameError
from companion.engine.rules import GameRules

_GAMES: dict[str, GameRules] = {}


def register_game(rules: GameRules) -> GameRules:
    """Add a game under its slug; registering the same slug twice is a bug."""
    slug = rules.info.slug
    if slug in _GAMES and _GAMES[slug] is not rules:
        raise ValueError(f"game {slug!r} is registered twice")
    _GAMES[slug] = rules
    return rules


def get_game(name: str) -> GameRules:
    """The game registered as ``name`` (``captains-gambit``; ``captains_gambit`` works too)."""
    slug = name.strip().lower().replace("_", "-")
    try:
        return _GAMES[slug]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise UnknownGameError(f"unknown game {name!r} (known games: {known})") from None


def all_games() -> list[GameRules]:
    """Every registered game, by slug."""
    return [_GAMES[slug] for slug in sorted(_GAMES)]
