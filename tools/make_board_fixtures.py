"""Write the board fixture frames: fixtures/images/boards/<case>.jpg with <case>.json beside
each (what stands on each cell of each board, and what the reader must say).

Run from the repository root: python -m tools.make_board_fixtures. Every frame is rendered
(tools/board_scenes.py) from a position the rules reached in a seeded random game, with the
real stickers at their printed sizes; the bad inputs of issue 17 are made from the same
scenes: a board half out of the picture, a mirrored picture, two boards with one board's
corner stickers, a sticker of another game on a board, one sticker on two cells, a hand over
a board.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import cv2

from companion.engine import GameSetup, TableSession
from companion.engine.random_play import random_step
from tools.board_scenes import LOOKS, Layout, Physical, Placement, hand_over, lay_out, table_scene
from tools.synthetic_board import Light, View, render

OUT = Path(__file__).resolve().parent.parent / "fixtures" / "images" / "boards"
SEATS = ("Ann", "Ben", "Cat", "Dan")


def played(game: str, players: int, options: dict[str, Any], seed: int,
           steps: int | None) -> TableSession:
    """A table after ``steps`` random actions (None: to the end of the game)."""
    session = TableSession(GameSetup(game, SEATS[:players], options, seed=seed))
    rng = random.Random(seed)
    count = 0
    while session.outcome is None and (steps is None or count < steps):
        if random_step(session, rng) is None:
            break
        count += 1
    return session


def scene(session: TableSession, view: View, seed: int, light: Light | None = None,
          placement: Placement | None = None, **extra: Any) -> tuple[Any, Placement, Layout]:
    rules = session.rules
    placement = placement or Physical(rules).placement(session.state)
    shapes = [s for s in rules.physical_boards() if s.name in placement]
    layout = lay_out(shapes, LOOKS[rules.info.slug], random.Random(seed))
    frame = render(table_scene(rules, placement, view, light or Light(noise=2.0), layout,
                               seed=seed, **extra))
    return frame, placement, layout


def write(name: str, frame: Any, placement: Placement, expect: dict[str, Any],
          quality: int = 86) -> None:
    cv2.imwrite(str(OUT / f"{name}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    truth = {board: {cell: c.id for cell, c in sorted(cells.items())}
             for board, cells in placement.items()}
    (OUT / f"{name}.json").write_text(json.dumps({"boards": truth, **expect}, indent=1) + "\n")
    print(f"{name}: {sum(len(c) for c in truth.values())} stickers")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    kings = played("gambit-of-kings", 2, {}, 3, 24)
    frame, placement, _ = scene(kings, View(distance_mm=880, tilt_deg=25, yaw_deg=-8), 31,
                                Light(uneven=0.3, noise=2.5, blur_px=0.4))
    write("kings-720p-tilted", frame, placement, {"game": "gambit-of-kings", "placed": 1})
    six = played("gambit-6x6", 2, {}, 4, 12)
    frame, placement, _ = scene(six, View((1920, 1080), distance_mm=800, tilt_deg=10), 41)
    write("gambit-1080p", frame, placement, {"game": "gambit-6x6", "placed": 1})
    flip = played("captain-flip", 4, {"board": "C"}, 5, None)
    frame, placement, _ = scene(flip, View((2000, 1500), 66, 950, 10, 0), 51)
    scores = _scores(flip)
    write("flip-photo-4-boards", frame, placement,
          {"game": "captain-flip", "placed": 4, "scores": scores}, quality=84)

    # Bad input: each says what is wrong and yields no reading.
    frame, placement, _ = scene(kings, View(distance_mm=880, tilt_deg=25, look_at=(0, 170)),
                                61)
    write("kings-half-seen", frame, placement, {"game": "gambit-of-kings", "placed": 0,
                                                "problem": "corners of"})
    frame, placement, _ = scene(six, View(distance_mm=800, tilt_deg=10), 62)
    write("gambit-mirrored", cv2.flip(frame, 1), placement,
          {"game": "gambit-6x6", "placed": 0, "problem": "mirrored"})
    boards = Physical(flip.rules).placement(flip.state)
    first, second = sorted(boards)[:2]
    write("flip-two-boards-one-seat", _twins(flip, boards[first], boards[second], first),
          {first: boards[first]},
          {"game": "captain-flip", "placed": 0, "problem": "two boards carry"})
    foreign = Physical(six.rules).placement(six.state)
    cell = next(c for c in ("c3", "d3", "c4", "d4") if c not in foreign["6X6"])
    foreign["6X6"][cell] = next(c for c in Physical(kings.rules).placement(kings.state)
                                ["board"].values())
    frame, placement, _ = scene(six, View(distance_mm=800, tilt_deg=12), 64, placement=foreign)
    write("gambit-foreign-sticker", frame, placement,
          {"game": "gambit-6x6", "placed": 1, "check": "a sticker of Gambit of Kings"})
    doubled = Physical(six.rules).placement(six.state)
    first = sorted(doubled["6X6"])[0]
    empty = next(c for c in ("c3", "d3", "c4", "d4", "b3", "e4") if c not in doubled["6X6"])
    doubled["6X6"][empty] = doubled["6X6"][first]
    frame, placement, _ = scene(six, View(distance_mm=800, tilt_deg=12), 65, placement=doubled)
    write("gambit-one-sticker-two-cells", frame, placement,
          {"game": "gambit-6x6", "placed": 1, "check": "two places at once"})
    held = Physical(kings.rules).placement(kings.state)
    _, _, layout = scene(kings, View(distance_mm=880, tilt_deg=25, yaw_deg=-8), 31)
    hand = hand_over(kings.rules, layout, "board", "e5", random.Random(3))
    frame = render(table_scene(kings.rules, held, View(distance_mm=880, tilt_deg=25, yaw_deg=-8),
                               Light(noise=2.5), layout, [hand], seed=66))
    write("kings-hand-over-board", frame, held, {"game": "gambit-of-kings", "hand": True})


def _scores(session: TableSession) -> dict[str, int]:
    """Each board's end-of-game score, by the rules (the coins held left out, as a photo)."""
    from companion.games.captain_flip.scoring import final_scores

    return {f"{session.state.board}{s.seat + 1}": s.total - s.held
            for s in final_scores(session.state)}


def _twins(session: TableSession, left: Any, right: Any, name: str) -> Any:
    """Two boards side by side, both carrying the corner stickers of board ``name``."""
    rules = session.rules
    one = table_scene(rules, {name: left}, View(distance_mm=900), Light(noise=2.0),
                      Layout({name: (-190.0, 0.0, 3.0)}, seed=7), seed=67)
    other = table_scene(rules, {name: right}, View(distance_mm=900), Light(noise=2.0),
                        Layout({name: (190.0, 0.0, -4.0)}, seed=8), seed=67)
    one.boards += other.boards
    return render(one)


if __name__ == "__main__":
    main()
