#!/usr/bin/env python3
"""Train the two-stage pip-dice reader and export both stages to ONNX.

    python train.py                       # both stages, seed 0, every setup -> models/dice/
    python train.py --hold-out skovy-floor --out runs/det.onnx --cls-out runs/cls.onnx
                                          # a leave-one-setup-out fold (loso.py runs them)
    python train.py --stage det           # detector only  -> models/dice_centernet.onnx
    python train.py --stage cls           # classifier only (mines hard negatives with the
                                          # detector in --out) -> models/dice_classifier.onnx
    python train.py --iters 40 --cls-iters 40 --out /tmp/d.onnx --cls-out /tmp/c.onnx   # smoke test

Data: the photos of every setup in ../shared/data/dice (setups.py; byler-train without its
40 held-out photos), each setup as likely as another whatever its size, the labels turned
into top-face boxes (setups.face_boxes) and each setup scaled so its dice are about FACE_PX.
Photos taken from one side (every setup but byler-train's top-down one: Setup.upright) keep
their up in both stages, turned at most 15 degrees and mirrored left-right: a die's top face
lies above the side faces the camera also sees, and that is how a reader tells them apart.
Top-down photos, collages and synthetic scenes are turned any way.

Stage 1, detector (DiceNet): CenterNet-style, stride 4, 63k parameters. Output
N x 5 x H/4 x W/4: channel 0 a sigmoid "die here" heatmap (any value: the classifier reads
it), 1-2 log(box w, h / 4 px) of the top face (learned only where its size is known),
3-4 sub-cell centre offset. Trained on 320x320 crops of the photos under heavy augmentation
(scale 0.45-1.5, 90-degree turns but for upright photos, flips, +-15 deg, perspective, hue/saturation/
brightness/contrast/gamma, channel swaps, inversion, grey, blur, motion blur, noise,
JPEG), plus collages of real dice crops on synthetic tables and fully synthetic
scenes (synth.py) among things that are no pip dice (d8, d10, numeral d6, coins, screws,
board art).

Stage 2, classifier: 48x48 crop -> {not a die, 1..6} on the first 14 blocks of an
ImageNet-trained MobileNetV2 (pretrained.py, 543k parameters, 1600 iterations; the small
DiceCls trained from nothing, 209k, 4800 iterations, with --cls-arch small); it also
outputs the 96 features its last layer reads (a table's adaptation refits that layer).
Real dice crops (box jitter, any rotation or upright, low-res, same photometric
augmentation), synthetic dice crops (oblique from below in the picture and upright, or
straight from above and turned any way; touching, marbled, translucent), negatives: random
patches, half dice / between dice, pips of a die seen close up, the side below a tilted
die's top face, d8 / d10 / numeral d6 / coins / board art (synth.py), and hard negatives =
detector false alarms on the training photos (groups of dice among them), each setup as
likely as another.

Data licences: see setups.py and models/dice/MODEL_CARD.md; the notices in models/dice go
with the models. Everything is driven by --seed (fixed per-worker seeds). One core: torch
runs one thread and the data are made in the same process (--workers 0).
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np
import synth
import torch
import torch.nn as nn
import torch.nn.functional as F
from setups import SETUPS, face_boxes, labels, training_names
from split import read_photo

MODELS = Path(__file__).resolve().parents[2] / "models" / "dice"
STRIDE = 4
# A die smaller than TINY_PX is a negative for the detector (a coarse level, seeing a die far
# smaller than it learned, would otherwise propose a box round it several times too big);
# from TINY_PX to LEARNED_MIN_PX it is neither (a finer level reads it).
TINY_PX, LEARNED_MIN_PX = 10, 15
HEATMAPS = 1  # one class-agnostic "die" heatmap: the classifier reads the value
CROP = 320
UPRIGHT_TURN = 15  # degrees a photo is turned at most beyond quarter turns (upright: at all)


# ----------------------------------------------------------------------------- model
def cbr(cin: int, cout: int, stride: int = 1, k: int = 3, groups: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class DW(nn.Module):
    """Depthwise-separable block with a residual when shapes allow."""

    def __init__(self, cin: int, cout: int, stride: int = 1, dilation: int = 1):
        super().__init__()
        self.dw = nn.Sequential(
            nn.Conv2d(cin, cin, 3, stride, dilation, dilation=dilation, groups=cin, bias=False),
            nn.BatchNorm2d(cin),
            nn.ReLU(inplace=True),
        )
        self.pw = nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout))
        self.res = stride == 1 and cin == cout

    def forward(self, x):
        y = self.pw(self.dw(x))
        return F.relu(x + y if self.res else y)


class DiceNet(nn.Module):
    def __init__(self, w: int = 1):
        super().__init__()
        c4, c8, c16 = 24 * w, 48 * w, 96 * w
        self.stem = nn.Sequential(cbr(3, 16, 2), DW(16, c4, 2), DW(c4, c4))  # /4
        self.s8 = nn.Sequential(DW(c4, c8, 2), DW(c8, c8), DW(c8, c8))  # /8
        self.s16 = nn.Sequential(
            DW(c8, c16, 2), DW(c16, c16), DW(c16, c16, dilation=2), DW(c16, c16)
        )  # /16
        self.lat16 = cbr(c16, c8, k=1)
        self.fuse8 = DW(c8, c8)
        self.lat8 = cbr(c8, c4, k=1)
        self.fuse4 = DW(c4, c4)
        self.head = cbr(c4, 32)
        self.out = nn.Conv2d(32, HEATMAPS + 4, 1)
        nn.init.constant_(self.out.bias[:HEATMAPS], -2.19)
        nn.init.constant_(self.out.bias[HEATMAPS:], 0.0)

    def forward(self, x):
        # x: N x 3 x H x W, BGR uint8 range floats; normalised here so the reader stays trivial
        x = (x - 128.0) / 64.0
        f4 = self.stem(x)
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        p8 = self.fuse8(f8 + F.interpolate(self.lat16(f16), scale_factor=2.0, mode="nearest"))
        p4 = self.fuse4(f4 + F.interpolate(self.lat8(p8), scale_factor=2.0, mode="nearest"))
        o = self.out(self.head(p4))
        return torch.cat([torch.sigmoid(o[:, :HEATMAPS]), o[:, HEATMAPS:]], 1)


# ----------------------------------------------------------------------------- augmentation
def photometric(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Colour, lighting, blur, noise and compression changes (uint8 BGR in, out)."""
    if rng.random() < 0.15:
        img = 255 - img  # dark dice with light pips <-> light dice with dark pips
    if rng.random() < 0.2:
        img = img[..., rng.permutation(3)]
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV).astype(np.int16)
    if rng.random() < 0.6:
        hsv[..., 0] = (hsv[..., 0] + rng.integers(0, 180)) % 180
    hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(0.4, 1.5), 0, 255)
    img = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    if rng.random() < 0.1:
        img[:] = img.mean(2, keepdims=True)
    img = img * rng.uniform(0.75, 1.25, 3)  # colour cast / white balance
    img = (img - 128) * rng.uniform(0.6, 1.4) + 128 + rng.uniform(-50, 50)
    if rng.random() < 0.3:
        img = 255 * (np.clip(img, 0, 255) / 255) ** rng.uniform(0.6, 1.6)
    if rng.random() < 0.3:  # uneven lighting
        h, w = img.shape[:2]
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        g = 1 + rng.uniform(-0.6, 0.6) * (xx / w - 0.5) + rng.uniform(-0.6, 0.6) * (yy / h - 0.5)
        img = img * g[..., None]
    img = np.clip(img, 0, 255).astype(np.uint8)
    r = rng.random()
    if r < 0.2:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.3))
    elif r < 0.3:
        img = synth.motion_blur(img, int(rng.integers(3, 6)), rng.uniform(0, 180))
    if rng.random() < 0.3:
        img = np.clip(img + rng.normal(0, rng.uniform(2, 10), img.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])
        img = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return img


