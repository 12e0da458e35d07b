"""The API fuzzed from its own OpenAPI document (schemathesis generates the requests, from the
schema and also outside it): whatever arrives, no 5xx, and every error has the documented
shape. Half of the requests go to a real table with the host's and a seat's cookies, so they
reach the code behind the checks."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.core import NotSet
from schemathesis.openapi import from_dict

from companion.runtime.service import Services
from companion.settings import Settings
from companion.web import create_app
from companion.web.openapi import openapi_document

SCHEMA = from_dict(openapi_document())
# The event stream never ends by design; it has its own tests.
OPERATIONS = [op.ok() for op in SCHEMA.get_all_operations() if not op.ok().path.endswith("/events")]
STATUSES: Counter[int] = Counter()


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    services = Services.build(Settings(), tmp_path_factory.mktemp("fuzz"))
    client = create_app(services, testing=True).test_client()
    seeded = {"client": client, "services": services}
    new_table(seeded)
    yield seeded
    services.close()


def new_table(seeded: dict[str, Any]) -> None:
    """A fresh table whose host (and seat 1) is the fuzzing client."""
    client = seeded["client"]
    created = client.post("/api/tables", json={"game": "captains-gambit",
                                               "seats": ["Ann", "Ben", "Cat", "Dan"]}).json
    assert client.post(f"/api/tables/{created['id']}/join",
                       json={"pin": created["pin"], "seat": 1}).status_code == 200
    seeded["id"] = created["id"]


def send(client: Any, case: Any) -> Any:
    body = None if isinstance(case.body, NotSet) else case.body
    headers = {k: str(v) for k, v in (case.headers or {}).items()}
    data = json.dumps(body) if case.media_type in (None, "application/json") else body
    if body is not None:
        headers.setdefault("Content-Type", case.media_type or "application/json")
    return client.open(case.formatted_path, method=case.method, query_string=case.query or {},
                       headers=headers, data=data)


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: f"{op.method} {op.path}")
@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_request_makes_the_api_fail(operation: Any, data: Any,
                                       seeded: dict[str, Any]) -> None:
    case = data.draw(operation.as_strategy())
    if "table_id" in (case.path_parameters or {}) and data.draw(st.booleans()):
        case.path_parameters["table_id"] = seeded["id"]
    response = send(seeded["client"], case)
    STATUSES[response.status_code] += 1
    assert response.status_code < 500, (case.method, case.formatted_path, response.data[:300])
    if response.status_code >= 400:
        body = response.get_json(silent=True)
        assert isinstance(body, dict) and {"error", "message"} <= set(body) <= {
            "error", "message", "detail"}, response.data[:200]
    # Whatever happened, the table still replays from its own log.
    table = seeded["services"].hub.get(seeded["id"])
    assert table.version == len(seeded["services"].hub.store.log(seeded["id"]))
    if table.ended:  # the fuzz ended it (it is the host): go on at a new one
        new_table(seeded)


def test_the_fuzz_got_past_the_door() -> None:
    """Runs after the fuzz: not every request was turned away (that would test little)."""
    assert STATUSES, "the fuzz test did not run first"
    assert sum(n for status, n in STATUSES.items() if status < 400) > 50, STATUSES
    assert STATUSES[422] + STATUSES[409] + STATUSES[400] > 20, STATUSES
