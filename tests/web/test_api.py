"""The JSON API through Flask's test client, on a real SQLite store."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from companion.engine import replay_text
from tests.web.conftest import SEATS, Phone, counter, secret


def state(phone: Any, base: str) -> dict[str, Any]:
    response = phone.get(base)
    assert response.status_code == 200, response.json
    return response.json  # type: ignore[no-any-return]


def end_prologue(table: dict[str, Any]) -> dict[str, Any]:
    """Play the Prologue's inputs (each marker marks the next seat), then open the eyes."""
    base = table["base"]
    for seat, p in enumerate(table["seats"]):
        for spec in state(p, base)["view"]["actions"]:
            if spec["name"] == "prologue_mark":
                target = spec["params"][0]["choices"][0]
                r = p.post(f"{base}/actions", {"name": "prologue_mark", "seat": seat,
                                               "params": {"target": target},
                                               "expect": state(p, base)["version"]})
                assert r.status_code == 201, r.json
    host = table["host"]
    now = state(host, base)
    if now["view"]["phase"] == "prologue":
        r = host.post(f"{base}/actions", {"name": "end_prologue", "seat": None, "params": {},
                                          "expect": now["version"]})
        assert r.status_code == 201, r.json
    return state(host, base)


@contextmanager
def restarted_as(services: Any, phone: Phone) -> Iterator[Any]:
    """A test client of the companion started again on the same data (the running one
    closed), carrying ``phone``'s cookies."""
    from companion.runtime.service import Services
    from companion.web import create_app

    services.close()
    again = Services.build(services.settings, services.data)
    try:
        client = create_app(again, testing=True).test_client()
        for cookie in phone.client._cookies.values():  # noqa: SLF001
            client.set_cookie(cookie.key, cookie.value)
        yield client
    finally:
        again.close()


def test_games_list_their_options(phone: Any) -> None:
    games = phone().get("/api/games").json
    cg = next(g for g in games if g["slug"] == "captains-gambit")
    assert (cg["min_players"], cg["max_players"]) == (4, 8)
    assert {o["name"] for o in cg["options"]} >= {"warp_in", "wildcards", "mulligan"}
    six = next(g for g in games if g["slug"] == "gambit-6x6")
    sidewinder = next(r for r in six["house_readings"] if r["name"] == "moves.sidewinder")
    assert sidewinder["default"] == "edge" and sidewinder["choices"] == ["edge", "wrap"]
    assert [(r["name"], r["kind"], r["default"]) for r in cg["house_readings"]] == [
        ("wildcards.identity_theft.shield", "flag", True)]


def test_a_new_table_is_listed_and_its_host_holds_the_pin(table: dict[str, Any],
                                                          phone: Any) -> None:
    listed = phone().get("/api/tables").json
    assert [t["id"] for t in listed] == [table["id"]]
    assert "pin" not in listed[0]
    host_view = state(table["host"], table["base"])
    assert host_view["host"]["pin"] == table["pin"]
    assert host_view["you"] == {"seat": 0, "host": True}
    other = state(table["seats"][1], table["base"])
    assert "host" not in other and other["you"] == {"seat": 1, "host": False}


@pytest.mark.parametrize(("body", "status", "message"), [
    # Not what the API document allows: 400, naming the field.
    ({"game": "chess", "seats": SEATS}, 400, '"game" must be one of'),
    ({"game": "chess", "seats": SEATS}, 400, ', not "chess"'),
    ({"game": "captains-gambit", "seats": "Ann,Ben"}, 400, '"seats" must be array'),
    ({"game": "captains-gambit", "seats": ["Ann", " ", "Cat", "Dan"]}, 400,
     '"seats"[1] must be a player\'s name, not blank'),
    ({"game": "captains-gambit", "seats": ["Ann", "", "Cat", "Dan"]}, 400,
     '"seats"[1] must be a player\'s name, not blank'),
    ({"game": "captains-gambit", "seats": SEATS, "colour": "red"}, 400,
     'unknown field "colour"'),
    ([1, 2], 400, "JSON object"),
    # Well formed, but not a table the game can set up: 422, in the game's words.
    ({"game": "burkes-gambit", "seats": SEATS, "options": {"engines_to_earth": 0}}, 422,
     "from 1 to 12"),
    *(({"game": "captains-gambit", "seats": [first, second, "Cat", "Dan"]}, 422, said)
      for first, second, said in (
          ("Ann", "Ann", "two seats have the same name"), ("Ann", "ann", "same name"),
          ("Zo\u00eb", "Zoe\u0308", "same name"),  # one name, typed two ways
          ("A\nB", "Ben", "cannot be shown"), ("\u202eAnn", "Ben", "invisible mark"))),
    ({"game": "captains-gambit", "seats": SEATS, "options": {"speed": 2}}, 422,
     "unknown option 'speed'"),
    ({"game": "captains-gambit", "seats": SEATS, "options": {"wildcards": "yes"}}, 422,
     "true or false"),
])
def test_bad_new_tables_are_refused(phone: Any, body: Any, status: int, message: str) -> None:
    p = phone()
    response = p.post("/api/tables", body)
    assert response.status_code == status
    assert response.json["error"] and message in response.json["message"]
    assert p.get("/api/tables").json == []


def test_joining_needs_the_pin_and_a_free_seat(table: dict[str, Any], phone: Any) -> None:
    base = table["base"]
    stranger = phone()
    assert stranger.get(base).status_code == 403
    assert stranger.get(base).json["error"] == "not_joined"
    wrong = stranger.post(f"{base}/join", {"pin": "000000" if table["pin"] != "000000"
                                           else "111111", "seat": None})
    assert (wrong.status_code, wrong.json["error"]) == (403, "wrong_pin")
    taken = stranger.post(f"{base}/join", {"pin": table["pin"], "seat": 2})
    assert (taken.status_code, taken.json["error"]) == (409, "seat_taken")
    bad = stranger.post(f"{base}/join", {"pin": table["pin"], "seat": 9})
    assert bad.status_code == 422 and "seats 0 to 3" in bad.json["message"]
    # a PIN typed with spaces, as it is read out ("225 564"), is the PIN
    pin = table["pin"]
    watch = stranger.post(f"{base}/join", {"pin": f" {pin[:3]} {pin[3:]} ", "seat": None})
    assert watch.status_code == 200
    seen = state(stranger, base)
    assert seen["you"] == {"seat": None, "host": False} and seen["view"]["actions"] == []
    assert seen["view"]["seat"] is None and seen["view"]["secrets"] == []


def test_wrong_pins_slow_the_guesser_and_lock_nobody_else_out(table: dict[str, Any],
                                                                app: Any) -> None:
    stranger = Phone(app, "10.0.0.66")
    wrong = "000000" if table["pin"] != "000000" else "111111"
    codes = [stranger.post(f"{table['base']}/join", {"pin": wrong}).status_code
             for _ in range(6)]
    assert codes == [403] * 5 + [429]
    # The guesser waits, even with the right PIN: guessing from one phone is slowed...
    assert stranger.post(f"{table['base']}/join", {"pin": table["pin"]}).status_code == 429
    # ...but a player at the table joins at once, from their own phone.
    player = Phone(app, "10.0.0.7")
    assert player.post(f"{table['base']}/join", {"pin": table["pin"]}).status_code == 200


