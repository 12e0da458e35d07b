"""The games' eyes-closed scripts as the tests need them, found through the registry as the
shared layers find them."""

from __future__ import annotations

from collections.abc import Sequence

from companion.engine import get_game
from companion.games.captains_gambit import Book
from companion.narration.scripts import Script, build_script

CAPTAINS = get_game("captains-gambit")
BURKES = get_game("burkes-gambit")


def pool_from_setup(players: int, warp_in: Sequence[str] = ()) -> list[str]:
    """The captain pool Captain's Gambit's setup deals from."""
    return Book.default().pool(players, list(warp_in))


def needs_prologue(pool: Sequence[str]) -> bool:
    return bool(CAPTAINS.eyes_closed(frozenset(pool), len(pool)))


def prologue(pool: Sequence[str]) -> Script:
    """The Prologue for a captain pool."""
    phases = CAPTAINS.eyes_closed(frozenset(pool), len(pool))
    assert phases, f"no Prologue for {pool}"
    return build_script(phases[0])


def head_down() -> Script:
    """Burke's Gambit's heads-down phase (the same words for every player count)."""
    return build_script(BURKES.eyes_closed(frozenset(), 5)[0])
