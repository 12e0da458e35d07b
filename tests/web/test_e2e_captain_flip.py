"""Captain Flip on a phone, in a real headless Chromium against a real `companion serve`: a tile
drawn from the real bag is told with one tap (the side seen: nobody types its number, which
would tell its back), the payouts show before committing, a tap on a lit space of the player's
own board places it, and the coins it pays arrive on every screen; a tile flipped is told by
the side it then shows."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from tests.web import test_e2e
from tests.web.server import Client, Server
from tests.web.shots import shot
from tests.web.test_e2e import LIVE, counter, seated_phone, tab

# The browser, the server and the check that no page script failed: test_e2e.py's fixtures.
browser = test_e2e.browser
server = test_e2e.server
no_script_errors = test_e2e.no_script_errors


def test_a_turn_drawn_told_previewed_and_placed_by_tapping_the_board(server: Server,
                                                                      browser: Browser) -> None:
    api = Client(server)
    _, table = api.call("POST", "/api/tables", {"game": "captain-flip", "seats": ["Ann", "Ben"],
                                                "options": {"board": "A"}})
    ann = seated_phone(browser, server, table, 0)

    # Step 1: the side seen, and nothing else.
    tab(ann, "me")
    expect(ann.locator("#secrets")).to_have_text("You are Ann.")  # nothing hidden to cover
    ann.click("#my-actions [data-action=draw]")
    expect(ann.locator("#sheet-form .field")).to_have_count(1)
    ann.click("#sheet-form [data-param=face] button:text-is('Cook')")
    ann.click("#sheet-go")
    expect(ann.locator("#sheet-preview")).to_have_text("Ann draws a Cook")
    ann.click("#sheet-go")
    expect(ann.locator("#sheet")).to_be_hidden()

    # Before committing: what each space pays, kept, and the flip's range; never the back.
    expect(ann.locator("#my-actions [data-action=place]")).to_contain_text("a1 +1 · b1 +1")
    # The flip's range over every space, short enough for the button's two lines.
    flip_note = ann.locator("#my-actions [data-action=flip] .action-note")
    expect(flip_note).to_have_text(re.compile(r"^Back: not the Cook; \S+ to \S+ (now|or more)$"))
    assert flip_note.evaluate("e => e.scrollHeight <= e.clientHeight + 1")  # not cut off
    tab(ann, "table")
    expect(ann.locator("#facts [data-fact='payout:c1']")).to_contain_text("Cook +1 now")
    board = ann.locator("#boards [data-board='ship-0']")
    expect(board.locator(".cell.can")).to_have_count(5)  # a1 b1 c1 d3 e1
    board.scroll_into_view_if_needed()
    shot(ann, "captain-flip-places-lit")
    board.locator("[data-cell=a1]").click()
    expect(ann.locator("#sheet-note")).to_contain_text("a1 +1")
    ann.click("#sheet-go")
    expect(ann.locator("#sheet-preview")).to_have_text("Ann places the Cook on a1")
    ann.click("#sheet-go")
    expect(ann.locator("#sheet")).to_be_hidden()

    expect(counter(ann, 0, "coins")).to_have_text("1", timeout=LIVE)
    expect(board.locator("[data-cell=a1] .piece")).to_have_text("Cook")
    expect(ann.locator("#recent li").first).to_contain_text("Ann takes 1 coin (Cook on a1)")
    expect(ann.locator("#turn")).to_contain_text("Ben draws a tile")
    expect(ann.locator("#score-sheet")).to_contain_text("If the game ended now")
    # Her own ship comes first whoever plays, at the width; Ben's sees hers small, where the
    # Cook is its two letters, said under it.
    expect(ann.locator("#boards .board").first).to_have_attribute("data-board", "ship-0")
    ben = seated_phone(browser, server, table, 1)
    tab(ben, "table")
    expect(ben.locator("#boards .board").first).to_have_attribute("data-board", "ship-1")
    hers = ben.locator("#boards [data-board='ship-0']")
    expect(hers).to_have_class("board other")
    expect(hers.locator("[data-cell=a1] .piece")).to_have_text("Co")
    hers.locator(".legend summary").click()
    expect(hers.locator(".legend")).to_contain_text("Co Cook")
    shot(ben, "captain-flip-others-board-marks")

    # Ben draws a Swabby and flips it: the companion does not know its back either, so he
    # tells the side it shows, and the tile is kept as that.
    tab(ben, "me")
    ben.click("#my-actions [data-action=draw]")
    ben.click("#sheet-form [data-param=face] button:text-is('Swabby')")
    ben.click("#sheet-go")
    ben.click("#sheet-go")
    expect(ben.locator("#sheet")).to_be_hidden()
    ben.click("#my-actions [data-action=flip]")
    sides = ben.locator("#sheet-form [data-param=face] button")
    expect(sides).to_have_count(8)  # any Character but the Swabby
    shot(ben, "captain-flip-flip-told")
    ben.click("#sheet-form [data-param=face] button:text-is('Gunner')")
    ben.click("#sheet-go")
    expect(ben.locator("#sheet-preview")).to_have_text("Ben flips the Swabby")
    ben.click("#sheet-go")
    expect(ben.locator("#sheet")).to_be_hidden()
    expect(ann.locator("#recent li").first).to_contain_text(
        "The other side is a Gunner: it must be kept", timeout=LIVE)
    expect(ben.locator("#my-actions [data-action=place]")).to_contain_text("+5")


def test_a_side_the_camera_misread_is_corrected_on_the_sheet(server: Server,
                                                             browser: Browser) -> None:
    """The camera's draw carries the number it read, which the sheet never shows: a side the
    player corrects leaves that number behind (it went with the side misread), or the draw
    would be refused for a number nobody at the table can see."""
    api = Client(server)
    _, table = api.call("POST", "/api/tables", {"game": "captain-flip", "seats": ["Ann", "Ben"],
                                                "options": {"board": "A"}})
    ann = seated_phone(browser, server, table, 0)
    tab(ann, "me")
    expect(ann.locator("#my-actions [data-action=draw]")).to_be_visible()
    # As the camera's suggestion opens it: tile 07 read Cook side up.
    ann.evaluate("""() => openSheet(state.view.actions.find((a) => a.name === "draw"), 0,
                                    { face: "cook", tile: "07" })""")
    expect(ann.locator("#sheet-form .field")).to_have_count(1)
    ann.click("#sheet-form [data-param=face] button:text-is('Gunner')")
    ann.click("#sheet-go")
    expect(ann.locator("#sheet-preview")).to_have_text("Ann draws a Gunner")
    expect(ann.locator("#sheet-error")).to_be_empty()
    ann.click("#sheet-go")
    expect(ann.locator("#sheet")).to_be_hidden()
    expect(ann.locator("#turn")).to_contain_text("Ann keeps or flips the Gunner")
