"""Write the taught-dice fixtures: fixtures/images/taught/teach/<FACE>-<n>.jpg (one die each, to
teach from) and fixtures/images/taught/<case>.jpg with <case>.json (the dice in the scene).

Run from the repository root: python -m tools.make_taught_fixtures
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2

from tools.synthetic_dice import BURKE_FACES, scene

OUT = Path(__file__).resolve().parent.parent / "fixtures" / "images" / "taught"
TEACH_SIZE = (200, 200)


def main() -> None:
    (OUT / "teach").mkdir(parents=True, exist_ok=True)
    for i, face in enumerate(BURKE_FACES):
        for n in range(3):
            image, _ = scene([face], seed=100 + 10 * i + n, size=TEACH_SIZE)
            cv2.imwrite(str(OUT / "teach" / f"{face}-{n + 1}.jpg"), image,
                        [cv2.IMWRITE_JPEG_QUALITY, 90])
    cases = {"six-dice": dict(blur=0.0, jpeg=90), "six-dice-blurred": dict(blur=1.0, jpeg=60),
             "ten-dice": dict(blur=0.0, jpeg=85)}
    for index, (name, effects) in enumerate(cases.items()):
        faces = random.Random(index).choices(BURKE_FACES, k=10 if "ten" in name else 6)
        image, truth = scene(faces, seed=2000 + index, **effects)  # type: ignore[arg-type]
        cv2.imwrite(str(OUT / f"{name}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        (OUT / f"{name}.json").write_text(json.dumps({"dice": truth}, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
