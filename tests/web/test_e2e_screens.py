"""Every tab of every game on a 390x844 phone, kept as pictures to look at (build/screens/), and
the layout under the hardest names a table can type: long ones, emoji, right-to-left text and
markup, eight of them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from companion.engine import all_games
from tests.conftest import ROOT
from tests.web.server import Client, Server
from tests.web.test_e2e import ERRORS, LIVE, browser, new_phone, no_script_errors, tab

__all__ = ["browser", "no_script_errors"]  # the fixtures this module shares with test_e2e

SCREENS = ROOT / "build" / "screens"
HARD_NAMES = ["Ann-Sophie Müller-Lüdens", "😀 Ben 🎲🎲🎲", "שלום עליכם",
              "<b onclick=x()>Dan</b>", "Eve'; DROP TABLE--", "Zoë Åberg Ørsted",
              "مرحبا بالعالم", "Hal " + "W" * 19]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("screens"))
    running.start()
    yield running
    running.stop()


def fits(page: object) -> bool:
    return bool(page.evaluate(  # type: ignore[attr-defined]
        "() => document.documentElement.scrollWidth <= window.innerWidth"))


@pytest.mark.parametrize("game", [rules.info.slug for rules in all_games()
                                  if rules.info.slug != "counter-race"])
def test_every_tab_of_every_game_at_phone_size(server: Server, browser: Browser,
                                               game: str) -> None:
    rules = next(r for r in all_games() if r.info.slug == game)
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"][:rules.info.max_players]
    api = Client(server)
    status, table = api.call("POST", "/api/tables", {"game": game, "seats": names})
    assert status == 201, table
    phone = new_phone(browser)
    phone.goto(f"{server.url}/t/{table['id']}")
    phone.fill("#pin", table["pin"])
    phone.click("#seat-buttons button[data-seat='0']")
    expect(phone.locator(".player")).to_have_count(len(names), timeout=LIVE)
    SCREENS.mkdir(parents=True, exist_ok=True)
    for name in ("table", "me", "log", "more"):
        tab(phone, name)
        assert fits(phone), (game, name)
        shot = SCREENS / f"{game}-{name}.png"
        phone.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 5000  # a drawn page, not a blank one
    assert ERRORS == []


def test_eight_hard_names_on_a_small_phone(server: Server, browser: Browser) -> None:
    api = Client(server)
    status, table = api.call("POST", "/api/tables", {"game": "captains-gambit",
                                                     "seats": HARD_NAMES})
    assert status == 201, table
    phone = new_phone(browser)
    phone.on("dialog", lambda dialog: ERRORS.append(f"markup ran: {dialog.message}"))
    phone.goto(f"{server.url}/t/{table['id']}")
    phone.fill("#pin", table["pin"])
    phone.click("#seat-buttons button[data-seat='3']")
    expect(phone.locator(".player")).to_have_count(8, timeout=LIVE)
    expect(phone.locator(".player[data-seat='3'] .name")).to_contain_text(HARD_NAMES[3])
    assert phone.locator(".player b").count() == 0  # shown as text, never as markup
    for name in ("table", "me", "log", "more"):
        tab(phone, name)
        assert fits(phone), name
    SCREENS.mkdir(parents=True, exist_ok=True)
    tab(phone, "table")
    phone.screenshot(path=str(SCREENS / "hard-names-table.png"), full_page=True)
