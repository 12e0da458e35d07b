"""`companion scan`: one JSON object per image, as ARCHITECTURE.md's contract says. The cards
are every sticker read: QR codes, and the square markers of pieces and tiles, by the payload
their number stands for. With a game to score (`--score`), its boards and score too."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.engine import GameRules, RulesError, parse_payload
from companion.vision.board_photo import score_photo
from companion.vision.dice import DiceReader, iou, off_codes
from companion.vision.images import Image, ImageError, load_image
from companion.vision.markers import read_markers
from companion.vision.qr import CodeReading, read_codes
from companion.vision.taught import TaughtDice, read_taught
from companion.vision.tracker import DieReading
from companion.vision.zone import EmptyReference, RollZone


def card_id(payload: str) -> str | None:
    """The registry id a code names, or None: not one of ours, or unknown, never guessed."""
    try:
        return parse_payload(payload).id
    except RulesError:
        return None


def card_entry(reading: CodeReading) -> dict[str, Any]:
    """A code as the contract shows it: ``card`` is the registry id, or None if unknown."""
    return {
        "payload": reading.text,
        "card": card_id(reading.text),
        "corners": [[round(x, 1), round(y, 1)] for x, y in reading.corners],
    }


def read_all_dice(image: Image, pips: DiceReader | None, taught: list[TaughtDice] | None,
                  thorough: bool = False, codes: Sequence[CodeReading] = (),
                  zone: RollZone | None = None, empty: EmptyReference | None = None
                  ) -> list[DieReading]:
    """Pip dice (with ``pips``, in the roll ``zone``, not where the ``empty`` zone looked the
    same) and the table's taught custom dice in one image, none on the QR stickers ``codes``
    read in it. A die the table taught is read as that die, not also as a pip die.
    ``thorough``: a photo, worth more time than a camera frame."""
    custom = [d for model in taught or [] for d in read_taught(model, image)]
    dice = pips.read(image, thorough, codes, zone, empty) if pips else []
    dice = [d for d in dice if not any(iou(d.box, c.box) > 0.3 for c in custom)]
    return dice + off_codes(custom, codes)


def scan_frame(image: Image, thorough: bool = True, pips: DiceReader | None = None,
               taught: list[TaughtDice] | None = None) -> dict[str, Any]:
    """Cards and dice in one decoded image: pip dice with ``pips``, and the table's taught
    custom dice."""
    codes = read_codes(image, thorough=thorough) + read_markers(image, thorough=thorough)
    dice = read_all_dice(image, pips, taught, thorough, codes)
    return {
        "width": int(image.shape[1]),
        "height": int(image.shape[0]),
        "cards": [card_entry(r) for r in codes],
        "dice": [d.to_dict() for d in dice],
    }


def scan_path(path: Path, pips: DiceReader | None = None,
              taught: list[TaughtDice] | None = None,
              score: GameRules | None = None) -> dict[str, Any]:
    """One image file as a contract object; a file that cannot be read gets ``error``.
    ``score``: also the boards of that game in the photo, and their score."""
    started = time.perf_counter()
    out: dict[str, Any] = {"path": str(path), "width": None, "height": None, "ms": None,
                           "cards": [], "dice": [], "error": None}
    try:
        image = load_image(path)
    except ImageError as exc:
        out["error"] = str(exc)
        return out
    out.update(scan_frame(image, pips=pips, taught=taught))
    if score is not None:
        out.update(score_photo(image, score))
    out["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return out
