"""Gambit of Kings on two phones in a real headless Chromium against a real `companion serve`:
Ann taps her piece, the squares it may reach light up, she taps one and confirms; Ben's board
is turned round, with the last move marked; Ben attacks and both enter their combat dice by
tapping the die's faces."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.web.server import Server
from tests.web.shots import shot
from tests.web.test_e2e import LIVE, browser, new_phone, no_script_errors, server, tab

__all__ = ["browser", "no_script_errors", "server"]  # the fixtures this module uses

ROWS = {"light": ["knight", "griffin", "paladin", "lion", "giant", "elf", "soldier"],
        "dark": ["orc", "dragon", "lich", "dire wolf", "ogre", "death knight", "skeleton"]}


def seated(browser: Browser, server: Server, table: dict[str, Any], seat: int) -> Page:
    page = new_phone(browser)
    page.goto(f"{server.url}/t/{table['id']}")
    page.fill("#pin", table["pin"])
    page.click(f"#seat-buttons button[data-seat='{seat}']")
    tab(page, "table")
    return page


def sheet(page: Page, choices: tuple[str, ...], preview: str) -> None:
    """Pick the choices in the open action sheet, preview, confirm."""
    for choice in choices:
        page.click(f'#sheet-form button:text-is("{choice}")')
    page.click("#sheet-go")
    expect(page.locator("#sheet-preview")).to_contain_text(preview)
    page.click("#sheet-go")
    expect(page.locator("#sheet")).to_be_hidden()


def test_two_phones_move_by_tapping_and_fight_with_dice(server: Server,
                                                         browser: Browser) -> None:
    from tests.web.server import Client

    _, table = Client(server).call("POST", "/api/tables", {
        "game": "gambit-of-kings", "seats": ["Ann", "Ben"],
        "options": {"mode": "adventure", "first": "light", "card_rows": ROWS,
                    "pieces": "e1 light castle, j10 dark castle, e4 light knight,"
                              " c3 light elf, g9 dark orc"}})
    ann, ben = seated(browser, server, table, 0), seated(browser, server, table, 1)
    board = "#boards [data-board=board]"
    expect(ann.locator(f"{board} .cell")).to_have_count(100)
    # Ben sits across: his board is turned round (a10 top left for Ann, j1 for him).
    for page, top_left, bottom_right in ((ann, "a10", "j1"), (ben, "j1", "a10")):
        top = page.locator(f"{board} [data-cell={top_left}]").bounding_box()
        bottom = page.locator(f"{board} [data-cell={bottom_right}]").bounding_box()
        assert top and bottom and top["x"] < bottom["x"] and top["y"] < bottom["y"]

    # Ann rolls a 1 (the Knight's card) on her phone, by tapping the die's face.
    tab(ann, "me")
    ann.click("#my-actions [data-action=roll]")
    sheet(ann, ("1",), "Ann rolls the movement die: 1")
    tab(ann, "table")
    expect(ann.locator("#turn")).to_contain_text("a Knight moves", timeout=LIVE)
    # Only the Knight may move: a tap on it lights its squares, not the Elf's.
    expect(ann.locator(f"{board} [data-cell=c3].can")).to_have_count(0)
    # A tap on a piece that may not move says what it is; the key under the board spells
    # the labels out, and stays open while the game goes on.
    ann.click(f"{board} [data-cell=c3]")
    expect(ann.locator("#banner")).to_have_text("c3: Ann's Elf (light)")
    ann.click("#banner")  # a tap clears it off the header
    expect(ann.locator("#banner")).to_be_hidden()
    expect(ann.locator(f"{board} .cell.target")).to_have_count(0)
    legend = ann.locator(f"{board} details.legend")
    expect(legend.locator("li")).to_have_count(4)  # Castle, Knight, Elf; Ben's Orc
    legend.locator("summary").click()
    expect(legend.locator("li", has_text="Kn")).to_have_text("Kn Ann's Knight (light)")
    # The board stays put under her finger between the first tap and the second.
    before = ann.locator(f"{board} [data-cell=e7]").bounding_box()
    ann.click(f"{board} [data-cell=e4]")
    expect(ann.locator(f"{board} .cell.target")).to_have_count(11)  # not e1, her Castle
    expect(ann.locator(f"{board} .board-hint")).to_contain_text("(e4)")
    assert ann.locator(f"{board} [data-cell=e7]").bounding_box() == before
    # On a 390 px phone the ten files take the page's margins too: squares of 36 px.
    assert before is not None and before["width"] >= 36, before
    shot(ann, "gambit-of-kings-knight-chosen")
    for width in (390, 590, 800):  # centred on a phone, a small tablet and wider
        ann.set_viewport_size({"width": width, "height": 844})
        grid = ann.locator(f"{board} .board-grid").bounding_box()
        assert grid is not None and abs(grid["x"] - (width - grid["x"] - grid["width"])) < 1, \
            (width, grid)
    ann.set_viewport_size({"width": 390, "height": 844})
    expect(ann.locator(f"{board} [data-cell=e7].target")).to_have_count(1)
    expect(ann.locator(f"{board} [data-cell=f5].target")).to_have_count(0)
    ann.click(f"{board} [data-cell=e7]")
    sheet(ann, (), "Ann's Knight e4 to e7")

    # Ben sees the move marked, on his turned board.
    expect(ben.locator(f"{board} [data-cell=e7] .piece")).to_have_text("Kn", timeout=LIVE)
    expect(ben.locator(f"{board} .cell.terrain-last-move")).to_have_count(2)
    expect(ben.locator("#facts")).to_contain_text("Last move: e4 to e7")
    expect(ann.locator(f"{board} details.legend li", has_text="Kn")).to_be_visible()

    # Ben rolls a 1 (the Orc's card) and his Orc attacks the Knight.
    tab(ben, "me")
    ben.click("#my-actions [data-action=roll]")
    sheet(ben, ("1",), "Ben rolls the movement die: 1")
    tab(ben, "table")
    ben.click(f"{board} [data-cell=g9]")
    ben.click(f"{board} [data-cell=g8]")  # not a square the Orc may reach: no sheet opens
    expect(ben.locator("#sheet")).to_be_hidden()
    ben.click(f"{board} [data-cell=g9]")
    expect(ben.locator(f"{board} [data-cell=e7].target")).to_have_count(1)
    ben.click(f"{board} [data-cell=e7]")
    sheet(ben, (), "Ben's Orc g9 to e7: attacks Ann's Knight")

    # Both phones ask for their dice; each taps the faces of its own. Ann's turn card says
    # which die is hers to roll (it is not her turn).
    expect(ann.locator("#reaction-alert")).to_contain_text("Enter a combat die", timeout=LIVE)
    expect(ann.locator("#turn .headline")).to_have_text(
        "Combat: roll your Knight's d8 and enter it")
    shot(ann, "gambit-of-kings-combat-dice")
    ann.click("#reaction-alert button")
    sheet(ann, ("Knight's d8", "6"), "Ann's Knight's d8: 6")
    for die, face in (("Orc's d6", "2"), ("d8 for the Knight", "5")):
        expect(ben.locator("#reaction-alert")).to_be_visible(timeout=LIVE)
        ben.click("#reaction-alert button")
        sheet(ben, (die, face), f": {face}")
    # 5 against 6: Ben loses, and may re-roll with a token or accept.
    expect(ben.locator("#turn")).to_contain_text("Ben is losing", timeout=LIVE)
    expect(ben.locator("#turn .headline")).to_have_text(
        "You are losing the combat: re-roll one of your dice, or accept")
    shot(ben, "gambit-of-kings-combat-losing")
    ben.click("#reaction-alert button:text-is('Accept the fight\\'s result')")
    sheet(ben, (), "Ben accepts the result")
    tab(ann, "table")
    expect(ann.locator("#recent")).to_contain_text("Ben's Orc on g9 is destroyed", timeout=LIVE)
    expect(ann.locator(".player[data-seat='1'] [data-counter=pieces]")).to_have_text("1")
    expect(ann.locator("#turn")).to_have_text(re.compile("Ann to roll"))


def test_a_new_table_chooses_the_rules_on_the_phone(server: Server, browser: Browser) -> None:
    """The game's choice options are drawn as lists to pick from, with their defaults."""
    host = new_phone(browser)
    host.goto(server.url + "/")
    host.select_option("#game", "gambit-of-kings")
    mode = host.locator("#options select[name=mode]")
    expect(mode).to_have_value("standard")
    expect(host.locator("#options select[name=first]")).to_have_value("coin")
    mode.select_option("av1")
    host.select_option("#options select[name=first]", "dark")
    for seat, name in enumerate(("Ann", "Ben")):
        host.locator("#seat-names input").nth(seat).fill(name)
    host.fill("input[name=name]", "Saturday")
    host.click("button[type=submit]")
    host.wait_for_url(re.compile(r"/t/[0-9a-f]+$"))
    expect(host.locator("#status-line")).to_contain_text("Adventure variant I (AV I)")
    expect(host.locator("#turn")).to_contain_text("Ben to roll the movement die")
    # No eyes-closed phase in this game: the narrator says so rather than "Not started".
    tab(host, "more")
    expect(host.locator("#narration")).to_have_text(
        "Nothing to narrate: this game has no eyes-closed phase")
    expect(host.locator("#narration-buttons button")).to_have_count(0)
