"""Per-frame cost of the camera loop on one core, and the memory of the running reader.

Run from the repository root: .venv/bin/python benchmarks/vision/bench_frame.py [--frames N]

The work done for each 1280x720 frame by companion/runtime/camera_loop.py: the fast QR pass
over the whole frame, the careful QR pass on one quarter of the still average, the settle gate
(is the roll still moving?), the pip-dice reader, the tracker, and the boards (BoardWatch:
placing them, the coarse look at each, the cells read where they changed). The service reads
dice only once a roll has settled, so "dice" is the time of a settled frame's read, and
"frame" the whole of such a frame (every frame here is read, the worst case). OpenCV and
onnxruntime run on one thread (one core of a Pi has no more to give). Frames: the fixture
frames with cards (fixtures/images/qr) and with dice (fixtures/images/dice), alternating; with
``--boards GAME``, a recorded game of that board game instead (tools/board_sequences.py:
boards read, hands, moves, the dice too). Memory: the peak resident size of this process.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from companion.runtime.camera_loop import (  # noqa: E402
    board_areas,
    board_reports,
    careful_codes,
)
from companion.settings import models_dir  # noqa: E402
from companion.vision.board_watch import BoardWatch  # noqa: E402
from companion.vision.dice import DiceReader  # noqa: E402
from companion.vision.images import load_image  # noqa: E402
from companion.vision.motion import SettleGate  # noqa: E402
from companion.vision.qr import read_codes  # noqa: E402
from companion.vision.still import StillAverage  # noqa: E402
from companion.vision.tracker import ReadingTracker  # noqa: E402


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--boards", metavar="GAME", help="frames of a recorded game of GAME")
    parser.add_argument("--hold", type=int, default=0, metavar="N",
                        help="show each frame N times in a row (a still table between"
                             " changes) and let the settle gate decide when dice are read (such a"
                             " frame skips the careful QR band), as the camera loop does")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    before = rss_mb()
    reader = DiceReader(models_dir() / "dice", threads=1)
    boards = None
    if args.boards:
        from tools.board_sequences import Scene, play

        frames: list = []
        play(Scene(args.boards, 1000, moves=max(2, args.frames // 10), illegal_every=4),
             keep=frames)
        frames = frames[:args.frames]
        import companion.games  # noqa: F401
        from companion.engine import get_game

        boards = BoardWatch(get_game(args.boards).physical_boards())
    else:
        frames = [load_image(p) for p in sorted((ROOT / "fixtures/images/qr").glob("*720p.jpg"))]
        frames += [load_image(p) for p in
                   sorted((ROOT / "fixtures/images/dice").glob("*720p.jpg"))]
        frames = [f for f in frames if f.shape[:2] == (720, 1280)]
    tracker = ReadingTracker()
    still = StillAverage()
    gate = SettleGate()
    parts: dict[str, list[float]] = {"qr fast": [], "qr band": [], "settle": [], "dice": [],
                                     "boards": [],
                                     "frame": []}
    for i in range(args.frames):
        frame = frames[(i // args.hold if args.hold else i) % len(frames)]
        t0 = time.perf_counter()
        read_now = gate.wants_read(frame) if args.hold else True
        ts = time.perf_counter()
        codes = read_codes(frame, thorough=False)
        t1 = time.perf_counter()
        if not (args.hold and read_now):  # as the loop: a settled roll's frame skips the band
            codes += careful_codes(still, frame, i)
        t2 = time.perf_counter()
        if args.hold:
            t3 = t2
            dice = gate.result(read_now, partial(reader.read, frame,
                                                 codes=codes + board_areas(boards)))
        else:
            gate.moving(frame)
            t3 = time.perf_counter()
            dice = reader.read(frame, codes=codes + board_areas(boards))
        t4 = time.perf_counter()
        tracker.update(codes, dice)
        board_reports(boards, frame, codes)
        t5 = time.perf_counter()
        for name, took in (("qr fast", t1 - ts), ("qr band", t2 - t1),
                           ("settle", ts - t0 + t3 - t2),
                           ("dice", t4 - t3), ("boards", t5 - t4), ("frame", t5 - t0)):
            parts[name].append(took * 1000)
    held = f", each held {args.hold} frames, dice read as the settle gate says" if args.hold else ""
    print(f"{args.frames} frames of 1280x720 ({len(frames)} different{held}), one thread")
    for name, values in parts.items():
        p95 = statistics.quantiles(values, n=20)[-1]
        print(f"  {name:8} median {statistics.median(values):6.1f} ms   p95 {p95:6.1f} ms")
    if args.boards:  # the recorded game's frames are all in memory: not the loop's figure
        print(f"peak memory (RSS): {rss_mb():.0f} MB, {len(frames)} recorded frames included")
    else:
        print(f"peak memory (RSS): {rss_mb():.0f} MB (models and libraries loaded:"
              f" +{rss_mb() - before:.0f} MB over the interpreter with OpenCV and numpy)")


if __name__ == "__main__":
    main()
