"""Seeded randomness: every shuffle is a pure function of the game's seed and a label.

A shuffle never depends on an RNG object carried in the state, so a replay of the same
log always draws the same cards, and states stay plain data.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")


def shuffled(items: Iterable[T], seed: int | str | None, *label: object) -> list[T]:
    """``items`` in the order given by ``seed`` and ``label`` (for example "permits", 3)."""
    out = list(items)
    key = "/".join(str(part) for part in (seed, *label))
    random.Random(key).shuffle(out)
    return out
