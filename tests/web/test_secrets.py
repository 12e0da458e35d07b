"""No response, event, page or export for one seat ever holds another seat's hidden captain or
permits: random games through the API, every payload of every phone checked after each step."""

from __future__ import annotations

import json
import random
import re
from functools import partial
from typing import Any

import pytest
from flask import Flask

from companion.engine import ActionSpec, all_games, get_game
from companion.engine.random_play import random_action
from companion.engine.session import answering
from companion.runtime.service import Services
from tests.web.conftest import Phone

GAMES = [
    (["Ann", "Ben", "Cat", "Dan"], {}),
    (["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"], {"wildcards": True, "mulligan": True}),
    (["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"],
     {"warp_in": ["viola", "tybalt_mercutio"], "wildcards": True}),
]


def strings(value: Any) -> list[str]:
    """Every string value in a JSON document (keys are field names, not data)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def permit_places(value: Any, path: str = "") -> list[str]:
    """Where permits are listed: a raw list under "permits", or a fact keyed "permits"."""
    found = []
    if isinstance(value, dict):
        if value.get("key") == "permits" and isinstance(value.get("value"), str):  # a fact
            found.append(path)
        for key, v in value.items():
            if key == "permits" and isinstance(v, list):
                found.append(f"{path}.{key}")
            found += permit_places(v, f"{path}.{key}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += permit_places(v, f"{path}[{i}]")
    return found


def check(payload: Any, seat: int | None, state: Any, what: str) -> None:
    """`payload`, seen by `seat`, holds no other living seat's unrevealed captain or permits."""
    book = state.book
    without_pool = json.loads(json.dumps(payload))
    for facts in _fact_lists(without_pool):
        # The pool is public (who is in the game); Hamlet's token tells its holder that Hamlet
        # hunts them, never who Hamlet is.
        facts[:] = [f for f in facts if f.get("key") not in ("pool", "hamlet_token")]
        for fact in facts:
            # A rules text explaining the seat's own card ("Hamlet's mark is not blood").
            fact.pop("detail", None)
    for spec in _specs(without_pool):
        spec.pop("note", None)  # the same texts, beside the seat's own actions
    for setup in _setups(without_pool):
        setup.pop("options", None)  # public too (Warp In groups are named like captains)
    texts = "\n".join(strings(without_pool)).lower()
    for other in state.players:
        if other.seat == seat or other.revealed or not other.alive:
            continue
        partners = seat is not None and state.partner_of(seat) == other.seat
        # Romeo and Juliet (Tybalt and Mercutio) see each other: only that captain is known
        for name in filter(None, (None if partners else other.captain, other.original_captain)):
            if seat is not None and name in (state.players[seat].captain,
                                             state.players[seat].original_captain):
                continue  # the same captain (a swap): this seat knows it as its own
            for word in (name, book.label(name)):
                assert not re.search(rf"\b{re.escape(word.lower())}\b", texts), (
                    f"{what} for seat {seat} names seat {other.seat}'s captain {name}")
    for path in permit_places(payload):
        owner = re.search(r"players\[(\d+)\]", path)
        if owner:
            assert not state.players[int(owner.group(1))].alive, f"{what}: living permits {path}"
        else:
            assert seat is not None and ".secrets" in path or "params" in path or \
                path.endswith("action.permits"), f"{what}: permits at {path} for seat {seat}"


def post_random(phone: Phone, base: str, spec: dict[str, Any], seat: int | None,
                version: int, rng: random.Random) -> None:
    """The action a phone was offered, with random values for its fields."""
    action = random_action(ActionSpec.from_dict(spec), seat, rng)
    phone.post(f"{base}/actions", {"name": action.name, "seat": seat,
                                   "params": dict(action.params), "expect": version})


def enumerate_phones(phones: list[Phone]) -> list[tuple[Phone, int | None]]:
    return [(phone, seat) for seat, phone in enumerate(phones)]


def _setups(document: Any) -> list[dict[str, Any]]:
    if isinstance(document, dict):
        found = [document["setup"]] if isinstance(document.get("setup"), dict) else []
        return found + [v for value in document.values() for v in _setups(value)]
    if isinstance(document, list):
        return [v for value in document for v in _setups(value)]
    return []


def _specs(document: Any) -> list[dict[str, Any]]:
    """The action specs in a document (what a phone may do, with their notes)."""
    if isinstance(document, dict):
        found = [document] if {"name", "kind", "params", "note"} <= set(document) else []
        return found + [v for value in document.values() for v in _specs(value)]
    if isinstance(document, list):
        return [v for value in document for v in _specs(value)]
    return []


def _fact_lists(document: Any) -> list[list[Any]]:
    if isinstance(document, dict):
        found = [document[key] for key in ("facts", "secrets")
                 if isinstance(document.get(key), list)]
        return found + [v for value in document.values() for v in _fact_lists(value)]
    if isinstance(document, list):
        return [v for value in document for v in _fact_lists(value)]
    return []


