"""Four players at a Captain's Gambit dealt by hand, for the end-to-end tests: the host's
phone sits as Ann and Cat's phone as Cat, in the real browser; Ben and Dan play through the
API."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.web.server import Client, Server
from tests.web.test_e2e import NAMES, new_phone, seated_phone, tab


@dataclass
class HandDealtTable:
    server: Server
    table: dict[str, Any]
    host: Page  # Ann's phone, which created the table
    cat: Page
    others: dict[int, Client]  # Ben and Dan

    @property
    def base(self) -> str:
        return f"/api/tables/{self.table['id']}"

    def send(self, seat: int | None, name: str, **params: Any) -> None:
        """An action by ``seat`` (None: the table, from the host's phone), from its own phone."""
        if seat in self.others:
            client = self.others[seat]
            _, now = client.call("GET", self.base)
            status, answer = client.call("POST", f"{self.base}/actions", {
                "name": name, "seat": seat, "params": params, "expect": now["version"]})
        else:
            page = self.cat if seat == 2 else self.host
            now = page.request.get(f"{self.server.url}{self.base}").json()
            reply = page.request.post(f"{self.server.url}{self.base}/actions", data={
                "name": name, "seat": seat, "params": params, "expect": now["version"]})
            status, answer = reply.status, reply.text()
        assert status == 201, answer

    def caught_up(self, page: Page) -> None:
        """Wait until ``page`` shows the table's latest version (its live update arrived)."""
        version = page.request.get(f"{self.server.url}{self.base}").json()["version"]
        page.wait_for_function(f"() => state && state.version === {version}")


def answer(page: Page, label: str, *choices: str) -> None:
    """Tap an answer in the phone's alert, pick its choices, preview, confirm."""
    page.click(f"#reaction-alert button:text-is('{label}')")
    for choice in choices:
        page.click(f"#sheet-form button:text-is('{choice}')")
    page.click("#sheet-go")
    expect(page.locator("#sheet-preview")).not_to_be_empty()
    page.click("#sheet-go")
    expect(page.locator("#sheet")).to_be_hidden()


def hand_dealt_table(browser: Browser, server: Server,
                     options: dict[str, Any] | None = None) -> HandDealtTable:
    host = new_phone(browser)
    host.goto(server.url + "/")
    created = host.request.post(f"{server.url}/api/tables", data={
        "game": "captains-gambit", "seats": NAMES, "dealt_by_hand": True,
        "options": options or {}})
    assert created.status == 201, created.text()
    table = created.json()
    host.goto(f"{server.url}/t/{table['id']}")
    tab(host, "me")
    host.click("#take-seat button[data-seat='0']")  # the host sits down as Ann
    expect(host.locator(".player[data-seat='0'] .name")).to_contain_text("(you)")
    cat = seated_phone(browser, server, table, 2)
    others = {seat: Client(server) for seat in (1, 3)}
    base = f"/api/tables/{table['id']}"
    for seat, client in others.items():
        assert client.call("POST", f"{base}/join", {"pin": table["pin"], "seat": seat})[0] == 200
    return HandDealtTable(server, table, host, cat, others)
