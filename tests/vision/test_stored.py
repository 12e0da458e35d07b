"""Files the camera keeps are written whole or not at all."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.vision.stored import npz_bytes, write_atomically


def test_a_file_is_replaced_whole_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "dice" / "zone.json"
    write_atomically(path, b"old")
    write_atomically(path, b"new")
    assert path.read_bytes() == b"new" and sorted(p.name for p in path.parent.iterdir()) == [
        "zone.json"]
    arrays = tmp_path / "head.npz"
    write_atomically(arrays, npz_bytes(weights=np.eye(2, dtype=np.float32)))
    with np.load(arrays) as stored:
        assert stored["weights"].tolist() == [[1.0, 0.0], [0.0, 1.0]]


def test_a_failed_write_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "model.npz"
    write_atomically(path, b"kept")
    (tmp_path / "model.npz.tmp").mkdir()  # the temporary file cannot be written
    with pytest.raises(OSError):
        write_atomically(path, b"lost")
    assert path.read_bytes() == b"kept"