def geometric(img, boxes, rng, out_size=CROP, scale_range=(0.45, 1.5), persp=0.12, focus=True,
              upright=False):
    """Random scale / 90-degree rotation / flip / small rotation / perspective, then crop
    (an ``upright`` photo is not given quarter turns: its up tells the top face from the sides).

    Boxes are re-fitted from transformed corners and shrunk to undo the bbox growth
    that a small rotation adds (the dice themselves are squares).
    """
    h, w = img.shape[:2]
    s = math.exp(rng.uniform(math.log(scale_range[0]), math.log(scale_range[1])))
    k = 0 if upright else int(rng.integers(0, 4))
    theta = k * 90 + rng.uniform(-UPRIGHT_TURN, UPRIGHT_TURN)
    flip = rng.random() < 0.5
    A = np.eye(3)
    if flip:
        A = np.array([[-1, 0, w], [0, 1, 0], [0, 0, 1.0]])
    R = np.eye(3)
    R[:2] = cv2.getRotationMatrix2D((w / 2, h / 2), theta, s)
    M = R @ A
    # choose the crop centre: usually around a die, sometimes anywhere
    if focus and len(boxes) and rng.random() < 0.8:
        b = boxes[int(rng.integers(0, len(boxes)))]
        c = np.array([(b[0] + b[2]) / 2, (b[1] + b[3]) / 2, 1.0])
    else:
        c = np.array([rng.uniform(0, w), rng.uniform(0, h), 1.0])
    c = M @ c
    jitter = rng.uniform(-0.35, 0.35, 2) * out_size
    T = np.array(
        [
            [1, 0, out_size / 2 - c[0] + jitter[0]],
            [0, 1, out_size / 2 - c[1] + jitter[1]],
            [0, 0, 1.0],
        ]
    )
    M = T @ M
    if persp > 0 and rng.random() < 0.5:
        src = np.float32([[0, 0], [out_size, 0], [out_size, out_size], [0, out_size]])
        dst = src + rng.uniform(-persp, persp, (4, 2)).astype(np.float32) * out_size
        M = cv2.getPerspectiveTransform(src, dst) @ M
    # no reflecting border: it would mirror dice into the crop without labels
    border = cv2.BORDER_REPLICATE if rng.random() < 0.3 else cv2.BORDER_CONSTANT
    out = cv2.warpPerspective(
        img,
        M,
        (out_size, out_size),
        flags=cv2.INTER_LINEAR,
        borderMode=border,
        borderValue=tuple(int(v) for v in rng.integers(0, 256, 3)),
    )
    new, keep, idx = [], [], []
    shrink = abs(math.cos(math.radians(theta - k * 90))) + abs(
        math.sin(math.radians(theta - k * 90))
    )
    for i, (x1, y1, x2, y2) in enumerate(boxes):
        pts = np.array([[x1, y1, 1], [x2, y1, 1], [x2, y2, 1], [x1, y2, 1]], np.float64) @ M.T
        pts = pts[:, :2] / pts[:, 2:]
        lo, hi = pts.min(0), pts.max(0)
        cx, cy = (lo + hi) / 2
        bw, bh = (hi - lo) / shrink
        if not (0 <= cx < out_size and 0 <= cy < out_size):
            continue
        vis = (min(cx + bw / 2, out_size) - max(cx - bw / 2, 0)) * (
            min(cy + bh / 2, out_size) - max(cy - bh / 2, 0)
        )
        if vis < 0.6 * bw * bh:  # die cut by the crop edge: ignore region, not a positive
            new.append([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2])
            keep.append(False)
            idx.append(i)
            continue
        new.append([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2])
        keep.append(True)
        idx.append(i)
    return (
        out,
        np.array(new, np.float32).reshape(-1, 4),
        np.array(keep, bool),
        np.array(idx, np.int64),
    )