def test_the_hosts_qr_code_joins_without_the_pin_and_only_the_host_gets_it(
        table: dict[str, Any], app: Any) -> None:
    host, base = table["host"], table["base"]
    code = host.get(base).json["host"]["join_code"]
    assert len(code) == 32  # 128 bits: hopeless to guess
    svg = host.get(f"/t/{table['id']}/join.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    stranger = Phone(app, "10.0.0.66")
    assert stranger.get(f"/t/{table['id']}/join.svg").status_code == 403
    assert code not in stranger.get(f"/t/{table['id']}").data.decode()  # nor in the page
    assert stranger.post(f"{base}/join", {"code": "0" * 32}).json["error"] == "wrong_code"
    joined = stranger.post(f"{base}/join", {"code": code, "seat": None})
    assert joined.status_code == 200
    assert state(stranger, base)["you"] == {"seat": None, "host": False}


def test_each_phone_sees_its_own_secrets_only(table: dict[str, Any]) -> None:
    seen = [state(p, table["base"]) for p in table["seats"]]
    for seat, snapshot in enumerate(seen):
        view = snapshot["view"]
        assert view["seat"] == seat and secret(snapshot, "captain")
        for other in view["players"]:
            # Nobody revealed yet: no captain shown, only how many permits each holds.
            assert not [f for f in other["facts"] if f["key"] in ("captain", "permits")]
            assert isinstance(counter(snapshot, other["seat"], "permits"), int)


def test_an_action_is_applied_once_and_stale_or_replayed_requests_change_nothing(
        table: dict[str, Any]) -> None:
    base = table["base"]
    now = end_prologue(table)
    turn = now["view"]["turn"]
    p = table["seats"][turn]
    mine = state(p, base)
    assert "charge" in [a["name"] for a in mine["view"]["actions"]]
    body = {"name": "charge", "seat": turn, "params": {}, "expect": mine["version"]}
    done = p.post(f"{base}/actions", body)
    assert done.status_code == 201 and done.json["version"] == mine["version"] + 1
    energy = counter(state(p, base), turn, "energy")
    again = p.post(f"{base}/actions", body)  # the same request, replayed
    assert (again.status_code, again.json["error"]) == (409, "stale")
    assert counter(state(p, base), turn, "energy") == energy
    assert state(p, base)["version"] == mine["version"] + 1


def test_acting_for_another_seat_or_as_the_table_is_refused(table: dict[str, Any]) -> None:
    base = table["base"]
    now = end_prologue(table)
    turn = now["view"]["turn"]
    other = (turn + 1) % 4
    intruder = table["seats"][other]
    version = now["version"]
    forged = intruder.post(f"{base}/actions", {"name": "charge", "seat": turn,
                                               "params": {}, "expect": version})
    assert (forged.status_code, forged.json["error"]) == (403, "not_your_seat")
    as_table = intruder.post(f"{base}/actions", {"name": "correct", "seat": None, "params": {
        "target": 1, "counter": "health", "value": 99, "reason": "cheat"}, "expect": version})
    if other != 0:  # seat 0's phone is the host's
        assert (as_table.status_code, as_table.json["error"]) == (403, "host_only")
    assert state(table["host"], base)["version"] == version


def test_a_refused_action_says_why_and_changes_nothing(table: dict[str, Any]) -> None:
    base = table["base"]
    now = end_prologue(table)
    turn = now["view"]["turn"]
    p = table["seats"][turn]
    refused = p.post(f"{base}/actions", {"name": "strike", "seat": turn,
                                         "params": {"target": turn},
                                         "expect": now["version"]})
    assert refused.status_code == 422 and refused.json["error"] == "refused"
    assert refused.json["message"] == "You cannot target yourself"  # in players' words
    assert refused.json["detail"].startswith(f"cannot strike by seat {turn} (")  # the engine's
    assert state(p, base)["version"] == now["version"]
    dead = p.post(f"{base}/actions", {"name": "reveal", "seat": (turn + 1) % 4, "params": {},
                                      "expect": now["version"]})
    assert dead.status_code in (403, 422)
    other = table["seats"][(turn + 1) % 4]
    late = other.post(f"{base}/actions", {"name": "charge", "seat": (turn + 1) % 4,
                                          "params": {}, "expect": state(other, base)["version"]})
    assert late.json["message"] == f"Not your turn: it is {SEATS[turn]}'s turn"
    # A field is named by its label, as the phone's sheet shows it, not by its name.
    too_much = p.post(f"{base}/actions", {"name": "donate", "seat": turn,
                                          "params": {"target": (turn + 1) % 4, "amount": 99},
                                          "expect": now["version"]})
    assert too_much.json["message"].startswith("Energy to give must be at most")
    assert "amount must be at most" in too_much.json["detail"]


@pytest.mark.parametrize("body", [
    {"name": 5, "seat": 0, "params": {}, "expect": 0},
    {"name": "charge", "seat": "0", "params": {}, "expect": 0},
    {"name": "charge", "seat": 0, "params": [], "expect": 0},
    {"name": "charge", "seat": 0, "params": {}},
    {"name": "charge", "seat": True, "params": {}, "expect": 0},
])
def test_malformed_actions_are_400(table: dict[str, Any], body: dict[str, Any]) -> None:
    response = table["host"].post(f"{table['base']}/actions", body)
    assert response.status_code == 400 and response.json["error"] == "bad_request"


def test_preview_describes_without_changing(table: dict[str, Any]) -> None:
    base = table["base"]
    now = end_prologue(table)
    turn = now["view"]["turn"]
    p = table["seats"][turn]
    preview = p.post(f"{base}/preview", {"name": "charge", "seat": turn, "params": {}})
    assert preview.json == {"text": f"{SEATS[turn]}: Charge"}
    assert state(p, base)["version"] == now["version"]
    refused = p.post(f"{base}/preview", {"name": "reveal", "seat": turn, "params": {}})
    assert refused.status_code == 422


def test_undo_is_for_the_host_and_checks_the_version(table: dict[str, Any]) -> None:
    base = table["base"]
    now = end_prologue(table)
    turn = now["view"]["turn"]
    p = table["seats"][turn]
    p.post(f"{base}/actions", {"name": "charge", "seat": turn, "params": {},
                               "expect": now["version"]})
    version = now["version"] + 1
    if turn != 0:
        assert p.post(f"{base}/undo", {"expect": version}).status_code == 403
    stale = table["host"].post(f"{base}/undo", {"expect": version - 1})
    assert (stale.status_code, stale.json["error"]) == (409, "stale")
    undone = table["host"].post(f"{base}/undo", {"expect": version})
    assert undone.status_code == 200 and "Charge" in undone.json["undone"]
    after = state(table["host"], base)
    assert after["version"] == version + 1  # an undo is a logged entry of its own
    assert counter(after, turn, "energy") == counter(now, turn, "energy")
    assert "charge" in [a["name"] for a in state(p, base)["view"]["actions"]]


def test_a_pass_is_for_every_phone_to_see_until_the_table_moves_on(
        table: dict[str, Any], phone: Any) -> None:
    now = end_prologue(table)
    base, host, seats = table["base"], table["host"], table["seats"]
    watcher = phone()
    assert watcher.post(f"{base}/join", {"pin": table["pin"], "seat": None}).status_code == 200
    # Only a seat passes, at the version it saw; nothing in the game changes.
    r = watcher.post(f"{base}/pass", {"expect": state(watcher, base)["version"]})
    assert r.status_code == 403, r.json
    phones = (host, watcher, *seats)
    versions = [state(p, base)["version"] for p in phones]
    ben, cat = versions[3], versions[4]
    assert seats[1].post(f"{base}/pass", {"expect": ben - 1}).status_code == 409
    assert seats[1].post(f"{base}/pass", {}).status_code == 400
    assert seats[2].post(f"{base}/pass", {"expect": cat}).status_code == 200
    assert seats[1].post(f"{base}/pass", {"expect": ben}).json == {"passed": [1, 2]}
    for p, version in zip(phones, versions, strict=True):
        seen = state(p, base)
        assert seen["passed"] == [1, 2]
        assert seen["version"] == version  # no new entry
    # A public action moves the table on: the passes are forgotten.
    turn = now["view"]["turn"]
    r = seats[turn].post(f"{base}/actions", {"name": "charge", "seat": turn, "params": {},
                                            "expect": state(seats[turn], base)["version"]})
    assert r.status_code == 201, r.json
    assert state(watcher, base)["passed"] == []


def test_undo_stops_at_revealed_information(table: dict[str, Any]) -> None:
    base = table["base"]
    host = table["host"]
    # Right after setup nothing has happened: nothing to undo.
    nothing = host.post(f"{base}/undo", {"expect": 0})
    assert (nothing.status_code, nothing.json["error"]) == (409, "cannot_undo")


def test_a_step_that_showed_something_is_undone_only_with_a_reason_every_log_shows(
        table: dict[str, Any], services: Any) -> None:
    """A typo that killed Ben (his captain shown to all) is not a ruling the table is stuck
    with: the host undoes it saying why, everyone reads why, and a restart keeps it."""
    base, host = table["base"], table["host"]
    now = end_prologue(table)
    health = counter(now, 1, "health")
    killed = host.post(f"{base}/actions", {"name": "correct", "seat": None, "params": {
        "target": 1, "counter": "health", "value": 0, "reason": "Ben took a hit"},
        "expect": now["version"]})
    assert killed.status_code == 201, killed.json
    dead = state(host, base)
    assert dead["host"]["can_undo"] is False and dead["host"]["undo_needs_reason"] is True
    for body, status, said in (
            ({"expect": dead["version"]}, 409, "without a reason: it revealed hidden"),
            ({"expect": dead["version"], "reason": "  "}, 409, "without a reason"),
            ({"expect": dead["version"], "reason": "typo\u200b"}, 400, "cannot be shown"),
            ({"expect": dead["version"], "reason": "x" * 201}, 400, "reason")):
        refused = host.post(f"{base}/undo", body)
        assert refused.status_code == status and said in refused.json["message"], refused.json
        assert state(host, base)["version"] == dead["version"]  # nothing changed
    undone = host.post(f"{base}/undo", {"expect": dead["version"],
                                        "reason": "a typo: he has 9\nhealth"})
    assert undone.status_code == 200, undone.json
    said = "The host undid: Table correction: Ben's health"
    for phone in table["seats"]:
        seen = state(phone, base)
        assert counter(seen, 1, "health") == health
        line = phone.get(f"{base}/history").json[-1]["text"]
        assert line.startswith(said) and line.endswith(". Why: a typo: he has 9 health"), line
    after = state(host, base)
    assert after["host"]["undo_needs_reason"] is False
    with restarted_as(services, host) as client:  # kept across a restart
        again = client.get(base).json
        assert again["version"] == after["version"] and counter(again, 1, "health") == health
        assert client.get(f"{base}/history").json[-1]["text"].endswith("he has 9 health")


def test_the_host_corrects_a_counter_with_a_reason_everyone_sees(table: dict[str, Any]) -> None:
    base = table["base"]
    now = end_prologue(table)
    host = table["host"]
    fixed = host.post(f"{base}/actions", {"name": "correct", "seat": None, "params": {
        "target": 2, "counter": "health", "value": 7, "reason": "Ben forgot the Barrage"},
        "expect": now["version"]})
    assert fixed.status_code == 201, fixed.json
    seen = state(table["seats"][3], base)
    assert counter(seen, 2, "health") == 7
    assert any("Ben forgot the Barrage" in " ".join([r["text"], *r["notes"]])
               for r in seen["view"]["log"])


def test_ending_a_table_freezes_it_and_the_host_can_export_the_whole_transcript(
        table: dict[str, Any]) -> None:
    base = table["base"]
    now = end_prologue(table)
    player = table["seats"][1]
    assert "seed" not in player.get(f"{base}/export").json["setup"]
    assert player.post(f"{base}/end").status_code == 403
    assert table["host"].post(f"{base}/end").status_code == 200
    late = player.post(f"{base}/actions", {"name": "charge", "seat": 1, "params": {},
                                           "expect": now["version"]})
    assert late.status_code == 410
    assert state(player, base)["ended"] is True and state(player, base)["view"]["actions"] == []
    full = table["host"].get(f"{base}/export").json
    # Every action, private inputs included (a phone's version counts only what it may know).
    assert isinstance(full["setup"]["seed"], int) and len(full["actions"]) >= now["version"]
    assert table["host"].get("/api/tables").json == []  # ended tables leave the list
    # the export replays as it comes (companion replay): the same table, action for action
    replayed = replay_text(json.dumps(full, indent=1))
    assert replayed.error is None and replayed.session is not None
    assert len(replayed.session.history) == len(full["actions"])
    assert replayed.session.table_view(None).to_dict()["players"] == \
        table["host"].get(base).json["view"]["players"]
    # a player's own export is its view of the log: it says it cannot replay
    mine = replay_text(json.dumps(player.get(f"{base}/export").json))
    assert mine.error is not None and "only the host's export" in mine.error.reason


def test_the_host_frees_a_seat_and_its_old_phone_loses_it(table: dict[str, Any],
                                                         phone: Any) -> None:
    base = table["base"]
    assert table["seats"][2].post(f"{base}/seats/2/release").status_code == 403
    assert table["host"].post(f"{base}/seats/2/release").status_code == 200
    assert state(table["seats"][2], base)["you"]["seat"] is None  # still watching
    new_phone = phone()
    assert new_phone.post(f"{base}/join", {"pin": table["pin"], "seat": 2}).status_code == 200
    assert state(new_phone, base)["view"]["seat"] == 2


def test_a_hand_dealt_end_waiting_on_a_player_who_left_is_finished_by_the_host(
        phone: Any) -> None:
    """Ben never told his captain and has left. At the end every phone says whose captain is
    still needed and how to finish; the host frees Ben's seat, takes it on the host's own
    phone (which holds Ann's seat), tells Ben's captain, and takes Ann's seat back."""
    host = phone()
    created = host.post("/api/tables", {"game": "captains-gambit", "seats": SEATS,
                                        "dealt_by_hand": True})
    assert created.status_code == 201, created.json
    base, pin = f"/api/tables/{created.json['id']}", created.json["pin"]
    phones = [host, phone(), phone(), phone()]
    for seat, p in enumerate(phones):
        assert p.post(f"{base}/join", {"pin": pin, "seat": seat}).status_code == 200

    def send(p: Any, name: str, seat: int | None, **params: Any) -> None:
        sent = p.post(f"{base}/actions", {"name": name, "seat": seat, "params": params,
                                          "expect": state(p, base)["version"]})
        assert sent.status_code == 201, sent.json

    send(host, "end_prologue", None)
    for seat, captain in ((0, "iago"), (2, "portia"), (3, "hamlet")):  # not Ben
        send(phones[seat], "captain_seen", seat, captain=captain)
    while (now := state(host, base)["view"])["phase"] == "action":
        send(phones[now["turn"]], "charge", now["turn"])
    waiting = ("the game has ended: Ben must tell the companion their captain before the"
               " winners are known. If Ben has left the table, the host frees Ben's seat,"
               " takes it and tells the captain for them.")
    for seat, p in enumerate(phones):
        view = state(p, base)["view"]
        assert (view["phase"], view["waiting_for"], view["status"]) == ("ending", [1], waiting)
        assert view["prompt"] == ("" if seat != 1 else "Tell the companion your captain, so the"
                                  " game can end")
    # Ben has left: the host frees his seat, then moves the host's phone to it.
    assert host.post(f"{base}/seats/1/release").status_code == 200
    assert phones[2].post(f"{base}/join", {"pin": pin, "seat": 1}).json["error"] == \
        "already_seated"  # a player's phone holds one seat
    moved = host.post(f"{base}/join", {"pin": pin, "seat": 1})
    assert (moved.status_code, moved.json) == (200, {"seat": 1, "left": 0})
    seen = state(host, base)
    assert seen["you"]["seat"] == 1 and seen["taken_seats"] == [1, 2, 3]
    assert "captain_seen" in [a["name"] for a in seen["view"]["actions"]]
    send(host, "captain_seen", 1, captain="puck")
    # Ann's seat back on the host's phone: the game is over, Ben's Puck wins at the round's end.
    back = host.post(f"{base}/join", {"pin": pin, "seat": 0})
    assert (back.status_code, back.json) == (200, {"seat": 0, "left": 1})
    for p in (host, phones[2]):
        view = state(p, base)["view"]
        assert view["ending"] is not None and view["ending"]["winners"] == [1]
        assert view["prompt"] == ""
    assert state(host, base)["you"]["seat"] == 0
    assert phones[1].post(f"{base}/actions", {"name": "charge", "seat": 1, "params": {},
                                              "expect": 0}).status_code in (403, 409, 410)


def test_writes_must_be_json_from_this_site(table: dict[str, Any]) -> None:
    client = table["host"].client
    base = table["base"]
    form = client.post(f"{base}/end", data="x=1",
                       content_type="application/x-www-form-urlencoded")
    assert (form.status_code, form.json["error"]) == (415, "json_only")
    cross = client.post(f"{base}/end", json={}, headers={"Origin": "http://evil.example"})
    assert (cross.status_code, cross.json["error"]) == (403, "cross_site")
    assert state(table["host"], base)["ended"] is False
    same = client.post(f"{base}/end", json={}, headers={"Origin": "http://localhost"})
    assert same.status_code == 200


def test_bodies_are_limited_and_junk_is_refused(table: dict[str, Any]) -> None:
    client = table["host"].client
    base = table["base"]
    big = client.post(f"{base}/actions", data="[" + "1," * 40000 + "1]",
                      content_type="application/json")
    assert big.status_code == 413 and big.json["error"] == "request_entity_too_large"
    assert big.json["message"] == "the body is over 64 KB: nothing was read"
    junk = client.post(f"{base}/actions", data="{not json", content_type="application/json")
    assert junk.status_code == 400 and junk.json["message"] == \
        "the body is not valid JSON: Expecting property name enclosed in double quotes at" \
        " character 1"
    cut = client.post(f"{base}/actions", data='{"name": "charge",',
                      content_type="application/json")
    assert cut.status_code == 400 and "not valid JSON" in cut.json["message"]
    listed = client.post(f"{base}/actions", data="[1]", content_type="application/json")
    assert listed.status_code == 400 and listed.json["message"] == \
        "the body must be a JSON object"
    assert client.get("/api/tables/nope").status_code == 404
    assert client.get("/api/tables/nope").json == {"error": "not_found",
                                                   "message": "no table 'nope'"}
    assert client.get("/api/nothing-here").json == {
        "error": "not_found",
        "message": "no such address in the companion's API (its document: /api/openapi.json)"}


def test_the_openapi_document_lists_every_api_route(app: Any) -> None:
    doc = app.test_client().get("/api/openapi.json").json
    routes = {rule.rule.replace("<table_id>", "{table_id}").replace("<int:seat>", "{seat}")
              for rule in app.url_map.iter_rules() if rule.rule.startswith("/api/")}
    assert routes == set(doc["paths"])


def test_events_send_the_state_at_once_and_again_after_a_change(table: dict[str, Any]) -> None:
    base = table["base"]
    p = table["seats"][1]
    response = p.client.get(f"{base}/events")
    assert response.mimetype == "text/event-stream"
    stream = response.response
    assert next(stream).decode().startswith("retry:")
    first = next(stream).decode()
    assert first.startswith("id: ") and "event: state" in first
    assert '"seat": 1' in first
    table["host"].post(f"{base}/seats/3/release")
    second = next(stream).decode()
    assert "event: state" in second and '"taken_seats": [0, 1, 2]' in second
    response.close()


def test_the_events_of_an_ended_table_send_its_last_state_and_stop(
        table: dict[str, Any]) -> None:
    base = table["base"]
    response = table["seats"][1].client.get(f"{base}/events")
    stream = response.response
    next(stream), next(stream)  # retry, the state now
    assert table["host"].post(f"{base}/end").status_code == 200
    last = next(stream).decode()
    assert "event: state" in last and '"ended": true' in last
    assert next(stream).decode().startswith("event: ended")
    assert next(stream, None) is None  # the connection is free again
    again = table["seats"][1].client.get(f"{base}/events").get_data(as_text=True)
    assert again.count("event: state") == 1 and again.endswith("event: ended\ndata: {}\n\n")


def test_pages_render(table: dict[str, Any], phone: Any) -> None:
    p = phone()
    home = p.get("/")
    assert home.status_code == 200 and b"New table" in home.data
    page = p.get(f"/t/{table['id']}")
    assert page.status_code == 200 and b"Join this table" in page.data
    assert "Content-Security-Policy" in page.headers
    code = table["host"].get(f"/t/{table['id']}/join.svg")
    assert code.mimetype == "image/svg+xml" and code.data.startswith(b"<?xml")
    missing = p.get("/t/nope")  # an old QR code: a page saying so, not the API's JSON
    assert missing.status_code == 404 and missing.mimetype == "text/html"
    assert b"No such table" in missing.data and b'href="/"' in missing.data
    assert p.get("/api/tables/nope").json["error"] == "not_found"  # the API's answer stays


def test_a_body_or_cookie_that_is_not_clean_text_is_refused_not_stored(
        table: dict[str, Any]) -> None:
    """Bytes that are not UTF-8 are refused (they were stored as U+FFFD in a name); a cookie
    with non-ASCII text is no one, not a server error."""
    client = table["host"].client
    bad = client.post("/api/tables", data=b'{"game":"gambit-6x6","seats":["A\xff","B"]}',
                      content_type="application/json")
    assert bad.status_code == 400 and bad.json["message"] == "the body is not UTF-8 text" \
        " (byte 32)"
    assert len(client.get("/api/tables").json) == 1  # nothing made
    stranger = table["seats"][1].client
    stranger.set_cookie(f"gc_watch_{table['id']}", "h\u00e9llo")
    stranger.set_cookie(f"gc_seat_{table['id']}", "h\u00e9llo")
    assert stranger.get(table["base"]).status_code == 403


def test_deeply_nested_junk_is_a_400_not_a_crash(table: dict[str, Any]) -> None:
    client = table["host"].client
    response = client.post("/api/tables", data="[" * 5000, content_type="application/json")
    assert response.status_code == 400 and response.json["error"] == "bad_request"
    deep = client.post("/api/tables", data="[" * 5000 + "]" * 5000,
                       content_type="application/json")
    assert deep.status_code == 400 and deep.json["message"] == \
        "the body's JSON is nested too deep"


def test_undos_show_where_they_happened(table: dict[str, Any]) -> None:
    base = table["base"]
    host = table["host"]
    end_prologue(table)

    def charge() -> None:
        turn = state(host, base)["view"]["turn"]
        phone = table["seats"][turn]
        assert phone.post(f"{base}/actions", {"name": "charge", "seat": turn, "params": {},
                                              "expect": state(phone, base)["version"]}
                          ).status_code == 201

    charge()  # Ann
    charge()  # Ben
    for _ in range(2):
        assert host.post(f"{base}/undo", {"expect": state(host, base)["version"]}).status_code \
            == 200
    charge()  # Ann again
    texts = [line["text"] for line in host.get(f"{base}/history").json]
    assert texts[-3:] == ["The host undid: Ben: Charge", "The host undid: Ann: Charge",
                          "Ann: Charge"]


def test_ended_tables_survive_a_restart_for_their_export(table: dict[str, Any],
                                                         services: Any) -> None:
    base = table["base"]
    end_prologue(table)
    table["host"].post(f"{base}/end")
    full = table["host"].get(f"{base}/export").json
    with restarted_as(services, table["host"]) as client:
        assert client.get("/api/tables").json == []  # ended: not listed, not loaded at start
        assert client.get(f"{base}/export").json == full


def test_live_connections_are_limited_per_phone(table: dict[str, Any], app: Any) -> None:
    from companion.web.api import StreamLimits

    app.extensions["companion_streams"] = StreamLimits(total=10, per_phone=1)
    client = table["seats"][1].client
    base = table["base"]
    first = client.get(f"{base}/events")
    second = client.get(f"{base}/events")
    assert (second.status_code, second.json["error"]) == (503, "busy")
    other = table["seats"][2].client.get(f"{base}/events")
    assert other.status_code == 200  # another phone has its own allowance
    other.close()
    first.close()
    third = client.get(f"{base}/events")
    assert third.status_code == 200  # a closed connection gives its place back
    third.close()


def test_junk_cookies_do_not_buy_a_phone_more_live_connections(table: dict[str, Any],
                                                                 app: Any) -> None:
    """The limit is keyed on who the phone proves it is, not on what its cookies say."""
    from companion.web.api import StreamLimits

    app.extensions["companion_streams"] = StreamLimits(total=10, per_phone=2)
    watcher = Phone(app, "10.0.0.66")
    base = table["base"]
    assert watcher.post(f"{base}/join", {"pin": table["pin"], "seat": None}).status_code == 200
    opened = []
    for junk in range(4):
        watcher.client.set_cookie(f"gc_host_{table['id']}", f"junk-{junk}")
        watcher.client.set_cookie(f"gc_seat_{table['id']}", f"junk-{junk}")
        opened.append(watcher.client.get(f"{base}/events"))
    assert [r.status_code for r in opened] == [200, 200, 503, 503]
    player = table["seats"][1].client.get(f"{base}/events")
    assert player.status_code == 200  # the seated phones keep their live updates
    for response in reversed((*opened, player)):  # Flask's contexts close last-in first-out
        response.close()


def test_the_stream_limits_count_all_phones() -> None:
    from companion.runtime.tables import TableError
    from companion.web.api import StreamLimits

    limits = StreamLimits(total=2, per_phone=2)
    releases = [limits.take("a"), limits.take("b")]
    with pytest.raises(TableError, match="too many live connections"):
        limits.take("c")
    releases[0]()
    releases[0]()  # releasing twice counts once
    limits.take("c")
    with pytest.raises(TableError):
        limits.take("d")


def test_one_address_holds_at_most_half_the_live_connections(
        caplog: pytest.LogCaptureFixture) -> None:
    """A script on one machine holding every seat of tables it made would leave the real
    phones none: one address holds at most half (the phones refused update by asking)."""
    import logging

    from companion.runtime.tables import TableError
    from companion.web.api import StreamLimits

    limits = StreamLimits(total=10, per_phone=3)
    script = [limits.take(("t1", f"seat {n}"), "10.0.0.66") for n in range(5)]
    with caplog.at_level(logging.WARNING), pytest.raises(TableError, match="by asking"):
        limits.take(("t2", "seat 0"), "10.0.0.66")
    assert "10.0.0.66 holds 5 live connections" in caplog.text
    phones = [limits.take(("t3", f"seat {n}"), f"10.0.0.{n}") for n in range(5)]
    script[0]()
    limits.take(("t2", "seat 0"), "10.0.0.66")  # its place back
    assert len(phones) == 5
    another = StreamLimits(total=10, per_phone=3)
    for n in range(5):
        another.take(("t4", f"seat {n}"), "10.0.0.99")
    caplog.set_level(logging.WARNING)
    for _ in range(3):  # refused again and again (a phone retries): logged once a minute
        with pytest.raises(TableError):
            another.take(("t5", "seat 0"), "10.0.0.99")
    assert caplog.text.count("10.0.0.99 holds 5 live connections") == 1


def test_the_service_counts_live_connections_by_the_phones_address(table: dict[str, Any],
                                                                    app: Any) -> None:
    """The events route gives the limits each phone's address: seats of one table opened
    from other addresses are not counted as one machine's."""
    from companion.web.api import StreamLimits
    from tests.web.conftest import Phone

    app.extensions["companion_streams"] = StreamLimits(total=6, per_phone=3)  # 3 an address
    base = table["base"]
    phones = [Phone(app, f"10.0.1.{n}") for n in range(4)]
    for phone in phones:
        assert phone.post(f"{base}/join", {"pin": table["pin"], "seat": None}).status_code \
            == 200
    opened = [phone.client.get(f"{base}/events") for phone in phones]
    assert [r.status_code for r in opened] == [200, 200, 200, 200]
    for response in reversed(opened):  # Flask's contexts close last-in first-out
        response.close()


def test_open_tables_are_bounded_and_an_idle_one_makes_room(services: Any, phone: Any) -> None:
    """A flood of new tables stops at the limit; a table idle for half a day is ended (its log
    kept) to make room for a new one, and a busy one never is."""
    import time

    services.hub.max_tables = 2
    host = phone()
    made = [host.post("/api/tables", {"game": "captains-gambit", "seats": SEATS}).json["id"]
            for _ in range(2)]
    refused = host.post("/api/tables", {"game": "captains-gambit", "seats": SEATS})
    assert refused.status_code == 429 and refused.json["error"] == "too_many_tables"
    assert [t["id"] for t in host.get("/api/tables").json] == made
    services.hub.get(made[0]).last_active = time.time() - 13 * 3600
    assert host.post("/api/tables", {"game": "captains-gambit", "seats": SEATS}).status_code \
        == 201
    assert made[0] not in [t["id"] for t in host.get("/api/tables").json]
    assert host.get(f"/api/tables/{made[0]}/export").status_code == 200  # still readable


def test_a_table_nobody_joined_or_played_for_half_an_hour_makes_room(
        services: Any, phone: Any, caplog: pytest.LogCaptureFixture) -> None:
    """Tables made and left (or made by the dozen from a few phones) must not keep a café's
    next table out for 12 hours: one nobody joined or played for half an hour is ended
    first. One with a player seated is kept; a refusal is logged and says whom to ask."""
    import logging
    import time

    services.hub.max_tables = 3
    host = phone()
    made = [host.post("/api/tables", {"game": "gambit-6x6", "seats": ["A", "B"]}).json
            for _ in range(3)]
    assert host.post(f"/api/tables/{made[0]['id']}/join",
                     {"pin": made[0]["pin"], "seat": 0}).status_code == 200
    played = host.post(f"/api/tables/{made[2]['id']}/actions", {  # by the host, nobody seated
        "name": "declare", "seat": None, "expect": 0,
        "params": {"result": "A", "reason": "B concedes"}})
    assert played.status_code == 201, played.json
    for table in made:
        services.hub.get(table["id"]).last_active = time.time() - 40 * 60
    services.hub.get(made[1]["id"]).last_active = time.time() - 20 * 60  # made just now
    services.hub.get(made[2]["id"]).last_active = time.time() - 5 * 60  # over: kept 10 min
    caplog.set_level(logging.INFO, logger="companion.runtime.tables")
    refused = host.post("/api/tables", {"game": "gambit-6x6", "seats": ["A", "B"]})
    assert refused.status_code == 429 and "ask whoever runs the companion" in \
        refused.json["message"]
    assert "a new table refused: 3 tables open" in caplog.text
    services.hub.get(made[1]["id"]).last_active = time.time() - 31 * 60
    assert host.post("/api/tables", {"game": "gambit-6x6",
                                     "seats": ["A", "B"]}).status_code == 201
    still = [t["id"] for t in host.get("/api/tables").json]
    assert made[0]["id"] in still and made[1]["id"] not in still
    assert made[2]["id"] in still  # played, with nobody seated: not unused
    assert f"table {made[1]['id']} ended to make room: nobody joined or played it" in caplog.text


def test_the_log_says_who_joined_guessed_and_was_freed_never_a_pin(
        table: dict[str, Any], app: Any, caplog: pytest.LogCaptureFixture) -> None:
    """What an operator needs to see what happened at a table, and nothing a PIN could be
    read from."""
    import logging

    from tests.web.conftest import Phone

    guesser = Phone(app, "10.0.0.77")
    base = table["base"]
    with caplog.at_level(logging.INFO, logger="companion"):
        guesses = ("907152", "683419", "570264", "318897", "246035")
        assert not {g[:3] for g in guesses} & {table["pin"][:3]}
        for guess in guesses:
            assert guesser.post(f"{base}/join", {"pin": guess, "seat": None}).status_code == 403
        assert table["host"].post(f"{base}/seats/2/release").status_code == 200
        assert Phone(app, "10.0.0.78").post(f"{base}/join", {"pin": table["pin"],
                                                             "seat": 2}).status_code == 200
    assert f"table {table['id']}: a wrong PIN from 10.0.0.77 (1 in half an hour)" in caplog.text
    assert "(5 in half an hour): it waits now" in caplog.text
    assert f"table {table['id']}: the host freed seat 2 (Cat)" in caplog.text
    assert f"table {table['id']}: seat 2 (Cat) joined from 10.0.0.78" in caplog.text
    # nor any part a near miss would show (in the messages: the table's id and the source's
    # line numbers are digits of their own)
    said = " ".join(r.getMessage() for r in caplog.records).replace(table["id"], "TABLE")
    for pin in (table["pin"], *guesses):
        assert pin[:3] not in said and pin[3:] not in said, (pin, said)


def test_one_phone_cannot_fill_the_cafe_with_tables(services: Any, app: Any) -> None:
    """A phone may have started `tables_per_phone` games still in play: one more is refused
    (nothing made), another phone still may, and a game that is over or ended frees its place."""
    from tests.web.conftest import Phone

    services.hub.tables_per_phone = 2
    prankster, cafe = Phone(app, "192.168.1.23"), Phone(app, "192.168.1.40")
    new = {"game": "gambit-6x6", "seats": ["Ann", "Ben"]}
    made = [prankster.post("/api/tables", new).json["id"] for _ in range(2)]
    refused = prankster.post("/api/tables", new)
    assert refused.status_code == 429 and refused.json["error"] == "too_many_from_phone"
    assert "2 games still in play (Gambit (6x6) (2 players), Gambit (6x6) (2 players))" \
        in refused.json["message"]
    assert len(services.hub.tables()) == 2
    assert cafe.post("/api/tables", new).status_code == 201
    declared = prankster.post(f"/api/tables/{made[0]}/actions", {
        "name": "declare", "seat": None, "expect": 0,
        "params": {"result": "Ann", "reason": "Ben concedes"}})
    assert declared.status_code == 201, declared.json
    assert prankster.post("/api/tables", new).status_code == 201
    assert prankster.post("/api/tables", new).status_code == 429
    assert prankster.post(f"/api/tables/{made[1]}/end", {}).status_code == 200
    assert prankster.post("/api/tables", new).status_code == 201
    assert prankster.post("/api/tables", new).status_code == 429
    # a game nobody has touched for two hours no longer counts (a lost host cookie could
    # not end it), nor one another phone took over with a host link
    in_play = [t for t in services.hub.tables() if t.started_by == "192.168.1.23"
               and t.session.outcome is None]
    in_play[0].last_active -= 2 * 3600
    assert prankster.post("/api/tables", new).status_code == 201
    services.hub.take_host(in_play[1], services.hub.keys.host_code(
        in_play[1].id, in_play[1].stored.host_key))
    assert prankster.post("/api/tables", new).status_code == 201
    assert prankster.post("/api/tables", new).status_code == 429
    services.hub.tables_per_phone = 1  # one game: said so, in the singular
    alone = Phone(app, "192.168.1.77")
    assert alone.post("/api/tables", new).status_code == 201
    assert "already started 1 game still in play (Gambit (6x6) (2 players))" in \
        alone.post("/api/tables", new).json["message"]


def test_a_finished_game_makes_room_before_any_table_in_play(services: Any, phone: Any) -> None:
    """Players rarely tap "End table" after the last move: at the limit, a table whose game
    is over (for ten minutes: a final move may be undone) is ended to make room, the one over
    longest first, never a game in play."""
    services.hub.max_tables = 3
    host = phone()
    made = [host.post("/api/tables", {"game": "gambit-6x6", "seats": ["Ann", "Ben"]}).json["id"]
            for _ in range(3)]
    for table_id in made[1:]:  # the host declares these two over
        declared = host.post(f"/api/tables/{table_id}/actions", {
            "name": "declare", "seat": None, "expect": 0,
            "params": {"result": "Ann", "reason": "Ben concedes"}})
        assert declared.status_code == 201, declared.json
    # over a moment ago: its last move may still be undone, so it is kept
    refused = host.post("/api/tables", {"game": "gambit-6x6", "seats": ["Ann", "Ben"]})
    assert refused.status_code == 429
    for age, table_id in ((20 * 60, made[1]), (11 * 60, made[2])):
        services.hub.get(table_id).last_active -= age
    assert host.post("/api/tables", {"game": "gambit-6x6", "seats": ["Ann", "Ben"]}).status_code \
        == 201
    listed = [t["id"] for t in host.get("/api/tables").json]
    assert made[0] in listed and made[2] in listed and made[1] not in listed


def test_lone_surrogates_and_wrong_methods_get_clear_answers(table: dict[str, Any],
                                                             phone: Any) -> None:
    """JSON can escape a lone surrogate (\\ud800), which is no text: refused with 400, never
    a 500. A method the route does not take says which it does (Allow)."""
    p = phone()
    for body in ('{"game": "captains-gambit", "seats": ["An\\ud800n", "Ben", "Cat", "Dan"]}',):
        created = p.client.post("/api/tables", data=body, content_type="application/json")
        assert created.status_code == 400 and "not valid Unicode" in created.json["message"]
    joined = p.client.post(f"{table['base']}/join", data='{"pin": "\\udfff"}',
                           content_type="application/json")
    assert joined.status_code == 400
    wrong = p.client.delete("/api/games")
    assert wrong.status_code == 405 and set(wrong.headers["Allow"].split(", ")) >= {"GET"}
    assert wrong.json["error"] == "method_not_allowed"


def test_pages_and_files_are_compressed_and_files_kept_until_they_change(
        table: dict[str, Any]) -> None:
    import gzip
    import re

    host = table["host"]
    page = host.client.get(f"/t/{table['id']}", headers={"Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip"
    html = gzip.decompress(page.data).decode()
    scripts = re.findall(r'src="(/static/[^"]+)"', html)
    assert scripts and all(re.search(r"\?v=[0-9a-f]{12}$", s) for s in scripts)
    for script in scripts:
        served = host.client.get(script, headers={"Accept-Encoding": "gzip"})
        assert served.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert gzip.decompress(served.data).startswith(b"//")
        served.close()
    api = host.client.get(table["base"], headers={"Accept-Encoding": "gzip"})
    assert api.headers["Content-Encoding"] == "gzip" and api.headers["Cache-Control"] == \
        "no-store"
    plain = host.client.get(table["base"])  # a client that does not take gzip
    assert "Content-Encoding" not in plain.headers and plain.json["view"]
    stream = host.client.get(f"{table['base']}/events", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in stream.headers  # live updates stay plain
    stream.close()


def test_an_accepted_action_is_applied_once(table: dict[str, Any], services: Any,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules judge an action once: its refusal comes before anything is stored, and an
    accepted one is kept as judged, not applied again."""
    base = table["base"]
    now = end_prologue(table)
    turn = now["view"]["turn"]
    rules = services.hub.get(table["id"]).session.rules
    calls: list[str] = []
    real = type(rules).apply

    def counted(self: Any, state: Any, action: Any) -> Any:
        calls.append(action.name)
        return real(self, state, action)

    monkeypatch.setattr(type(rules), "apply", counted)
    logged = len(services.hub.store.log(table["id"]))
    done = table["seats"][turn].post(f"{base}/actions", {"name": "charge", "seat": turn,
                                                         "params": {}, "expect": now["version"]})
    assert done.status_code == 201 and calls == ["charge"]
    refused = table["seats"][turn].post(f"{base}/actions", {
        "name": "charge", "seat": turn, "params": {}, "expect": done.json["version"]})
    assert refused.status_code == 422 and calls == ["charge", "charge"]  # judged, not stored
    assert len(services.hub.store.log(table["id"])) == logged + 1


def test_the_rules_page_shows_the_tables_own_house_edits(phone: Any) -> None:
    """house-rulings.md: every house ruling is visible, on the dashboard's rules page too, and
    a table's edit of one is what its rules say."""
    host = phone()
    created = host.post("/api/tables", {"game": "captain-flip", "seats": ["Ann", "Ben"],
                                        "options": {"house": {"coins": {"below_zero": True}}}})
    assert created.status_code == 201, created.json
    base = f"/api/tables/{created.json['id']}"
    rules = host.get(f"{base}/rules")
    assert rules.status_code == 200 and rules.json["title"] == "Captain Flip"
    assert "[house] A Parrot's penalty may take a score below 0." in rules.json["text"]
    # listed apart from the companion's own readings, in the words the host chose it by
    assert rules.json["house"] == ["The Parrots' penalty may take a score below 0: yes"]
    packaged = host.post("/api/tables", {"game": "captain-flip", "seats": ["Ann", "Ben"]})
    unchanged = host.get(f"/api/tables/{packaged.json['id']}/rules").json
    assert "[house] A Parrot's penalty never takes a total below 0." in unchanged["text"]
    assert unchanged["house"] == []
    stranger = phone().get(f"{base}/rules")  # like the table itself: join first
    assert stranger.status_code == 403 and stranger.json["error"] == "not_joined"


@pytest.mark.parametrize("entry", ['{"by": "host"}', "[1, 2]",
                                   '{"kind": "action", "action": null, "by": "host"}'])
def test_one_damaged_table_is_skipped_and_the_others_come_back(services: Any,
                                                               entry: str) -> None:
    """A damaged log entry (no kind, not an object, an action of null) loses that table
    only: the service starts, every other table comes back, the damaged one is not found."""
    import sqlite3

    from companion.runtime.service import Services
    from companion.runtime.tables import TableError
    from companion.web import create_app

    damaged, _ = services.hub.create("gambit-6x6", ["Ann", "Ben"], {})
    kept, _ = services.hub.create("captain-flip", ["Ann", "Ben"], {})
    services.close()
    with sqlite3.connect(services.data / "tables.sqlite3") as db:
        db.execute("INSERT INTO log (table_id, seq, entry, at) VALUES (?, 1, ?, 0)",
                   (damaged.id, entry))
    again = Services.build(services.settings, services.data)  # as after a restart
    try:
        assert [t.id for t in again.hub.tables()] == [kept.id]
        with pytest.raises(TableError) as refused:
            again.hub.get(damaged.id)
        assert (refused.value.status, refused.value.code) == (503, "not_rebuilt")
        # not rebuilt again at every phone's request: it failed once, the log says why
        rebuilds = []
        again.hub._rebuild = lambda stored: rebuilds.append(stored)  # type: ignore[method-assign]
        with pytest.raises(TableError):
            again.hub.get(damaged.id)
        assert rebuilds == []
        page = create_app(again, testing=True).test_client().get(f"/t/{damaged.id}")
        assert page.status_code == 503 and b"cannot be opened" in page.data
    finally:
        again.close()


def test_tables_made_at_the_same_moment_never_pass_the_limit(services: Any) -> None:
    """Room is counted and taken as one step: ten creations at once with one place left
    make one table, the others are refused."""
    import threading

    from companion.runtime.tables import TableError

    services.hub.max_tables = 5
    for _ in range(4):
        services.hub.create("gambit-6x6", ["Ann", "Ben"], {})
    start, made, refused = threading.Barrier(10), [], []

    def create() -> None:
        start.wait()
        try:
            made.append(services.hub.create("gambit-6x6", ["Ann", "Ben"], {}))
        except TableError as exc:
            refused.append(exc.status)

    threads = [threading.Thread(target=create) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 1 and refused == [429] * 9
    assert len(services.hub.tables()) == 5


def test_a_host_link_makes_another_phone_the_host_once(services: Any, phone: Any,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    """The host's phone is lost: `companion tables` on the companion's machine lists the
    table, `companion tables host` prints a link; the phone that opens it is the host (it can
    undo, rule, end), the lost phone is host no more, and the link serves once."""
    import re
    from urllib.parse import parse_qs, urlsplit

    from companion.cli import main

    lost = phone()
    made = lost.post("/api/tables", {"game": "gambit-6x6", "seats": ["Ann", "Ben"],
                                     "name": "Window table"}).json
    base = f"/api/tables/{made['id']}"
    old_code = lost.get(base).json["host"]["join_code"]
    assert lost.post(f"{base}/join", {"pin": made["pin"], "seat": 0}).status_code == 200
    ben, watcher = phone(), phone()
    assert ben.post(f"{base}/join", {"pin": made["pin"], "seat": 1}).status_code == 200
    assert watcher.post(f"{base}/join", {"pin": made["pin"], "seat": None}).status_code == 200
    assert main(["tables", "--data", str(services.data)]) == 0
    listed = capsys.readouterr().out
    assert made["id"] in listed and "Window table" in listed and "gambit-6x6" in listed
    assert main(["tables", "host", "nope", "--data", str(services.data)]) == 2
    assert "no table 'nope'" in capsys.readouterr().err
    # --data before or after `host`, and nothing written: the key is the service's
    key = (services.data / "secret.key").read_bytes()
    assert main(["tables", "--data", str(services.data), "host", made["id"], "--no-qr"]) == 0
    assert main(["tables", "host", made["id"], "--data", str(services.data), "--no-qr"]) == 0
    assert (services.data / "secret.key").read_bytes() == key
    link = re.search(r"http://\S+", capsys.readouterr().out.split("\n\n")[-2])
    assert link is not None and urlsplit(link.group(0)).path == f"/t/{made['id']}"
    code = parse_qs(urlsplit(link.group(0)).query)["host"][0]

    stranger = phone()
    wrong = stranger.post(f"{base}/host", {"code": code[::-1]})
    assert wrong.status_code == 403 and wrong.json["error"] == "wrong_code"
    assert lost.get(f"{base}/seats").json["you"]["host"]  # nothing changed
    new = phone()
    assert new.post(f"{base}/host", {"code": code}).status_code == 200
    assert new.get(f"{base}/seats").json["you"]["host"]
    assert not lost.get(f"{base}/seats").json["you"]["host"]
    assert lost.post(f"{base}/end").status_code == 403
    again = stranger.post(f"{base}/host", {"code": code})  # it served once
    assert again.status_code == 403 and again.json["error"] == "wrong_code"
    # The lost phone showed the PIN and the join code: both are new now, so whoever finds it
    # cannot take the seat the new host frees. Ben keeps his seat; a watcher types the new PIN.
    pin = new.get(base).json["host"]["pin"]
    assert pin != made["pin"] and new.get(base).json["host"]["join_code"] != old_code
    assert new.post(f"{base}/seats/0/release").status_code == 200
    for tried in ({"pin": made["pin"], "seat": 0}, {"code": old_code, "seat": 0}):
        refused = lost.post(f"{base}/join", tried)
        assert refused.status_code == 403, refused.json
    assert lost.get(base).status_code == 403 and watcher.get(base).status_code == 403
    assert ben.get(base).json["you"] == {"seat": 1, "host": False}
    assert watcher.post(f"{base}/join", {"pin": pin, "seat": None}).status_code == 200
    assert watcher.get(base).status_code == 200
    assert new.post(f"{base}/join", {"pin": pin, "seat": 0}).status_code == 200
    with restarted_as(services, new) as client:  # kept across a restart
        assert client.get(f"{base}/seats").json["you"]["host"]
        assert client.get(base).json["host"]["pin"] == pin  # the new PIN kept too
        assert client.post(f"{base}/end", json={}).status_code == 200


def test_a_table_begun_before_tables_recorded_their_rules_records_them_at_its_rebuild(
        services: Any) -> None:
    """A table stored without its rule data (an older companion's) plays by today's data and
    records it at the first start, so it keeps those rules from then on."""
    import sqlite3

    from companion.runtime.service import Services

    old, _ = services.hub.create("captain-flip", ["Ann", "Ben"], {})
    services.close()
    with sqlite3.connect(services.data / "tables.sqlite3") as db:
        (setup,) = db.execute("SELECT setup FROM tables WHERE id = ?", (old.id,)).fetchone()
        before = {k: v for k, v in json.loads(setup).items() if k != "book"}
        db.execute("UPDATE tables SET setup = ? WHERE id = ?", (json.dumps(before), old.id))
    again = Services.build(services.settings, services.data)
    try:
        assert again.hub.store.table(old.id).setup["book"] == \
            again.hub.get(old.id).session.rules.rule_book.packaged()
    finally:
        again.close()


def test_a_host_link_is_never_made_with_a_key_the_service_did_not_make(
        services: Any, tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """`companion tables host` only reads: with no key beside the tables it says what to do
    and makes none (a new key would log every phone out at the next start)."""
    import shutil

    from companion.cli import main

    made, _ = services.hub.create("gambit-6x6", ["Ann", "Ben"], {})
    services.close()
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(services.data / "tables.sqlite3", copy / "tables.sqlite3")
    assert main(["tables", "--data", str(copy)]) == 0
    assert made.id in capsys.readouterr().out
    assert main(["tables", "host", made.id, "--data", str(copy)]) == 2
    assert "start the companion once" in capsys.readouterr().err
    assert not (copy / "secret.key").exists()


def test_a_served_data_directory_is_private_and_its_host_link_names_the_port_served_on(
        tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """The database holds each table's PIN and seed (its deal): no other user of the machine
    may read it, even where the desktop's umask lets everyone read (only the Pi's unit set
    its own). And `./start.sh --port 8941` puts the port on a command line, not in the
    settings: `companion tables host` links to where the tables were last served."""
    import stat

    from companion.cli import main
    from tests.web.server import Client, Server

    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    data.chmod(0o755)  # as a desktop makes it
    server = Server(data, env={"COMPANION_CAMERA": "none"})
    server.start()
    try:
        status, made = Client(server).call("POST", "/api/tables",
                                           {"game": "gambit-6x6", "seats": ["A", "B"]})
        assert status == 201
    finally:
        server.stop()
    for path in [data, *data.glob("tables.sqlite3*"), data / "secret.key"]:
        assert stat.S_IMODE(path.stat().st_mode) & 0o007 == 0, path
    table = made["id"]
    assert main(["tables", "--data", str(data)]) == 0
    listed = capsys.readouterr().out
    assert f"1 open table(s) in {data} (served on port {server.port})" in listed
    assert "no move yet" in listed
    assert main(["tables", "host", table, "--data", str(data), "--no-qr"]) == 0
    assert f":{server.port}/t/{table}?host=" in capsys.readouterr().out
    assert main(["tables", "host", table, "--data", str(data), "--no-qr", "--port", "9"]) == 0
    assert f":9/t/{table}?host=" in capsys.readouterr().out


def test_the_service_serves_when_it_cannot_note_its_port(tmp_path: Any) -> None:
    """serving.json is a convenience for `companion tables host`: a full disk or a file left
    by another user there warns, and the companion serves."""
    from tests.web.server import Client, Server

    data = tmp_path / "data"
    (data / "serving.json" / "in-the-way").mkdir(parents=True)
    server = Server(data, env={"COMPANION_CAMERA": "none"})
    server.start()
    try:
        assert Client(server).call("GET", "/api/tables")[0] == 200
    finally:
        server.stop()
    assert "cannot note the port served on" in server.log.read_text()


def test_companion_tables_end_ends_a_table_left_behind_through_the_running_companion(
        tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """A café's operator ends a forgotten table from the companion's machine: every phone
    sees it end (the running companion ends it, as its host would), its log is kept, and
    with no companion serving it says so and changes nothing."""
    from companion.cli import main
    from tests.web.server import Client, Server

    data = tmp_path / "data"
    server = Server(data, env={"COMPANION_CAMERA": "none"})
    server.start()
    try:
        host = Client(server)
        _, made = host.call("POST", "/api/tables", {"game": "gambit-6x6", "seats": ["A", "B"],
                                                    "name": "Left behind"})
        assert main(["tables", "end", "nope", "--data", str(data)]) == 2
        assert "no table 'nope'" in capsys.readouterr().err
        assert main(["tables", "end", made["id"], "--data", str(data)]) == 0
        assert "Left behind has ended" in capsys.readouterr().out
        assert Client(server).call("GET", "/api/tables")[1] == []  # no longer open
        # ended by the companion's own host link: the phone that made it is host no more
        assert host.call("GET", f"/api/tables/{made['id']}/export")[0] == 403
        assert main(["tables", "end", made["id"], "--data", str(data)]) == 0
        assert "has already ended" in capsys.readouterr().out
        _, other = host.call("POST", "/api/tables", {"game": "gambit-6x6",
                                                     "seats": ["A", "B"]})
    finally:
        server.stop()
    assert main(["tables", "--all", "--data", str(data)]) == 0
    assert "ended" in capsys.readouterr().out
    assert main(["tables", "end", other["id"], "--data", str(data)]) == 2
    assert "no companion answers on port" in capsys.readouterr().err
    assert main(["tables", "--data", str(data)]) == 0
    assert other["id"] in capsys.readouterr().out  # still open: nothing changed
