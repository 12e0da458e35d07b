"""A table session: the action log, undo (past revealed information only when the table says
why), and replay."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.engine.actions import Action, ActionSpec
from companion.engine.errors import RulesError, SetupError, UndoError
from companion.engine.house import (
    has_rule,
    house_between,
    house_edits,
    kept_as_begun,
    merge_house,
)
from companion.engine.names import UNSHOWN, same_name, unshowable
from companion.engine.registry import get_game
from companion.engine.rules import Event, GameRules, GameSetup, Outcome, Transition
from companion.engine.table_view import LogLine, TableView


@dataclass(frozen=True)
class ActionRecord:
    """One accepted action, as kept in the log."""

    number: int
    action: Action
    text: str
    events: tuple[Event, ...] = ()
    reveals: bool = False
    private: bool = False
    notes: tuple[str, ...] = ()
    secret_fields: tuple[str, ...] = ()

    def is_visible_to(self, seat: int | None) -> bool:
        """Private inputs are seen only by the seat that made them."""
        return not self.private or (seat is not None and seat == self.action.seat)

    def to_dict(self, viewer: int | None = None) -> dict[str, Any]:
        """The record as ``viewer`` may see it (secret fields only for the acting seat).

        No record number: numbers counted over the whole log would show a seat that private
        inputs it cannot see took place. Raises ValueError for a record ``viewer`` may not see.
        """
        if not self.is_visible_to(viewer):
            raise ValueError("this record is another seat's private input")
        action = self.action.to_dict()
        if viewer is None or viewer != self.action.seat:
            for name in self.secret_fields:
                action.pop(name, None)
        return {
            "action": action,
            "text": self.text,
            "notes": list(self.notes),
            "reveals": self.reveals,
            "private": self.private,
        }


@dataclass(frozen=True)
class Accepted:
    """An action the rules accepted against one state, not yet in the log: ``commit`` adds it
    without applying it again."""

    action: Action
    transition: Transition
    text: str
    base: Any  # the state it was accepted against


KEEP_EVERY = 32  # actions between the states kept for undo: an undo replays at most these
KEPT = 4  # recent states kept; an undo further back replays from the first state


def _options_in_force(setup: GameSetup, rules: GameRules
                      ) -> tuple[Mapping[str, Any], tuple[str, ...]]:
    """The options the rules play ``setup`` by: its house edits on the rule data it recorded,
    said as edits of the data the game has now (the same, unless the data file was edited or
    the companion updated since the table began); and the table's own edits that today's
    data cannot say (a rule the companion no longer has, or holds as another kind of value)."""
    packaged = rules.rule_book.packaged() if rules.rule_book is not None else None
    house = setup.options.get("house") or {}
    if setup.book is None or packaged is None or setup.book == packaged \
            or not isinstance(house, Mapping):  # a house option the game will refuse
        return setup.options, ()
    options = {key: value for key, value in setup.options.items() if key != "house"}
    in_force = kept_as_begun(packaged, setup.book,
                             house_between(packaged, merge_house(setup.book, house)))
    dropped = tuple(key for key, value in house_edits(house)
                    if not has_rule(packaged, key, value))
    return ({**options, "house": in_force} if in_force else options), dropped


class TableSession:
    """One game at one table: its setup, its state and its log.

    The log, not the state, is the truth: ``replay`` rebuilds any session from its setup
    and actions, which is how storage reloads a table and how transcripts are checked. Undo
    does the same: only a few past states are kept (memory stays flat over a long evening),
    and the state before an action is rebuilt from the nearest one by replaying the log.
    """

    def __init__(self, setup: GameSetup, rules: GameRules | None = None) -> None:
        """A new game; ``rules``: these instead of the game registered as ``setup.game``."""
        rules = rules or get_game(setup.game)
        for name in setup.seats:
            if unshowable(name):
                raise SetupError(f"the name {name.strip()!r} {UNSHOWN}")
        if len({same_name(s) for s in setup.seats}) != len(setup.seats):
            # the log and the phones name a seat by its name: "Ann" and "ann" are one
            raise SetupError("two seats have the same name")
        if setup.seed is None:
            # A seed is always recorded, so that the log replays to the same deal.
            setup = replace(setup, seed=secrets.randbelow(2**31))
        if rules.rule_book is not None:
            packaged = rules.rule_book.packaged()
            if setup.book is None or setup.book == packaged:
                # So is the rule data, so that it replays under the same rules after an edit;
                # the packaged data itself when it is the same (one copy for every table)
                setup = replace(setup, book=packaged)
        self.setup = replace(setup, game=rules.info.slug)
        self.rules: GameRules = rules
        # the options the rules play by; the table's own house edits no rule of today's has
        self.options, self.house_dropped = _options_in_force(self.setup, rules)
        self._first = rules.setup(replace(self.setup, options=self.options))
        self._state = self._first
        self._kept: dict[int, Any] = {}  # actions done -> the state after them
        self.history: list[ActionRecord] = []
        # Worked out once per state (every phone's screen asks): the state they are of, each
        # seat's legal actions, and the seats that may answer.
        self._legal: tuple[Any, dict[int | None, tuple[ActionSpec, ...]]] = (None, {})
        self._answering: tuple[Any, tuple[int, ...]] = (None, ())

    @classmethod
    def replay(cls, setup: GameSetup, actions: Iterable[Action],
               rules: GameRules | None = None) -> TableSession:
        """Rebuild a session by applying ``actions`` in order; raises on the first refused one."""
        session = cls(setup, rules)
        for action in actions:
            session.submit(action)
        return session

    @property
    def state(self) -> Any:
        return self._state

    @property
    def outcome(self) -> Outcome | None:
        return self.rules.outcome(self.state)

    def check(self, action: Action) -> Accepted:
        """``action`` applied to the current state, not yet kept: raises RulesError (nothing
        changes) when the rules refuse it. A service checks, stores, then commits, so that an
        action is applied once and a refused one is never stored."""
        transition = self.rules.apply(self.state, action)
        # Described from the state before it, once the rules have accepted it.
        return Accepted(action, transition, self.rules.describe(self.state, action), self.state)

    def submit(self, action: Action) -> ActionRecord:
        """Apply ``action``; on IllegalActionError nothing changes."""
        return self.commit(self.check(action))

    def commit(self, accepted: Accepted) -> ActionRecord:
        """Add an action accepted by ``check`` to the log."""
        if accepted.base is not self.state:
            raise ValueError("the action was checked against another state than the current one")
        action, transition, text = accepted.action, accepted.transition, accepted.text
        record = ActionRecord(
            number=len(self.history) + 1,
            action=action,
            text=text,
            events=transition.events,
            reveals=transition.reveals,
            private=transition.private,
            notes=transition.notes,
            secret_fields=transition.secret_fields,
        )
        self._state = transition.state
        self.history.append(record)
        done = len(self.history)
        if done % KEEP_EVERY == 0:
            self._kept[done] = self._state
            for old in sorted(self._kept)[:-KEPT]:
                del self._kept[old]
        return record

    def _rewind(self) -> None:
        """The state after the log as it now is (cut by an undo): from the nearest kept
        state, the log's actions applied again."""
        done = len(self.history)
        for later in [n for n in self._kept if n > done]:
            del self._kept[later]
        start = max(self._kept, default=0)
        state = self._kept[start] if start else self._first
        for record in self.history[start:]:
            state = self.rules.apply(state, record.action).state
        self._state = state

    def can_undo(self) -> bool:
        return _undo_refusal(self.history[-1] if self.history else None) is None

    def undo(self) -> ActionRecord:
        """Take back the last action, private or not, unless it revealed hidden information
        (a transcript's or a test's undo; a table's phones use ``undo_public``)."""
        last = self.history[-1] if self.history else None
        refusal = _undo_refusal(last)
        if refusal is not None:
            raise UndoError(refusal)
        assert last is not None
        self.history.pop()
        self._rewind()
        return last

    def last_public(self) -> ActionRecord | None:
        """The last action everyone saw (private inputs skipped)."""
        for record in reversed(self.history):
            if record.is_visible_to(None):
                return record
        return None

    def public_undo_refusal(self, past_reveal: bool = False) -> str | None:
        """Why the last action everyone saw cannot be taken back, or None when it can."""
        return _undo_refusal(self.last_public(), past_reveal)

    def can_undo_public(self) -> bool:
        return self.public_undo_refusal() is None

    def undo_public(self, past_reveal: bool = False
                    ) -> tuple[ActionRecord, list[ActionRecord], list[ActionRecord]]:
        """Take back the last action everyone saw, unless it revealed hidden information
        (``past_reveal``: even then; the table's correction of a wrong input, what it showed
        staying known to whoever saw it).

        Private inputs made after it (which not everyone may know of, so they must neither
        block the undo nor be undone by it) are taken back with it and made again. Returns
        the undone record, the private inputs made again, and those that no longer fit.
        """
        last = self.last_public()
        refusal = _undo_refusal(last, past_reveal)
        if refusal is not None:
            raise UndoError(refusal)
        assert last is not None  # _undo_refusal refuses nothing to undo
        index = next(i for i in range(len(self.history) - 1, -1, -1)
                     if self.history[i] is last)
        tail = self.history[index + 1:]
        del self.history[index:]
        self._rewind()
        kept: list[ActionRecord] = []
        dropped: list[ActionRecord] = []
        for record in tail:
            try:
                self.submit(record.action)
                kept.append(record)
            except RulesError:
                dropped.append(record)
        return last, kept, dropped

    def legal_actions(self, seat: int | None) -> Sequence[ActionSpec]:
        state = self.state
        if self._legal[0] is not state:
            self._legal = (state, {})
        known = self._legal[1]
        if seat not in known:
            known[seat] = tuple(self.rules.legal_actions(state, seat))
        return list(known[seat])  # the caller's own: the kept ones stay as they were

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.rules.view(self.state, seat)

    def table_view(self, seat: int | None, log: Sequence[LogLine] | None = None,
                   actions: Sequence[ActionSpec] | None = None) -> TableView:
        """What ``seat``'s screen shows: the game's view with the seat's legal actions (the
        table's for None) and the log as the seat may read it (``log`` and ``actions``: these
        instead)."""
        view = self.rules.table_view(self.state, seat)
        if log is None:
            log = [LogLine(r.text, r.notes, private=r.private) for r in self.history_for(seat)]
        if actions is None:
            actions = self.legal_actions(seat)
        return replace(view, actions=tuple(actions), log=tuple(log),
                       may_answer=self.may_answer(view.waiting_for))

    def may_answer(self, waiting_for: Sequence[int]) -> tuple[int, ...]:
        """The seats with an answer open to them now that the game does not wait for, worked
        out once per state (every phone's screen asks for it)."""
        if self._answering[0] is not self.state:
            self._answering = (self.state, answering(self.legal_actions, len(self.setup.seats)))
        return tuple(s for s in self._answering[1] if s not in waiting_for)

    def history_for(self, seat: int | None) -> list[ActionRecord]:
        """The log as ``seat`` (None: the table) may see it."""
        return [r for r in self.history if r.is_visible_to(seat)]


def answering(legal_actions: Callable[[int], Sequence[ActionSpec]], seats: int
              ) -> tuple[int, ...]:
    """The seats that may answer now (an action of kind "reaction" is legal for them)."""
    return tuple(seat for seat in range(seats)
                 if any(a.kind == "reaction" for a in legal_actions(seat)))


def _undo_refusal(last: ActionRecord | None, past_reveal: bool = False) -> str | None:
    """Why ``last``, the last action everyone saw, cannot be taken back; None when it can."""
    if last is None:
        return "nothing to undo"
    if last.reveals and not past_reveal:
        return (f"cannot undo {last.text} without a reason: it revealed hidden information"
                " (it stays seen; to correct a wrong input, undo it saying why)")
    return None
