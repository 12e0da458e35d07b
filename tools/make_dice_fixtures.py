"""Write pip-dice fixture frames: fixtures/images/dice/<case>.jpg and <case>.json (the truth).

Run from the repository root: python -m tools.make_dice_fixtures. Rendered by
tools/synthetic_dice.py (flat top faces, no side faces): a setup the dice model never saw in
training, so they check that it generalises, not what it scores on real photos.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2

from tools.synthetic_dice import scene

OUT = Path(__file__).resolve().parent.parent / "fixtures" / "images" / "dice"
FACES = ["1", "2", "3", "4", "5", "6"]
# (body BGR, pip BGR, die side px, frame size, blur, dice)
CASES = {
    "white-black-pips-640": ((235, 235, 235), (25, 25, 25), 46, (640, 480), 0.0, 8),
    "red-white-pips-640": ((40, 40, 190), (240, 240, 240), 44, (640, 480), 0.0, 8),
    "ivory-red-pips-720p": ((200, 225, 235), (30, 30, 180), 40, (1280, 720), 0.0, 8),
    "blue-white-pips-blur-720p": ((150, 70, 30), (240, 240, 240), 42, (1280, 720), 1.0, 8),
    "black-white-pips-640": ((35, 35, 35), (235, 235, 235), 46, (640, 480), 0.0, 8),
    # close up (a phone photo, a camera low over a small tray): one pip is as big as a die
    # of the frames above
    "white-black-pips-closeup-640": ((235, 235, 235), (25, 25, 25), 130, (640, 480), 0.0, 2),
    "green-white-pips-closeup-720p": ((60, 150, 40), (240, 240, 240), 230, (1280, 720), 0.0, 3),
    # far (a big photo of a whole table): dice a third the size the detector sees best
    "ivory-black-pips-far-1080p": ((215, 235, 240), (30, 30, 30), 24, (1920, 1080), 0.0, 8),
}
# crowded: dice touching each other (a coarse level may take a group for one die)
CROWDED = {"red-white-pips-crowded-640": ((40, 40, 190), (240, 240, 240), 50, (640, 480), 0.0, 14)}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for index, (name, (body, ink, side, size, blur, count)) in enumerate(
            [*CASES.items(), *CROWDED.items()]):
        faces = random.Random(index).choices(FACES, k=count)
        image, truth = scene(faces, seed=3000 + index, size=size, side=side, body=body, ink=ink,
                             blur=blur, spacing=0.82 if name in CROWDED else 1.0)
        cv2.imwrite(str(OUT / f"{name}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        dice = [{"value": int(str(t["value"])), "box": t["box"]} for t in truth]
        (OUT / f"{name}.json").write_text(json.dumps({"dice": dice}, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
