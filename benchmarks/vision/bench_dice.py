"""Pip-dice accuracy with the project's scorer, on photos the model never saw.

Run from the repository root: .venv/bin/python benchmarks/vision/bench_dice.py

1. The 40 held-out photos of ../shared/data/dice/byler-train (training/dice/split.py): the
   "same setup" figure. The other 160 trained the model; none of the 40 were used for tuning.
2. The rendered pip dice in fixtures/images/dice (five dice colours, a renderer the model
   never trained on), scored the same way.
Both through `companion scan --json`, exactly as ../shared/tools/dice_score.py runs it.
Harder "other setups" sets are built by training/dice/evaluate.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from training.dice.split import link_held_out  # noqa: E402

SHARED = ROOT.parent / "shared"
PHOTOS = SHARED / "data" / "dice" / "byler-train"
SCORER = SHARED / "tools" / "dice_score.py"
COMPANION = Path(sys.executable).with_name("companion")


def score(folder: Path) -> str:
    done = subprocess.run([sys.executable, str(SCORER), str(folder), "--", str(COMPANION),
                           "scan", "--json"], capture_output=True, text=True, check=False)
    return done.stdout + done.stderr


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        print("== held-out photos (same setup)")
        print(score(link_held_out(Path(tmp) / "held-out", PHOTOS)))
        rendered = Path(tmp) / "rendered"
        for sub in ("images", "labels"):
            (rendered / sub).mkdir(parents=True)
        for image in sorted((ROOT / "fixtures/images/dice").glob("*.jpg")):
            (rendered / "images" / image.name).symlink_to(image)
            truth = json.loads(image.with_suffix(".json").read_text())["dice"]
            import cv2  # only here: the scorer's labels need the image size

            height, width = cv2.imread(str(image)).shape[:2]
            lines = [f"{d['value'] - 1} {(d['box'][0] + d['box'][2] / 2) / width:.6f}"
                     f" {(d['box'][1] + d['box'][3] / 2) / height:.6f}"
                     f" {d['box'][2] / width:.6f} {d['box'][3] / height:.6f}" for d in truth]
            (rendered / "labels" / f"{image.stem}.txt").write_text("\n".join(lines) + "\n")
        print("== rendered dice (other colours, never trained on)")
        print(score(rendered))


if __name__ == "__main__":
    main()
