"""QR benchmark: read rate on a hard rendered set by module size and tilt, and cost per frame.

Run from the repository root: .venv/bin/python benchmarks/vision/bench_qr.py [--frames N]

Frames come from tools/synthetic_table.py (seeded): 1280x720, 4 stickers per frame on a
textured table, mild blur (0 to 1 px), noise, uneven light, JPEG 70-90, one sticker in four
with glare. "fast" is the single zxing-cpp pass a camera loop runs on every frame;
"upscaled" adds zxing-cpp on a CLAHE + sharpened 2x upscale; "+zbar" adds ZBar on that
upscale too (what `companion scan` runs on a photo). A false read is a payload that is not
in the frame. OpenCV runs on one thread, as on one core of a Pi.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import cv2  # noqa: E402

from companion.engine import all_components  # noqa: E402
from companion.vision.qr import read_codes, read_codes_in_tile  # noqa: E402
from tools.synthetic_table import Scene, render  # noqa: E402

PX_PER_MM = 1280 / 600
MODULE_PX = (1.5, 2.0, 2.5, 3.2, 4.0)
TILTS = (0, 15, 25, 35, 45)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=4, help="frames per bucket (4 codes each)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    payloads = [c.payload for c in all_components()]
    pick = random.Random(7)
    fast_ms: list[float] = []
    thorough_ms: list[float] = []
    upscaled_ms: list[float] = []
    tile_ms: list[float] = []
    false_reads = 0
    print(f"{'px/module':>9} {'tilt':>5} {'codes':>6} {'fast':>7} {'upscaled':>9} {'+zbar':>7}")
    for module_px in MODULE_PX:
        for tilt in TILTS:
            codes = fast_hits = upscaled_hits = thorough_hits = 0
            for _ in range(args.frames):
                scene = Scene(pick.sample(payloads, 4), tilt_deg=tilt,
                              module_mm=module_px / PX_PER_MM, blur_px=pick.uniform(0, 1.0),
                              glare_on=[0] if pick.random() < 0.25 else [],
                              uneven_light=pick.uniform(0, 0.6), noise=pick.uniform(0, 5),
                              jpeg_quality=pick.randint(70, 90), seed=pick.randrange(10**6))
                frame, present = render(scene)
                codes += len(present)
                started = time.perf_counter()
                fast = {r.text for r in read_codes(frame, thorough=False)}
                fast_ms.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                upscaled = {r.text for r in read_codes(frame, thorough=True, zbar=False)}
                upscaled_ms.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                thorough = {r.text for r in read_codes(frame, thorough=True)}
                thorough_ms.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                read_codes_in_tile(frame, pick.randrange(4))
                tile_ms.append((time.perf_counter() - started) * 1000)
                false_reads += len((fast | upscaled | thorough) - set(present))
                fast_hits += len(fast & set(present))
                upscaled_hits += len(upscaled & set(present))
                thorough_hits += len(thorough & set(present))
            print(f"{module_px:>9} {tilt:>5} {codes:>6} {fast_hits / codes:>7.0%}"
                  f" {upscaled_hits / codes:>9.0%} {thorough_hits / codes:>7.0%}")
    print(f"false reads: {false_reads}")
    print(f"ms per 1280x720 frame, median (p95): fast {statistics.median(fast_ms):.1f}"
          f" ({statistics.quantiles(fast_ms, n=20)[-1]:.1f}), upscaled"
          f" {statistics.median(upscaled_ms):.1f}, +zbar {statistics.median(thorough_ms):.1f},"
          f" one band of the upscaled pass (camera loop)"
          f" {statistics.median(tile_ms):.1f}")


if __name__ == "__main__":
    main()
