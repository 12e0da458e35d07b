"""End to end in a real headless Chromium: four phones play the opening of Captain's Gambit
against a real `companion serve` (waitress, SQLite). The test command installs Chromium."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright._impl._driver import compute_driver_executable
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.web.server import Server
from tests.web.shots import shot

CHROMIUM = "/usr/bin/chromium"
NAMES = ["Ann", "Ben", "Cat", "Dan"]
# ms: how long a phone may take to show a change here. Generous on purpose: speed is the
# benchmark's job (benchmarks/service: milliseconds), this test checks that it arrives.
LIVE = 5000
ERRORS: list[str] = []  # script errors on any page: there must be none


@pytest.fixture(autouse=True)
def no_script_errors() -> Iterator[None]:
    ERRORS.clear()
    yield
    assert ERRORS == []


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("e2e"))
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert Path(CHROMIUM).exists(), "Chromium is missing: ./test.sh installs it (apt chromium)"
    # Playwright talks to the browser through its own node program; on a bare Debian it could
    # not start (a missing libatomic.so.1), which surfaced only as "Connection closed".
    node = compute_driver_executable()[0]
    started = subprocess.run([node, "--version"], capture_output=True, text=True, check=False)
    assert started.returncode == 0, f"Playwright's driver does not start: {started.stderr}" \
        " (./test.sh installs what it needs: apt libatomic1)"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"])
        yield launched
        launched.close()


def new_phone(browser: Browser) -> Page:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.set_default_timeout(5000)
    page.on("pageerror", lambda error: ERRORS.append(str(error)))
    return page


def seated_phone(browser: Browser, server: Server, table: dict[str, Any], seat: int) -> Page:
    """A new phone that joins ``table`` (as the API created it) at ``seat`` with its PIN."""
    page = new_phone(browser)
    page.goto(f"{server.url}/t/{table['id']}")
    page.fill("#pin", table["pin"])
    page.click(f"#seat-buttons button[data-seat='{seat}']")
    expect(page.locator("#turn")).to_be_visible()
    return page


def tab(page: Page, name: str) -> None:
    page.click(f"#nav [data-tab={name}]")


def host_creates(browser: Browser, server: Server, game: str) -> Page:
    """A host's phone creates a table of ``game`` for NAMES on the home page, as a host does."""
    host = new_phone(browser)
    host.goto(server.url + "/")
    host.select_option("#game", game)
    for i, name in enumerate(NAMES):
        host.locator("#seat-names input").nth(i).fill(name)
    host.click("button[type=submit]")
    host.wait_for_url(re.compile(r"/t/[0-9a-f]+$"))
    return host


def do(page: Page, action: str, choices: tuple[str, ...] = (), where: str = "#my-actions",
       preview: str | None = None) -> None:
    """Tap an action, pick its choices, preview, confirm."""
    tab(page, "host" if where == "#host-actions" else "me")
    page.click(f"{where} [data-action={action}]")
    for choice in choices:
        page.click(f"#sheet-form button:text-is('{choice}')")
    page.click("#sheet-go")  # preview
    expect(page.locator("#sheet-preview")).not_to_be_empty()
    if preview:
        expect(page.locator("#sheet-preview")).to_contain_text(preview)
    page.click("#sheet-go")  # confirm
    expect(page.locator("#sheet")).to_be_hidden()


def counter(page: Page, seat: int, name: str) -> Any:
    return page.locator(f".player[data-seat='{seat}'] [data-counter={name}]")


