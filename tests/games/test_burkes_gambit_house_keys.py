"""Burke's Gambit: data keys and table options the audit found unread or unchecked
(faces.*.cancellable, the engines_to_earth option in the summary, impossible setup numbers)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from companion.engine import SetupError, TableSession, get_game
from companion.games.burkes_gambit.book import _check, _packaged
from tests.games.test_burkes_gambit_rules import KNOWN, act, table


def _cancel_in_reserve(house: dict[str, Any] | None) -> TableSession:
    """Ann (seat 0) holds a Cancel in reserve; it is Ben's turn."""
    s = table(deal=KNOWN, options={"house": house} if house else {})
    act(s, "roll", 0, face="cancel")
    act(s, "reserve_die", 0)
    return s


def _cancels(s: TableSession, seat: int) -> list[tuple[Any, ...]]:
    return [p.choices for a in s.legal_actions(seat) if a.name == "cancel" for p in a.params]


def test_a_cancellable_engine_waits_in_a_cancel_window_and_can_be_cancelled() -> None:
    s = _cancel_in_reserve({"faces": {"engine": {"cancellable": True}}})
    act(s, "roll", 1, face="engine")
    view = s.view(None)
    assert view["phase"] == "cancel" and view["engines"] == 0
    assert _cancels(s, 0) == [("waiting",)]
    act(s, "cancel", 0, what="waiting")
    view = s.view(None)
    assert view["engines"] == 0 and view["turn"] == 2 and view["bag"] == 21
    assert "Ben's Engine power-up is cancelled; the dice go back to the bag" in \
        s.history[-1].notes


def test_a_cancellable_engine_nobody_cancels_powers_up_once_and_ends_the_turn() -> None:
    s = _cancel_in_reserve({"faces": {"engine": {"cancellable": True}}})
    act(s, "roll", 1, face="engine")
    act(s, "carry_out", 1)
    view = s.view(None)
    assert view["phase"] == "turn" and view["engines"] == 1 and view["turn"] == 2
    assert view["bag"] == 19  # Ann's reserved Cancel and the engine die in the centre
    # Nobody holding a Cancel: no window, as before.
    quiet = table(deal=KNOWN, options={"house": {"faces": {"engine": {"cancellable": True}}}})
    act(quiet, "roll", 0, face="engine")
    assert quiet.view(None)["engines"] == 1 and quiet.view(None)["turn"] == 1


def test_a_cancellable_engine_reaching_earth_starts_the_vote() -> None:
    s = table(deal=KNOWN, options={"engines_to_earth": 1,
                                   "house": {"faces": {"engine": {"cancellable": True}}}})
    act(s, "roll", 0, face="cancel")
    act(s, "reserve_die", 0)
    act(s, "roll", 1, face="engine")
    act(s, "carry_out", 1)
    assert s.view(None)["phase"] == "vote"


def test_the_engine_is_not_cancellable_by_default() -> None:
    s = _cancel_in_reserve(None)
    act(s, "roll", 1, face="engine")
    assert s.view(None)["engines"] == 1 and _cancels(s, 0) == []


@pytest.mark.parametrize(("face", "params"), [("id_check", {"target": 2}),
                                              ("stall", {}), ("quarantine", {"target": 3})])
def test_a_face_that_is_not_cancellable_is_never_offered_to_cancel(
        face: str, params: dict[str, Any]) -> None:
    s = _cancel_in_reserve({"faces": {face: {"cancellable": False}}})
    act(s, "roll", 1, face=face)
    act(s, "resolve", 1, **params)
    view = s.view(None)
    assert view["phase"] == "turn" and view["turn"] == 2  # no window: it happened
    assert _cancels(s, 0) == []  # nor a Stall or a quarantine left standing
    assert "cancel" not in [a.name for a in s.legal_actions(0)]


def test_a_cancel_that_is_not_cancellable_cannot_be_cancelled() -> None:
    s = _cancel_in_reserve({"faces": {"cancel": {"cancellable": False}}})
    act(s, "roll", 1, face="cancel")
    act(s, "reserve_die", 1)  # Ben holds one too
    act(s, "roll", 2, face="id_check")
    act(s, "resolve", 2, target=3)
    act(s, "cancel", 0, what="waiting")  # Ann cancels Cat's ID check: Ben may not answer
    view = s.view(None)
    assert view["phase"] == "turn" and view["turn"] == 3
    assert view["players"][1]["reserve"] == "cancel"


def test_the_data_file_must_say_whether_each_face_is_cancellable() -> None:
    data = copy.deepcopy(_packaged())
    del data["faces"]["engine"]["cancellable"]
    with pytest.raises(SetupError, match="'faces.engine.cancellable' must be true or false"):
        _check(data)


def test_the_summary_shows_the_tables_engines_to_earth() -> None:
    rules = get_game("burkes-gambit")
    line = next(x for x in rules.rules_summary({"engines_to_earth": 7}).splitlines()
                if x.startswith("Engine power-ups"))
    assert line.startswith("Engine power-ups to reach Earth: 7 at this table")
    assert "7 at this table" not in rules.rules_summary()


def test_the_summary_marks_the_secret_vote_as_house_and_the_seeds_tie_break_not() -> None:
    """The seed: "If there is a tie and the Captain is still alive, then the Captain breaks
    the tie. If there is a tie and the Captain is dead, then no one is sacrificed." The
    secret vote is our reading of its count of three."""
    text = get_game("burkes-gambit").rules_summary()
    assert "shown together (the seed's count of three) [house]." in text
    assert "nobody is ejected if the Captain is dead." in text


def test_impossible_dice_are_refused_at_setup_naming_the_key() -> None:
    with pytest.raises(SetupError, match="rule 'setup.dice' must be at least 1"):
        table(options={"house": {"setup": {"dice": 0}}})
    # Each power-up keeps its die in the centre: fewer dice than that, and Earth is out of reach.
    with pytest.raises(SetupError, match=r"rule 'setup.engines_to_earth.4' \(3\) is more than"
                                         r" rule 'setup.dice' \(2\)"):
        table(options={"house": {"setup": {"dice": 2}}})
    with pytest.raises(SetupError, match=r"option \"engines_to_earth\" \(5\) is more than rule"
                                         r" 'setup.dice' \(4\)"):
        table(options={"house": {"setup": {"dice": 4}}, "engines_to_earth": 5})
    assert table(options={"house": {"setup": {"dice": 3}}}).state.to_earth == 3


def test_a_cancellable_engine_rerolled_waits_too() -> None:
    s = _cancel_in_reserve({"faces": {"engine": {"cancellable": True}}})
    act(s, "roll", 1, face="id_check")
    act(s, "reroll", 1, face="engine")
    assert s.view(None)["phase"] == "cancel" and _cancels(s, 0) == [("waiting",)]
