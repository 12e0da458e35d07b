"""A real service on a temporary data directory (real SQLite), and phones as test clients."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.runtime.service import Services
from companion.settings import Settings
from companion.web import create_app

SEATS = ["Ann", "Ben", "Cat", "Dan"]


@pytest.fixture
def services(tmp_path: Path) -> Iterator[Services]:
    built = Services.build(Settings(), tmp_path)
    yield built
    built.close()


@pytest.fixture
def app(services: Services) -> Flask:
    return create_app(services, testing=True)


class Phone:
    """One phone: its own cookies, JSON calls, and its own address on the Wi-Fi."""

    def __init__(self, app: Flask, address: str = "127.0.0.1") -> None:
        self.client: FlaskClient = app.test_client()
        self.client.environ_base["REMOTE_ADDR"] = address

    def get(self, path: str) -> Any:
        return self.client.get(path)

    def post(self, path: str, body: Any = None) -> Any:
        return self.client.post(path, json=body if body is not None else {})


def counter(snapshot: dict[str, Any], seat: int, key: str) -> Any:
    """A player's public counter in a phone's snapshot (its table view)."""
    counters = snapshot["view"]["players"][seat]["counters"]
    return next(c["value"] for c in counters if c["key"] == key)


def secret(snapshot: dict[str, Any], key: str) -> str | None:
    """The phone's own secret of that key, or None when it has none."""
    return next((f["value"] for f in snapshot["view"]["secrets"] if f["key"] == key), None)


@pytest.fixture
def phone(app: Flask) -> Any:
    return lambda: Phone(app)


@pytest.fixture
def table(phone: Any) -> dict[str, Any]:
    """A 4-player Captain's Gambit table (seed 5): its host's phone and each seat's phone."""
    host = phone()
    created = host.post("/api/tables", {"game": "captains-gambit", "seats": SEATS,
                                        "options": {}, "name": "Friday"})
    assert created.status_code == 201, created.json
    info = created.json
    seats = []
    for seat in range(4):
        p = host if seat == 0 else phone()
        joined = p.post(f"/api/tables/{info['id']}/join", {"pin": info["pin"], "seat": seat})
        assert joined.status_code == 200, joined.json
        seats.append(p)
    return {"id": info["id"], "pin": info["pin"], "host": host, "seats": seats,
            "base": f"/api/tables/{info['id']}"}
