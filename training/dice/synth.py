"""Synthetic pip-dice scenes drawn with OpenCV (no external assets).

Used by train.py (as extra training scenes and as backgrounds for pasted real
dice) and by evaluate.py (an "other setups" test set rendered with a different
seed). Each die is a cube projected under a random yaw and camera tilt, so
oblique views show side faces with their own pips; faces are shaded, dice cast
soft shadows, can touch, be marbled or translucent, and have light or dark pips.

All functions take a numpy Generator so scenes are reproducible from a seed.
Boxes are [x1, y1, x2, y2] in pixels of the returned image; values are 1..6.
"""

from __future__ import annotations

import cv2
import numpy as np

# Pip centres on a unit face, per value.
PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}
TEX = 96  # face texture size in pixels


def random_colour(rng: np.random.Generator) -> np.ndarray:
    hsv = np.uint8([[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(20, 256)]]])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def die_style(rng: np.random.Generator) -> dict:
    """Colour scheme of one die: body colour, pip colour, marbling, translucency."""
    kind = rng.random()
    if kind < 0.2:
        body = np.float32([rng.uniform(215, 255)] * 3)  # white die
    elif kind < 0.35:
        body = np.float32([rng.uniform(10, 50)] * 3)  # black die
    else:
        body = random_colour(rng)
    lum = float(body.mean())
    if rng.random() < 0.85:  # contrasting pips (white on dark, black on light)
        pip = np.float32([235] * 3) if lum < 120 else np.float32([20] * 3)
        if rng.random() < 0.3:
            pip = random_colour(rng)
            if abs(float(pip.mean()) - lum) < 70:
                pip = np.float32([235] * 3) if lum < 120 else np.float32([20] * 3)
    else:
        pip = random_colour(rng)
    return {
        "body": body,
        "pip": pip,
        "marble": rng.random() < 0.3,
        "marble2": random_colour(rng),
        "alpha": rng.uniform(0.6, 0.85) if rng.random() < 0.2 else 1.0,
        "pip_r": rng.uniform(0.075, 0.11),
        "round": rng.uniform(0.05, 0.2),
    }


def numeral(tex: np.ndarray, text: str, colour, rng: np.random.Generator,
            centre=(0.5, 0.5), scale: float = 1.0) -> None:
    """A printed number (as on a numeral d6, a d8 or a d10), turned any way, drawn in place."""
    font = int(rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX,
                           cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX]))
    side = tex.shape[0]
    layer = np.zeros((side, side), np.uint8)  # putText draws on 8 bits only
    size = scale * side / 40 / max(1, len(text)) ** 0.5
    thick = max(1, int(size * rng.uniform(1.5, 3)))
    (tw, th), _ = cv2.getTextSize(text, font, size, thick)
    org = (int(centre[0] * side - tw / 2), int(centre[1] * side + th / 2))
    cv2.putText(layer, text, org, font, size, 255, thick, cv2.LINE_AA)
    if text in ("6", "9"):  # underlined, as dice mark them
        cv2.line(layer, (org[0], org[1] + thick * 2), (org[0] + tw, org[1] + thick * 2), 255,
                 thick)
    turn = cv2.getRotationMatrix2D((centre[0] * side, centre[1] * side), rng.uniform(0, 360), 1)
    alpha = cv2.warpAffine(layer, turn, (side, side)).astype(np.float32)[..., None] / 255
    tex[:] = (tex * (1 - alpha) + alpha * np.asarray(colour, np.float32)).astype(tex.dtype)


def face_texture(value: int, style: dict, rng: np.random.Generator) -> np.ndarray:
    tex = np.empty((TEX, TEX, 3), np.float32)
    tex[:] = style["body"]
    if style["marble"]:
        noise = rng.random((6, 6)).astype(np.float32)
        noise = cv2.resize(noise, (TEX, TEX), interpolation=cv2.INTER_CUBIC)
        m = np.clip((noise - 0.3) * 2.0, 0, 1)[..., None]
        tex = tex * (1 - m) + style["marble2"] * m
    tex += rng.normal(0, 4, tex.shape).astype(np.float32)
    if style.get("numerals"):  # a numeral d6: not a pip die
        numeral(tex, str(value), style["pip"], rng, scale=rng.uniform(1.2, 2.0))
        return np.clip(tex, 0, 255)
    r = style["pip_r"] * TEX
    for px, py in PIPS[value]:
        c = (int(px * TEX * 16), int(py * TEX * 16))
        cv2.circle(tex, c, int(r * 16), style["pip"].tolist(), -1, cv2.LINE_AA, shift=4)
        # a touch of pip-hole shading
        cv2.circle(
            tex,
            (c[0] + 8, c[1] + 8),
            int(r * 0.6 * 16),
            (style["pip"] * 0.8).tolist(),
            -1,
            cv2.LINE_AA,
            shift=4,
        )
    return np.clip(tex, 0, 255)


