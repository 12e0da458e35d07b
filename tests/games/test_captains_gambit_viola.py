"""Viola wins as the dead captain she chose would from then on: a death before her choice
does not count for her (data: `captains.viola.earlier_deaths_count`)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine import Action, GameSetup, TableSession

SEATS = ["Ann", "Ben", "Cat", "Dan", "Eve"]
# Ann is Viola; Cat (Brutus) marks Ben; Eve (Cordelia) marks Dan.
DEAL = {"captains": {"0": "viola", "1": "puck", "2": "brutus", "3": "iago", "4": "cordelia"}}


def play(house: dict[str, Any] | None = None) -> TableSession:
    options: dict[str, Any] = {"warp_in": ["viola"]}
    if house is not None:
        options["house"] = house
    s = TableSession(GameSetup("captains-gambit", SEATS, options, deal=DEAL))
    for name, seat, params in (
            ("prologue_mark", 2, {"target": 1}), ("prologue_mark", 4, {"target": 3}),
            ("end_prologue", None, {}),
            ("correct", None, {"target": 1, "counter": "health", "value": 1, "reason": "x"}),
            ("strike", 0, {"target": 1}), ("resolve", 0, {})):
        s.submit(Action(name, seat, params))
    # Ann killed Ben, Brutus's mark: Brutus (Cat) loses and dies with Ann's credit.
    assert [(d.seat, d.killer) for d in s.state.deaths] == [(1, 0), (2, 0)]
    s.submit(Action("choose_corpse", 0, {"target": 2}))
    return s


def test_a_kill_before_her_choice_does_not_win_for_viola() -> None:
    s = play()
    assert s.outcome is None and s.state.players[0].copied_at == 2


@pytest.mark.parametrize("counts", [True])
def test_a_table_may_count_the_deaths_before_her_choice(counts: bool) -> None:
    s = play({"captains": {"viola": {"earlier_deaths_count": counts}}})
    assert s.outcome is not None and s.outcome.winners == (0,)
