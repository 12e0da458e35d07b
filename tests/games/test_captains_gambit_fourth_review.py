"""Captain's Gambit: the fourth blind review's findings (4 and 5 players). Viola wins as the
dead captain she chose would from then on: a death before her choice does not count for her
(data: `captains.viola.earlier_deaths_count`); a dead Prospero's reveal promises nothing."""

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


def test_a_table_may_count_the_deaths_before_her_choice() -> None:
    s = play({"captains": {"viola": {"earlier_deaths_count": True}}})
    assert s.outcome is not None and s.outcome.winners == (0,)


def test_a_revealed_prospero_who_died_is_no_longer_said_to_win_next_turn() -> None:
    deal = {"captains": {"0": "prospero", "1": "iago", "2": "puck", "3": "hamlet"}}
    s = TableSession(GameSetup("captains-gambit", SEATS[:4], {}, deal=deal))
    for name, seat, params in (
            ("prologue_mark", 3, {"target": 1}), ("end_prologue", None, {}),
            ("correct", None, {"target": 0, "counter": "energy", "value": 8, "reason": "x"}),
            ("correct", None, {"target": 0, "counter": "health", "value": 1, "reason": "x"}),
            ("reveal", 0, {}), ("charge", 0, {})):
        s.submit(Action(name, seat, params))

    def facts() -> list[str]:
        return [f.key for f in s.table_view(None).players[0].facts]

    assert "ascending" in facts()
    s.submit(Action("strike", 1, {"target": 0}))
    s.submit(Action("resolve", 1, {}))
    assert not s.state.players[0].alive and "ascending" not in facts()


@pytest.mark.parametrize(("earlier_count", "wins"), [(False, False), (True, True)])
def test_viola_as_portia_counts_only_kills_after_her_choice(earlier_count: bool,
                                                             wins: bool) -> None:
    """Ann kills Ben, the captain with the most blood, then chooses the dead Portia."""
    deal = {"captains": {"0": "viola", "1": "puck", "2": "portia", "3": "iago"}}
    house = {"captains": {"viola": {"earlier_deaths_count": earlier_count}}}
    s = TableSession(GameSetup("captains-gambit", SEATS[:4],
                               {"warp_in": ["viola"], "house": house}, deal=deal))
    for name, seat, params in (
            ("correct", None, {"target": 2, "counter": "health", "value": 0, "reason": "x"}),
            ("correct", None, {"target": 1, "counter": "blood", "value": 1, "reason": "x"}),
            ("correct", None, {"target": 1, "counter": "health", "value": 1, "reason": "x"}),
            ("strike", 0, {"target": 1}), ("resolve", 0, {}),
            ("choose_corpse", 0, {"target": 2})):
        s.submit(Action(name, seat, params))
    assert (s.outcome is not None and s.outcome.winners == (0,)) is wins
