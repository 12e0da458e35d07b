"""Power cut: the server is killed with SIGKILL mid-game and started again; nothing that was
acknowledged is lost, and the phones carry on with the cookies they have."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.server import Client, Server

NAMES = ["Ann", "Ben", "Cat", "Dan"]


def play(phones: list[Client], base: str, steps: int) -> int:
    """Play `steps` actions: whoever must act does the first simple thing open to them."""
    done = 0
    while done < steps:
        status, table = phones[0].call("GET", base)
        assert status == 200
        acted = False
        for seat, phone in enumerate(phones):
            _, mine = phone.call("GET", base)
            for spec in mine["view"]["actions"]:
                params = {p["name"]: (p["choices"][0] if p.get("choices") else p.get("default"))
                          for p in spec["params"]}
                if any(v is None for v in params.values()):
                    continue
                status, result = phone.call("POST", f"{base}/actions", {
                    "name": spec["name"], "seat": seat, "params": params,
                    "expect": mine["version"]})
                if status == 201:
                    acted = True
                    break
            if acted:
                break
        if not acted:  # the Prologue waits for the host
            status, _ = phones[0].call("POST", f"{base}/actions", {
                "name": "end_prologue", "seat": None, "params": {}, "expect": table["version"]})
            assert status == 201
        done += 1
    return done


def snapshot_of(phone: Client, base: str) -> dict[str, Any]:
    status, seen = phone.call("GET", base)
    assert status == 200, seen
    return {k: seen[k] for k in ("version", "view", "taken_seats")}


def test_sigkill_mid_game_loses_nothing(tmp_path: Path) -> None:
    server = Server(tmp_path / "data")
    server.start()
    try:
        phones = [Client(server) for _ in NAMES]
        status, table = phones[0].call("POST", "/api/tables", {
            "game": "captains-gambit", "seats": NAMES, "name": "Crash"})
        assert status == 201
        base = f"/api/tables/{table['id']}"
        for seat, phone in enumerate(phones):
            status, _ = phone.call("POST", f"{base}/join", {"pin": table["pin"], "seat": seat})
            assert status == 200
        play(phones, base, 12)
        status, _ = phones[0].call("POST", f"{base}/undo",
                                   {"expect": snapshot_of(phones[0], base)["version"]})
        assert status == 200
        play(phones, base, 3)
        before = [snapshot_of(p, base) for p in phones]
        assert before[0]["version"] >= 10  # actions and the undo this phone can know of

        server.kill()  # no shutdown, no flush, no goodbye
        server.start()

        after = [snapshot_of(p, base) for p in phones]  # the same cookies still work
        assert after == before
        # And the game goes on from where it was.
        play(phones, base, 2)
        assert sum(snapshot_of(p, base)["version"] for p in phones) > \
            sum(b["version"] for b in before)
    finally:
        server.stop()