@pytest.mark.parametrize(("seats", "options"), GAMES)
def test_no_phone_ever_sees_another_seats_secrets(app: Flask, services: Services,
                                                  seats: list[str],
                                                  options: dict[str, Any]) -> None:
    rng = random.Random(len(seats))
    host = Phone(app)
    created = host.post("/api/tables", {"game": "captains-gambit", "seats": seats,
                                        "options": options}).json
    base = f"/api/tables/{created['id']}"
    phones = [host] + [Phone(app) for _ in seats[1:]]
    for seat, phone in enumerate(phones):
        assert phone.post(f"{base}/join", {"pin": created["pin"], "seat": seat}).status_code == 200
    watcher = Phone(app)
    watcher.post(f"{base}/join", {"pin": created["pin"], "seat": None})
    live = services.hub.get(created["id"])
    everyone: list[tuple[Phone, int | None]] = [*enumerate_phones(phones), (watcher, None)]

    for step in range(150):
        state = live.session.state
        for phone, seat in everyone:
            seen = phone.get(base).json
            check(seen, seat, state, f"step {step} state")
            check(phone.get(f"{base}/history").json, seat, state, f"step {step} history")
            check(phone.get(f"{base}/export").json, seat, state, f"step {step} export")
        if live.session.outcome is not None:
            break
        # A random legal action of a random phone (the host's table actions included).
        options_now = []
        for phone, seat in everyone[:-1]:
            seen = phone.get(base).json
            options_now += [(phone, seat, spec, seen["version"])
                            for spec in seen["view"]["actions"]]
            if "host" in seen:
                options_now += [(phone, None, spec, seen["version"])
                                for spec in seen["host"]["actions"] if spec["name"] != "correct"]
        if not options_now:
            break
        phone, seat, spec, version = rng.choice(options_now)
        post_random(phone, base, spec, seat, version, rng)
        if rng.random() < 0.05:  # now and then the host undoes the last public action
            host.post(f"{base}/undo", {"expect": host.get(base).json["version"]})
    assert live.version > 10

    # The live events and the pages, at the end.
    state = live.session.state
    for phone, seat in everyone:
        response = phone.client.get(f"{base}/events")
        stream = response.response
        next(stream)
        event = next(stream).decode()
        data = json.loads(event.split("data: ", 1)[1])
        check(data, seat, state, "event")
        response.close()
        page = phone.get(f"/t/{created['id']}").data.decode()
        check([page], seat, state, "page")


def test_the_check_catches_a_leak(app: Flask, services: Services) -> None:
    """The checker itself can fail: a snapshot that carried every captain is caught."""
    host = Phone(app)
    created = host.post("/api/tables", {"game": "captains-gambit",
                                        "seats": ["Ann", "Ben", "Cat", "Dan"]}).json
    state = services.hub.get(created["id"]).session.state
    leaky = {"view": {"players": [{"name": p.name, "facts": [{"key": "note",
                                                              "value": f"holds {p.captain}"}]}
                                  for p in state.players]}}
    with pytest.raises(AssertionError, match="names seat 1's captain"):
        check(leaky, 0, state, "leaky")
    with pytest.raises(AssertionError, match="living permits"):
        check({"view": {"players": [{"facts": [{"key": "permits", "value": "Shield"}]}]}}, 1, state,
              "leaky")


def test_a_private_input_changes_nothing_any_other_phone_receives(app: Flask) -> None:
    """Not even that it happened: no version moves, no log line, the host's tools unchanged
    (so the live stream, which sends only changed snapshots, stays silent too)."""
    host = Phone(app)
    created = host.post("/api/tables", {"game": "captains-gambit", "dealt_by_hand": True,
                                        "seats": ["Ann", "Ben", "Cat", "Dan"]}).json
    base = f"/api/tables/{created['id']}"
    phones = [host] + [Phone(app) for _ in range(3)]
    for seat, phone in enumerate(phones):
        phone.post(f"{base}/join", {"pin": created["pin"], "seat": seat})
    before = [phone.get(base).json for phone in phones]
    ben = before[1]
    spec = next(a for a in ben["view"]["actions"] if a["name"] == "captain_seen")
    told = phones[1].post(f"{base}/actions", {
        "name": "captain_seen", "seat": 1, "params": {"captain": spec["params"][0]["choices"][0]},
        "expect": ben["version"]})
    assert told.status_code == 201, told.json
    after = [phone.get(base).json for phone in phones]
    for seat in (0, 2, 3):
        assert after[seat] == before[seat], f"seat {seat} can tell that Ben told his captain"
        assert phones[seat].get(f"{base}/history").json == []
    assert after[1]["version"] == ben["version"] + 1
    # The host's undo passes over Ben's input: there is nothing public to undo.
    nothing = host.post(f"{base}/undo", {"expect": after[0]["version"]})
    assert (nothing.status_code, nothing.json["message"]) == (409, "nothing to undo")


