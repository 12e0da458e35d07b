"""End to end in a real headless Chromium: an action whose mere offer is a secret. When a
captain dies, only Viola may choose a dead captain to play as; her phone must not show it
where a neighbour looks (the answer alert, the moves list), only under her covered secrets,
and nothing a neighbour sees on her phone changes at the death."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.web import test_e2e
from tests.web.hand_dealt import answer, hand_dealt_table
from tests.web.server import Server
from tests.web.shots import shot
from tests.web.test_e2e import LIVE, tab

# test_e2e's fixtures: the real server, the browser, and no script error on any page.
server = test_e2e.server
browser = test_e2e.browser
no_script_errors = test_e2e.no_script_errors


def glance(page: Page) -> dict[str, Any]:
    """What a neighbour sees of a phone without touching it, but for the turn card (a death
    moves the turn on every phone): the answer alert, the moves list and the secrets button."""
    tab(page, "table")
    alert = page.locator("#reaction-alert")
    seen = {"alert": alert.inner_text() if alert.is_visible() else ""}
    tab(page, "me")
    seen.update(moves=page.locator("#my-actions").inner_text(),
                secrets=page.locator("#show-secrets").inner_text(),
                covered=page.locator("#secret-facts").is_hidden())
    return seen


def test_violas_choice_of_a_dead_captain_is_covered_with_her_secrets(
        server: Server, browser: Browser) -> None:
    at = hand_dealt_table(browser, server, {"warp_in": ["viola"]})
    viola, cat, send = at.host, at.cat, at.send  # the host sits as Ann, Viola
    for seat, captain in ((0, "viola"), (1, "puck"), (2, "portia"), (3, "iago")):
        send(seat, "captain_seen", captain=captain)
        send(seat, "permits_seen", permits=["shield", "drain"])
    send(0, "charge")  # Ann's turn over: a death now does not fall on her own turn card
    for page in (viola, cat):  # every secret looked at, so "new" counts only what follows
        tab(page, "me")
        page.click("#show-secrets")
        page.click("#show-secrets")
    at.caught_up(viola)
    before = glance(viola)

    send(None, "correct", target=1, counter="health", value=0, reason="Ben fell off his chair")
    for page in (viola, cat):
        at.caught_up(page)
        expect(page.locator(".player[data-seat='1']")).to_contain_text("dead")
    # Nothing in a neighbour's sight changed on Viola's phone (it is Cat's turn, not hers).
    assert glance(viola) == before
    assert before == {"alert": "", "moves": "Nothing to do right now.",
                      "secrets": "Show my secrets", "covered": True}
    shot(viola, "captains-gambit-viola-covered")

    # Uncovered, her choice is with her secrets; she takes it there.
    tab(viola, "me")
    viola.click("#show-secrets")
    choice = viola.locator("#covered-actions [data-action=choose_corpse]")
    expect(choice).to_be_visible()
    shot(viola, "captains-gambit-viola-uncovered")
    expect(cat.locator("#covered-actions")).to_have_count(0)
    choice.click()
    viola.click("#sheet-form button:text-is('Ben')")
    viola.click("#sheet-go")
    expect(viola.locator("#sheet-preview")).to_contain_text("Ann chose to play as Ben")
    viola.click("#sheet-go")
    expect(viola.locator("#sheet")).to_be_hidden()
    expect(viola.locator("#covered-actions")).to_have_count(0, timeout=LIVE)
    # Cat's log does not say it: the choice is Viola's secret.
    tab(cat, "log")
    expect(cat.locator("body")).not_to_contain_text("chose to play as")
    # A dead player's phone says why there is nothing to do.
    send(None, "correct", target=2, counter="health", value=0, reason="Cat left the game")
    at.caught_up(cat)
    tab(cat, "me")
    expect(cat.locator("#my-actions")).to_have_text("You are out: nothing to do now.")


def test_the_host_forgets_a_hand_typed_wrong_in_the_middle_of_a_bluff_call(
        server: Server, browser: Browser) -> None:
    """Cat typed her cards wrong; called on a Fortify she holds, the companion refuses to let
    her show it. The host rules from the Host tab that it forget what she told, she tells it
    again on her phone and shows the card: the table is never stuck with a wrong record."""
    at = hand_dealt_table(browser, server)
    host, cat, send = at.host, at.cat, at.send
    send(None, "end_prologue")
    for seat, captain in ((0, "puck"), (1, "iago"), (2, "portia"), (3, "prospero")):
        send(seat, "captain_seen", captain=captain)
    send(2, "permits_seen", permits=["shield", "drain"])  # she holds Fortify, not Drain
    send(0, "charge")
    send(1, "charge")
    send(2, "fortify")
    send(3, "call_bluff")
    at.caught_up(cat)
    tab(cat, "table")
    cat.click("#reaction-alert button:text-is('Show the permit')")
    cat.click("#sheet-go")
    expect(cat.locator("#sheet-error")).to_contain_text("holds no Fortify permit")
    cat.click("#sheet-cancel")

    tab(host, "host")
    host.click("#host-rulings [data-action=forget_told]")
    host.click("#sheet-form [data-param=target] button:text-is('Cat')")
    host.click("#sheet-form [data-param=what] button:text-is('Permits')")
    host.fill("#sheet-form [data-param=reason] input", "Cat typed her cards wrong")
    host.click("#sheet-go")
    expect(host.locator("#sheet-preview")).to_contain_text(
        "the companion forgets what Cat told it of their permits")
    shot(host, "captains-gambit-host-forgets-told-permits")
    host.click("#sheet-go")
    expect(host.locator("#sheet")).to_be_hidden()

    at.caught_up(cat)
    tab(cat, "table")
    answer(cat, "Tell the companion your permits", "Shield", "Fortify")
    at.caught_up(cat)
    cat.click("#reaction-alert button:text-is('Show the permit')")
    cat.click("#sheet-go")
    expect(cat.locator("#sheet-preview")).to_contain_text("Cat shows a Fortify permit")
    cat.click("#sheet-go")
    expect(cat.locator("#sheet")).to_be_hidden()
    tab(host, "log")
    expect(host.locator("body")).to_contain_text("Cat shows a Fortify permit", timeout=LIVE)
