"""Write recorded camera sessions: fixtures/frames/<case>/NNNN.jpg, frames a camera over the
table would give, for the service's camera tests (a card shown after a bluff call, say).

Run from the repository root: python -m tools.make_session_fixtures
"""

from __future__ import annotations

from pathlib import Path

import cv2

from tools.synthetic_dice import scene as dice_scene
from tools.synthetic_table import Scene, render

OUT = Path(__file__).resolve().parent.parent / "fixtures" / "frames"

# Each case: (payloads in view, number of frames), in order.
CASES: dict[str, list[tuple[list[str], int]]] = {
    # An empty table, then an Overcharge permit held up for the camera, then gone again.
    "shows-overcharge": [([], 1), (["GC1/CG/PERMIT/OVERCHARGE/2"], 5), ([], 1)],
}
# Each case: (Burke's Gambit die faces in view, number of frames), in order.
DICE_CASES: dict[str, list[tuple[list[str], int]]] = {
    # A Quarantine rolled and left still on the table.
    "rolls-quarantine": [([], 1), (["QUARANTINE"], 5)],
}


def main() -> None:
    for case, steps in CASES.items():
        folder = OUT / case
        folder.mkdir(parents=True, exist_ok=True)
        number = 0
        for step, (payloads, count) in enumerate(steps):
            # The same scene for the whole step (a card held still), fresh JPEG noise.
            frame, _ = render(Scene(payloads, tilt_deg=10, seed=step))
            for _ in range(count):
                number += 1
                cv2.imwrite(str(folder / f"{number:04d}.jpg"), frame,
                            [cv2.IMWRITE_JPEG_QUALITY, 60 + number])
        print(f"{case}: {number} frames")
    for case, dice_steps in DICE_CASES.items():
        folder = OUT / case
        folder.mkdir(parents=True, exist_ok=True)
        number = 0
        for step, (faces, count) in enumerate(dice_steps):
            image, _ = dice_scene(faces, seed=50 + step, size=(1280, 720))
            for _ in range(count):
                number += 1
                cv2.imwrite(str(folder / f"{number:04d}.jpg"), image,
                            [cv2.IMWRITE_JPEG_QUALITY, 60 + number])
        print(f"{case}: {number} frames")


if __name__ == "__main__":
    main()