class Item(NamedTuple):
    """One training photo of a real setup, scaled so its dice are about FACE_PX."""

    img: np.ndarray
    boxes: np.ndarray  # top faces, N x 4 (x1 y1 x2 y2): the boxes the reader reports
    values: np.ndarray
    sized: np.ndarray  # N bools: whether a box's size is known (not for boxes round pips)
    whole: np.ndarray  # the whole dice, N x 4 (the faces where only faces are labelled)
    setup: str
    upright: bool  # Setup.upright: crops keep their up (turned a little, mirrored left-right)


def pick(items: list[Item], rng: np.random.Generator) -> tuple[int, Item]:
    """An item of a setup drawn evenly among the setups: a setup with more photos (or runs of
    near-identical frames) does not outweigh the others."""
    setups = sorted({item.setup for item in items})
    setup = setups[int(rng.integers(0, len(setups)))]
    indices = [i for i, item in enumerate(items) if item.setup == setup]
    i = indices[int(rng.integers(0, len(indices)))]
    return i, items[i]


class Sampler:
    """Makes training samples: augmented real photos, real-die collages, synthetic scenes."""

    def __init__(self, items: list[Item], seed: int):
        self.items = items
        self.rng = np.random.default_rng(seed)
        self.crops = []  # real dice crops for collages: the whole die, its face's box in it
        self.upright_crops = []  # those of upright photos (their up kept)
        for item in items:
            img = item.img
            for (x1, y1, x2, y2), (wx1, wy1, wx2, wy2), v in zip(item.boxes, item.whole,
                                                                item.values):
                m = 0.08 * (x2 - x1)
                a, b = int(max(0, min(x1, wx1) - m)), int(max(0, min(y1, wy1) - m))
                c = int(min(img.shape[1], max(x2, wx2) + m))
                d = int(min(img.shape[0], max(y2, wy2) + m))
                crop = (img[b:d, a:c].copy(), (x1 - a, y1 - b, x2 - a, y2 - b), v)
                self.crops.append(crop)
                if item.upright:
                    self.upright_crops.append(crop)

    def collage(self, size: int):
        """Real dice crops pasted on a synthetic table; half the time (when there are any) only
        upright photos' crops, kept upright: (image, boxes, values, upright)."""
        rng = self.rng
        upright = bool(self.upright_crops) and rng.random() < 0.5
        crops = self.upright_crops if upright else self.crops
        img, boxes, values = (
            synth.scene(size, size, rng, max_dice=12, size_range=(18, 64), top_face=True)
            if rng.random() < 0.5 and not upright
            else (
                synth.background(size, size, rng),
                np.zeros((0, 4), np.float32),
                np.zeros(0, np.int64),
            )
        )
        boxes, values = list(boxes), list(values)
        occupied = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2, (b[2] - b[0])) for b in boxes]
        for _ in range(int(rng.integers(1, 12))):
            crop, (x1, y1, x2, y2), v = crops[int(rng.integers(0, len(crops)))]
            s = rng.uniform(18, 64) / max(x2 - x1, 1)
            crop = cv2.resize(
                crop, None, fx=s, fy=s, interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
            )
            k = 0 if upright else int(rng.integers(0, 4))
            crop = np.rot90(crop, k).copy()
            ch, cw = crop.shape[:2]
            if ch >= size - 2 or cw >= size - 2:
                continue
            if rng.random() < 0.5:
                hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
                hsv[..., 0] = (hsv[..., 0].astype(int) + rng.integers(0, 180)) % 180
                crop = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
            px, py = int(rng.integers(0, size - cw)), int(rng.integers(0, size - ch))
            cx, cy = px + cw / 2, py + ch / 2
            if any(math.hypot(cx - ox, cy - oy) < 0.55 * (cw + ow) for ox, oy, ow in occupied):
                continue
            # soft-edged paste
            mask = np.zeros((ch, cw), np.float32)
            e = max(1, int(0.06 * min(ch, cw)))
            mask[e:-e, e:-e] = 1
            mask = cv2.GaussianBlur(mask, (0, 0), e / 1.5)[..., None]
            roi = img[py : py + ch, px : px + cw].astype(np.float32)
            img[py : py + ch, px : px + cw] = (roi * (1 - mask) + crop * mask).astype(np.uint8)
            bw, bh = (x2 - x1) * s, (y2 - y1) * s
            if k % 2:
                bw, bh = bh, bw
            boxes.append([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2])
            values.append(v)
            occupied.append((cx, cy, cw))
        return (img, np.array(boxes, np.float32).reshape(-1, 4), np.array(values, np.int64),
                upright)

    def sample(self):
        """One augmented sample: (image CROPxCROP, boxes xyxy, keep mask, values, sized)."""
        rng = self.rng
        r = rng.random()
        if r < 0.55:
            _, item = pick(self.items, rng)
            img, boxes, values, sized = item.img, item.boxes, item.values, item.sized
            # now and then far smaller than learned: such dice are no candidates (below)
            kw = {"scale_range": (0.15, 0.45)} if rng.random() < 0.15 else {}
            kw["upright"] = item.upright
        else:
            size = 448
            upright = False
            if r < 0.8:
                img, boxes, values, upright = self.collage(size)
            else:  # synthetic dice among things that are no pip dice
                img, boxes, values, _ = synth.scene_and_others(
                    size, size, rng, size_range=(16, 70), top_face=True, others=4)
            sized = np.ones(len(boxes), bool)
            kw = dict(scale_range=(0.7, 1.3), persp=0.08, focus=False, upright=upright)
        out, b, keep, idx = geometric(img, boxes, rng, **kw)
        return photometric(out, rng), b, keep, values[idx], sized[idx]


