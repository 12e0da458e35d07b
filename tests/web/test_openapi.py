"""The OpenAPI document is exact: schemathesis, with every one of its checks (status codes,
content types, headers and response schemas as documented, schema-valid requests accepted,
schema-invalid ones refused, undeclared methods answered with Allow, stateful runs through the
document's links), finds no failure against a real `companion serve`. The service checks each
request body against this same document (companion/web/schema.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.web.server import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("openapi"))
    running.start()
    yield running
    running.stop()


def test_schemathesis_finds_nothing_with_every_check(server: Server) -> None:
    command = shutil.which("schemathesis") or str(Path(sys.executable).with_name("schemathesis"))
    done = subprocess.run(
        [command, "--config-file", str(ROOT / "schemathesis.toml"), "run",
         f"{server.url}/api/openapi.json", "--checks", "all", "--max-examples", "25",
         "--seed", "1", "--exclude-path-regex", "/events", "--no-color"],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=600)
    summary = done.stdout[-3000:]
    assert done.returncode == 0 and "❌" not in summary, summary
    assert "✅ Stateful" in summary, summary  # the runs through the links took place
