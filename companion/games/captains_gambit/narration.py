"""Captain's Gambit's eyes-closed phase, the Prologue: read for the captains in the pool only.

The words are in data/narration.toml; what is in play is the captain pool, which is public
(the table's view lists it), so nothing the narrator says depends on a secret.
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from companion.engine import EyesClosed, RulesError, SetupError
from companion.games.captains_gambit.book import Book


@cache
def _script_data() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data/narration.toml").read_text("utf-8")
    return tomllib.loads(text)


def in_play(view: Mapping[str, Any]) -> frozenset[str]:
    """The captain pool, from the table's public view."""
    return frozenset(view.get("pool", ()))


def possible_pools(players: int) -> list[list[str]]:
    """Every captain pool setup can produce for a player count (with Warp In groups)."""
    book = Book.default()
    groups = book.warp_in_groups()
    return [book.pool(players, list(chosen)) for size in range(len(groups) + 1)
            for chosen in itertools.combinations(groups, size)]


def check_pool(captains: Sequence[str], players: int | None) -> frozenset[str]:
    """The named captains as a pool, if setup can produce exactly that pool (for ``players``,
    or for some player count); otherwise a RulesError naming what setup would give."""
    book = Book.default()
    named = [c.strip().lower().replace(" ", "_").replace("-", "_") for c in captains if c.strip()]
    unknown = [c for c in named if c not in book.data["captains"]]
    if unknown:
        raise RulesError(f"unknown captain {', '.join(map(repr, unknown))}"
                         f" (known: {', '.join(book.data['captains'])})")
    if players is not None and not 4 <= players <= 8:
        raise SetupError(f"Captain's Gambit is for 4 to 8 players, not {players}")
    for count in [players] if players is not None else range(4, 9):
        if any(sorted(pool) == sorted(named) for pool in possible_pools(count)):
            return frozenset(named)
    if players is not None:
        expected = ", ".join(book.pool(players, []))
        raise RulesError(f"setup cannot deal that pool to {players} players: the pool for"
                         f" {players} is {expected}, with Warp In swaps (name every captain"
                         " in the pool, or give the player count and options instead)")
    raise RulesError("setup cannot deal that pool for any player count: name every captain in"
                     f" the pool (for example the 5-player pool is {', '.join(book.pool(5, []))}),"
                     " or give the player count and options instead")


def eyes_closed(pool: frozenset[str]) -> tuple[EyesClosed, ...]:
    """The Prologue, if a captain in the pool has a part in it."""
    book = Book.default()
    if not pool.intersection(book.prologue_captains()):
        return ()
    labels = {name: book.label(name) for name in book.data["captains"]}
    data = _script_data()["prologue"]
    return (EyesClosed("prologue", "the Prologue", data, pool, labels, during="prologue",
                       instructions=str(data["instructions"])),)