def _rot(axis: str, a: float) -> np.ndarray:
    c, s = np.cos(a), np.sin(a)
    if axis == "x":
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    if axis == "y":
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


# Cube faces: outward normal and 4 corners (counter-clockwise seen from outside).
_FACES = []
for axis in range(3):
    for sign in (1, -1):
        n = np.zeros(3)
        n[axis] = sign
        u = np.zeros(3)
        v = np.zeros(3)
        u[(axis + 1) % 3] = 1
        v[(axis + 2) % 3] = 1
        if sign < 0:
            u, v = v, u
        corners = [n * 0.5 + (a * u + b * v) * 0.5 for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        _FACES.append((n, np.array(corners)))


def draw_die(
    img: np.ndarray,
    cx: float,
    cy: float,
    size: float,
    value: int,
    tilt: float,
    tilt_dir: float,
    rng: np.random.Generator,
    style: dict | None = None,
    light: np.ndarray | None = None,
    top_face: bool = False,
) -> list[float] | None:
    """Draw one die (top face = value) into img in place; return its box [x1,y1,x2,y2]: the
    whole die's, or with ``top_face`` its top face's (the box the reader reports)."""
    style = style or die_style(rng)
    light = light if light is not None else np.array([0.3, -0.4, 0.87])
    # die body rotation: yaw about vertical plus a small random wobble
    R_die = (
        _rot("z", rng.uniform(0, 2 * np.pi))
        @ _rot("x", rng.normal(0, 0.04))
        @ _rot("y", rng.normal(0, 0.04))
    )
    # camera tilt (oblique view): rotate the world about a horizontal axis
    R_cam = _rot("z", tilt_dir) @ _rot("x", tilt) @ _rot("z", -tilt_dir)
    R = R_cam @ R_die
    # which cube face is up: top face (+z before rotation) gets `value`
    sides = [v for v in range(1, 7) if v not in (value, 7 - value)]
    rng.shuffle(sides)
    face_values = {
        (2, 1): value,
        (2, -1): 7 - value,
        (0, 1): sides[0],
        (0, -1): 7 - sides[0],
        (1, 1): sides[1],
        (1, -1): 7 - sides[1],
    }
    drawn = []
    top = None
    for n, corners in _FACES:
        nr = R @ n
        if nr[2] <= 0.05:
            continue
        axis = int(np.argmax(np.abs(n)))
        val = face_values[(axis, int(np.sign(n[axis])))]
        pts3 = corners @ R.T
        pts = np.stack([cx + pts3[:, 0] * size, cy + pts3[:, 1] * size], 1).astype(np.float32)
        if (axis, int(np.sign(n[axis]))) == (2, 1):
            top = pts
        shade = 0.35 + 0.65 * max(0.0, float(nr @ light / np.linalg.norm(light)))
        drawn.append((nr[2], val, pts, shade))
    if not drawn:
        return None
    drawn.sort(key=lambda d: d[0])
    all_pts = np.concatenate([d[2] for d in drawn])
    x1, y1 = np.floor(all_pts.min(0)).astype(int) - 2
    x2, y2 = np.ceil(all_pts.max(0)).astype(int) + 3
    H, W = img.shape[:2]
    if x1 < 0 or y1 < 0 or x2 > W or y2 > H:
        return None
    roi = img[y1:y2, x1:x2].astype(np.float32)
    # soft shadow
    sh = np.zeros(roi.shape[:2], np.float32)
    hull = cv2.convexHull((all_pts - [x1, y1]).astype(np.float32)).astype(np.int32)
    cv2.fillConvexPoly(sh, hull + np.int32([[max(1, size * 0.06), max(1, size * 0.08)]]), 1.0)
    sh = cv2.GaussianBlur(sh, (0, 0), max(1.0, size * 0.08))
    roi *= 1 - 0.35 * sh[..., None]
    src = np.float32([[0, 0], [TEX, 0], [TEX, TEX], [0, TEX]])
    for _, val, pts, shade in drawn:
        tex = face_texture(val, style, rng) * shade
        # rounded corners / dark edge on the texture alpha
        mask = np.zeros((TEX, TEX), np.float32)
        rr = int(style["round"] * TEX)
        cv2.rectangle(mask, (rr, 0), (TEX - rr, TEX), 1.0, -1)
        cv2.rectangle(mask, (0, rr), (TEX, TEX - rr), 1.0, -1)
        for ccx, ccy in ((rr, rr), (TEX - rr, rr), (rr, TEX - rr), (TEX - rr, TEX - rr)):
            cv2.circle(mask, (ccx, ccy), rr, 1.0, -1)
        Hm = cv2.getPerspectiveTransform(src, (pts - [x1, y1]).astype(np.float32))
        size_wh = (roi.shape[1], roi.shape[0])
        wt = cv2.warpPerspective(tex, Hm, size_wh, flags=cv2.INTER_LINEAR)
        wm = (
            cv2.warpPerspective(mask, Hm, size_wh, flags=cv2.INTER_LINEAR)[..., None]
            * style["alpha"]
        )
        roi = roi * (1 - wm) + wt * wm
    img[y1:y2, x1:x2] = np.clip(roi, 0, 255).astype(np.uint8)
    shown = top if top_face and top is not None else all_pts
    return [float(x) for x in (*shown.min(0), *shown.max(0))]


def draw_other_die(img: np.ndarray, cx: float, cy: float, size: float,
                   rng: np.random.Generator) -> list[float] | None:
    """A d8 or d10 seen from above (numbered faces round a top face), or a numeral d6: dice
    a pip reader must not read. Returns its box [x1, y1, x2, y2], or None off the image."""
    kind = rng.random()
    style = die_style(rng)
    if kind < 0.35:
        style["numerals"] = True
        return draw_die(img, cx, cy, size, int(rng.integers(1, 7)), rng.uniform(0, 0.5),
                        rng.uniform(0, 2 * np.pi), rng, style)
    h, w = img.shape[:2]
    r = size * rng.uniform(0.6, 0.8)
    turn = rng.uniform(0, 2 * np.pi)
    if kind < 0.7:  # d8 on a face: a hexagon, the top face a triangle inside it
        outline = [turn + k * np.pi / 3 for k in range(6)]
        top_corners = outline[::2]
        radius = [r] * 6
    else:  # d10: a kite on top, neighbours either side, pointed ends
        outline = [turn + a for a in (0, 0.9, 2.2, np.pi, np.pi + 0.94, np.pi + 2.2)]
        top_corners = [outline[0], outline[2], outline[3], outline[5]]
        radius = [r * 1.25, r * 0.8, r * 0.8, r * 1.25, r * 0.8, r * 0.8]
    pts = np.float32([[cx + rr * np.cos(a), cy + rr * np.sin(a)]
                      for a, rr in zip(outline, radius)])
    x1, y1 = pts.min(0)
    x2, y2 = pts.max(0)
    if x1 < 0 or y1 < 0 or x2 >= w or y2 >= h:
        return None
    body = style["body"]
    shade = rng.uniform(0.55, 0.8)
    canvas = img.astype(np.float32)
    cv2.fillConvexPoly(canvas, pts.astype(np.int32), (body * shade).tolist(), cv2.LINE_AA)
    inner = np.float32([[cx + 0.55 * r * np.cos(a), cy + 0.55 * r * np.sin(a)]
                        for a in top_corners])
    cv2.fillConvexPoly(canvas, inner.astype(np.int32), body.tolist(), cv2.LINE_AA)
    cv2.polylines(canvas, [pts.astype(np.int32)], True, (body * 0.4).tolist(), 1, cv2.LINE_AA)
    side = int(2 * r) + 2
    tex = canvas[int(cy - side / 2):int(cy - side / 2) + side,
                 int(cx - side / 2):int(cx - side / 2) + side].copy()
    if tex.shape[:2] == (side, side):
        number = str(int(rng.integers(1, 11 if kind >= 0.7 else 9)) % 10)
        numeral(tex, number, style["pip"], rng, scale=rng.uniform(0.8, 1.3))
        canvas[int(cy - side / 2):int(cy - side / 2) + side,
               int(cx - side / 2):int(cx - side / 2) + side] = tex
    img[:] = np.clip(canvas, 0, 255).astype(np.uint8)
    return [float(x1), float(y1), float(x2), float(y2)]


def draw_clutter(img: np.ndarray, cx: float, cy: float, size: float,
                 rng: np.random.Generator) -> list[float] | None:
    """Things on a table that are not dice: a coin, a screw head, a printed icon or dots (a
    game board's art), a few letters. Returns its box, or None off the image."""
    h, w = img.shape[:2]
    half = size / 2
    if cx - half < 0 or cy - half < 0 or cx + half >= w or cy + half >= h:
        return None
    colour = random_colour(rng).tolist()
    dark = (np.asarray(colour) * 0.4).tolist()
    centre = (int(cx), int(cy))
    kind = int(rng.integers(0, 5))
    if kind == 0:  # a coin: a disc, a rim and a relief
        cv2.circle(img, centre, int(half), colour, -1, cv2.LINE_AA)
        cv2.circle(img, centre, int(half * 0.85), dark, 1, cv2.LINE_AA)
        numeral(img[int(cy - half):int(cy - half) + int(size),
                    int(cx - half):int(cx - half) + int(size)],
                str(int(rng.integers(1, 100))), dark, rng, scale=0.8) if int(size) > 8 else None
    elif kind == 1:  # a screw head: a small disc with a slot or a cross
        cv2.circle(img, centre, int(half * 0.5), colour, -1, cv2.LINE_AA)
        a = rng.uniform(0, np.pi)
        d = np.array([np.cos(a), np.sin(a)]) * half * 0.45
        cv2.line(img, (int(cx - d[0]), int(cy - d[1])), (int(cx + d[0]), int(cy + d[1])), dark,
                 max(1, int(size / 12)), cv2.LINE_AA)
        if rng.random() < 0.5:
            cv2.line(img, (int(cx + d[1]), int(cy - d[0])), (int(cx - d[1]), int(cy + d[0])),
                     dark, max(1, int(size / 12)), cv2.LINE_AA)
    elif kind == 2:  # board art: dots in a pattern that is no die face, on no die
        for _ in range(int(rng.integers(2, 9))):
            p = (int(cx + rng.uniform(-half, half)), int(cy + rng.uniform(-half, half)))
            cv2.circle(img, p, max(1, int(size * rng.uniform(0.04, 0.1))), dark, -1, cv2.LINE_AA)
    elif kind == 3:  # board art: a shape with a line round it
        k = int(rng.integers(3, 9))
        a0 = rng.uniform(0, 2 * np.pi)
        pts = np.int32([[cx + half * np.cos(a0 + 2 * np.pi * i / k),
                         cy + half * np.sin(a0 + 2 * np.pi * i / k)] for i in range(k)])
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
        cv2.polylines(img, [pts], True, dark, max(1, int(size / 16)), cv2.LINE_AA)
    else:  # letters or numbers printed on the board
        text = "".join(rng.choice(list("ABCDEFGHKMNPRSTXZ0123456789"), int(rng.integers(1, 4))))
        cv2.putText(img, text, (int(cx - half), int(cy + half / 2)), cv2.FONT_HERSHEY_SIMPLEX,
                    size / 30, dark, max(1, int(size / 15)), cv2.LINE_AA)
    return [cx - half, cy - half, cx + half, cy + half]


def background(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """A random table/tray/cloth-like background."""
    kind = rng.integers(0, 5)
    base = random_colour(rng)
    if kind == 0:  # flat with gentle gradient
        img = np.ones((h, w, 3), np.float32) * base
    elif kind == 1:  # felt / noise texture
        n = rng.random((h // 4 + 1, w // 4 + 1)).astype(np.float32)
        n = cv2.resize(n, (w, h))[..., None]
        img = base * (0.8 + 0.4 * n)
    elif kind == 2:  # wood-like stripes
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        a = rng.uniform(0, np.pi)
        t = xx * np.cos(a) + yy * np.sin(a)
        warp = (
            cv2.resize(rng.random((8, 8)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
            * 40
        )
        s = np.sin((t + warp) / rng.uniform(4, 20))[..., None]
        img = base * (0.8 + 0.2 * s) + random_colour(rng) * 0.1
    elif kind == 3:  # two-tone blobs (cloth, tray edges)
        n = cv2.resize(
            rng.random((5, 5)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC
        )[..., None]
        img = base * (n > 0.5) + random_colour(rng) * (n <= 0.5)
    else:  # checker / tiles
        step = int(rng.integers(20, 120))
        yy, xx = np.mgrid[0:h, 0:w]
        c = (((yy // step) + (xx // step)) % 2)[..., None]
        img = base * c + (base * 0.7 + 30) * (1 - c)
    # lighting gradient
    gx, gy = rng.uniform(-0.5, 0.5, 2)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    g = 1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    img = img * g[..., None] + rng.normal(0, 3, (h, w, 3))
    # distractors: blobs, lines and small dots that are not dice
    for _ in range(int(rng.integers(0, 6))):
        col = random_colour(rng).tolist()
        p = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        if rng.random() < 0.5:
            cv2.circle(img, p, int(rng.integers(2, 30)), col, -1, cv2.LINE_AA)
        else:
            q = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            cv2.line(img, p, q, col, int(rng.integers(1, 6)), cv2.LINE_AA)
    return np.clip(img, 0, 255).astype(np.uint8)


def scene(
    h: int,
    w: int,
    rng: np.random.Generator,
    max_dice: int = 20,
    size_range=(20, 60),
    tilt_max: float = 0.5,
    bg: np.ndarray | None = None,
    top_face: bool = False,
):
    """A random scene of synthetic dice. Returns (image, boxes Nx4, values N); boxes are the
    whole dice's, or with ``top_face`` their top faces'."""
    img, boxes, values, _ = scene_and_others(h, w, rng, max_dice, size_range, tilt_max, bg,
                                            top_face, others=0)
    return img, boxes, values


def scene_and_others(
    h: int,
    w: int,
    rng: np.random.Generator,
    max_dice: int = 20,
    size_range=(20, 60),
    tilt_max: float = 0.5,
    bg: np.ndarray | None = None,
    top_face: bool = False,
    others: int = 0,
):
    """``scene``, and up to ``others`` things that are no pip dice among the dice (d8, d10,
    numeral d6, coins, screws, board art): (image, boxes, values, their boxes Mx4)."""
    img = background(h, w, rng) if bg is None else bg.copy()
    n = int(rng.integers(1, max_dice + 1))
    base_size = rng.uniform(*size_range) / 1.3
    tilt = rng.uniform(0, tilt_max) if rng.random() < 0.6 else 0.0
    tilt_dir = rng.uniform(0, 2 * np.pi)
    light = np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), 1.0])
    boxes, values, centres = [], [], []
    cluster = rng.random() < 0.4  # touching dice
    for _ in range(n * 4):
        if len(boxes) >= n:
            break
        size = base_size * rng.uniform(0.85, 1.15)
        if cluster and centres:
            px, py = centres[int(rng.integers(0, len(centres)))]
            a = rng.uniform(0, 2 * np.pi)
            d = size * rng.uniform(1.05, 1.5)
            cx, cy = px + d * np.cos(a), py + d * np.sin(a)
        else:
            cx, cy = rng.uniform(size, w - size), rng.uniform(size, h - size)
        if any(np.hypot(cx - qx, cy - qy) < size * 1.05 for qx, qy in centres):
            continue
        value = int(rng.integers(1, 7))
        box = draw_die(img, cx, cy, size, value, tilt, tilt_dir, rng, light=light,
                       top_face=top_face)
        if box is None:
            continue
        boxes.append(box)
        values.append(value)
        centres.append((cx, cy))
    other_boxes = []
    for _ in range(int(rng.integers(0, others + 1)) * 4):
        if len(other_boxes) >= others:
            break
        size = base_size * rng.uniform(0.7, 1.4)
        cx, cy = rng.uniform(size, w - size), rng.uniform(size, h - size)
        if any(np.hypot(cx - qx, cy - qy) < size * 1.2 for qx, qy in centres):
            continue
        draw = draw_other_die if rng.random() < 0.6 else draw_clutter
        box = draw(img, cx, cy, size, rng)
        if box is not None:
            other_boxes.append(box)
            centres.append((cx, cy))
    return (img, np.array(boxes, np.float32).reshape(-1, 4), np.array(values, np.int64),
            np.array(other_boxes, np.float32).reshape(-1, 4))


if __name__ == "__main__":
    import sys

    rng = np.random.default_rng(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    im, b, v, others = scene_and_others(480, 640, rng, top_face=True, others=6)
    for x1, y1, x2, y2 in others:
        cv2.rectangle(im, (int(x1), int(y1)), (int(x2), int(y2)), (255, 0, 0), 1)
    for (x1, y1, x2, y2), val in zip(b, v):
        cv2.rectangle(im, (int(x1), int(y1)), (int(x2), int(y2)), (0, 0, 255), 1)
        cv2.putText(
            im, str(val), (int(x1), int(y1) - 2), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 255), 1
        )
    cv2.imwrite("/tmp/synth.png", im)


def motion_blur(img: np.ndarray, length: int, angle: float) -> np.ndarray:
    """Blur along a line of ``length`` pixels at ``angle`` degrees, as a moving hand or camera."""
    kern = np.zeros((length, length), np.float32)
    kern[length // 2] = 1.0 / length
    rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), angle, 1.0)
    kern = cv2.warpAffine(kern, rot, (length, length))
    return cv2.filter2D(img, -1, kern / max(kern.sum(), 1e-6))
