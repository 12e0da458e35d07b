"""End to end in a real headless Chromium: Gambit (6x6) on two phones. Each places its powers
in secret on its phone; Ann taps a piece, the squares it may reach light up (a Diagonal's too,
held or not), she moves claiming Diagonal; Ben's phone asks for his answer and he challenges;
the companion settles it, and nothing of Ann's powers ever shows on Ben's phone."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.web import test_e2e
from tests.web.server import Client, Server
from tests.web.shots import shot
from tests.web.test_e2e import LIVE, counter, new_phone, seated_phone, tab

# test_e2e's fixtures: the real server, the browser, and no script error on any page.
server = test_e2e.server
browser = test_e2e.browser
no_script_errors = test_e2e.no_script_errors


def sheet(page: Page, fields: dict[str, str], preview: str | None = None) -> None:
    """Fill the open action sheet (one button per field), preview, confirm."""
    for field, value in fields.items():
        page.click(f"#sheet-form [data-param={field}] button[data-value={value}]")
    page.click("#sheet-go")
    expect(page.locator("#sheet-preview")).not_to_be_empty()
    if preview:
        expect(page.locator("#sheet-preview")).to_have_text(preview)
    # Confirm is in sight without scrolling the sheet, however long it is (one-handed), and
    # so is the preview it confirms, whole, above the buttons (it sat cut off under them).
    box = page.locator("#sheet-go").bounding_box()
    assert box is not None and box["y"] + box["height"] <= page.viewport_size["height"]
    page.wait_for_timeout(300)  # the smooth scroll, if the browser makes one
    said = page.locator("#sheet-preview").bounding_box()
    buttons = page.locator("#sheet .sheet-body > .row").last.bounding_box()
    assert said is not None and buttons is not None and said["y"] >= 0
    assert said["y"] + said["height"] <= buttons["y"] + 1, (said, buttons)
    page.click("#sheet-go")
    expect(page.locator("#sheet")).to_be_hidden()


def place(page: Page, movement: tuple[str, str], action: tuple[str, str],
          on: tuple[str, str, str, str]) -> None:
    tab(page, "me")
    page.click("#my-actions [data-action=choose_powers]")
    # each power says what it does before it is chosen
    expect(page.locator("#sheet-form button[data-value=diagonal] .choice-note")).to_have_text(
        "Moves up to two squares diagonally.")
    for power in (*movement, *action):
        page.click(f"#sheet-form button[data-value={power}]")
    sheet(page, {})
    page.click("#my-actions [data-action=place_powers]")
    sheet(page, dict(zip(("movement_1", "movement_2", "action_1", "action_2"), on,
                         strict=True)))


def test_two_phones_place_powers_claim_and_challenge(server: Server, browser: Browser) -> None:
    host_api = Client(server)
    _, table = host_api.call("POST", "/api/tables", {"game": "gambit-6x6",
                                                      "seats": ["Ann", "Ben"]})
    ann, ben = (seated_phone(browser, server, table, seat) for seat in (0, 1))
    # Her own secret step is asked for as such, not as an answer to anyone.
    tab(ann, "table")
    expect(ann.locator("#reaction-alert strong")).to_have_text("Needed from you")

    # Diagonal and Ghost come first in the powers' order: A1 Diagonal, A2 Ghost.
    place(ann, ("diagonal", "ghost"), ("moat", "sitting"), ("A1", "A2", "A2", "A4"))
    # Her own log line of where they lie is covered on the Table tab (a neighbour glances at
    # it) and never bannered; a tap reads it.
    tab(ann, "table")
    mine = ann.locator("#recent li.private").first
    expect(mine).to_have_text("Your secret move: tap to read")
    assert "Diagonal" not in ann.locator("#recent").inner_text()
    assert "Diagonal" not in ann.locator("#banner").inner_text()
    assert "Diagonal" not in ann.locator("#news").inner_text()
    mine.locator("button").click()
    expect(ann.locator("#recent")).to_contain_text("A1 Diagonal")
    tab(ben, "table")
    expect(ben.locator(".player[data-seat='0']")).to_contain_text("Powers placed", timeout=LIVE)
    place(ben, ("sidewinder", "bulldozer"), ("kamikaze", "detective"), ("B1", "B3", "B2", "B5"))
    tab(ann, "me")
    expect(ann.locator("#secrets [data-secret='powers:A1'] strong")).to_have_text("Diagonal")
    expect(ann.locator("#secrets [data-secret='powers:A2'] strong")).to_have_text(
        "Ghost + Moat")
    expect(ben.locator("#secrets")).not_to_contain_text("Diagonal")

    # Ann taps A1 on a1: the squares it may reach light up, a Diagonal's among them.
    tab(ann, "table")
    ann.click("#boards [data-cell=a1]")
    for cell in ("a2", "a3", "b2", "c3", "f1"):
        expect(ann.locator(f"#boards [data-cell={cell}].target")).to_have_count(1)
    expect(ann.locator("#boards .cell.target")).to_have_count(7)  # and b1, c1 (sitting)
    # Before she chooses, the squares that claim a power are marked and say which
    expect(ann.locator("#boards [data-cell=c3]")).to_have_attribute("data-note", "Claims Diagonal")
    expect(ann.locator("#boards [data-cell=b1]")).to_have_attribute("data-note", "Claims Sitting")
    expect(ann.locator("#boards [data-cell=f1]")).to_have_attribute(
        "data-note", "Claims Sidewinder and Sitting")
    expect(ann.locator("#boards .cell.target.noted")).to_have_count(5)  # and b2, c1: a2, a3 plain
    assert ann.locator("#boards [data-cell=a2]").get_attribute("data-note") is None  # plain
    expect(ann.locator("#boards .board-hint")).to_contain_text("dashed: more than a plain move")
    shot(ann, "gambit-6x6-claims-marked")
    ann.click("#boards [data-cell=c3]")
    expect(ann.locator("#sheet-note")).to_contain_text("Claims Diagonal.")  # said when tapped
    sheet(ann, {}, preview="Ann moves A1 a1-c3, claiming Diagonal")

    # Ben's phone asks for his answer; he challenges the Diagonal (true).
    tab(ben, "table")
    expect(ben.locator("#reaction-alert")).to_be_visible(timeout=LIVE)
    expect(ben.locator("#facts")).to_contain_text("A1 Diagonal: claimed")
    # What he is asked, said once (the status "Ben to answer ..." repeated it under it).
    expect(ben.locator("#turn .headline")).to_have_text(
        "Answer Ann's move A1 a1-c3, claiming Diagonal: let it stand or challenge it")
    expect(ben.locator("#turn")).not_to_contain_text("Ben to answer")
    expect(ben.locator("#reaction-alert strong")).to_have_text("Your answer is needed")
    ben.click("#reaction-alert button:text-is('Challenge: call the bluff')")
    sheet(ben, {}, preview="Ben challenges Ann's claim that A1 holds Diagonal")
    expect(ben.locator("#facts")).to_contain_text("A1 Diagonal: shown true", timeout=LIVE)
    expect(ben.locator("#turn")).to_contain_text(
        "Ben to give up a piece, then Ann to place a new movement power")

    # What showed a hidden power is undone only with a reason: the last step stays in sight,
    # and a tap with no reason says what is missing and changes nothing.
    host = new_phone(browser)  # the phone that made the table: its cookies
    host.context.add_cookies([{"name": c.name, "value": c.value, "url": server.url}
                              for c in host_api.jar])
    host.goto(f"{server.url}/t/{table['id']}")
    tab(host, "log")
    expect(host.locator("#last-action")).to_have_text(
        "Ben challenges Ann's claim that A1 holds Diagonal")
    expect(host.locator("#undo")).to_be_hidden()
    expect(host.locator("#undo-reason-box")).to_contain_text("Entered wrong?")
    host.click("#undo-anyway")
    expect(host.locator("#banner")).to_contain_text("Say why it is undone")
    expect(host.locator("#last-action")).to_have_text(
        "Ben challenges Ann's claim that A1 holds Diagonal")
    # Ben meant to let it stand: the host undoes it saying so, and every phone reads why.
    host.fill("#undo-reason", "Ben tapped Challenge by mistake")
    shot(host, "undo-with-a-reason")
    host.once("dialog", lambda dialog: dialog.accept())
    host.click("#undo-anyway")
    expect(ben.locator("#reaction-alert")).to_be_visible(timeout=LIVE)
    expect(ben.locator("#facts")).to_contain_text("A1 Diagonal: claimed", timeout=LIVE)
    tab(ann, "log")
    expect(ann.locator("#history")).to_contain_text(
        "The host undid: Ben challenges Ann's claim that A1 holds Diagonal. Why: Ben tapped"
        " Challenge by mistake", timeout=LIVE)
    tab(ann, "table")
    # The table talks it over; Ben challenges after all (the same answer: what showed, shows).
    ben.click("#reaction-alert button:text-is('Challenge: call the bluff')")
    sheet(ben, {}, preview="Ben challenges Ann's claim that A1 holds Diagonal")
    expect(ben.locator("#facts")).to_contain_text("A1 Diagonal: shown true", timeout=LIVE)

    # The seed's order: Ben gives up a piece; then Ann places her new power in secret.
    ben.click("#reaction-alert button:text-is('Give up a piece')")
    sheet(ben, {"piece": "B6"}, preview="Ben gives up B6")
    expect(counter(ann, 1, "losses")).to_have_text("1", timeout=LIVE)
    expect(host.locator("#undo")).to_be_visible(timeout=LIVE)  # a give-up shows nothing
    expect(host.locator("#undo-reason-box")).to_be_hidden()
    tab(ann, "table")
    expect(ann.locator("#reaction-alert")).to_be_visible(timeout=LIVE)
    ann.click("#reaction-alert button:text-is('Place your new power')")
    sheet(ann, {"power": "sidewinder", "piece": "A6"}, preview="Ann places a new movement power")
    expect(ann.locator("#boards [data-cell=c3]")).to_contain_text("A1")
    expect(ben.locator("#turn")).to_contain_text("Ben to move", timeout=LIVE)

    # Nothing of Ann's powers on Ben's phone, on any tab, nor in his history.
    for name in ("table", "me", "log"):
        tab(ben, name)
        shown = ben.locator("body").inner_text()
        for secret in ("Ghost + Moat", "A6: Sidewinder", "A6 Sidewinder", "Sidewinder on A6",
                       "Sitting", "place_powers"):
            assert secret not in shown, (name, secret)
    # Everyone's log says that Ann placed one, never which or where; her own phone knows.
    expect(ben.locator("#history")).to_contain_text("Ann places a new movement power")
    tab(ann, "me")
    expect(ann.locator("#secrets [data-secret='powers:A6'] strong")).to_have_text("Sidewinder")


def test_a_penalty_on_your_own_turn_is_named_not_called_your_turn(server: Server,
                                                                   browser: Browser) -> None:
    """Ann bluffs a Diagonal on her turn and Ben catches it: her phone's turn card says she
    must give up a piece, not "Your turn"; Ben's says whom he waits for."""
    _, table = Client(server).call("POST", "/api/tables", {"game": "gambit-6x6",
                                                            "seats": ["Ann", "Ben"]})
    ann, ben = (seated_phone(browser, server, table, seat) for seat in (0, 1))
    # Ghost on A2, Sidewinder on A3: A1 holds no Movement power.
    place(ann, ("ghost", "sidewinder"), ("moat", "sitting"), ("A2", "A3", "A2", "A4"))
    place(ben, ("sidewinder", "bulldozer"), ("kamikaze", "detective"), ("B1", "B3", "B2", "B5"))
    tab(ann, "table")
    expect(ann.locator("#turn .headline")).to_have_text("Your turn", timeout=LIVE)
    ann.click("#boards [data-cell=a1]")
    ann.click("#boards [data-cell=c3]")
    sheet(ann, {}, preview="Ann moves A1 a1-c3, claiming Diagonal")
    tab(ben, "table")
    expect(ben.locator("#turn .headline")).to_have_text(
        "Answer Ann's move A1 a1-c3, claiming Diagonal: let it stand or challenge it",
        timeout=LIVE)
    ben.click("#reaction-alert button:text-is('Challenge: call the bluff')")
    sheet(ben, {})
    expect(ann.locator("#turn .headline")).to_have_text(
        "You must give up a piece: you lost a challenge", timeout=LIVE)
    expect(ann.locator("#turn")).not_to_contain_text("Your turn")
    expect(ann.locator("#reaction-alert")).to_contain_text("Give up a piece")
    expect(ben.locator("#turn")).to_contain_text("Nothing to do now: waiting for Ann")
    shot(ann, "gambit-6x6-penalty")


