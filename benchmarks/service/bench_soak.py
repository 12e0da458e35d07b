"""A long evening at one table, sped up: does the service's memory stay flat?

Run from the repository root: .venv/bin/python benchmarks/service/bench_soak.py [--hours 4]
[--speed 20]

8 phones on live events play Captain's Gambit games back to back at one table of the
companion (a game ends, the host ends the table and creates the next), one action every
`--pace` seconds of table time, `--speed` times faster than a real table; each phone also
asks for the table now and then, as a phone waking up does. The server's resident memory
(RSS) is read every 15 minutes of table time. The figure: RSS at the end against RSS after
the first 15 minutes (the warm-up: imports, caches, the first tables).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_service import NAMES, Listener, cookie_header, pick, rss_kib  # noqa: E402

from tests.web.server import Client, Server  # noqa: E402


def new_table(phones: list[Client], server: Server) -> tuple[str, list[Listener]]:
    _, table = phones[0].call("POST", "/api/tables", {"game": "captains-gambit",
                                                      "seats": NAMES})
    base = f"/api/tables/{table['id']}"
    for seat, phone in enumerate(phones):
        phone.call("POST", f"{base}/join", {"pin": table["pin"], "seat": seat})
    listeners = [Listener(server, f"{base}/events", cookie_header(p)) for p in phones]
    for listener in listeners:
        listener.start()
    return base, listeners


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hours", type=float, default=4.0, help="table time")
    parser.add_argument("--speed", type=float, default=20.0)
    parser.add_argument("--pace", type=float, default=15.0,
                        help="seconds of table time between two actions")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    quarter = 15 * 60 / args.speed  # 15 minutes of table time, in real seconds
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "soak", env={"COMPANION_CAMERA": "none"})
        server.start()
        assert server.process is not None
        try:
            phones = [Client(server) for _ in NAMES]
            base, listeners = new_table(phones, server)
            start = time.monotonic()
            samples: list[tuple[float, int]] = []
            actions = games = 0
            next_sample = start + quarter
            while time.monotonic() - start < args.hours * 3600 / args.speed:
                _, now = phones[0].call("GET", base)
                if now["view"]["ending"]:
                    phones[0].call("POST", f"{base}/end", {})
                    base, listeners = new_table(phones, server)
                    games += 1
                    continue
                phone, body = pick(phones, base, rng)
                _, mine = phone.call("GET", base)
                body["expect"] = mine["version"]
                status, _ = phone.call("POST", f"{base}/actions", body)
                actions += status == 201
                if rng.random() < 0.2:  # a phone wakes up and asks for the table
                    rng.choice(phones).call("GET", base)
                time.sleep(args.pace / args.speed)
                if time.monotonic() >= next_sample:
                    samples.append(((time.monotonic() - start) * args.speed / 3600,
                                    rss_kib(server.process.pid)[0]))
                    next_sample += quarter
            samples.append(((time.monotonic() - start) * args.speed / 3600,
                            rss_kib(server.process.pid)[0]))
        finally:
            server.stop()
    for hours, rss in samples:
        print(f"  {hours:5.2f} h of table time: RSS {rss / 1024:6.1f} MB")
    warm, end = samples[0][1], samples[-1][1]
    print(f"{args.hours:g} h at {args.speed:g}x: {actions} actions, {games} games ended;"
          f" RSS {warm / 1024:.1f} MB after the first 15 minutes, {end / 1024:.1f} MB at the"
          f" end: {(end - warm) / 1024:+.1f} MB (aim: within 10 MB)")


if __name__ == "__main__":
    main()
