"""Pip-dice accuracy with the project's scorer, on photos the model never saw.

Run from the repository root: .venv/bin/python benchmarks/vision/bench_dice.py

1. The 40 held-out photos of ../shared/data/dice/byler-train (training/dice/split.py): the
   "same setup" figure. The other 160 trained the model; none of the 40 were used for tuning.
2. The other setups of ../shared/data/dice, all of whose photos the shipped model trained
   on: figures on trained-on photos, NOT "other setups" (those are the leave-one-setup-out
   figures of training/dice/loso.py, in the model card), scored with --match centre.
3. The rendered pip dice in fixtures/images/dice (five dice colours, a renderer the model
   never trained on), scored the same way.
All through `companion scan --json`, exactly as ../shared/tools/dice_score.py runs it.
4. The time a photo takes (`companion scan` looks at a photo at more levels than at a camera
   frame: see companion/vision/dice.py), one thread, and the peak memory of that process.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.vision.images import load_image  # noqa: E402
from training.dice.split import link_held_out  # noqa: E402

SHARED = ROOT.parent / "shared"
PHOTOS = SHARED / "data" / "dice" / "byler-train"
SCORER = SHARED / "tools" / "dice_score.py"
COMPANION = Path(sys.executable).with_name("companion")


def score(folder: Path, match: str = "iou") -> str:
    done = subprocess.run([sys.executable, str(SCORER), str(folder), "--match", match, "--",
                           str(COMPANION), "scan", "--json"], capture_output=True, text=True,
                          check=False)
    return done.stdout + done.stderr


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        print("== held-out photos (same setup)")
        print(score(link_held_out(Path(tmp) / "held-out", PHOTOS)))
        for setup in ("matteop65-webcam", "epanemu-cloth", "skovy-floor"):
            print(f"== {setup}: trained on (not an other-setups figure), --match centre")
            print(score(SHARED / "data" / "dice" / setup, "centre"))
        rendered = Path(tmp) / "rendered"
        for sub in ("images", "labels"):
            (rendered / sub).mkdir(parents=True)
        for image in sorted((ROOT / "fixtures/images/dice").glob("*.jpg")):
            (rendered / "images" / image.name).symlink_to(image)
            truth = json.loads(image.with_suffix(".json").read_text())["dice"]
            height, width = load_image(image).shape[:2]  # as stored, as the scorer sizes it
            lines = [f"{d['value'] - 1} {(d['box'][0] + d['box'][2] / 2) / width:.6f}"
                     f" {(d['box'][1] + d['box'][3] / 2) / height:.6f}"
                     f" {d['box'][2] / width:.6f} {d['box'][3] / height:.6f}" for d in truth]
            (rendered / "labels" / f"{image.stem}.txt").write_text("\n".join(lines) + "\n")
        print("== rendered dice (other colours, never trained on)")
        print(score(rendered))
    photo_times()


def photo_times() -> None:
    import resource
    import statistics
    import time

    import cv2

    from companion.settings import models_dir
    from companion.vision.dice import DiceReader

    cv2.setNumThreads(1)
    reader = DiceReader(models_dir() / "dice", threads=1)
    far = load_image(ROOT / "fixtures/images/dice/ivory-black-pips-far-1080p.jpg")
    photos = {"640x480": load_image(ROOT / "fixtures/images/dice/red-white-pips-640.jpg"),
              "1920x1080": far, "4000x2250": cv2.resize(far, (4000, 2250))}
    print("== a photo read by `companion scan` (pip dice only), one thread")
    for name, image in photos.items():
        times = []
        for _ in range(5):
            started = time.perf_counter()
            reader.read(image, thorough=True)
            times.append((time.perf_counter() - started) * 1000)
        print(f"  {name:9} median {statistics.median(times):6.0f} ms")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (RSS) of this process: {peak:.0f} MB")


if __name__ == "__main__":
    main()
