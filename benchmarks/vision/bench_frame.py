"""Per-frame cost of the camera loop on one core, and the memory of the running reader.

Run from the repository root: .venv/bin/python benchmarks/vision/bench_frame.py [--frames N]

The work done for each 1280x720 frame by companion/runtime/camera_loop.py: the fast QR pass
over the whole frame, the upscaled QR pass on one quarter of it, the settle gate (is the roll
still moving?), the pip-dice reader, and the tracker. The service reads dice only once a roll
has settled, so "dice" is the time of a settled frame's read, and "frame" the whole of such a
frame (every frame here is read, the worst case). OpenCV and onnxruntime run on one thread
(one core of a Pi has no more to give).
Frames: the fixture frames with cards (fixtures/images/qr) and with dice
(fixtures/images/dice), alternating. Memory: the peak resident size of this process.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from companion.settings import models_dir  # noqa: E402
from companion.vision.dice import DiceReader  # noqa: E402
from companion.vision.images import load_image  # noqa: E402
from companion.vision.motion import SettleGate  # noqa: E402
from companion.vision.qr import read_codes, read_codes_in_tile  # noqa: E402
from companion.vision.tracker import ReadingTracker  # noqa: E402


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=200)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    before = rss_mb()
    reader = DiceReader(models_dir() / "dice", threads=1)
    frames = [load_image(p) for p in sorted((ROOT / "fixtures/images/qr").glob("*720p.jpg"))]
    frames += [load_image(p) for p in sorted((ROOT / "fixtures/images/dice").glob("*720p.jpg"))]
    frames = [f for f in frames if f.shape[:2] == (720, 1280)]
    tracker = ReadingTracker()
    gate = SettleGate()
    parts: dict[str, list[float]] = {"qr fast": [], "qr band": [], "settle": [], "dice": [],
                                     "frame": []}
    for i in range(args.frames):
        frame = frames[i % len(frames)]
        t0 = time.perf_counter()
        codes = read_codes(frame, thorough=False)
        t1 = time.perf_counter()
        codes += read_codes_in_tile(frame, i % 4, 4)
        t2 = time.perf_counter()
        gate.moving(frame)
        t3 = time.perf_counter()
        dice = reader.read(frame, codes=codes)
        t4 = time.perf_counter()
        tracker.update(codes, dice)
        t5 = time.perf_counter()
        for name, took in (("qr fast", t1 - t0), ("qr band", t2 - t1), ("settle", t3 - t2),
                           ("dice", t4 - t3), ("frame", t5 - t0)):
            parts[name].append(took * 1000)
    print(f"{args.frames} frames of 1280x720 ({len(frames)} different), one thread")
    for name, values in parts.items():
        p95 = statistics.quantiles(values, n=20)[-1]
        print(f"  {name:8} median {statistics.median(values):6.1f} ms   p95 {p95:6.1f} ms")
    print(f"peak memory (RSS): {rss_mb():.0f} MB (models and libraries loaded:"
          f" +{rss_mb() - before:.0f} MB over the interpreter with OpenCV and numpy)")


if __name__ == "__main__":
    main()
