"""What the camera keeps in the data directory (taught dice, the roll zone, a table's dice
examples and adapted reader) is written whole or not at all."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np


def write_atomically(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` through a temporary file beside it, so that a power cut or a
    full disk never leaves a half-written file; an OSError leaves ``path`` as it was."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        tmp.replace(path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
    return path


def npz_bytes(compressed: bool = False, **arrays: Any) -> bytes:
    """Arrays as the bytes of an .npz file (numpy's format, read back with np.load)."""
    out = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(out, **arrays)
    return out.getvalue()
