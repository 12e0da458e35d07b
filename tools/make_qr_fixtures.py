"""Write the QR fixture frames: fixtures/images/qr/<case>.jpg with <case>.json beside each.

Run from the repository root: python -m tools.make_qr_fixtures. The JSON holds what is in the
frame (``present``) and how many of those the reader must find (``must_read``): all of them
for clean frames, fewer where glare or blur is meant to defeat some codes. A reading outside
``present`` is always a failure.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from tools.synthetic_table import Scene, render

OUT = Path(__file__).resolve().parent.parent / "fixtures" / "images" / "qr"

CG = ["GC1/CG/CAPTAIN/LADY-MACBETH", "GC1/CG/PERMIT/BARRAGE/3", "GC1/CG/PERMIT/SHIELD/1",
      "GC1/CG/WILDCARD/DIPLOMATIC-IMMUNITY/2", "GC1/CG/CAPTAIN/RICHARD-III"]
OTHERS = ["GC1/CF/TILE/07/COOK", "GC1/BG/PARASITE/INFECTED", "GC1/GK/CARD/DARK/DIRE-WOLF"]

CASES: dict[str, tuple[Scene, int]] = {
    "straight-720p": (Scene(CG, seed=1), 5),
    "tilt-35-720p": (Scene(CG, tilt_deg=35, seed=2), 5),
    "tilt-20-uneven-light-1080p": (Scene(CG + OTHERS, size=(1920, 1080), tilt_deg=20,
                                         uneven_light=0.7, noise=5, seed=3), 8),
    "blur-720p": (Scene(OTHERS, blur_px=1.3, seed=4), 2),
    "glare-720p": (Scene(CG[:3], glare_on=[0, 1, 2], seed=5), 1),
    "noisy-low-quality-jpeg-720p": (Scene(CG[:3], noise=9, jpeg_quality=45, seed=6), 3),
    "unknown-payloads-720p": (Scene(["GC1/CG/PERMIT/BARRAGE/9", "HELLO-WORLD",
                                     "GC1/CG/CAPTAIN/HAMLET"], seed=7), 3),
    "empty-table-720p": (Scene([], seed=8), 0),
}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (scene, must_read) in CASES.items():
        frame, present = render(scene)
        cv2.imwrite(str(OUT / f"{name}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 88])
        expected = {"present": present, "must_read": must_read, "scene": {
            "size": list(scene.size), "tilt_deg": scene.tilt_deg, "blur_px": scene.blur_px,
            "glare_on": scene.glare_on, "uneven_light": scene.uneven_light,
            "noise": scene.noise, "jpeg_quality": scene.jpeg_quality, "seed": scene.seed}}
        (OUT / f"{name}.json").write_text(json.dumps(expected, indent=1) + "\n")
        print(f"{name}: {len(present)} codes")


if __name__ == "__main__":
    main()
