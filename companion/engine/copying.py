"""Copying a game's state: a state is copied before every action (old states stay valid for
undo and replay), so the copy is on every move's path."""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def copied(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` for the plain dataclasses states are made of, without running
    ``__init__`` again: its checks cost more than the copy itself. Fields not in ``changes``
    are shared with ``obj``, so a mutable one must be given a copy in ``changes``."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    return new
