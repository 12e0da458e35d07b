"""Power cuts: is anything the service acknowledged ever lost?

Run from the repository root: .venv/bin/python benchmarks/service/bench_crash.py [--kills 100]

Each round starts `companion serve` on the same data directory, lets phones create tables,
join seats and play random legal actions for a random moment (including while a table is
being created and while a phone joins), then kills the server with SIGKILL (no shutdown, no
flush). After the restart every acknowledged request is checked: each created table is there
for its host; each joined phone still holds its seat; each table's log is at least as long as
the last version a phone was told it reached. The figure: requests acknowledged, and how many
of them were lost (aim: none); and what was refused, and why (a join whose answer died with the
server leaves its seat taken by a phone that never got the cookie: the host frees it, as a
table would).
"""

from __future__ import annotations

import argparse
import http.client
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_service import NAMES, pick  # noqa: E402

from tests.web.server import Client, Server  # noqa: E402


@dataclass
class Table:
    id: str
    pin: str
    host: Client
    seats: dict[int, Client] = field(default_factory=dict)
    version: int = 0  # the highest version a phone was told this table reached
    over: bool = False  # the game ended: nothing more to play here


class Players(threading.Thread):
    """Phones at work until the server dies under them."""

    def __init__(self, server: Server, tables: list[Table], rng: random.Random) -> None:
        super().__init__(daemon=True)
        self.server, self.tables, self.rng = server, tables, rng
        self.acknowledged = 0
        self.refused: Counter[str] = Counter()  # what the server said no to, and why

    def run(self) -> None:
        try:
            while True:
                self.step()
        except (OSError, http.client.HTTPException):  # the server is gone: the power cut
            return

    def step(self) -> None:
        rng = self.rng
        open_tables = [t for t in self.tables if len(t.seats) == len(NAMES) and not t.over]
        joining = [t for t in self.tables if len(t.seats) < len(NAMES)]
        if not joining and (not open_tables or rng.random() < 0.05):
            host = Client(self.server)
            status, made = host.call("POST", "/api/tables", {"game": "captains-gambit",
                                                             "seats": NAMES})
            if status == 201:
                self.tables.append(Table(made["id"], made["pin"], host))
                self.acknowledged += 1
            else:
                self.refused[f"create {status} {made.get('error', '')}"] += 1
            return
        if joining:
            table = joining[0]
            seat = len(table.seats)
            phone = table.host if seat == 0 else Client(self.server)
            status, said = phone.call("POST", f"/api/tables/{table.id}/join",
                                      {"pin": table.pin, "seat": seat})
            if status == 200:
                table.seats[seat] = phone
                self.acknowledged += 1
            else:
                self.refused[f"join {status} {said.get('error', '')}"] += 1
            if said and said.get("error") == "seat_taken":
                # The join was kept but its answer died with the server: the phone never got
                # its cookie. As at a table, the host frees the seat and the player joins again.
                table.host.call("POST", f"/api/tables/{table.id}/seats/{seat}/release", {})
            return
        table = rng.choice(open_tables)
        base = f"/api/tables/{table.id}"
        if table.host.call("GET", base)[1]["view"]["ending"]:
            table.over = True
            return
        phones = [table.seats[s] for s in range(len(NAMES))]
        phone, body = pick(phones, base, rng)
        _, mine = phone.call("GET", base)
        body["expect"] = mine["version"]
        status, done = phone.call("POST", f"{base}/actions", body)
        if status != 201:
            self.refused[f"action {status} {done.get('error', '')}"] += 1
        if status == 201:
            self.acknowledged += 1
            if not done["record"]["private"]:
                _, seen = table.host.call("GET", base)
                table.version = max(table.version, seen["version"])


def lost_after_restart(tables: list[Table]) -> list[str]:
    lost = []
    for table in tables:
        status, seen = table.host.call("GET", f"/api/tables/{table.id}")
        if status != 200 or not seen["you"]["host"]:
            lost.append(f"table {table.id} (status {status})")
            continue
        if seen["version"] < table.version:
            lost.append(f"table {table.id}: version {seen['version']} < {table.version}")
        for seat, phone in table.seats.items():
            status, mine = phone.call("GET", f"/api/tables/{table.id}")
            if status != 200 or mine["you"]["seat"] != seat:
                lost.append(f"table {table.id}: seat {seat}")
    return lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    tables: list[Table] = []
    acknowledged, lost, refused = 0, [], Counter[str]()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        server = Server(data)
        for kill in range(args.kills):
            server.start()
            for table in tables:  # the phones reconnect to the new process
                for phone in {id(p): p for p in (table.host, *table.seats.values())}.values():
                    phone.server = server
            lost += lost_after_restart(tables)
            players = Players(server, tables, random.Random(rng.random()))
            players.start()
            time.sleep(rng.uniform(0.05, 0.6))  # a moment of play, cut at any point
            server.kill()
            players.join(10)
            acknowledged += players.acknowledged
            refused += players.refused
            if kill % 10 == 9:
                print(f"  {kill + 1} kills: {acknowledged} acknowledged, {len(lost)} lost",
                      flush=True)
        server.start()
        lost += lost_after_restart(tables)
        server.stop()
    print(f"{args.kills} SIGKILLs: {acknowledged} acknowledged requests (tables created, seats"
          f" joined, actions) over {len(tables)} tables; lost: {len(lost)}")
    for why, count in refused.most_common():
        print(f"  refused {count}x: {why}")
    for item in lost[:20]:
        print(f"  lost: {item}")


if __name__ == "__main__":
    main()
