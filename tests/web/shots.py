"""Screenshots of phone screens that tests reach, kept in build/screens/ to look at (what a
player at a noisy table sees at a glance)."""

from __future__ import annotations

from typing import Any

from tests.conftest import ROOT

SCREENS = ROOT / "build" / "screens"


def shot(page: Any, name: str) -> None:
    """The whole page of ``page`` as build/screens/NAME.png; it must be a drawn page and no
    wider than the phone."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    path = SCREENS / f"{name}.png"
    page.screenshot(path=str(path))  # the screen as the player sees it, 390x844
    assert path.stat().st_size > 5000  # a drawn page, not a blank one
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