def test_four_phones_play_the_opening_rounds(server: Server, browser: Browser) -> None:
    host = new_phone(browser)
    host.goto(server.url + "/")
    expect(host.locator("#game option")).not_to_have_count(0)
    # Setup in players' words: no game chosen for them, then names, not ids.
    assert host.locator("#game").input_value() == ""
    expect(host.locator("#table-setup")).to_be_hidden()
    host.select_option("#game", "captains-gambit")
    expect(host.locator("#game-summary")).to_contain_text("4 to 8 players")
    expect(host.locator("#options")).to_contain_text("King Lear and Othello (for Cordelia and"
                                                     " Brutus)")
    inputs = host.locator("#seat-names input")
    expect(inputs).to_have_count(4)
    expect(host.locator("#seat-names")).to_contain_text("Player 1")
    for i, name in enumerate(NAMES):
        inputs.nth(i).fill(name)
    first = host.locator("#options select[name=first_seat] option")
    expect(first).to_have_text(["Random", *NAMES])  # who plays first, by name
    host.fill("input[name=name]", "Friday night")
    host.click("button[type=submit]")
    host.wait_for_url(re.compile(r"/t/[0-9a-f]+$"))
    table_url = host.url

    # The host's first screen says how the players join, the QR code one tap away.
    hint = host.locator("#join-hint")
    expect(hint).to_contain_text("Waiting for Ann, Ben, Cat and Dan to join")
    host.click("#join-hint button:text-is('Show the QR code')")
    expect(host.locator("#join-qr")).to_be_visible()
    pin = host.locator("#host-pin").inner_text()
    assert re.fullmatch(r"\d{6}", pin)
    expect(hint.locator(".pin-inline")).to_have_text(pin)
    assert host.locator("#join-qr").evaluate("img => img.complete && img.naturalWidth > 0")
    tab(host, "me")
    host.click("#take-seat button[data-seat='0']")
    expect(host.locator("#secrets")).to_contain_text("You are Ann")

    phones = [host]
    for seat in (1, 2, 3):
        page = new_phone(browser)
        page.goto(table_url)
        # a taken seat says how to get it back (its phone lost)
        expect(page.locator("#seat-buttons button[data-seat='0']")).to_have_text("Ann (taken)")
        expect(page.locator("#taken-hint")).to_contain_text("The host frees it")
        page.fill("#pin", pin)
        page.click(f"#seat-buttons button[data-seat='{seat}']")
        tab(page, "me")
        expect(page.locator("#secrets")).to_contain_text(f"You are {NAMES[seat]}")
        phones.append(page)

    tab(host, "table")
    expect(host.locator("#join-hint")).to_be_hidden()  # every seat taken
    tab(host, "me")
    # Each phone shows its own captain and no one else's.
    captains = [page.locator("#secrets [data-secret=captain] strong").inner_text()
                for page in phones]
    assert all(captains)
    # Covered until their player asks (a neighbour sees the screen as a move is picked), and
    # covered again on leaving the tab.
    facts = host.locator("#secret-facts")
    expect(facts).to_be_hidden()
    # The button reads the same on every phone: no count of a seat's secrets to glance at.
    expect(host.locator("#show-secrets")).to_have_text("Show my secrets")
    host.click("#show-secrets")
    expect(facts).to_be_visible()
    expect(host.locator("#show-secrets")).to_have_text("Hide my secrets")
    tab(host, "table")
    tab(host, "me")
    expect(facts).to_be_hidden()
    expect(host.locator("#show-secrets")).to_have_text("Show my secrets")
    for seat, page in enumerate(phones):
        # What the phone says of its seat, without the rules texts explaining its cards
        # (the Barrage's names Hamlet).
        secrets = page.locator("#secrets").evaluate(
            "n => { const c = n.cloneNode(true);"
            " c.querySelectorAll('.detail').forEach((d) => d.remove()); return c.innerText; }")
        for other, captain in enumerate(captains):
            if other != seat and captain != captains[seat]:
                assert captain not in secrets

    # The host starts the Prologue's narration (the Table tab points there); with no speaker
    # here, it plays on the phone.
    tab(host, "table")
    expect(host.locator("#turn #to-host-step")).to_have_text(
        "As host: the narrator, then Everyone opens their eyes")
    expect(phones[1].locator("#turn #to-host-step")).to_have_count(0)
    host.click("#turn #to-host-step")
    expect(host.locator("#narration-buttons [data-phase=prologue]")).to_be_visible()
    host.click("#narration-buttons [data-phase=prologue]")
    # The truth: ready on the host's phone, not "playing" before Play is tapped.
    expect(host.locator("#narration")).to_contain_text("Ready on this phone: tap Play")
    expect(host.locator("#narration-audio")).to_be_visible()
    assert host.locator("#narration-audio").evaluate("a => a.src").endswith("/narration.wav")
    expect(phones[1].locator("#narration")).to_contain_text("Playing on the host's phone")
    # Every phone says what to do with eyes closed.
    for page in phones:
        tab(page, "table")
        expect(page.locator("#eyes-closed")).to_contain_text("Now: the Prologue")
        expect(page.locator("#eyes-closed")).to_contain_text("Eyes closed")

    # The Prologue: whoever has a marking captain marks a player; the host opens the eyes,
    # from where the narration is steered.
    for page in phones:
        tab(page, "me")
        if page.locator("#my-actions [data-action=prologue_mark]").count():
            do(page, "prologue_mark", (NAMES[0] if page is not host else NAMES[1],))
    tab(host, "more")
    host.click("#narration-buttons [data-action=end_prologue]")
    host.click("#sheet-go")
    host.click("#sheet-go")
    expect(host.locator("#sheet")).to_be_hidden()
    for page in phones:
        expect(page.locator("#eyes-closed")).to_be_hidden(timeout=LIVE)
    expect(host.locator("#turn #to-host-step")).to_have_count(0)  # no step of the table's now
    # The table's rulings stand apart from the game's steps on the host's tab.
    tab(host, "host")
    expect(host.locator("#host-rulings [data-action=correct]")).to_be_visible()
    assert host.locator("#host-actions [data-action=correct]").count() == 0
    expect(host.locator("#host-actions-box")).to_be_hidden()  # no step of the game's now
    for page in phones:
        tab(page, "table")
        expect(page.locator("#turn")).to_contain_text("Ann", timeout=LIVE)
    # Ann's phone says it is her turn, her moves a tap away; the others say whom they wait
    # for, by name.
    expect(host.locator("#turn")).to_contain_text("Your turn")
    host.click("#turn #to-my-moves")
    expect(host.locator("#my-actions [data-action=charge]")).to_be_visible()
    # Each move's name and cost at a glance, what it does first (the whole text in its sheet).
    strike = host.locator("#my-actions [data-action=strike]")
    expect(strike.locator(".action-name")).to_have_text("Strike")
    expect(strike.locator(".cost")).to_have_text("Costs 1")
    expect(host.locator("#my-actions [data-action=charge] .cost")).to_have_count(0)
    barrage = host.locator("#my-actions [data-action=barrage] .action-note")
    expect(barrage).not_to_contain_text(re.compile("^If called"))
    box = barrage.bounding_box()
    assert box is not None and box["height"] < 3 * 20  # two lines, not the rule's wall of text
    host.click("#my-actions [data-action=barrage]")
    expect(host.locator("#sheet-note")).to_contain_text(re.compile(r"^Costs 3\..*If called and"
                                                                     " you hold no Barrage"))
    host.click("#sheet-cancel")
    tab(host, "table")
    for page in phones[1:]:
        expect(page.locator("#turn")).to_contain_text("Nothing to do now: waiting for Ann")
        expect(page.locator("#turn")).not_to_contain_text("Your turn")
        expect(page.locator("#turn #to-my-moves")).to_have_count(0)
    # A refusal reads in players' words, the engine's sentence one tap away.
    tab(host, "host")
    host.click("#host-rulings [data-action=correct]")
    host.click("#sheet-form [data-param=target] button:text-is('Ben')")
    host.click("#sheet-form [data-param=counter] button:text-is('Energy')")
    # The new value starts at what the counter is now, for the player and counter chosen
    expect(host.locator("#sheet-form [data-param=value] input")).to_have_value(
        counter(host, 1, "energy").inner_text())
    host.click("#sheet-form [data-param=counter] button:text-is('Health')")
    expect(host.locator("#sheet-form [data-param=value] input")).to_have_value("10")
    host.fill("#sheet-form [data-param=value] input", "7")  # typed: it stays the host's
    host.click("#sheet-form [data-param=target] button:text-is('Cat')")
    expect(host.locator("#sheet-form [data-param=value] input")).to_have_value("7")
    host.click("#sheet-form [data-param=target] button:text-is('Ben')")
    shot(host, "correct-a-counter")
    host.fill("#sheet-form [data-param=reason] input", " ")
    host.click("#sheet-go")
    expect(host.locator("#sheet-error")).to_contain_text("A ruling needs a reason")
    expect(host.locator("#sheet-error summary")).to_have_text("Why?")
    host.click("#sheet-cancel")
    tab(phones[2], "log")  # Cat reads the log while the others play: it stays live

    # Round 1: everyone charges (+1 energy); every phone sees it, live.
    for seat, page in enumerate(phones):
        if page is phones[2]:
            tab(page, "table")
        before = int(counter(page, seat, "energy").inner_text())
        do(page, "charge", preview="Charge")
        for other in phones:
            expect(counter(other, seat, "energy")).to_have_text(str(before + 1), timeout=LIVE)
        if seat == 0:  # Cat, on the log tab all along, saw Ann's charge arrive there
            expect(phones[2].locator("#history li").first).to_contain_text("Ann: Charge",
                                                                         timeout=LIVE)
            # the news lands in the header, covering neither the way back nor the connection
            expect(phones[1].locator("header #news")).to_contain_text("Ann: Charge")
            expect(phones[1].locator("#status-line")).to_be_hidden()
            shot(phones[1], "news-in-header")
            for part in ("header .back", "#live"):
                assert phones[1].evaluate(
                    """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                       const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                       return document.querySelector(sel).contains(top); }""", part), part
            # in the lines the table's name and status took: the page does not move
            during = phones[1].locator("header").bounding_box()
            expect(phones[1].locator("header #news")).to_be_hidden(timeout=LIVE + 3000)
            expect(phones[1].locator("#status-line")).to_be_visible()
            assert during == phones[1].locator("header").bounding_box()
        if seat == 1:  # a tap clears the news at once
            phones[2].click("header #news", timeout=LIVE)
            expect(phones[2].locator("header #news")).to_be_hidden()
            expect(phones[2].locator("#status-line")).to_be_visible()

    # Round 2: Ann strikes Ben; nobody shields; Ann lets it resolve; Ben is at 9.
    do(host, "strike", ("Ben",), preview="Strike on Ben")
    for page in phones[1:]:
        tab(page, "table")
        expect(page.locator("#reaction-alert")).to_be_visible(timeout=LIVE)
    # Ann, who waits on the answers, sees who may still answer (a Shield)
    expect(host.locator("#turn #still-to-answer")).to_have_text(
        "May still answer: Ben, Cat and Dan")
    # Ben may Shield: his phone says he may answer, until he passes
    expect(phones[1].locator("#turn")).to_contain_text("You may answer now")
    phones[1].click("#reaction-alert [data-pass]")
    expect(phones[1].locator("#turn")).to_contain_text("Nothing to do now: waiting for Ann")
    # Ann sees who passed and who has not yet (Cat's phone too)
    for page in (host, phones[2]):
        expect(page.locator("#turn #answers")).to_have_text(
            "Passed: Ben · May still answer: Cat and Dan", timeout=LIVE)
    tab(host, "table")
    expect(host.locator("#turn #answers")).to_be_visible()
    shot(host, "answers-heard")
    do(host, "resolve")
    for page in phones:
        expect(counter(page, 1, "health")).to_have_text("9", timeout=LIVE)
    expect(host.locator("#turn #answers")).to_have_count(0)  # the table moved on
    for seat, page in list(enumerate(phones))[1:]:
        before = int(counter(page, seat, "energy").inner_text())
        do(page, "charge")
        for other in phones:
            expect(counter(other, seat, "energy")).to_have_text(str(before + 1), timeout=LIVE)

    # The log on every phone; the host undoes the last charge and everyone sees it.
    tab(phones[2], "log")
    expect(phones[2].locator("#history li")).to_contain_text(["Ann: Charge"], timeout=LIVE)
    # Below the log, the rules as this table plays them, house readings marked.
    phones[2].click("#rules-box summary")
    expect(phones[2].locator("#rules-text")).to_contain_text("Strike (simple, cost 1) [house]")
    dan_energy = int(counter(phones[3], 3, "energy").inner_text())
    tab(host, "log")
    host.once("dialog", lambda dialog: dialog.accept())
    host.click("#undo")
    for page in phones:
        tab(page, "table")
        expect(counter(page, 3, "energy")).to_have_text(str(dan_energy - 1), timeout=LIVE)
        expect(page.locator("#recent")).to_contain_text("The host undid: Dan: Charge")
    for page in phones:  # nothing half-drawn anywhere
        for name in ("table", "me", "log", "more", *(("host",) if page is host
                                                                   else ())):
            tab(page, name)
            shown = page.locator("body").inner_text()
            assert not re.search(r"\bnull\b|undefined|\[object|NaN", shown), (name, shown)
            # Nothing wider than the phone (a long join address once was).
            assert page.evaluate("() => document.documentElement.scrollWidth"
                                 " <= window.innerWidth"), name