def test_the_host_puts_a_piece_where_it_really_is(server: Server, browser: Browser) -> None:
    """The table's ruling on the host's phone: the piece, then its square on a grid laid out
    as the board (six to a row, not 37 buttons two by two), a reason; every phone's board
    follows and the log says why."""
    host_api = Client(server)
    _, table = host_api.call("POST", "/api/tables", {"game": "gambit-6x6",
                                                      "seats": ["Ann", "Ben"]})
    ann, ben = (seated_phone(browser, server, table, seat) for seat in (0, 1))
    place(ann, ("diagonal", "ghost"), ("moat", "sitting"), ("A1", "A2", "A2", "A4"))
    place(ben, ("sidewinder", "bulldozer"), ("kamikaze", "detective"), ("B1", "B3", "B2", "B5"))
    host = new_phone(browser)  # the phone that made the table: its cookies
    host.context.add_cookies([{"name": c.name, "value": c.value, "url": server.url}
                              for c in host_api.jar])
    host.goto(f"{server.url}/t/{table['id']}")
    tab(host, "host")
    host.click("#host-rulings [data-action=set_piece]")
    host.click("#sheet-form [data-param=piece] button[data-value=A6]")
    squares = host.locator("#sheet-form [data-param=square] .choice-group")
    expect(squares).to_have_class("choice-group compact")
    first_row = [squares.locator("button").nth(i).inner_text() for i in range(6)]
    assert first_row == ["a6", "b6", "c6", "d6", "e6", "f6"]  # the far rank on top
    # each square in its file's column (a board with its corners cut keeps its shape)
    expect(squares.locator("button[data-value=b6]")).to_have_css("grid-column-start", "2")
    expect(squares.locator("button.wide")).to_have_text("Off the board (lost)")
    host.fill("#sheet-form [data-param=reason] input", "it moved to e2 earlier")
    sheet(host, {"square": "e2"}, preview="Table ruling: A6 is on e2, not on f1 (it moved to"
                                          " e2 earlier)")
    shot(host, "gambit-6x6-host-ruling")
    for phone in (ann, ben):
        tab(phone, "table")
        expect(phone.locator("#boards [data-cell=e2]")).to_contain_text("A6", timeout=LIVE)
        expect(phone.locator("#recent")).to_contain_text("Table ruling: A6 is on e2")


