"""The rules summary (`companion rules gambit-6x6`) follows the table's house edits: each
reading the engine plays is the one the summary states, marked [house]."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.gambit_6x6 import RULES

HOUSE = "[house]"
SEED_READINGS = ("2 Movement and 2 Action", "Player Powers (option")  # the rulebook's, unmarked


def line(text: str, start: str) -> str:
    found = [x.strip() for x in text.splitlines() if x.strip().startswith(start)]
    assert len(found) == 1, (start, found)
    return found[0]


@pytest.mark.parametrize(("house", "start", "packaged", "edited"), [
    ({"challenge": {"juggernaut_skips_turn": False}}, "Juggernaut:",
     "Using it spends your next turn", "Using it does not spend your next turn"),
    ({"challenge": {"witch_doctor_skips_turn": False}}, "Witch Doctor:",
     "Using it spends your next turn", "Using it does not spend your next turn"),
    ({"challenge": {"witch_doctor_needs_powers": False}}, "Witch Doctor:",
     "must hold a power of every group", "takes the claimed power and gives nothing"),
    ({"setup": {"most_moats": 2}}, "2 Movement and 2 Action",
     "two Moats rolled: roll all again", "three Moats rolled: roll all again"),
    ({"setup": {"most_moats": 2}}, "A team never holds more than",
     "more than one Moat,", "more than two Moats,"),
    ({"moves": {"sit_on_own": False}}, "Sitting: may", "its own team's pieces too", None),
    ({"moves": {"sit_on_own": False}}, "Sitting: sits", None, "opponents' pieces only"),
    ({"moves": {"push_stacks": False}}, "Bulldozer: may", "may push a stack", None),
    ({"moves": {"push_stacks": False}}, "Bulldozer: pushes", None, "a lone piece only"),
    ({"moves": {"pass_if_only_claims": False}}, "A p",
     "A player who could only act by claiming a power may pass",
     "A pass only when nothing at all, claims included, can be done"),
    ({"challenge": {"lose_sat_on": False}}, "The piece lost",
     "may be a sat-on one", "may not be a sat-on one"),
    ({"challenge": {"kamikaze_keeps": "movement"}}, "Kamikaze: declared",
     "the Kamikaze keeps no power", "the Kamikaze keeps its Movement power"),
    ({"dice": {"wild": [6]}}, "Player Powers (option",
     "(5 and 6 wild)", "(6 wild)"),
])
def test_a_house_edit_changes_the_summary_line_that_states_it(
        house: dict[str, Any], start: str, packaged: str | None, edited: str | None) -> None:
    before, after = RULES.rules_summary(), RULES.rules_summary({"house": house})
    if packaged is not None:
        assert packaged in line(before, start)
    if edited is None:  # the packaged reading's line is gone
        assert start not in after
    else:
        shown = line(after, start)
        assert edited in shown and (HOUSE in shown or start in SEED_READINGS), shown
        assert packaged is None or packaged not in shown
        assert edited not in before


def test_the_summary_no_longer_says_a_player_power_spends_a_turn_when_it_does_not() -> None:
    house = {"challenge": {"juggernaut_skips_turn": False, "witch_doctor_skips_turn": False}}
    assert "next turn is spent" not in RULES.rules_summary({"house": house})
