"""The phone page on a slow phone: how much it downloads, and how soon it shows the table.

Run from the repository root: .venv/bin/python benchmarks/service/bench_page.py [--runs 5]

A real `companion serve` and headless Chromium at 390x844, its CPU slowed 4 times (Chrome's
own throttling, as DevTools does it). A seated phone opens an 8-player Captain's Gambit
table: the figures are the bytes transferred (compressed, as sent), first with an empty cache
and then on a second visit, and the time from the start of navigation until the players'
cards are drawn.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.web.server import Client, Server  # noqa: E402

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--slowdown", type=float, default=4.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "page")
        server.start()
        try:
            host = Client(server)
            _, table = host.call("POST", "/api/tables", {"game": "captains-gambit",
                                                         "seats": NAMES})
            url = f"{server.url}/t/{table['id']}"
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium", headless=True,
                    args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
                context = browser.new_context(viewport={"width": 390, "height": 844},
                                              is_mobile=True, has_touch=True)
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Network.enable")
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.slowdown})
                received: list[int] = []
                cdp.on("Network.loadingFinished",
                       lambda event: received.append(int(event["encodedDataLength"])))
                page.goto(url)
                page.fill("#pin", table["pin"])
                page.click("#seat-buttons button[data-seat='1']")
                page.wait_for_selector(".player")
                times, weights = [], []
                for run in range(args.runs):
                    received.clear()
                    if run == 0:
                        cdp.send("Network.clearBrowserCache")
                    started = time.perf_counter()
                    page.goto(url)
                    page.wait_for_selector(".player[data-seat='7']")
                    times.append(time.perf_counter() - started)
                    page.wait_for_load_state("networkidle")
                    weights.append(sum(received))
                browser.close()
        finally:
            server.stop()
    print(f"phone page, CPU slowed {args.slowdown:g}x, 8-player table: first visit"
          f" {weights[0] / 1024:.1f} KiB, later visits {statistics.median(weights[1:]) / 1024:.1f}"
          f" KiB; table drawn {1000 * times[0]:.0f} ms (empty cache),"
          f" {1000 * statistics.median(times[1:]):.0f} ms median after")


if __name__ == "__main__":
    main()