# ----------------------------------------------------------------------------- targets and loss
def make_targets(boxes, keep, sized, size):
    """Heatmap, ignore mask, box regression and its masks (centre offsets for every die, box
    size only where it is known)."""
    hs = size // STRIDE
    heat = np.zeros((HEATMAPS, hs, hs), np.float32)
    ignore = np.zeros((hs, hs), np.float32)
    reg = np.zeros((4, hs, hs), np.float32)
    regmask = np.zeros((2, hs, hs), np.float32)
    yy, xx = np.mgrid[0:hs, 0:hs].astype(np.float32)
    for (x1, y1, x2, y2), k, known in zip(boxes, keep, sized):
        cx, cy = (x1 + x2) / 2 / STRIDE, (y1 + y2) / 2 / STRIDE
        bw, bh = (x2 - x1) / STRIDE, (y2 - y1) / STRIDE
        ix, iy = int(cx), int(cy)
        if not (0 <= ix < hs and 0 <= iy < hs) or bw < 1 or bh < 1:
            continue
        if max(bw, bh) * STRIDE < TINY_PX:
            continue  # far smaller than the reader looks for: the detector must not fire
        if not k or max(bw, bh) * STRIDE < LEARNED_MIN_PX:
            r = int(max(bw, bh) / 2) + 1
            ignore[max(0, iy - r) : iy + r + 1, max(0, ix - r) : ix + r + 1] = 1
            continue
        sigma = max(0.6, min(bw, bh) / 10)
        g = np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma * sigma))
        heat[0] = np.maximum(heat[0], g)
        reg[:, iy, ix] = (math.log(bw), math.log(bh), cx - ix, cy - iy)
        regmask[0, iy, ix] = float(known)
        regmask[1, iy, ix] = 1
    return heat, ignore, reg, regmask


def focal_loss(pred, gt, ignore):
    pred = pred.clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = (1 - pos) * (1 - ignore[:, None])
    pos_loss = torch.log(pred) * (1 - pred) ** 2 * pos
    neg_loss = torch.log(1 - pred) * pred**2 * (1 - gt) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / n


def batch(sampler, n):
    imgs, heats, igns, regs, masks = [], [], [], [], []
    for _ in range(n):
        img, b, keep, _, sized = sampler.sample()
        h, ig, r, m = make_targets(b, keep, sized, img.shape[0])
        imgs.append(img.transpose(2, 0, 1))
        heats.append(h), igns.append(ig), regs.append(r), masks.append(m)
    t = lambda a: torch.from_numpy(np.stack(a))
    return t(imgs).float(), t(heats), t(igns), t(regs), t(masks)


class Stream(torch.utils.data.IterableDataset):
    def __init__(self, items, seed, bs):
        self.items, self.seed, self.bs = items, seed, bs

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        sampler = Sampler(self.items, self.seed * 1000 + (info.id if info else 0))
        while True:
            yield batch(sampler, self.bs)


FACE_PX = 40  # training photos are scaled so that their dice's median face is this wide


