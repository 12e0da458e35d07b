"""End to end in a real headless Chromium: a Captain's Gambit dealt by hand ends while Ben,
who never told his captain, has left. Every phone says whose captain is still needed and how
to finish; the host frees Ben's seat, answers for him from the host's own phone and goes back
to Ann's seat; every phone shows who won."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.web import test_e2e
from tests.web.hand_dealt import answer, hand_dealt_table
from tests.web.server import Server
from tests.web.shots import shot
from tests.web.test_e2e import LIVE, tab

# test_e2e's fixtures: the real server, the browser, and no script error on any page.
server = test_e2e.server
browser = test_e2e.browser
no_script_errors = test_e2e.no_script_errors


def test_the_host_answers_at_the_end_for_a_player_who_left(server: Server,
                                                            browser: Browser) -> None:
    at = hand_dealt_table(browser, server)
    host, cat, send, base = at.host, at.cat, at.send, at.base
    send(None, "end_prologue")
    for seat, captain in ((0, "iago"), (2, "portia"), (3, "hamlet")):  # never Ben
        send(seat, "captain_seen", captain=captain)
    while (now := host.request.get(f"{server.url}{base}").json()["view"])["phase"] == "action":
        send(now["turn"], "charge")

    # Every phone: whose captain is still needed, and how to finish if that player has left.
    for page in (host, cat):
        tab(page, "table")
        expect(page.locator("#turn")).to_contain_text(
            "Ben must tell the companion their captain before the winners are known. If Ben"
            " has left the table, the host frees Ben's seat, takes it and tells the captain"
            " for them.", timeout=LIVE)
        expect(page.locator("#turn .headline")).to_have_text("Nothing to do now: waiting for Ben")
    shot(cat, "captains-gambit-ending-waiting")

    # Ben has left: the host frees his seat (two taps), then answers for him on the Table tab.
    tab(host, "host")
    host.click("[data-release='1']")
    host.click("[data-release='1']")
    expect(host.locator("[data-sit='1']")).to_be_visible(timeout=LIVE)
    tab(host, "table")
    expect(cat.locator("#unheld")).to_have_text(
        "No phone holds Ben's seat: the host can take it and answer for them.", timeout=LIVE)
    expect(host.locator("#unheld")).to_have_text(
        "No phone holds Ben's seat: take it here to answer for them.")
    shot(host, "captains-gambit-ending-host-answers-for-ben")
    host.click("#turn [data-stand-in='1']")  # one mis-tap moves nobody
    expect(host.locator("#turn [data-stand-in='1']")).to_contain_text(
        "Tap again: this phone becomes Ben's")
    shot(host, "captains-gambit-ending-host-confirms")
    host.click("#turn [data-stand-in='1']")
    expect(host.locator("#turn .headline")).to_have_text(
        "Tell the companion your captain, so the game can end",
        timeout=LIVE)
    shot(host, "captains-gambit-ending-host-as-ben")
    answer(host, "Tell the companion your captain", "Puck")
    host.click("#turn #back-to-seat")
    expect(host.locator(".player[data-seat='0'] .name")).to_contain_text("(you)", timeout=LIVE)
    for page in (host, cat):
        expect(page.locator("#turn")).to_contain_text("Ben (Puck) wins", timeout=LIVE)
    expect(host.locator("#turn #back-to-seat")).to_have_count(0)
    shot(host, "captains-gambit-ending-over")
