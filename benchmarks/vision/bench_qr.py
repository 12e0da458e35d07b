"""QR benchmark: read rate on a hard rendered set by module size and tilt, and cost per frame.

Run from the repository root: .venv/bin/python benchmarks/vision/bench_qr.py [--frames N]

Frames come from tools/synthetic_table.py (seeded): 1280x720, 4 stickers per frame on a
textured table, mild blur (0 to 1 px), noise, uneven light, JPEG 70-90, one sticker in four
with glare. "fast" is the single zxing-cpp pass a camera loop runs on every frame;
"upscaled" adds zxing-cpp on a CLAHE + sharpened 2x upscale; "+zbar" adds ZBar on that
upscale too (what `companion scan` runs on a photo). A false read is a payload that is not
in the frame. OpenCV runs on one thread, as on one core of a Pi.

``--frames-per-scene N`` (default 16) also watches each scene as a still table for N frames
(the same cards, fresh noise and JPEG each frame) through the camera loop's passes and
tracker: a code counts once the tracker reports it. "watched": the loop as it was (the
equalised upscale of one band a frame, on the raw frame; a card settled when read in 3 of 8
frames); "averaged": as it is (two careful looks taken in turn, on the average of the still
frames, companion/vision/still.py; 3 of 16 frames, so that a code only the careful pass
reads, which sees each band every fourth frame, can settle).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import cv2  # noqa: E402

import companion.games  # noqa: E402, F401  (registers the games and their stickers)
from companion.engine import all_components  # noqa: E402
from companion.runtime.camera_loop import careful_codes  # noqa: E402
from companion.vision.qr import read_codes, read_codes_in_tile  # noqa: E402
from companion.vision.still import StillAverage  # noqa: E402
from companion.vision.tracker import ReadingTracker  # noqa: E402
from tools.synthetic_table import Scene, render  # noqa: E402

PX_PER_MM = 1280 / 600
MODULE_PX = (1.5, 2.0, 2.5, 3.2, 4.0)
TILTS = (0, 15, 25, 35, 45)


def watch(scene: Scene, frames: int, now: bool) -> tuple[set[str], int]:
    """The codes the camera loop's tracker reports over ``frames`` frames of a still scene:
    the loop as it is (``now``: the careful looks in turn on the average of the still frames,
    a card settled in 3 of 16 frames) or as it was (one look on the raw frame, 3 of 8)."""
    tracker = ReadingTracker() if now else ReadingTracker(window=8, forget_frames=12)
    still = StillAverage()
    reported: set[str] = set()
    for index in range(frames):
        frame, _ = render(replace(scene, frame=index + 1))
        careful = careful_codes(still, frame, index) if now else \
            read_codes_in_tile(frame, index % 4)
        codes = read_codes(frame, thorough=False) + careful
        reported |= {r["payload"] for r in tracker.update(codes, []) if r["type"] == "card"}
    return reported, 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=4, help="frames per bucket (4 codes each)")
    parser.add_argument("--frames-per-scene", type=int, default=16,
                        help="frames of each scene watched as a still table (0: none)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    payloads = [c.payload for c in all_components() if c.marker is None]  # QR stickers
    pick = random.Random(7)
    fast_ms: list[float] = []
    thorough_ms: list[float] = []
    upscaled_ms: list[float] = []
    tile_ms: list[float] = []
    false_reads = 0
    watched = {"raw": [0, 0], "still": [0, 0]}
    print(f"{'px/module':>9} {'tilt':>5} {'codes':>6} {'fast':>7} {'upscaled':>9} {'+zbar':>7}"
          f" {'watched':>8} {'averaged':>9}")
    for module_px in MODULE_PX:
        for tilt in TILTS:
            codes = fast_hits = upscaled_hits = thorough_hits = 0
            seen = {"raw": 0, "still": 0}
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
                for mode in ("raw", "still") if args.frames_per_scene else ():
                    reported, wrong = watch(scene, args.frames_per_scene, mode == "still")
                    seen[mode] += len(reported & set(present))
                    false_reads += len(reported - set(present)) + wrong
            for mode in seen:
                watched[mode][0] += seen[mode]
                watched[mode][1] += codes
            print(f"{module_px:>9} {tilt:>5} {codes:>6} {fast_hits / codes:>7.0%}"
                  f" {upscaled_hits / codes:>9.0%} {thorough_hits / codes:>7.0%}"
                  f" {seen['raw'] / codes:>8.0%} {seen['still'] / codes:>9.0%}")
    print(f"false reads: {false_reads}")
    if args.frames_per_scene:
        print(f"watched for {args.frames_per_scene} frames: the loop as it was (one careful look"
              f" on the raw frame, 3 reads of 8) {watched['raw'][0] / watched['raw'][1]:.3f},"
              f" as it is (two looks in turn on the still average, 3 of 16)"
              f" {watched['still'][0] / watched['still'][1]:.3f}")
    print(f"ms per 1280x720 frame, median (p95): fast {statistics.median(fast_ms):.1f}"
          f" ({statistics.quantiles(fast_ms, n=20)[-1]:.1f}), upscaled"
          f" {statistics.median(upscaled_ms):.1f}, +zbar {statistics.median(thorough_ms):.1f},"
          f" one band of the upscaled pass (camera loop)"
          f" {statistics.median(tile_ms):.1f}")


if __name__ == "__main__":
    main()
