"""The table service under a full table: 8 phones on live events, a whole game of actions.

Run from the repository root: .venv/bin/python benchmarks/service/bench_service.py

- Start-up: from starting `companion serve` (a new process: Python, Flask, the database)
  to the first answer of /api/health, over several starts, its modules compiled.
- Update latency: an 8-player Captain's Gambit table, 8 phones each holding a server-sent
  events connection (as the dashboard does). For every action, the time from sending the
  POST to the moment the last of the 8 phones has received a snapshot with the new version.
- Memory: the server's resident set size (RSS) after the whole game, and its peak.
All on this machine: server and phones share its two cores.
"""

from __future__ import annotations

import argparse
import compileall
import http.client
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.engine import ActionSpec  # noqa: E402
from companion.engine.random_play import random_action  # noqa: E402
from tests.web.server import Client, Server  # noqa: E402

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


class Listener(threading.Thread):
    """One phone's live connection: records when each table version first arrives."""

    def __init__(self, server: Server, path: str, cookie: str) -> None:
        super().__init__(daemon=True)
        self.server, self.path, self.cookie = server, path, cookie
        self.arrived: dict[int, float] = {}  # this phone's versions (each phone counts its own)
        self.latest = -1
        self.ready = threading.Event()

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=60)
        connection.request("GET", self.path, headers={"Cookie": self.cookie})
        response = connection.getresponse()
        data = ""
        for raw in response:
            line = raw.decode()
            if line.startswith("data: "):
                data = line[6:]
            elif line.strip() == "" and data:
                version = json.loads(data).get("version")
                if isinstance(version, int) and version not in self.arrived:
                    self.arrived[version] = time.perf_counter()
                    self.latest = max(self.latest, version)
                self.ready.set()
                data = ""


def cookie_header(client: Client) -> str:
    return "; ".join(f"{c.name}={c.value}" for c in client.jar)


def rss_kib(pid: int) -> tuple[int, int]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def pick(phones: list[Client], base: str, rng: random.Random) -> tuple[Client, dict[str, Any]]:
    """A random legal action of whoever may act (the host's table actions included)."""
    options = []
    for seat, phone in enumerate(phones):
        _, seen = phone.call("GET", base)
        for spec in seen["view"]["actions"]:
            options.append((phone, seat, spec))
        for spec in seen.get("host", {}).get("actions", []):
            if not spec["ruling"]:
                options.append((phone, None, spec))
    phone, seat, spec = rng.choice(options)
    action = random_action(ActionSpec.from_dict(spec), seat, rng)
    return phone, {"name": action.name, "seat": seat, "params": dict(action.params)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--camera", default="none",
                        help="the server's camera setting (e.g. fixtures/frames/shows-overcharge:"
                             " the camera loop and OpenCV loaded, as on a Pi with a camera)")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    # Compiled as deploy/install-pi.sh leaves it (a development checkout compiles at its first
    # run; with PYTHONDONTWRITEBYTECODE set, as on some machines, it never would).
    compileall.compile_dir(ROOT / "companion", quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        starts = []
        for i in range(args.starts):
            server = Server(Path(tmp) / f"start{i}")
            starts.append(server.start())
            server.stop()
        print(f"start-up to the first answer: median {statistics.median(starts):.2f} s,"
              f" worst {max(starts):.2f} s (n={len(starts)})")

        server = Server(Path(tmp) / "game", env={"COMPANION_CAMERA": args.camera})
        server.start()
        try:
            phones = [Client(server) for _ in NAMES]
            _, table = phones[0].call("POST", "/api/tables", {"game": "captains-gambit",
                                                              "seats": NAMES})
            base = f"/api/tables/{table['id']}"
            for seat, phone in enumerate(phones):
                phone.call("POST", f"{base}/join", {"pin": table["pin"], "seat": seat})
            listeners = [Listener(server, f"{base}/events", cookie_header(p)) for p in phones]
            for listener in listeners:
                listener.start()
            for listener in listeners:
                listener.ready.wait(10)

            latencies = []
            while True:
                _, now = phones[0].call("GET", base)
                if now["view"]["ending"] or now["ended"]:
                    break
                phone, body = pick(phones, base, rng)
                _, mine = phone.call("GET", base)
                body["expect"] = mine["version"]
                before = [listener.latest for listener in listeners]
                sent = time.perf_counter()
                status, done = phone.call("POST", f"{base}/actions", body)
                if status != 201 or done["record"]["private"]:
                    continue  # refused, or a private input that only its phone hears of
                deadline = time.perf_counter() + 5
                while time.perf_counter() < deadline and not all(
                        listener.latest > seen for listener, seen in zip(listeners, before,
                                                                         strict=True)):
                    time.sleep(0.0005)
                latencies.append(max(min(t for v, t in listener.arrived.items() if v > seen)
                                     for listener, seen in zip(listeners, before, strict=True))
                                 - sent)
            assert server.process is not None
            rss, peak = rss_kib(server.process.pid)
            ms = sorted(1000 * x for x in latencies)
            p95 = ms[round(0.95 * (len(ms) - 1))]
            print(f"POST to all 8 phones holding the update, {len(ms)} actions of a whole"
                  f" 8-player game: median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms,"
                  f" worst {ms[-1]:.1f} ms")
            print(f"server memory after the game (camera {args.camera}): RSS {rss / 1024:.0f} MB"
                  f" (peak {peak / 1024:.0f} MB)")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
