"""Captain Flip's golden games (fixtures/transcripts/captain_flip): besides their expected
output (tests/games/test_goldens.py), the final scores worked out by hand in each file's
comments, so that regenerating the expected files cannot quietly change a result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import TRANSCRIPTS
from tests.games.goldens import replayed, run_replay

GAME = "captain_flip"

# name -> (winners, each player's total, each player's coins held), from the files' comments
# (line numbers count the comment lines, as an editor shows them)
FINISHED = {
    "a-two-players-the-map-breaks-a-tie": ([0], [34, 34], [20, 28]),
    "b-three-players-the-kraken-race": ([0], [35, 26, 33], [29, 19, 18]),
    "c-four-players-three-gunners-lose-a-won-tie": ([2], [35, 42, 42, 38], [13, 34, 15, 24]),
    "d-five-players": ([3], [22, 24, 22, 30, 21], [22, 8, 12, 18, 9]),
    "a-five-players-the-bag-runs-out-in-the-last-round": ([4], [39, 40, 38, 32, 40],
                                                          [29, 33, 26, 29, 28]),
    "a-two-players-the-first-player-ends-the-round": ([0], [36, 18], [14, 13]),
}

REFUSED = {
    "rejected-a-second-flip": (6, "cannot flip by seat 0 (Ann): the tile was flipped once"
                                  " already: the Gunner must be placed as it is"),
    "rejected-a-full-column": (13, "cannot place by seat 0 (Ann): a2 already holds a tile"
                                   " (Swabby): column a is full"),
    "rejected-a-cost-space-without-a-coin": (4, "cannot place by seat 0 (Ann): e3 costs 1 coin"
                                                " to cover and Ann has none"),
    "rejected-a-draw-when-none-is-expected": (4, "cannot draw by seat 0 (Ann): not now: Ann"
                                                 " keeps or flips the Cook, then places it"),
    "rejected-a-monkey-flip-with-no-monkey-waiting": (
        6, "cannot monkey_flip by seat 0 (Ann): no Monkey is waiting to flip a tile (Ben draws"
           " a tile)"),
}


@pytest.mark.parametrize("name", sorted(FINISHED))
def test_whole_games_end_with_the_scores_worked_out_by_hand(
        name: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, report = replayed(GAME, name, capsys)
    view = report["view"]
    winners, totals, held = FINISHED[name]
    assert status == 0 and view["phase"] == "over"
    assert view["outcome"]["winners"] == winners
    assert [c["total"] for c in view["score"]["by_seat"]] == totals
    assert [p["coins"] for p in view["players"]] == held


def test_the_map_breaks_the_tie_and_three_gunners_lose(
        capsys: pytest.CaptureFixture[str]) -> None:
    _, tie = replayed(GAME, "a-two-players-the-map-breaks-a-tie", capsys)
    assert tie["view"]["outcome"]["reason"] == "map_breaks_tie"
    assert tie["view"]["treasure_map"] == 0
    _, lost = replayed(GAME, "c-four-players-three-gunners-lose-a-won-tie", capsys)
    assert lost["view"]["outcome"]["lost"] == [1] and lost["view"]["treasure_map"] == 1
    assert lost["view"]["outcome"]["places"] == [3, 4, 1, 2]


def test_the_monkey_chain_through_a_parrot(capsys: pytest.CaptureFixture[str]) -> None:
    status, report = replayed(GAME, "a-monkey-chain-through-a-parrot", capsys)
    ann = report["view"]["players"][0]
    assert status == 0 and ann["coins"] == 13
    assert {"c3 parrot", "c4 monkey", "c5 monkey", "e1 gunner"} <= set(ann["crew"])


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_bad_input_is_refused_with_its_reason(name: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    status, report = replayed(GAME, name, capsys)
    line, message = REFUSED[name]
    assert status == 3 and report["error"] == {"line": line, "message": message}


def test_there_are_golden_games_on_every_board() -> None:
    from tests.games.goldens import ALL

    names = {p.stem for p in ALL if p.parent.name == GAME}
    assert set(FINISHED) | set(REFUSED) | {"a-monkey-chain-through-a-parrot"} == names


def test_an_empty_bag_finishes_the_round_or_with_the_other_reading_ends_the_game(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The rulebook is silent on an empty bag: its last round is finished (Eve's turn passes,
    her Treasure Map coin taken); a table may end the game with the turn that emptied it."""
    name = "a-five-players-the-bag-runs-out-in-the-last-round"
    _, report = replayed(GAME, name, capsys)
    assert report["view"]["outcome"]["game_end"] == "columns"
    lines = (TRANSCRIPTS / GAME / f"{name}.jsonl").read_text().splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("{"))
    setup = json.loads(lines[first])
    setup["options"]["house"] = {"end": {"bag_empty_finishes_round": False}}
    lines[first] = json.dumps(setup)
    other = tmp_path / "other.jsonl"
    other.write_text("\n".join(lines) + "\n")
    _, ended = run_replay(other, capsys)
    assert ended["view"]["outcome"]["winners"] == [1]  # Ben 40, Eve 39: her turn never came
    assert [c["total"] for c in ended["view"]["score"]["by_seat"]] == [39, 40, 38, 32, 39]
    assert ended["view"]["outcome"]["game_end"] == "bag_empty"
