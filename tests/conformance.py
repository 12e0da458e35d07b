"""What every game must do, checked the same way for each (as OpenSpiel tests all its games).

`check_game(rules)` plays random legal games of a registered game from a few setups and checks,
at every step: `apply` never changes the state it was given (a field forgotten in `copy()`
shows up here); every seat's view, table view and legal actions come out the same from what
that seat may know (`as_known_to`, the game's own declaration of its secrets), and its log
holds none of what it may not know; who may answer now (on every screen) comes out the same
from what the table knows; what a screen shows is the same for every seat but the
seat's own part; every action spec can be drawn by the generic phone page; the table's rulings
each ask a reason and are never chosen by random play. At the end: replaying the log (and the
log written as a transcript) rebuilds the same state and views, and undo restores exactly what
a replay of the shorter log gives.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
import re
from collections.abc import Iterator, Mapping
from functools import partial
from typing import Any

from companion.engine import (
    Action,
    ActionRecord,
    GameRules,
    GameSetup,
    RulesError,
    TableSession,
    get_game,
    replay_transcript,
    view_problems,
)
from companion.engine.random_play import random_step
from companion.engine.session import answering

STEP_LIMIT = 3000  # random play that goes on longer is stuck in a loop


def setups(rules: GameRules) -> list[GameSetup]:
    """A few setups of the game: fewest and most players, default and "everything on"
    options, and, where the game takes one, a deal made by hand (nothing known yet)."""
    info = rules.info
    every: dict[str, Any] = {}
    for option in info.options:
        if option.kind == "flag":
            every[option.name] = True
        elif option.kind == "choices":
            every[option.name] = list(option.choices[:option.maximum])
        elif option.kind in ("choice", "seat"):
            every[option.name] = option.choices[-1]
        elif option.kind == "number" and option.minimum is not None:
            every[option.name] = option.minimum
    found = []
    for players, options in ((info.min_players, {}), (info.max_players, every)):
        seats = tuple(f"P{n}" for n in range(players))
        found.append(GameSetup(info.slug, seats, options, seed=players))
    by_hand = GameSetup(info.slug, tuple(f"P{n}" for n in range(info.min_players)), {}, seed=7,
                        deal={})
    try:
        rules.setup(by_hand)
    except RulesError:
        # the game has no deal made by hand: the phone must not offer one
        assert not info.deals_by_hand, f"{info.slug} says it deals by hand, refuses a deal"
    else:
        assert info.deals_by_hand, f"{info.slug} takes a deal by hand the phone never offers"
        found.append(by_hand)
    return found


def viewers(session: TableSession) -> list[int | None]:
    return [None, *range(len(session.setup.seats))]


def strings(value: Any) -> Iterator[str]:
    """Every string in a state or document (dataclasses, mappings, sequences, sets)."""
    if isinstance(value, str):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from strings(getattr(value, field.name))
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from strings(item)


def words(text: str) -> str:
    return " " + re.sub(r"[^a-z0-9]+", " ", text.lower()) + " "


def check_knowledge(session: TableSession, record: ActionRecord | None, before: Any) -> None:
    """Every viewer's outputs come out the same from what it may know; its log holds none of
    the strings that knowledge leaves out."""
    rules, state = session.rules, session.state
    for seat in viewers(session):
        known = rules.as_known_to(state, seat)
        done = len(session.history)
        where = f"{rules.info.slug}, seat {seat}, after {done} action{'s' * (done != 1)}"
        assert rules.view(state, seat) == rules.view(known, seat), \
            f"{where}: the view shows what the seat may not know"
        assert rules.table_view(state, seat) == rules.table_view(known, seat), \
            f"{where}: the table view shows what the seat may not know"
        assert [a.to_dict() for a in rules.legal_actions(state, seat)] == \
            [a.to_dict() for a in rules.legal_actions(known, seat)], \
            f"{where}: the legal actions depend on what the seat may not know"
        if seat is None:  # who may answer is on every screen: the table must know it
            seats = len(session.setup.seats)
            assert answering(partial(rules.legal_actions, state), seats) == \
                answering(partial(rules.legal_actions, known), seats), \
                f"{where}: who may answer depends on what the table may not know"
        if record is None or not record.is_visible_to(seat) or record.reveals:
            continue  # a record that reveals hidden information shows it by design
        assert rules.describe(rules.as_known_to(before, seat), record.action) == record.text, \
            f"{where}: the log line of {record.action.name} shows what the seat may not know"
        # Words the seat may not know: in the state, in no phrase of what it may know.
        knows = words(" | ".join(strings(known)))
        hidden = {w for w in (words(s).strip() for s in strings(state))
                  if len(w) >= 3 and f" {w} " not in knows}
        shown = words(" | ".join(strings([record.to_dict(seat), list(record.events)])))
        for secret in hidden:
            assert f" {secret} " not in shown, \
                f"{where}: {record.action.name}'s log or events show {secret!r}"


def check_screens(session: TableSession) -> None:
    """One home for secrets: what a screen shows is the same for every seat but the seat's
    own part; every action can be drawn; everything is JSON."""
    public = session.table_view(None).public()
    for seat in viewers(session):
        view = session.table_view(seat)
        assert view.public() == public, f"seat {seat}'s screen differs outside its own part"
        if not session.rules.info.has_seat_secrets:  # its phones show no secrets box
            assert not view.secrets, f"seat {seat} has secrets, but the game says it has none"
        assert view_problems(view) == [], f"seat {seat}: {view_problems(view)}"
        check_prompt(view, session)
        json.dumps(view.to_dict())
        json.dumps(session.view(seat))


def check_prompt(view: Any, session: TableSession) -> None:
    """A step that is not a turn is named: a seat the game waits for whose actions now are
    answers only (reactions, private inputs: a penalty, a bluff called, a captain to tell)
    is told what is asked of it, not "Your turn"; a seat nothing is asked of gets no prompt."""
    seat, where = view.seat, f"{session.rules.info.slug}, seat {view.seat}"
    waited = seat is not None and seat in view.waiting_for and view.ending is None
    if view.prompt:
        assert waited, f"{where}: a prompt ({view.prompt!r}) though nothing is asked of it"
    answers_only = bool(view.actions) and all(a.kind in ("reaction", "input")
                                              for a in view.actions if not a.ruling)
    if waited and answers_only:
        assert view.prompt, (f"{where}: asked for {[a.name for a in view.actions]} in phase"
                             f" {view.phase!r} with no prompt (its phone would say 'Your turn')")


def play(rules: GameRules, setup: GameSetup, rng: random.Random) -> TableSession:
    """A random legal game to its end, every step checked."""
    session = TableSession(setup, rules)
    check_screens(session)
    for _ in range(STEP_LIMIT):
        if session.outcome is not None:
            break
        specs = [spec for seat in viewers(session) for spec in session.legal_actions(seat)
                 if spec.ruling]
        for spec in specs:  # the engine refuses it blank: the log says why the table overruled
            assert any(p.name == "reason" and p.kind == "text" and p.default is None
                       for p in spec.params), f"{setup.game}: the ruling {spec.name} asks no reason"
        rulings = {spec.name for spec in specs}
        given = session.state
        before = copy.deepcopy(given)
        action = random_step(session, rng)
        assert given == before, f"{setup.game}: apply changed the state it was given"
        assert action is not None, f"{setup.game}: nobody can act and the game has not ended"
        assert action.name not in rulings, f"random play chose the ruling {action.name}"
        assert Action.from_dict(action.to_dict()) == action
        check_knowledge(session, session.history[-1], before)
        check_screens(session)
        if rng.random() < 0.1:
            check_undo(session)
    assert session.outcome is not None, f"{setup.game}: no end after {STEP_LIMIT} actions"
    return session


def check_undo(session: TableSession) -> None:
    """Undo of the last action everyone saw (on a copy of the table) leaves what a replay of
    the shorter log gives."""
    if not session.can_undo_public():
        return
    table = TableSession.replay(session.setup, [r.action for r in session.history],
                                session.rules)
    table.undo_public()
    again = TableSession.replay(session.setup, [r.action for r in table.history], session.rules)
    assert again.state == table.state, "undo left another state than replay gives"
    for seat in viewers(table):
        assert again.table_view(seat) == table.table_view(seat)


def registered(rules: GameRules) -> bool:
    try:
        return get_game(rules.info.slug) is rules
    except RulesError:
        return False


def check_replay(session: TableSession) -> None:
    """The log, and the log written as a transcript, rebuild the same state and views."""
    actions = [r.action for r in session.history]
    rebuilt = [TableSession.replay(session.setup, actions, session.rules)]
    if registered(session.rules):  # a transcript names a registered game
        lines = [json.dumps(session.setup.to_dict())] + [json.dumps(a.to_dict()) for a in actions]
        replayed = replay_transcript(lines)
        assert replayed.error is None and replayed.session is not None, replayed.error
        rebuilt.append(replayed.session)
    for again in rebuilt:
        assert again.state == session.state, "replaying the log gave another state"
        assert [r.text for r in again.history] == [r.text for r in session.history]
        for seat in viewers(session):
            assert again.view(seat) == session.view(seat)
            assert again.table_view(seat) == session.table_view(seat)


def check_game(rules: GameRules, seeds: range = range(2)) -> int:
    """Every check, over the game's setups and ``seeds``; the number of actions played."""
    played = 0
    for setup in setups(rules):
        for seed in seeds:
            session = play(rules, dataclasses.replace(setup, seed=f"{setup.seed}-{seed}"),
                           random.Random(seed))
            check_replay(session)
            played += len(session.history)
    return played
