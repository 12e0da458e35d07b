"""How safe reading a blurred marker by likeness is (companion/vision/markers.find_blurred),
against the square detector alone: markers with bits damaged at random, and markers under a
lamp's glare or a shadow; each read as itself, as another, or not at all.

Run from the repository root: .venv/bin/python benchmarks/vision/bench_likeness.py [--trials N]

Each trial is one sticker close up (tools/synthetic_board.sticker_close_up: 5 px a marker cell,
as the board reader resamples it, on a dark piece, turned at random, with 0 to 2 cells of
motion blur and noise), a marker of one game, searched among that game's markers as a board
does. Any two markers differ in at least 11 of their 36 bits: the detector corrects 2, so it
misreads only with 9 wrong; likeness picks the nearest code, so scattered damage of 6 or more
bits can bring a marker nearer another.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np  # noqa: E402

import companion.games  # noqa: E402,F401  (registers every game's markers)
from companion.engine import marker_component  # noqa: E402
from companion.engine.components import REGISTRY  # noqa: E402
from companion.stickers import marker_matrix  # noqa: E402
from companion.vision.markers import find_blurred, scan_markers  # noqa: E402
from tools.synthetic_board import sticker_close_up  # noqa: E402

GAMES = ("gambit-of-kings", "gambit-6x6", "captain-flip")
SIDE = 40  # the marker's side in pixels: 8 cells of 5
BOX = (50, 50, 150, 150)


def outcome(found: list[str], payload: str) -> str:
    if not found:
        return "none"
    return "itself" if found == [payload] else "another"


def trial(seed: int, flipped: int, spot: bool, sharp: bool) -> tuple[str, str]:
    """One sticker: what likeness and the detector read."""
    rng = random.Random(seed)
    numbers = REGISTRY.marker_numbers(GAMES[seed % len(GAMES)])
    number = rng.choice(numbers)
    cells = np.array(marker_matrix(number), np.uint8)
    for r, c in rng.sample([(r, c) for r in range(1, 7) for c in range(1, 7)], flipped):
        cells[r, c] ^= 1
    glare = (rng.choice([-1, 1]) * rng.uniform(150, 300), rng.uniform(-15, 15),
             rng.uniform(-15, 15)) if spot else None
    blur = rng.uniform(0.05, 0.5) if sharp else rng.uniform(0.05, 2.0)
    image = sticker_close_up(cells, rng.uniform(0, 90), blur, seed, spot=glare)
    payload = marker_component(number).payload
    by_likeness = find_blurred(image, BOX, SIDE, numbers)
    return (outcome([by_likeness.text] if by_likeness else [], payload),
            outcome([c.text for c in scan_markers(image).codes], payload))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=360, help="stickers a row")
    trials = parser.parse_args().trials
    rows = [(f"{n} bits flipped, 0-2 cells of blur", n, False, False) for n in (0, 3, 5, 6, 7, 8)]
    rows += [(f"{n} bits flipped, sharp (0-0.5 cell)", n, False, True) for n in (8, 10)]
    rows += [("glare or a shadow, 0-2 cells of blur", 0, True, False)]
    print(f"{trials} stickers a row (the three board games' markers, in turn)")
    print(f"{'case':40} {'likeness: itself / another / none':36} detector: itself / another / none")
    for label, flipped, spot, sharp in rows:
        likeness, detector = Counter(), Counter()
        for seed in range(trials):
            a, b = trial(seed, flipped, spot, sharp)
            likeness[a] += 1
            detector[b] += 1
        print(f"{label:40} {likeness['itself']:>8} / {likeness['another']:>3} / "
              f"{likeness['none']:<19} {detector['itself']:>8} / {detector['another']:>3} / "
              f"{detector['none']}")


if __name__ == "__main__":
    main()