def load_items(setups: list[str]) -> list[Item]:
    """Every training photo of these setups (byler-train without its held-out 40), with its
    dice's top faces (setups.face_boxes), scaled so the median face is FACE_PX wide."""
    items = []
    for name in setups:
        setup = SETUPS[name]
        photos = []
        for image in training_names(setup):
            img = read_photo(setup.folder / "images" / image)
            h, w = img.shape[:2]
            dice = labels(setup, image, w, h)
            faces, known = face_boxes(setup, dice)
            whole = np.array([[x, y, x + bw, y + bh] for _, (x, y, bw, bh) in dice],
                             np.float32).reshape(-1, 4)
            if setup.boxes != "whole":
                whole = faces.copy()
            values = np.array([v for v, _ in dice], np.int64)
            photos.append((img, faces, values, np.full(len(dice), known), whole))
        sides = np.concatenate([np.maximum(f[:, 2] - f[:, 0], f[:, 3] - f[:, 1])
                                for _, f, *_ in photos])
        scale = min(1.0, FACE_PX / float(np.median(sides))) if len(sides) else 1.0
        for img, faces, values, sized, whole in photos:
            if scale < 1.0:
                img = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            items.append(Item(img, faces * scale, values, sized, whole * scale, name,
                              setup.upright))
        print(f"{name}: {len(photos)} photos, {len(sides)} dice, scaled {scale:.2f}", flush=True)
    return items


def export(model, path: Path):
    model.eval()
    dummy = torch.zeros(1, 3, 320, 320)
    torch.onnx.export(
        model,
        dummy,
        str(path),
        input_names=["image"],
        output_names=["out"],
        opset_version=17,
        dynamic_axes={"image": {0: "n", 2: "h", 3: "w"}, "out": {0: "n", 2: "h4", 3: "w4"}},
        dynamo=False,
    )


# ----------------------------------------------------------------------------- stage 2: crop classifier
# Classes: 0 = not a die (background, half a die, two dice, distractor), 1..6 = top-face value.
CLS_SIZE = 48  # classifier input; the reader takes it from the model's input shape
CLS_CONTEXT = 1.2  # crop side = CLS_CONTEXT * max(box w, h), must match companion.vision.dice.CLS_CONTEXT
PATCH = 72  # augmentation works on a larger patch, the centre CLS_SIZE is the sample


class DiceCls(nn.Module):
    """48 x 48 crop -> {not a die, 1..6}: a Byler die (median 40 px) is seen at about its
    own resolution, so small or low-contrast pips are not averaged away."""

    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(
            cbr(3, 16),
            nn.MaxPool2d(2),  # 24
            cbr(16, 32),
            cbr(32, 32),
            nn.MaxPool2d(2),  # 12
            cbr(32, 64),
            cbr(64, 64),
            nn.MaxPool2d(2),  # 6
            cbr(64, 96),
            cbr(96, 96),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
        )
        self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(96, 7))

    def forward(self, x):
        logits = self.head(self.f((x - 128.0) / 64.0))
        return logits if self.training else torch.softmax(logits, 1)


class ClsExport(nn.Module):
    """The classifier as shipped: probabilities, and the 96 features its last layer reads (a
    table's adaptation fits a new last layer on them, without PyTorch)."""

    def __init__(self, model: DiceCls):
        super().__init__()
        self.model = model

    def forward(self, x):
        features = self.model.f((x - 128.0) / 64.0)
        return torch.softmax(self.model.head(features), 1), features


def turn(rng, upright: bool) -> tuple[float, bool]:
    """A crop's rotation and whether it is mirrored left-right: any rotation for a top-down
    photo; for an upright one a little, so that its up still tells the top face from the side
    faces below it."""
    if upright:
        return rng.uniform(-UPRIGHT_TURN, UPRIGHT_TURN), bool(rng.random() < 0.5)
    return rng.uniform(0, 360), False


def patch_at(img, cx, cy, size, view, rng=None):
    """PATCH x PATCH view of img centred on (cx, cy), where `size` px map to CLS_SIZE /
    CLS_CONTEXT, turned and mirrored as ``view`` (``turn``) says."""
    angle, mirror = view
    s = (CLS_SIZE / CLS_CONTEXT) / max(size, 1.0)
    M = cv2.getRotationMatrix2D((float(cx), float(cy)), angle, s)
    M[:, 2] += (PATCH / 2 - cx, PATCH / 2 - cy)
    border = cv2.BORDER_REPLICATE if rng is None or rng.random() < 0.5 else cv2.BORDER_REFLECT_101
    patch = cv2.warpAffine(
        img,
        M,
        (PATCH, PATCH),
        flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR,
        borderMode=border,
    )
    return np.ascontiguousarray(patch[:, ::-1]) if mirror else patch