def test_a_card_shown_to_the_camera_is_one_tap_away(browser: Browser,
                                                   tmp_path: Path) -> None:
    from tests.conftest import ROOT
    from tests.web.server import Client

    recording = ROOT / "fixtures" / "frames" / "shows-overcharge"
    frames = tmp_path / "camera"  # what the camera sees: nothing yet
    frames.mkdir()
    server = Server(tmp_path / "data", env={"COMPANION_CAMERA": str(frames)})
    server.start()
    try:
        host_api, ben = Client(server), Client(server)
        _, table = host_api.call("POST", "/api/tables", {"game": "captains-gambit",
                                                         "seats": NAMES, "dealt_by_hand": True})
        base = f"/api/tables/{table['id']}"
        ben.call("POST", f"{base}/join", {"pin": table["pin"], "seat": 1})
        ann = new_phone(browser)
        ann.goto(f"{server.url}/t/{table['id']}")
        ann.fill("#pin", table["pin"])
        ann.click("#seat-buttons button[data-seat='0']")
        expect(ann.locator("#turn")).to_contain_text("Prologue")
        host_api.call("POST", f"{base}/actions", {"name": "end_prologue", "seat": None,
                                                  "params": {}, "expect": 0})
        do(ann, "overcharge", ("Claim the permit",))
        _, now = ben.call("GET", base)
        status, _ = ben.call("POST", f"{base}/actions", {"name": "call_bluff", "seat": 1,
                                                         "params": {}, "expect": now["version"]})
        assert status == 201
        host_api.call("POST", f"{base}/camera", {})
        for frame in sorted(recording.glob("*.jpg")):  # Ann holds her permit up to it
            shutil.copy(frame, frames / frame.name)
        tab(ann, "table")
        suggestion = ann.locator("#reaction-alert [data-suggestion=show_permit]").first
        expect(suggestion).to_contain_text("Camera saw Overcharge", timeout=15000)
        suggestion.click()
        expect(ann.locator("#sheet-note")).to_contain_text("The camera saw Overcharge")
        ann.click("#sheet-go")
        expect(ann.locator("#sheet-preview")).to_contain_text("Ann shows an Overcharge permit")
        ann.click("#sheet-go")
        expect(ann.locator("#recent")).to_contain_text("Ann shows an Overcharge permit",
                                                       timeout=LIVE)
    finally:
        server.stop()


