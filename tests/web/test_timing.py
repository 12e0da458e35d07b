"""No timing leak: a phone's live stream looks the same, byte for byte and moment for moment,
whatever other seats do in private. Two twin tables differ only in another seat's private
input; the watching seat's streams must not tell them apart."""

from __future__ import annotations

import re
import threading
import time
from typing import Any

import pytest
from flask import Flask

from companion.web import api
from tests.web.conftest import SEATS, Phone

BEAT = 0.3  # keep-alive period for the test (the service's is seconds)
LISTEN = 1.7  # seconds of stream compared: five keep-alives


def twin(app: Flask) -> tuple[str, list[Phone]]:
    """A table dealt by hand (so no seeded deal tells twins apart), every seat joined."""
    host = Phone(app)
    created = host.post("/api/tables", {"game": "captains-gambit", "seats": SEATS,
                                        "dealt_by_hand": True}).json
    phones = [host] + [Phone(app) for _ in SEATS[1:]]
    for seat, phone in enumerate(phones):
        phone.post(f"/api/tables/{created['id']}/join", {"pin": created["pin"], "seat": seat})
    return created["id"], phones


def same_for_twins(chunk: str, table_id: str) -> str:
    """What twin tables cannot share: their ids, creation times, PINs and join codes."""
    chunk = chunk.replace(table_id, "TABLE")
    return re.sub(r'"(created|pin|join_code)": ("\w+"|[0-9.]+)', r'"\1": X', chunk)


def listen(phone: Phone, table_id: str, out: list[tuple[float, str]],
           start: threading.Barrier) -> None:
    response = phone.client.get(f"/api/tables/{table_id}/events")
    start.wait()
    began = time.monotonic()
    for chunk in response.response:
        out.append((time.monotonic() - began, same_for_twins(chunk.decode(), table_id)))
        if time.monotonic() - began > LISTEN:
            break
    response.close()


def test_another_seats_private_input_does_not_move_the_keep_alives(
        app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api, "KEEP_ALIVE", BEAT)
    quiet, quiet_phones = twin(app)
    busy, busy_phones = twin(app)
    streams: dict[str, list[tuple[float, str]]] = {quiet: [], busy: []}
    start = threading.Barrier(3)
    listeners = [threading.Thread(target=listen, args=(phones[0], table, streams[table], start))
                 for table, phones in ((quiet, quiet_phones), (busy, busy_phones))]
    for thread in listeners:
        thread.start()
    start.wait()
    time.sleep(BEAT * 1.6)  # between two keep-alives: where a reset clock would show
    ben = busy_phones[1]
    seen: dict[str, Any] = ben.get(f"/api/tables/{busy}").json
    told = ben.post(f"/api/tables/{busy}/actions", {
        "name": "captain_seen", "seat": 1, "params": {"captain": "iago"},
        "expect": seen["version"]})
    assert told.status_code == 201, told.json
    for thread in listeners:
        thread.join(10)
    quiet_stream, busy_stream = streams[quiet], streams[busy]
    assert sum(1 for _, chunk in busy_stream if "still here" in chunk) >= 4
    assert [chunk for _, chunk in busy_stream] == [chunk for _, chunk in quiet_stream]
    for (at_quiet, _), (at_busy, _) in zip(quiet_stream, busy_stream, strict=True):
        assert abs(at_quiet - at_busy) < BEAT / 3, (quiet_stream, busy_stream)
