"""End to end in a real headless Chromium: a Captain's Gambit dealt by hand ends while Ben,
who never told his captain, has left. Every phone says whose captain is still needed and how
to finish; the host frees Ben's seat, answers for him from the host's own phone and goes back
to Ann's seat; every phone shows who won."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.web import test_e2e
from tests.web.server import Client, Server
from tests.web.shots import shot
from tests.web.test_e2e import LIVE, NAMES, new_phone, seated_phone, tab

# test_e2e's fixtures: the real server, the browser, and no script error on any page.
server = test_e2e.server
browser = test_e2e.browser
no_script_errors = test_e2e.no_script_errors


def test_the_host_answers_at_the_end_for_a_player_who_left(server: Server,
                                                            browser: Browser) -> None:
    host = new_phone(browser)
    host.goto(server.url + "/")
    created = host.request.post(f"{server.url}/api/tables", data={
        "game": "captains-gambit", "seats": NAMES, "dealt_by_hand": True})
    assert created.status == 201, created.text()
    table = created.json()
    base = f"/api/tables/{table['id']}"
    host.goto(f"{server.url}/t/{table['id']}")
    tab(host, "me")
    host.click("#take-seat button[data-seat='0']")  # the host sits down as Ann
    expect(host.locator(".player[data-seat='0'] .name")).to_contain_text("(you)")
    cat = seated_phone(browser, server, table, 2)
    others = {seat: Client(server) for seat in (1, 3)}
    for seat, client in others.items():
        assert client.call("POST", f"{base}/join", {"pin": table["pin"], "seat": seat})[0] == 200

    def send(seat: int | None, name: str, **params: Any) -> None:
        if seat in others:
            client = others[seat]
            _, now = client.call("GET", base)
            status, answer = client.call("POST", f"{base}/actions", {
                "name": name, "seat": seat, "params": params, "expect": now["version"]})
        else:
            page: Page = cat if seat == 2 else host
            now = page.request.get(f"{server.url}{base}").json()
            answer = page.request.post(f"{server.url}{base}/actions", data={
                "name": name, "seat": seat, "params": params, "expect": now["version"]})
            status = answer.status
        assert status == 201, answer

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
    host.click("#reaction-alert button:text-is('Tell the companion your captain')")
    host.click("#sheet-form button:text-is('Puck')")
    host.click("#sheet-go")
    expect(host.locator("#sheet-preview")).not_to_be_empty()
    host.click("#sheet-go")
    expect(host.locator("#sheet")).to_be_hidden()
    host.click("#turn #back-to-seat")
    expect(host.locator(".player[data-seat='0'] .name")).to_contain_text("(you)", timeout=LIVE)
    for page in (host, cat):
        expect(page.locator("#turn")).to_contain_text("Ben (Puck) wins", timeout=LIVE)
    expect(host.locator("#turn #back-to-seat")).to_have_count(0)
    shot(host, "captains-gambit-ending-over")