class CropSampler:
    """Real dice crops (jittered; turned any way, or a little and mirrored for upright photos:
    ``turn``), synthetic dice crops and negatives."""

    def __init__(self, items: list[Item], seed, bank_size: int = 4000, hard=()):
        self.items = items
        self.rng = np.random.default_rng(seed)
        # (item index, box xyxy): detector false alarms on training photos, by setup
        self.hard: dict[str, list] = {}
        for j, box in hard:
            self.hard.setdefault(items[j].setup, []).append((j, box))
        self.bank, self.others, self.bank_size = None, None, bank_size

    def _finish(self, patch):
        rng = self.rng
        if rng.random() < 0.25:  # low resolution source (small dice in the frame)
            f = rng.uniform(0.35, 0.8)
            patch = cv2.resize(
                cv2.resize(patch, None, fx=f, fy=f, interpolation=cv2.INTER_AREA), (PATCH, PATCH)
            )
        patch = photometric(patch, rng)
        o = (PATCH - CLS_SIZE) // 2
        return patch[o : o + CLS_SIZE, o : o + CLS_SIZE]

    def real(self, positive: bool):
        rng = self.rng
        _, item = pick(self.items, rng)
        if not len(item.boxes):
            return self.real(positive)
        k = int(rng.integers(0, len(item.boxes)))
        (x1, y1, x2, y2), v = item.boxes[k], item.values[k]
        img, boxes = item.img, item.boxes
        size = max(x2 - x1, y2 - y1)
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        if positive:
            cx += rng.uniform(-0.12, 0.12) * size
            cy += rng.uniform(-0.12, 0.12) * size
            s = size * rng.uniform(0.85, 1.2)
            label = int(v)
        else:
            r = rng.random()
            if self.hard and r < 0.35:  # a spot the detector mistook for a die
                mined = self.hard[sorted(self.hard)[int(rng.integers(0, len(self.hard)))]]
                j, (hx1, hy1, hx2, hy2) = mined[int(rng.integers(0, len(mined)))]
                hs = max(hx2 - hx1, hy2 - hy1)
                hx, hy = (
                    (hx1 + hx2) / 2 + rng.uniform(-0.1, 0.1) * hs,
                    (hy1 + hy2) / 2 + rng.uniform(-0.1, 0.1) * hs,
                )
                patch = patch_at(
                    self.items[j].img, hx, hy, hs * rng.uniform(0.9, 1.2),
                    turn(rng, self.items[j].upright),
                    rng
                )
                return self._finish(patch), 0
            wx1, wy1, wx2, wy2 = item.whole[k]
            if r >= 0.8 and item.upright:  # the side below a top face (or the table): no die
                sy = (y2 + wy2) / 2 if wy2 - y2 > 0.3 * size else \
                    cy + rng.uniform(0.75, 1.0) * size  # where only the face is labelled
                patch = patch_at(img, cx + rng.uniform(-0.1, 0.1) * size, sy, size *
                                 rng.uniform(0.7, 1.1), turn(rng, item.upright), rng)
                return self._finish(patch), 0
            if 0.35 <= r < 0.42:  # a die seen in a box far too big: no die is *this* box
                patch = patch_at(img, cx + rng.uniform(-0.15, 0.15) * size,
                                 cy + rng.uniform(-0.15, 0.15) * size, size * rng.uniform(2.2, 4.5),
                                 turn(rng, item.upright), rng)
                return self._finish(patch), 0
            if 0.42 <= r < 0.5:  # a pip or two of a die seen close up (one looks like a one)
                inner = size * 0.35
                px, py = cx + rng.uniform(-inner, inner), cy + rng.uniform(-inner, inner)
                patch = patch_at(img, px, py, size * rng.uniform(0.15, 0.45),
                                 turn(rng, item.upright), rng)
                return self._finish(patch), 0
            if r < 0.68:  # off-centre: half a die, or between two dice
                a = rng.uniform(0, 2 * np.pi)
                d = rng.uniform(0.5, 1.0) * size
                cx, cy = cx + d * np.cos(a), cy + d * np.sin(a)
            else:  # anywhere in the photo
                cx, cy = rng.uniform(0, img.shape[1]), rng.uniform(0, img.shape[0])
            s = size * rng.uniform(0.7, 1.5)
            centres = np.stack(
                [(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2], 1
            )
            sizes = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
            if (np.hypot(centres[:, 0] - cx, centres[:, 1] - cy) < 0.4 * sizes).any():
                return self.real(positive)
            label = 0
        return self._finish(patch_at(img, cx, cy, s, turn(rng, item.upright), rng)), label

    def _render_bank(self, n: int):
        """Pre-render synthetic dice patches once (drawing is slow); samples re-crop them."""
        rng = self.rng
        bank = []
        for _ in range(n):
            size = rng.uniform(24, 48)
            side = int(size * 4)
            img = synth.background(side, side, rng)
            tilt = rng.uniform(0, 0.9) if rng.random() < 0.6 else 0.0
            # a tilted camera sees the sides below the top face (tilt_dir 0), as an upright
            # photo does: such a crop keeps its up (``turn``)
            tilt_dir = np.radians(rng.uniform(-UPRIGHT_TURN, UPRIGHT_TURN)) if tilt else 0.0
            for _ in range(int(rng.integers(0, 3))):  # touching neighbours
                a = rng.uniform(0, 2 * np.pi)
                d = size * rng.uniform(1.1, 1.5)
                synth.draw_die(
                    img,
                    side / 2 + d * np.cos(a),
                    side / 2 + d * np.sin(a),
                    size,
                    int(rng.integers(1, 7)),
                    tilt,
                    tilt_dir,
                    rng,
                )
            value = int(rng.integers(1, 7))
            box = synth.draw_die(img, side / 2, side / 2, size, value, tilt, tilt_dir, rng,
                                 top_face=True)
            if box is not None:
                bank.append((img, box, value, tilt > 0))
        return bank

    def _render_others(self, n: int):
        """Pre-render things that are no pip dice (d8, d10, numeral d6, coins, board art)."""
        rng = self.rng
        bank = []
        for _ in range(n):
            size = rng.uniform(24, 48)
            side = int(size * 4)
            img = synth.background(side, side, rng)
            draw = synth.draw_other_die if rng.random() < 0.7 else synth.draw_clutter
            box = draw(img, side / 2, side / 2, size, rng)
            if box is not None:
                bank.append((img, box))
        return bank

    def synthetic(self, positive: bool):
        rng = self.rng
        if self.bank is None:
            self.bank = self._render_bank(self.bank_size)
            self.others = self._render_others(self.bank_size // 2)
        if not positive and rng.random() < 0.6:  # a d8, d10, numeral d6, coin...: not a die
            img, (x1, y1, x2, y2) = self.others[int(rng.integers(0, len(self.others)))]
            bs = max(x2 - x1, y2 - y1)
            cx = (x1 + x2) / 2 + rng.uniform(-0.12, 0.12) * bs
            cy = (y1 + y2) / 2 + rng.uniform(-0.12, 0.12) * bs
            patch = patch_at(img, cx, cy, bs * rng.uniform(0.8, 1.2), turn(rng, False), rng)
            return self._finish(patch), 0
        img, box, value, upright = self.bank[int(rng.integers(0, len(self.bank)))]
        bx, by = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        bs = max(box[2] - box[0], box[3] - box[1])
        if positive:
            cx, cy = bx + rng.uniform(-0.12, 0.12) * bs, by + rng.uniform(-0.12, 0.12) * bs
            s = bs * rng.uniform(0.85, 1.2)
            label = value
        else:  # off-centre; for a tilted die often the side below its top face
            a = rng.uniform(0.4, 0.6) * np.pi if upright and rng.random() < 0.4 else \
                rng.uniform(0, 2 * np.pi)
            d = rng.uniform(0.5, 1.0) * bs
            cx, cy = bx + d * np.cos(a), by + d * np.sin(a)
            s = bs * rng.uniform(0.7, 1.5)
            label = 0
        return self._finish(patch_at(img, cx, cy, s, turn(rng, upright), rng)), label

    def sample(self):
        r = self.rng.random()
        positive = self.rng.random() < 0.7
        return self.real(positive) if r < 0.6 else self.synthetic(positive)


LOOSE_AREA = 4.0  # a candidate 4 times a die's area (twice as wide) is no box of that die


def is_no_die(box, faces) -> bool:
    """Whether a candidate box ([x, y, w, h]) is no die: a box round two or more top faces (a
    group of dice taken for one), one far bigger than the die it lies on (a coarse level's
    guess), or one with its centre off every face (grown by a tenth) overlapping none much (a
    side face of a tilted die is such a box). Pips seen close up are sampled as negatives
    apart."""
    from companion.vision.dice import iou

    x, y, w, h = box
    cx, cy = x + w / 2, y + h / 2
    held = sum(x <= (x1 + x2) / 2 <= x + w and y <= (y1 + y2) / 2 <= y + h
               for x1, y1, x2, y2 in faces)
    if held >= 2:
        return True
    for x1, y1, x2, y2 in faces:
        if w * h > LOOSE_AREA * (x2 - x1) * (y2 - y1):
            continue  # a box this much bigger than a die is no box of it, wherever it lies
        m = 0.1 * (x2 - x1)
        if x1 - m <= cx <= x2 + m and y1 - m <= cy <= y2 + m:
            return False
        if iou(box, [x1, y1, x2 - x1, y2 - y1]) >= 0.2:
            return False
    return True


def mine_hard_negatives(items: list[Item], detector_path: Path):
    """Detector candidates on the training photos (3 scales, each with every level a photo
    gets, the coarse ones proposing groups of dice as one big die) that are no die
    (``is_no_die``): every level's candidates, as the reader classifies them before merging
    levels."""
    from companion.vision.dice import DiceReader, DiceSettings

    det = DiceReader(detector_path.parent, classifier=False, settings=DiceSettings(det_threshold=0.1),
                     detector_path=detector_path)
    hard = []
    for j, item in enumerate(items):
        for s in (0.75, 1.0, 1.3):
            det.work_long_side = int(640 * s)
            for d in det.level_candidates(item.img, thorough=True):
                x, y, w, h = d["box"]
                if is_no_die(d["box"], item.boxes):
                    hard.append((j, (x, y, x + w, y + h)))
    counts = {name: sum(items[j].setup == name for j, _ in hard)
              for name in sorted({i.setup for i in items})}
    print(f"hard negatives mined: {len(hard)} {counts}", flush=True)
    return hard


class CropStream(torch.utils.data.IterableDataset):
    def __init__(self, items, seed, bs, hard=()):
        self.items, self.seed, self.bs, self.hard = items, seed, bs, hard

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        sampler = CropSampler(
            self.items, self.seed * 1000 + 7 + (info.id if info else 0), hard=self.hard
        )
        while True:
            xs, ys = zip(*(sampler.sample() for _ in range(self.bs)))
            yield (
                torch.from_numpy(np.stack(xs).transpose(0, 3, 1, 2).astype(np.float32)),
                torch.tensor(ys),
            )


def train_classifier(items, args):
    if args.cls_arch == "imagenet":
        from pretrained import PretrainedCls

        model = PretrainedCls()
    else:
        model = DiceCls()
    print("classifier params", sum(p.numel() for p in model.parameters()), flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=args.cls_lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=args.cls_lr, total_steps=args.cls_iters, pct_start=0.05
    )
    hard = mine_hard_negatives(items, args.out) if args.out.exists() else []
    loader = torch.utils.data.DataLoader(
        CropStream(items, args.seed, args.cls_bs, hard),
        batch_size=None,
        num_workers=args.workers,
        prefetch_factor=4 if args.workers else None,
    )
    t0 = time.time()
    model.train()
    run = None
    for it, (x, y) in enumerate(loader):
        if it >= args.cls_iters:
            break
        logits = model(x)
        loss = F.cross_entropy(logits, y, label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        acc = (logits.argmax(1) == y).float().mean().item()
        vals = np.array([loss.item(), acc])
        run = vals if run is None else 0.98 * run + 0.02 * vals
        if it % 100 == 0 or it == args.cls_iters - 1:
            print(
                f"cls it {it} loss {run[0]:.3f} acc {run[1]:.3f} {time.time() - t0:.0f}s",
                flush=True,
            )
    model.eval()
    args.cls_out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        ClsExport(model),
        torch.zeros(1, 3, CLS_SIZE, CLS_SIZE),
        str(args.cls_out),
        input_names=["crops"],
        output_names=["probs", "features"],
        opset_version=17,
        dynamic_axes={"crops": {0: "n"}, "probs": {0: "n"}, "features": {0: "n"}},
        dynamo=False,
    )
    print(f"classifier done in {time.time() - t0:.0f}s -> {args.cls_out}", flush=True)


def train_detector(items, args):
    model = DiceNet()
    print("detector params", sum(p.numel() for p in model.parameters()), flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=args.lr, total_steps=args.iters, pct_start=0.05
    )
    loader = torch.utils.data.DataLoader(
        Stream(items, args.seed, args.bs),
        batch_size=None,
        num_workers=args.workers,
        prefetch_factor=4 if args.workers else None,
    )
    t0 = time.time()
    model.train()
    run = None
    for it, (img, heat, ign, reg, mask) in enumerate(loader):
        if it >= args.iters:
            break
        out = model(img)
        lh = focal_loss(out[:, :HEATMAPS], heat, ign)
        sized, placed = mask[:, :1], mask[:, 1:]  # box size known / every die's centre
        lwh = (F.l1_loss(out[:, HEATMAPS : HEATMAPS + 2], reg[:, :2], reduction="none")
               * sized).sum() / sized.sum().clamp(min=1)
        loff = (F.l1_loss(out[:, HEATMAPS + 2 :], reg[:, 2:], reduction="none")
                * placed).sum() / placed.sum().clamp(min=1)
        loss = lh + lwh + loff
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        vals = np.array([loss.item(), lh.item(), lwh.item(), loff.item()])
        run = vals if run is None else 0.98 * run + 0.02 * vals
        if it % 100 == 0 or it == args.iters - 1:
            print(
                f"it {it} loss {run[0]:.3f} heat {run[1]:.3f} wh {run[2]:.3f} off {run[3]:.3f} "
                f"lr {sched.get_last_lr()[0]:.5f} {time.time() - t0:.0f}s",
                flush=True,
            )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export(model, args.out)
    print(f"detector done in {time.time() - t0:.0f}s -> {args.out}", flush=True)


def main():
    global CLS_SIZE, PATCH  # the crop sampler's sizes (--cls-size), set before any sampling
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--stage", choices=["all", "det", "cls"], default="all")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=0,
                    help="data-loader processes (0: in this one, one core in all)")
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    ap.add_argument("--hold-out", choices=sorted(SETUPS), action="append", default=[],
                    help="a setup not to train on (leave-one-setup-out); repeatable")
    ap.add_argument("--iters", type=int, default=3600, help="detector iterations")
    ap.add_argument("--bs", type=int, default=16)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--out", type=Path, default=MODELS / "dice_centernet.onnx")
    ap.add_argument("--cls-arch", choices=["imagenet", "small"], default="imagenet",
                    help="the classifier: on an ImageNet-trained trunk (pretrained.py, shipped)"
                         " or the small one trained from nothing (DiceCls, before 2026-11-28)")
    ap.add_argument("--cls-iters", type=int, default=1600,
                    help="classifier iterations (the small one was trained for 4800)")
    ap.add_argument("--cls-size", type=int, default=CLS_SIZE,
                    help="classifier input side in px (the reader takes it from the model)")
    ap.add_argument("--cls-bs", type=int, default=256)
    ap.add_argument("--cls-lr", type=float, default=3e-3)
    ap.add_argument("--cls-out", type=Path, default=MODELS / "dice_classifier.onnx")
    args = ap.parse_args()
    CLS_SIZE, PATCH = args.cls_size, args.cls_size * 3 // 2
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(args.threads)
    items = load_items([name for name in SETUPS if name not in args.hold_out])
    print(f"train images {len(items)}, dice {sum(len(i.boxes) for i in items)}", flush=True)
    t0 = time.time()
    if args.stage in ("all", "det"):
        train_detector(items, args)
    if args.stage in ("all", "cls"):
        train_classifier(items, args)
    print(f"total training time {time.time() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
