"""Where the companion keeps its data, and (as the service lands) its other settings."""

from __future__ import annotations

import os
from pathlib import Path

APP = "gambit-companion"


def models_dir() -> Path:
    """Shipped model files: $COMPANION_MODELS, else the repository's models/ folder."""
    if os.environ.get("COMPANION_MODELS"):
        return Path(os.environ["COMPANION_MODELS"])
    return Path(__file__).resolve().parent.parent / "models"


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The data directory: ``override``, else $COMPANION_DATA, else $XDG_DATA_HOME/gambit-companion,
    else ~/.local/share/gambit-companion. Not created here."""
    if override:
        return Path(override)
    if os.environ.get("COMPANION_DATA"):
        return Path(os.environ["COMPANION_DATA"])
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / APP
