"""Random legal play, for any game: conformance tests, property tests and benchmarks."""

from __future__ import annotations

import random
from typing import Any

from companion.engine.actions import Action, ActionSpec, Param
from companion.engine.errors import RulesError
from companion.engine.session import TableSession


def random_value(param: Param, rng: random.Random,
                 chosen: dict[str, Any] | None = None) -> Any:
    """A random value that fits ``param`` (and the values ``chosen`` for the fields before
    it, for a field whose choices depend on one of them)."""
    if param.kind in ("seat", "choice", "cell"):
        allowed = param.allowed(chosen or {})
        return rng.choice(allowed) if allowed else None
    if param.kind == "number":
        return rng.randint(param.minimum or 0, param.maximum if param.maximum is not None else 9)
    if param.kind == "text":
        return "random play"
    if param.kind == "flag":
        return rng.random() < 0.5
    low = param.minimum or 0
    high = len(param.choices) if param.maximum is None else min(param.maximum, len(param.choices))
    return rng.sample(list(param.choices), rng.randint(low, high))


def random_action(spec: ActionSpec, seat: int | None, rng: random.Random) -> Action:
    chosen: dict[str, Any] = {}
    for param in spec.params:
        if not param.asked and rng.random() < 0.5:
            continue  # left out, as a phone leaves it
        chosen[param.name] = random_value(param, rng, chosen)
    return Action(spec.name, seat, chosen)


def random_step(session: TableSession, rng: random.Random, tries: int = 20) -> Action | None:
    """Submit one random legal action of a random seat that can act; None when nobody can.
    The table's rulings are never chosen: random corrections would only undo the game.
    Parameter values are random, so a few may be refused (a check the spec cannot express):
    another draw is tried."""
    seats: list[int | None] = [None, *range(len(session.setup.seats))]
    choices = [(seat, spec) for seat in seats for spec in session.legal_actions(seat)
               if not spec.ruling and all(p.choices or p.kind in ("number", "text", "flag")
                                                 for p in spec.params)]
    for _ in range(tries if choices else 0):
        seat, spec = rng.choice(choices)
        action = random_action(spec, seat, rng)
        try:
            session.submit(action)
        except RulesError:
            continue
        return action
    return None
