"""A real `companion serve` (waitress, SQLite) in a subprocess, for browser and crash tests."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, data: Path, port: int | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.env = env or {}
        self.data = data
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[str] | None = None
        self.log = data / "server.log"

    def start(self, timeout: float = 20.0) -> float:
        """Start and wait until it answers; returns the seconds that took."""
        started = time.perf_counter()
        # Every browser of these tests is one address, which starts far more tables than a
        # phone may (`tables_per_phone`): the limit is tested through the API.
        env = {**os.environ, "COMPANION_CONFIG": str(self.data / "none.toml"),
               "COMPANION_TABLES_PER_PHONE": "1000", **self.env}
        self.data.mkdir(parents=True, exist_ok=True)
        with self.log.open("a") as out:  # the child keeps its own copy of the descriptor
            self.process = subprocess.Popen(
                [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1",
                 "--port", str(self.port), "--data", str(self.data)],
                stdout=out, stderr=subprocess.STDOUT, text=True, env=env)
        while time.perf_counter() - started < timeout:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/health", timeout=1) as r:
                    if r.status == 200:
                        return time.perf_counter() - started
            except (urllib.error.URLError, OSError):
                time.sleep(0.05)
        raise RuntimeError(f"the server did not answer: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, as when the Pi loses power."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


class Client:
    """A phone without a browser: urllib with its own cookie jar."""

    def __init__(self, server: Server) -> None:
        import http.cookiejar

        self.server = server
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self.server.url}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with self.opener.open(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"null")
