"""Every registered game passes the conformance checks (tests/conformance.py): a new game
gets them by registering, with no line here. The checks themselves can fail: broken variants
of the toy game (tests/toy_game.py) are caught, each by the check meant for it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from companion.engine import (
    Action,
    ActionSpec,
    Fact,
    GameRules,
    Param,
    PlayerView,
    TableSession,
    TableView,
    Transition,
    all_games,
)
from tests.conformance import check_game, setups
from tests.toy_game import CounterRace, State


@pytest.mark.parametrize("rules", all_games(), ids=lambda rules: rules.info.slug)
def test_the_game_conforms(rules: GameRules) -> None:
    assert check_game(rules) > 0


def nested(key: str, value: Any) -> dict[str, Any]:
    """``moves.sidewinder`` = "wrap" as the option house takes it."""
    *path, last = key.split(".")
    out: dict[str, Any] = {last: value}
    for part in reversed(path):
        out = {part: out}
    return out


@pytest.mark.parametrize("rules", all_games(), ids=lambda rules: rules.info.slug)
def test_every_house_reading_a_phone_offers_starts_a_table_and_shows_in_the_rules(
        rules: GameRules) -> None:
    """Each reading's other values (a flag flipped, every choice, a name in the table's own
    words) make a table the game accepts, and the rules at that table say so: a table can see
    the reading it chose."""
    setup = setups(rules)[0]
    for reading in rules.info.house_readings:
        others = [not reading.default] if reading.kind == "flag" else \
            [f"Our {reading.default}"] if reading.kind == "text" else \
            [c for c in reading.choices if c != reading.default]
        assert others, reading.name
        for value in others:
            options = {**setup.options, "house": nested(reading.name, value)}
            TableSession(replace(setup, options=options))
            assert rules.rules_summary(options) != rules.rules_summary(setup.options), \
                f"{reading.name} = {value!r} does not show in the rules summary"


class TellsEveryLuckyStep(CounterRace):
    """Shows every seat's secret to the whole table."""

    def table_view(self, state: State, seat: int | None) -> TableView:
        view = super().table_view(state, seat)
        told = ", ".join(str(n) for n in state.lucky)
        return replace(view, facts=(Fact("lucky", "Lucky steps", told),))


class ChangesTheGivenState(CounterRace):
    """Moves the piece on the state it was given, not on a copy."""

    def apply(self, state: State, action: Action) -> Transition:
        transition = super().apply(state, action)
        state.turn = transition.state.turn
        return transition


class ForgetsToCopy(CounterRace):
    """A copy that shares its list of positions with the state it came from."""

    def setup(self, setup: Any) -> State:
        return SharedState(**super().setup(setup).__dict__)


class SharedState(State):
    def copy(self) -> State:
        return SharedState(self.names, list(self.lucky), self.at, self.turn, self.outcome, [])


class MarksTheViewer(CounterRace):
    """Writes "(you)" into the public part of a seat's screen."""

    def table_view(self, state: State, seat: int | None) -> TableView:
        view = super().table_view(state, seat)
        players = tuple(PlayerView(p.seat, p.name + (" (you)" if p.seat == seat else ""),
                                   p.counters) for p in view.players)
        return replace(view, players=players)


class StepsOffTheBoard(CounterRace):
    """Offers a cell that is not on the board it names."""

    def legal_actions(self, state: State, seat: int | None) -> Sequence[ActionSpec]:
        return [ActionSpec(a.name, a.label, a.kind, tuple(
            Param(p.name, p.kind, p.label, (*p.choices, "c99"), board=p.board)
            if p.kind == "cell" else p for p in a.params), ruling=a.ruling)
            for a in super().legal_actions(state, seat)]


class LogsTheLuckyStep(CounterRace):
    """Writes the mover's secret into the log line everyone reads."""

    def describe(self, state: State, action: Action) -> str:
        return f"{super().describe(state, action)} (lucky {state.lucky[state.turn]})"


class OffersByTheLuckyStep(CounterRace):
    """Labels the move with the next player's secret: the legal actions give it away."""

    def legal_actions(self, state: State, seat: int | None) -> Sequence[ActionSpec]:
        following = state.lucky[(state.turn + 1) % len(state.names)]
        return [ActionSpec(a.name, f"{a.label} ({following})", a.kind, a.params,
                           ruling=a.ruling) for a in super().legal_actions(state, seat)]


class AsksAnAnswerAsATurn(CounterRace):
    """Its step is an answer (a penalty, say), yet the screen names no step: the phone would
    say "Your turn"."""

    def legal_actions(self, state: State, seat: int | None) -> Sequence[ActionSpec]:
        return [ActionSpec(a.name, a.label, "reaction" if a.name == "step" else a.kind,
                           a.params, ruling=a.ruling) for a in super().legal_actions(state, seat)]

    def table_view(self, state: State, seat: int | None) -> TableView:
        view = super().table_view(state, seat)
        return replace(view, waiting_for=() if view.ending else (state.turn,))


class AnswersByTheLuckyStep(CounterRace):
    """Offers an answer to each seat whose secret lucky step is 2, out of turn: every screen
    says who may answer, and so gives the secret away."""

    def legal_actions(self, state: State, seat: int | None) -> Sequence[ActionSpec]:
        actions = list(super().legal_actions(state, seat))
        if seat is not None and seat != state.turn and state.lucky[seat] == 2:
            actions.append(ActionSpec("cheer", "Cheer", "reaction", ()))
        return actions


class PromptsEveryone(CounterRace):
    """Tells every seat something is asked of it, the ones the game does not wait for too."""

    def table_view(self, state: State, seat: int | None) -> TableView:
        view = super().table_view(state, seat)
        return replace(view, prompt="Move your piece" if seat is not None else "")


@pytest.mark.parametrize(("broken", "caught"), [
    (AsksAnAnswerAsATurn, "with no prompt"),
    (PromptsEveryone, "though nothing is asked of it"),
    (AnswersByTheLuckyStep, "who may answer depends on what the table may not know"),
    (LogsTheLuckyStep, "the log line of step shows what the seat may not know"),
    (OffersByTheLuckyStep, "the legal actions depend on what the seat may not know"),
    (TellsEveryLuckyStep, "view shows what the seat may not know"),
    (ChangesTheGivenState, "apply changed the state it was given"),
    (ForgetsToCopy, "apply changed the state it was given"),
    (MarksTheViewer, "screen differs outside its own part"),
    (StepsOffTheBoard, "cells not on board 'track'"),
])
def test_the_checks_catch_a_broken_game(broken: type[CounterRace], caught: str) -> None:
    with pytest.raises(AssertionError, match=caught):
        check_game(broken())
