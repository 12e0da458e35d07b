"""Moves: how a game describes each of its actions, and the checks every game does alike.

A game lists one ``Move`` per action name: when it is refused (None: allowed now), its
parameters, extra checks, what it does to a copy of the state, and its log line. ``MoveSet``
turns that list into the engine's ``legal_actions`` and ``apply``, so no game writes its own
dispatch.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.engine.actions import Action, ActionSpec, Param
from companion.engine.errors import IllegalActionError, UnknownActionError
from companion.engine.rules import Event, Transition

Params = Mapping[str, Any]


def no_problem(state: Any, seat: int | None, params: Params) -> str | None:
    return None


def no_params(state: Any, seat: int | None) -> tuple[Param, ...]:
    return ()


def free(state: Any) -> int:
    return 0


def no_note(state: Any, seat: int | None) -> str:
    return ""


@dataclass(frozen=True)
class Move:
    """One action name of a game."""

    name: str
    kind: str  # move, reaction, input, table (see ActionSpec)
    label: Callable[[Any], str]
    refusal: Callable[[Any, int | None], str | None]
    run: Callable[[Any, int | None, Params], None]
    text: Callable[[Any, int | None, Params], str]
    params: Callable[[Any, int | None], tuple[Param, ...]] = no_params
    check: Callable[[Any, int | None, Params], str | None] = no_problem
    cost: Callable[[Any], int] = free
    private: bool = False  # the whole action is the seat's secret
    secret: tuple[str, ...] = ()  # fields only the acting seat may see in the log
    ruling: bool = False  # the table overrides the rules with it (see ActionSpec)
    covered: bool = False  # being offered it is a secret: its button is covered (see ActionSpec)
    # What this action means for this seat, in a line: its effect, and for a claim what a
    # lost call would cost. The same words whether or not the seat holds what it claims: a
    # phone's buttons are seen by its neighbours too.
    note: Callable[[Any, int | None], str] = no_note
    # Its kind now, when that depends on the state: a die held in reserve answers a window
    # when an action waits in one, and is a plain move of its holder's otherwise (a phone
    # alerts for an answer; nothing to alert for a die that could be used any time).
    kind_now: Callable[[Any, int | None], str] | None = None


def _blank_reason(move: Move, params: Mapping[str, Any]) -> str | None:
    """A table's ruling overrides the rules: its log line must say why, so a ruling's
    ``reason`` field may not be blank (every game alike)."""
    reason = params.get("reason")
    if move.ruling and isinstance(reason, str) and not reason.strip():
        return "a ruling needs a reason: say why, for the log"
    return None


def typed_square(value: Any) -> Any:
    """A square as a player may type it, read as the boards name their squares (a file letter
    and a rank, in lower case, like chess): " D4 " is "d4". Anything but text is left as it
    is, for the checks to name. The one reading of a typed square, for setup and moves alike
    (a game's ``MoveSet`` takes it as its ``cells``)."""
    return value.strip().lower() if isinstance(value, str) else value


def as_given(value: Any) -> Any:
    return value


def with_defaults(given: Params, specs: tuple[Param, ...]) -> dict[str, Any]:
    params = dict(given)
    for spec in specs:
        if spec.name not in params and spec.default is not None:
            params[spec.name] = spec.default
    return params


class MoveSet:
    """A game's moves, by name."""

    def __init__(self, title: str, moves: Iterable[Move],
                 who: Callable[[Any, int | None], str],
                 cells: Callable[[Any], Any] = as_given) -> None:
        """``cells``: how the game reads a cell typed by hand (``typed_square`` for squares
        named like chess); every ``cell`` parameter's value is read with it before any check,
        so the checks, the move and its log line see the cell as the board names it."""
        self.title = title
        self.by_name = {move.name: move for move in moves}
        self._who = who
        self._cells = cells

    def _read(self, params: Params, specs: tuple[Param, ...]) -> dict[str, Any]:
        """``params`` with their defaults filled in and their cells read."""
        out = with_defaults(params, specs)
        for spec in specs:
            if spec.kind == "cell" and spec.name in out:
                out[spec.name] = self._cells(out[spec.name])
        return out

    def legal(self, state: Any, seat: int | None, seats: int) -> list[ActionSpec]:
        if seat is not None and not 0 <= seat < seats:
            return []
        return [ActionSpec(m.name, m.label(state),
                           m.kind_now(state, seat) if m.kind_now else m.kind,
                           m.params(state, seat), m.cost(state),
                           m.note(state, seat), ruling=m.ruling, covered=m.covered)
                for m in self.by_name.values() if m.refusal(state, seat) is None]

    def checked(self, state: Any, action: Action, seats: int) -> tuple[Move, dict[str, Any]]:
        """The move and its parameters (defaults filled in), or the reason it is refused."""
        seat = action.seat
        if seat is not None and not 0 <= seat < seats:
            raise IllegalActionError(action.name, f"seat {seat}", f"there is no seat {seat}")
        actor = self._who(state, seat)
        move = self.by_name.get(action.name)
        if move is None:
            raise UnknownActionError(action.name, actor,
                                     f"{self.title} has no action {action.name!r}")
        reason = move.refusal(state, seat)
        params: dict[str, Any] = dict(action.params)
        spec: ActionSpec | None = None
        if reason is None:
            spec = ActionSpec(move.name, "", params=move.params(state, seat))
            params = self._read(action.params, spec.params)
            # a missing field first (the game's own reasons read the values it is given)
            reason = (spec.missing(params) or _blank_reason(move, params)
                      or move.check(state, seat, params) or spec.problem(params))
        if reason is not None:
            words = spec.in_words(reason) if spec is not None else reason
            raise IllegalActionError(action.name, actor, reason, words)
        return move, params

    def apply(self, state: Any, action: Action, seats: int, revealing: Collection[str],
              notes: Callable[[Any, tuple[Event, ...]], Sequence[str]]) -> Transition:
        """The checked move run on a copy of ``state`` (a game's state has ``copy()``, the
        ``events`` a move adds to, and ``outcome``); ``revealing``: the event types that show
        hidden information; ``notes``: the public notes for the log line."""
        move, params = self.checked(state, action, seats)
        new = state.copy()
        move.run(new, action.seat, params)
        events = tuple(new.events)
        new.events = []
        # A private input that ends the game is shown to all: at the end nothing is secret.
        private = move.private and new.outcome is None
        return Transition(new, events, reveals=any(e["type"] in revealing for e in events),
                          private=private, secret_fields=move.secret,
                          notes=() if private else tuple(notes(new, events)))

    def describe(self, state: Any, action: Action) -> str:
        move = self.by_name.get(action.name)
        if move is None:
            return f"{action.name} by {self._who(state, action.seat)}"
        return move.text(state, action.seat, self._read(action.params,
                                                        move.params(state, action.seat)))