def test_a_new_table_chooses_its_house_readings_on_the_phone(server: Server,
                                                              browser: Browser) -> None:
    """The setup page offers the game's house readings, the companion's chosen; what the
    host changes is the table's rule, shown in the rules at that table. Each game offers its
    own."""
    host = new_phone(browser)
    host.goto(server.url + "/")
    host.select_option("#game", "captains-gambit")
    expect(host.locator("#reading-controls input[name='wildcards.identity_theft.shield']")) \
        .to_be_checked()
    host.check("input[name=dealt_by_hand]")  # real cards: Captain's Gambit deals them
    host.select_option("#game", "gambit-6x6")
    expect(host.locator("#readings")).to_be_visible()
    # No cards to deal: the tick is neither offered nor kept (it would refuse the table).
    expect(host.locator("#dealt-by-hand")).to_be_hidden()
    expect(host.locator("input[name=dealt_by_hand]")).not_to_be_checked()
    host.click("#readings summary")
    sidewinder = host.locator("#reading-controls select[name='moves.sidewinder']")
    expect(sidewinder).to_have_value("edge")
    push = host.locator("#reading-controls input[name='moves.push_stacks']")
    expect(push).to_be_checked()
    sidewinder.select_option("wrap")
    push.uncheck()
    while host.locator("#seat-names input").count() > 2:  # four, kept from Captain's Gambit
        host.click("#remove-seat")
    for seat, name in enumerate(("Ann", "Ben")):
        host.locator("#seat-names input").nth(seat).fill(name)
    host.locator("#readings").scroll_into_view_if_needed()
    shot(host, "gambit-6x6-house-readings")
    host.click("button[type=submit]")
    host.wait_for_url(re.compile(r"/t/[0-9a-f]+$"))
    tab(host, "log")
    host.click("#rules-box summary")
    rules = host.locator("#rules-text")
    expect(rules).to_contain_text("Sidewinder: crosses the left or right edge in a 1 or 2"
                                  " square move [house]")
    expect(rules).not_to_contain_text("may push a stack")
    # the two changes listed apart, in the words they were chosen by
    changed = host.locator("#rules-house li")
    expect(changed).to_have_text(["The Sidewinder moves: Across the edge, 1 or 2 squares",
                                  "A Bulldozer may push a stack: no"])
    shot(host, "gambit-6x6-rules-changed")