def test_the_hosts_qr_code_joins_a_phone_without_the_pin(server: Server,
                                                          browser: Browser) -> None:
    host = host_creates(browser, server, "burkes-gambit")
    tab(host, "host")
    link = host.locator("#join-link").get_attribute("href")
    assert link and "?join=" in link
    assert host.locator("#join-qr").evaluate("img => img.complete && img.naturalWidth > 0")
    ben = new_phone(browser)
    ben.goto(link.replace(link.split("/t/")[0], server.url))  # the LAN address, here local
    expect(ben.locator("#pin-label")).to_be_hidden()  # nothing to type
    ben.click("#seat-buttons button[data-seat='1']")
    tab(ben, "me")
    expect(ben.locator("#secrets")).to_contain_text("You are Ben")
    assert "join=" not in ben.url  # the code left the address bar


def test_a_host_link_from_the_pi_makes_a_phone_the_host(server: Server, browser: Browser,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    """The host's phone is lost: `companion tables host` prints a link on the companion's
    machine; the phone that opens it has the Host tab, the lost phone loses it."""
    from companion.cli import main

    lost = host_creates(browser, server, "burkes-gambit")
    table_id = lost.url.rsplit("/", 1)[1]
    assert main(["tables", "host", table_id, "--data", str(server.data), "--no-qr"]) == 0
    link = re.search(r"http://\S+", capsys.readouterr().out)
    assert link is not None
    phone = new_phone(browser)
    printed = urlsplit(link.group(0))  # the Pi's address on the network; here, local
    phone.goto(f"{server.url}{printed.path}?{printed.query}")
    expect(phone.locator("#banner")).to_contain_text("This phone is the host now")
    expect(phone.locator("#nav [data-tab=host]")).to_be_visible()
    assert "host=" not in phone.url  # the code left the address bar
    lost.reload()
    expect(lost.locator("#nav [data-tab=host]")).to_be_hidden()


def test_a_phone_that_slept_catches_up(server: Server, browser: Browser) -> None:
    """A phone whose connection dropped shows the table as it is now once it is back."""
    from tests.web.server import Client

    host_api = Client(server)
    status, table = host_api.call("POST", "/api/tables", {"game": "captains-gambit",
                                                          "seats": NAMES})
    assert status == 201
    watcher = new_phone(browser)
    watcher.goto(f"{server.url}/t/{table['id']}")
    watcher.fill("#pin", table["pin"])
    watcher.click("#watch")
    expect(watcher.locator(".player")).to_have_count(4)
    watcher.context.set_offline(True)
    watcher.evaluate("() => events.close()")  # what a sleeping phone's browser does
    status, joined = host_api.call("POST", f"/api/tables/{table['id']}/join",
                                   {"pin": table["pin"], "seat": 2})
    assert status == 200, joined
    watcher.context.set_offline(False)
    watcher.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    expect(watcher.locator("#live")).to_have_class(re.compile("on"), timeout=3000)
    tab(watcher, "me")
    expect(watcher.locator("#take-seat button[data-seat='2']")).to_have_count(0, timeout=LIVE)


def test_the_connection_indicator_says_in_words_whether_the_phone_is_live(
        browser: Browser, tmp_path: Path) -> None:
    """The dot in the header has its word (and an accessible name): Connected, Reconnecting…
    while the companion cannot be reached, Connected once it is back, Table ended at the
    end; the header keeps its big targets and fits the phone."""
    from tests.web.server import Client

    server = Server(tmp_path / "data")
    server.start()
    try:
        host_api = Client(server)
        _, table = host_api.call("POST", "/api/tables", {"game": "captains-gambit",
                                                         "seats": NAMES})
        ann = seated_phone(browser, server, table, 0)
        live = ann.locator("#live")
        expect(live).to_have_attribute("data-state", "connected", timeout=LIVE)
        expect(live).to_have_text("Connected")
        expect(live).to_have_attribute("aria-label", "Connection: Connected: the table updates"
                                                     " live")
        expect(ann.get_by_role("status", name=re.compile("^Connection: Connected"))).to_be_visible()
        back = ann.locator("header .back").bounding_box()
        assert back is not None and back["width"] >= 48 and back["height"] >= 48
        shot(ann, "connection-connected")
        server.kill()  # the Pi loses power
        expect(live).to_have_text("Reconnecting…", timeout=LIVE)
        expect(live).to_have_attribute("aria-label", re.compile(
            "^Connection: The companion cannot be reached: reconnecting by itself"))
        assert ann.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        shot(ann, "connection-reconnecting")
        server.start()
        expect(live).to_have_text("Connected", timeout=10000)
        host_api.call("POST", f"/api/tables/{table['id']}/end", {})
        expect(live).to_have_text("Table ended", timeout=LIVE)
        expect(live).to_have_attribute("title", "This table has ended: nothing more will change")
    finally:
        server.stop()


def test_burkes_gambit_on_a_phone_a_private_look_and_the_vote(server: Server,
                                                                browser: Browser) -> None:
    from tests.web.server import Client

    api = [Client(server) for _ in NAMES]
    _, table = api[0].call("POST", "/api/tables", {"game": "burkes-gambit", "seats": NAMES,
                                                   "options": {"engines_to_earth": 1}})
    base = f"/api/tables/{table['id']}"
    for seat in (0, 2, 3):
        api[seat].call("POST", f"{base}/join", {"pin": table["pin"], "seat": seat})
    ben = new_phone(browser)
    ben.goto(f"{server.url}/t/{table['id']}")
    ben.fill("#pin", table["pin"])
    ben.click("#seat-buttons button[data-seat='1']")
    expect(ben.locator("#turn")).to_contain_text("heads down")

    def call(seat: int, name: str, **params: object) -> None:
        _, seen = api[seat].call("GET", base)
        status, body = api[seat].call("POST", f"{base}/actions", {
            "name": name, "seat": None if name == "end_heads_down" else seat,
            "params": params, "expect": seen["version"]})
        assert status == 201, body

    call(0, "end_heads_down")
    while (turn := api[0].call("GET", base)[1]["view"]["turn"]) != 1:
        call(turn, "roll", face="id_check")
        call(turn, "return_die")
    # Ben rolls on his phone and scans Cat's parasite card: only his phone learns it, and
    # marks it new among the secrets he has already looked at, under the cover only.
    tab(ben, "me")
    ben.click("#show-secrets")
    ben.click("#show-secrets")
    expect(ben.locator("#show-secrets")).to_have_text("Show my secrets")
    do(ben, "roll", ("Parasite scan (any)",), preview="Ben rolled Parasite scan (any)")
    do(ben, "resolve", ("Cat",), preview="Ben uses Parasite scan (any) on Cat")
    tab(ben, "me")
    expect(ben.locator("#secrets [data-secret='look:2:parasite']")).to_contain_text(
        re.compile(r"Cat's parasite card: (infected|clean)"), timeout=LIVE)
    expect(ben.locator("#show-secrets")).to_have_text("Show my secrets")
    ben.click("#show-secrets")
    expect(ben.locator("#secret-facts .badge")).to_have_count(1)
    expect(ben.locator("#secrets [data-secret='look:2:parasite'] .badge")).to_have_text("new")
    ben.click("#show-secrets")
    for seat in (0, 2, 3):
        _, seen = api[seat].call("GET", base)
        assert not [f for f in seen["view"]["secrets"] if f["key"].startswith("look:")]
    # The next player brings the ship home; everyone votes; Ben votes on his phone.
    turn = api[0].call("GET", base)[1]["view"]["turn"]
    call(turn, "roll", face="engine")
    voting = [p["seat"] for p in api[0].call("GET", base)[1]["view"]["players"]
              if p["alive"] and {"key": "role", "label": "Role", "value": "Stowaway"}
              not in p["facts"]]
    tab(ben, "table")
    if 1 in voting:  # Ben votes first on his phone (unless he is the Stowaway)
        votes = ben.locator("#votes")
        expect(votes).to_contain_text("Voted:", timeout=LIVE)
        do(ben, "vote", ("Dan",))
        tab(ben, "table")
        # a neighbour glancing at his table sees that he voted, not whom: a tap shows it
        expect(votes).to_contain_text("You have voted", timeout=LIVE)
        expect(votes).not_to_contain_text("Dan")
        ben.click("#votes .reveal-vote")
        expect(votes).to_contain_text("Your vote: Dan")
        expect(votes).not_to_contain_text("Dan", timeout=8000)  # covered again by itself
    for seat in voting:
        if seat != 1:
            call(seat, "vote", target=1)
    tab(ben, "table")
    expect(ben.locator("#votes")).to_contain_text("The votes in", timeout=LIVE)
    expect(ben.locator("#votes li")).not_to_have_count(0, timeout=6000)
    expect(ben.locator("#votes")).to_contain_text("→")


def test_a_game_added_as_a_plug_in_plays_on_a_phone(browser: Browser, tmp_path: Path) -> None:
    """The toy game (tests/toy_game.py), loaded as a plug-in: its board, its secret, a move
    made by tapping the board, with nothing of it in the page or the service."""
    from tests.web.server import Client

    toy = Server(tmp_path / "toy", env={"COMPANION_GAMES": "tests.toy_game"})
    toy.start()
    try:
        api = Client(toy)
        _, table = api.call("POST", "/api/tables", {"game": "counter-race",
                                                    "seats": ["Ann", "Ben"]})
        ann = new_phone(browser)
        ann.goto(f"{toy.url}/t/{table['id']}")
        ann.fill("#pin", table["pin"])
        ann.click("#seat-buttons button[data-seat='0']")
        tab(ann, "me")
        expect(ann.locator("#secrets [data-secret=lucky]")).to_contain_text("Your lucky step")
        tab(ann, "table")
        expect(ann.locator("#boards [data-board=track] .cell")).to_have_count(11)
        # Drawn as a grid: one row of cells side by side, not one cell under another (laid
        # out once shown: a busy machine may draw them a moment after they exist).
        expect(ann.locator("#boards [data-cell=c1]")).to_be_visible()
        first, second = (ann.locator(f"#boards [data-cell={c}]").bounding_box() for c in
                         ("c0", "c1"))
        assert first and second and second["x"] > first["x"] + first["width"] / 2
        assert abs(second["y"] - first["y"]) < 2
        # Ann taps her piece, the cells it may reach light up, she taps one.
        ann.click("#boards [data-cell=c0]")
        expect(ann.locator("#boards .cell.target")).to_have_count(3)
        expect(ann.locator("#boards [data-cell=c4].target")).to_have_count(0)
        ann.click("#boards [data-cell=c2]")
        expect(ann.locator("#sheet")).to_be_visible()
        ann.click("#sheet-go")
        expect(ann.locator("#sheet-preview")).to_contain_text("Ann moves to c2")
        ann.click("#sheet-go")
        expect(ann.locator("#sheet")).to_be_hidden()
        expect(counter(ann, 0, "cell")).to_have_text(re.compile("^[23]$"), timeout=LIVE)
        expect(ann.locator("#boards [data-cell=c5].can")).to_have_count(0)  # Ben's turn now
        expect(ann.locator("#recent li").first).to_contain_text("Ann moves to c2")
    finally:
        toy.stop()


def test_the_host_asks_the_camera_to_learn_the_tables_dice(browser: Browser,
                                                           tmp_path: Path) -> None:
    import shutil

    from companion.vision.adapt import ExampleStore
    from tests.conftest import ROOT

    frames = tmp_path / "camera"
    frames.mkdir()
    for n in range(6):  # a roll of pip dice lying still under the camera
        shutil.copy(ROOT / "fixtures" / "images" / "dice" / "ivory-red-pips-720p.jpg",
                    frames / f"{n:04}.jpg")
    server = Server(tmp_path / "data", env={"COMPANION_CAMERA": str(frames)})
    server.start()
    try:
        host = host_creates(browser, server, "captains-gambit")
        tab(host, "more")
        host.click("#use-camera")
        expect(host.locator("#dice-adapt")).to_be_visible(timeout=LIVE)
        expect(host.locator("#camera")).not_to_contain_text("board")  # this game has none
        host.click("#dice-adapt summary")
        # the host says a die of the roll is no die at all: kept for the reader to learn
        host.locator("#dice-adapt [data-die]").first.click(timeout=LIVE)
        expect(host.locator("#dice-adapt")).to_have_attribute("open", "")
        host.click("#die-values [data-value='0']")
        expect(host.locator("#banner")).to_contain_text("no die", timeout=LIVE)
        assert ExampleStore(tmp_path / "data").counts() == {0: 1}
        expect(host.locator("#die-values")).to_have_count(0)
        expect(host.locator("#dice-adapt [data-die]").first).to_contain_text("no die ✓")
        host.click("#adapt-dice")  # one die is too few: told so, and nothing changes
        expect(host.locator("#banner")).to_contain_text("nothing changed", timeout=LIVE)
        screens = ROOT / "build" / "screens"
        screens.mkdir(parents=True, exist_ok=True)
        host.screenshot(path=str(screens / "camera-host.png"), full_page=True)
        host.click("#rollback-dice")
        expect(host.locator("#banner")).to_contain_text("nothing to roll back", timeout=LIVE)
        assert ERRORS == []
    finally:
        server.stop()


def kings_table(server: Server) -> tuple[Any, dict[str, Any]]:
    """A Gambit of Kings table one move from its end (Ann's Knight before Ben's Castle), made
    by a host without a browser; the host's client and the table as created."""
    from tests.web.server import Client

    host_api = Client(server)
    _, table = host_api.call("POST", "/api/tables", {
        "game": "gambit-of-kings", "seats": ["Ann", "Ben"],
        "options": {"first": "light",
                    "pieces": "e1 light castle, e10 dark castle, e8 light knight"}})
    return host_api, table


def test_each_phone_says_whether_its_seat_won(server: Server, browser: Browser) -> None:
    _, table = kings_table(server)
    ann, ben = (seated_phone(browser, server, table, seat) for seat in (0, 1))
    # Ann's Knight takes the Castle: her phone says she won, Ben's that he did not.
    ann.click("#boards [data-cell=e8]")
    ann.click("#boards [data-cell=e10]")
    ann.click("#sheet-go")
    expect(ann.locator("#sheet-preview")).to_contain_text("e8 to e10")
    ann.click("#sheet-go")
    expect(ann.locator("#sheet")).to_be_hidden()
    expect(ann.locator("#turn .verdict")).to_have_text("You win", timeout=LIVE)
    expect(ben.locator("#turn .verdict")).to_have_text("You do not win this time",
                                                       timeout=LIVE)
    expect(ben.locator("#turn")).to_contain_text("Ann")


def test_the_host_frees_a_seat_only_on_a_second_tap(server: Server, browser: Browser) -> None:
    host_api, table = kings_table(server)
    base = f"/api/tables/{table['id']}"
    seated_phone(browser, server, table, 1)
    host = new_phone(browser)
    host.context.add_cookies([{"name": c.name, "value": str(c.value), "url": server.url}
                              for c in host_api.jar])
    host.goto(f"{server.url}/t/{table['id']}")
    tab(host, "host")
    release = host.locator("[data-release='1']")
    release.click()  # one mis-tap drops nobody
    expect(release).to_contain_text("Tap again to free Ben")
    _, after = host_api.call("GET", base)
    assert 1 in after["taken_seats"]
    release.click()
    expect(host.locator("[data-release='1']")).to_have_count(0, timeout=LIVE)
    _, after = host_api.call("GET", base)
    assert 1 not in after["taken_seats"]


def test_a_burkes_table_names_on_the_phone_the_roles_the_rulebook_does_not(
        server: Server, browser: Browser) -> None:
    """The rulebook names five roles; a table types the names on its own cards when it
    creates the table, and every phone then says them (the rules, a role told)."""
    host = new_phone(browser)
    host.goto(server.url + "/")
    host.select_option("#game", "burkes-gambit")
    host.click("#readings summary")
    name = host.locator("#reading-controls input[name='roles.role_7.label']")
    expect(name).to_have_value("Role 7")
    name.fill("  Engineer ")
    host.locator("#reading-controls input[name='roles.role_8.label']").fill("")  # kept
    for i, player in enumerate(NAMES):
        host.locator("#seat-names input").nth(i).fill(player)
    host.check("input[name=dealt_by_hand]")
    name.scroll_into_view_if_needed()
    shot(host, "burkes-gambit-role-names")
    host.click("button[type=submit]")
    host.wait_for_url(re.compile(r"/t/[0-9a-f]+$"))
    tab(host, "log")
    host.click("#rules-box summary")
    expect(host.locator("#rules-text")).to_contain_text("Engineer: A card the rulebook")
    expect(host.locator("#rules-text")).to_contain_text("Role 8: A card the rulebook")
    expect(host.locator("#rules-house li")).to_have_text(
        ['Role 7: the name on your card: "Engineer"'])
