"""The games, one folder each. Importing this package imports every game folder in it, and
each registers itself with the engine: adding a game is adding a folder (docs/adding-a-game.md).

A game kept outside this package (a plug-in of a table's own) is loaded by its module name
with ``load_plugins``: the `games` setting, or COMPANION_GAMES.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable


def load_plugins(names: Iterable[str]) -> None:
    """Import the game modules named (each registers itself on import)."""
    for name in names:
        if name.strip():
            importlib.import_module(name.strip())


load_plugins(f"{__name__}.{module.name}" for module in pkgutil.iter_modules(__path__)
             if module.ispkg)