def burke_secrets(document: Any, seat: int | None, state: Any, path: str = "") -> None:
    """In what a phone receives, ID and parasite cards appear only face up (revealed), as the
    phone's own ID card, or as its own looks."""
    if isinstance(document, dict):
        key = document.get("key")
        if key in ("team", "parasite") or str(key).startswith("look:"):
            owner = re.search(r"players\[(\d+)\]", path)
            if owner:
                assert key != "team" or state.players[int(owner.group(1))].revealed \
                    or state.outcome, path
                assert key != "parasite" or state.players[int(owner.group(1))].revealed \
                    or state.outcome, path
            else:
                assert ".secrets" in path and seat is not None, path
                assert key != "parasite", path  # nobody sees their own parasite card
                assert key != f"look:{seat}:parasite", path
        for name, value in document.items():
            if name in ("team", "parasite") and value is not None:  # the game's raw view
                assert re.search(r"players\[(\d+)\]", path) or name == "team", path
            burke_secrets(value, seat, state, f"{path}.{name}")
    elif isinstance(document, list):
        for i, value in enumerate(document):
            burke_secrets(value, seat, state, f"{path}[{i}]")


def test_burkes_gambit_phones_see_only_their_own_cards_and_looks(app: Flask,
                                                                 services: Services) -> None:
    rng = random.Random(6)
    host = Phone(app)
    created = host.post("/api/tables", {"game": "burkes-gambit",
                                        "seats": ["Ann", "Ben", "Cat", "Dan", "Eve"]}).json
    base = f"/api/tables/{created['id']}"
    phones = [host] + [Phone(app) for _ in range(4)]
    for seat, phone in enumerate(phones):
        phone.post(f"{base}/join", {"pin": created["pin"], "seat": seat})
    live = services.hub.get(created["id"])
    for _ in range(400):
        state = live.session.state
        for seat, phone in enumerate(phones):
            for path in ("", "/history", "/export"):
                burke_secrets(phone.get(f"{base}{path}").json, seat, state)
            own = {f["key"]: f["value"] for f in phone.get(base).json["view"]["secrets"]}
            assert own["team"] == {"crew": "Salvage Crew", "specialist":
                                   "Acquisition Support Specialist"}[state.players[seat].team]
            assert "parasite" not in own
        if live.session.outcome is not None:
            break
        choices = []
        for seat, phone in enumerate(phones):
            seen = phone.get(base).json
            choices += [(phone, seat, spec, seen["version"]) for spec in seen["view"]["actions"]]
            choices += [(phone, None, spec, seen["version"])
                        for spec in seen.get("host", {}).get("actions", [])
                        if spec["name"] in ("end_heads_down",)]
        phone, seat, spec, version = rng.choice(choices)
        post_random(phone, base, spec, seat, version, rng)
    assert live.version > 30  # a good part of a game, looks and deaths likely among it


@pytest.mark.parametrize("game", [rules.info.slug for rules in all_games()])
def test_every_phone_receives_only_what_its_seat_may_know(app: Flask, services: Services,
                                                           game: str) -> None:
    """For every game: each phone's view (and its live event) is exactly what the game builds
    from what that seat may know (`as_known_to`), so the service adds nothing to it."""
    rules = get_game(game)
    rng = random.Random(11)
    host = Phone(app)
    seats = [f"P{n}" for n in range(rules.info.min_players)]
    created = host.post("/api/tables", {"game": game, "seats": seats}).json
    base = f"/api/tables/{created['id']}"
    phones = [host] + [Phone(app) for _ in seats[1:]]
    for seat, phone in enumerate(phones):
        phone.post(f"{base}/join", {"pin": created["pin"], "seat": seat})
    watcher = Phone(app)
    watcher.post(f"{base}/join", {"pin": created["pin"], "seat": None})
    live = services.hub.get(created["id"])
    everyone: list[tuple[Phone, int | None]] = [*enumerate_phones(phones), (watcher, None)]
    for _ in range(120):
        state = live.session.state
        for phone, seat in everyone:
            seen = phone.get(base).json["view"]
            known = rules.table_view(rules.as_known_to(state, seat), seat).to_dict()
            for own in ("actions", "log"):
                seen.pop(own), known.pop(own)
            # who may answer, on every screen, is what the table's knowledge gives
            table = rules.as_known_to(state, None)
            known["may_answer"] = [s for s in answering(partial(rules.legal_actions, table),
                                                        len(seats))
                                   if s not in known["waiting_for"]]
            assert seen == known, f"seat {seat}"
        if live.session.outcome is not None:
            break
        choices = [(phone, seat, spec, phone.get(base).json["version"])
                   for phone, seat in everyone[:-1]
                   for spec in phone.get(base).json["view"]["actions"] if not spec["ruling"]]
        choices += [(host, None, spec, host.get(base).json["version"])
                    for spec in host.get(base).json["host"]["actions"] if not spec["ruling"]]
        if not choices:
            break
        phone, seat, spec, version = rng.choice(choices)
        post_random(phone, base, spec, seat, version, rng)
    assert live.version > 5
