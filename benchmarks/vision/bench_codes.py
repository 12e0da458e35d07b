"""Which code to print on pieces and tiles, and how big: read rates of candidate codes at sticker
sizes, on 720p and 1080p cameras at 60-90 cm, straight down and at an angle, sharp and with
motion blur; and every read that names a code not in the frame.

Run from the repository root: .venv/bin/python benchmarks/vision/bench_codes.py [--quick]

Each frame is a 6x6 board of 45 mm squares with a piece on every square (20 mm high, turned
at random, up to 4 mm off centre), each piece carrying a sticker of the code under test, seen
by a 65-degree camera (tools/synthetic_board.py): 36 stickers a frame. Readers, on the whole
frame, one thread: QR codes with zxing-cpp (the fast pass, then the contrast-equalised 2x
upscale, companion/vision/qr.py); square markers with OpenCV's ArUco detector correcting bits as the
companion does (companion/vision/markers.py), on the frame and then on a 2x upscale.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
import segno  # noqa: E402

from companion.vision.markers import CORRECTION_RATE  # noqa: E402
from companion.vision.qr import read_codes  # noqa: E402
from tools.synthetic_board import Board, Light, Piece, Sticker, TableScene, View, render  # noqa: E402

FAMILIES = {
    "qr-v1": None, "qr-v2": None,
    "aruco-4x4": cv2.aruco.DICT_4X4_250, "aruco-5x5": cv2.aruco.DICT_5X5_250,
    "apriltag-36h11": cv2.aruco.DICT_APRILTAG_36h11,
}
SIZES_MM = (15, 20, 25, 30)


def qr_modules(payload: str, version: int) -> np.ndarray:
    code = segno.make_qr(payload, error="m", version=version, mode="alphanumeric",
                         boost_error=False)
    return np.pad(np.array([list(r) for r in code.matrix], np.uint8), 2)


def marker_modules(dictionary: cv2.aruco.Dictionary, number: int) -> np.ndarray:
    cells = dictionary.markerSize + 2
    image = cv2.aruco.generateImageMarker(dictionary, number, cells, borderBits=1)
    return np.pad((image < 128).astype(np.uint8), 1)


def stickers(family: str, count: int, size_mm: float,
             pick: random.Random) -> list[tuple[str, Sticker]]:
    out = []
    if family.startswith("qr"):
        version = int(family[-1])
        for n in pick.sample(range(100), count):
            payload = f"GC1/G6/PIECE/{n:02d}" if version == 1 \
                else f"GC1/CF/TILE/{n:02d}/CARTOGRAPHER"
            out.append((payload, Sticker(qr_modules(payload, version), size_mm,
                                         pick.uniform(0, 360))))
        return out
    dictionary = cv2.aruco.getPredefinedDictionary(FAMILIES[family])
    for n in pick.sample(range(250), count):
        out.append((str(n), Sticker(marker_modules(dictionary, n), size_mm, pick.uniform(0, 360))))
    return out


def detector(family: str) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.errorCorrectionRate = CORRECTION_RATE  # as the companion reads markers
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(FAMILIES[family]), params)


def read(family: str, frame: np.ndarray, upscale: bool) -> set[str]:
    if family.startswith("qr"):
        return {r.text for r in read_codes(frame, thorough=upscale, zbar=False)}
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    found: set[str] = set()
    images = [gray] + ([cv2.resize(gray, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)]
                       if upscale else [])
    for image in images:
        _, ids, _ = detector(family).detectMarkers(image)
        found |= {str(int(i)) for i in (ids.ravel() if ids is not None else [])}
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one distance, sharp frames only")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    cameras = [((1280, 720), "720p"), ((1920, 1080), "1080p")]
    distances = (600, 900) if args.quick else (600, 750, 900)
    tilts = (0, 30)
    blurs = [("sharp", 0.0, 0.0)] + ([] if args.quick else [("motion", 4.0, 0.6)])
    hits: dict[tuple[str, ...], list[int]] = defaultdict(lambda: [0, 0])
    false_reads: dict[str, int] = defaultdict(int)
    cost: dict[str, list[float]] = defaultdict(list)
    pick = random.Random(11)
    for size, camera in cameras:
        for distance in distances:
            for tilt in tilts:
                for blur_name, motion, defocus in blurs:
                    for sticker_mm in SIZES_MM:
                        seed = pick.randrange(10**6)
                        for family in FAMILIES:
                            rng = random.Random(seed)
                            placed = stickers(family, 36, sticker_mm, rng)
                            board = Board(6, 6, 45.0, angle_deg=rng.uniform(-20, 20), seed=seed)
                            for index, (_, sticker) in enumerate(placed):
                                board.pieces.append(Piece(
                                    index // 6, index % 6, sticker, height_mm=20,
                                    width_mm=max(30.0, sticker_mm * 1.45),
                                    colour=(rng.randint(40, 220),) * 3,
                                    offset_mm=(rng.uniform(-4, 4), rng.uniform(-4, 4))))
                            view = View(size, 65.0, distance, tilt, rng.uniform(-10, 10))
                            light = Light(uneven=rng.uniform(0, 0.5), motion_px=motion,
                                          motion_deg=rng.uniform(0, 180), blur_px=defocus,
                                          noise=rng.uniform(1, 4), jpeg_quality=rng.randint(75, 92))
                            frame = render(TableScene(view, [board], light=light, seed=seed))
                            present = {p for p, _ in placed}
                            for upscale in (False, True):
                                started = time.perf_counter()
                                found = read(family, frame, upscale)
                                cost[f"{family} {'+2x' if upscale else 'frame'} {camera}"].append(
                                    (time.perf_counter() - started) * 1000)
                                false_reads[family] += len(found - present)
                                key = (family, camera, str(distance), str(tilt), blur_name,
                                       str(sticker_mm), "+2x" if upscale else "frame")
                                hits[key][0] += len(found & present)
                                hits[key][1] += len(present)
    print("read rate by sticker size (all distances, tilts and blurs of a camera; frame / +2x)")
    header = f"{'code':16} {'camera':6} " + " ".join(f"{s:>11}" for s in SIZES_MM)
    print(header + "   (mm)")
    for family in FAMILIES:
        for _, camera in cameras:
            cells = []
            for sticker_mm in SIZES_MM:
                rates = []
                for mode in ("frame", "+2x"):
                    got = total = 0
                    for key, (h, t) in hits.items():
                        wanted = (family, camera, str(sticker_mm), mode)
                        if (key[0], key[1], key[5], key[6]) == wanted:
                            got, total = got + h, total + t
                    rates.append(f"{got / total:.0%}" if total else "-")
                cells.append("/".join(rates))
            print(f"{family:16} {camera:6} " + " ".join(f"{c:>11}" for c in cells))
    print("\nby distance, tilt and blur at each size (+2x), 720p:")
    for family in FAMILIES:
        for distance in distances:
            for tilt in tilts:
                for blur_name, _, _ in blurs:
                    row = []
                    for sticker_mm in SIZES_MM:
                        h, t = hits[(family, "720p", str(distance), str(tilt), blur_name,
                                     str(sticker_mm), "+2x")]
                        row.append(f"{h / t:>5.0%}" if t else "    -")
                    print(f"  {family:16} {distance} mm tilt {tilt:2} {blur_name:6} "
                          + " ".join(row))
    print("\nfalse reads (a code not in the frame):",
          ", ".join(f"{f} {n}" for f, n in false_reads.items()))
    print("ms per whole frame, median:")
    for name, values in sorted(cost.items()):
        print(f"  {name:32} {float(np.median(values)):6.1f}")


if __name__ == "__main__":
    main()
