"""The service reads pip dice once a roll settles, and a die the players confirm is kept for
the table's adaptation. The camera is a folder of recorded frames; the game is Burke's
Gambit, whose roll is made to take a pip die here (its own dice are taught dice, not d6s)."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from companion.engine import Action, DieFace
from companion.runtime.service import Services
from companion.settings import Settings
from companion.vision.adapt import ExampleStore
from companion.vision.zone import RollZone, save_zone
from companion.web import create_app
from tests.conftest import ROOT
from tests.web.conftest import SEATS, Phone

ROLL = ROOT / "fixtures" / "images" / "dice" / "ivory-red-pips-720p.jpg"
FACES = ("quarantine", "engine", "stall", "cancel", "reshuffle", "insta_kill")


def recorded(folder: Path, frames: int = 6) -> Path:
    folder.mkdir()
    for n in range(frames):  # the dice lie still: a settled roll
        shutil.copy(ROLL, folder / f"{n:04}.jpg")
    return folder


@pytest.fixture
def camera(tmp_path: Path) -> Iterator[Services]:
    built = Services.build(Settings(camera=str(recorded(tmp_path / "frames"))), tmp_path / "data")
    yield built
    built.close()


def burke_table(services: Services, monkeypatch: pytest.MonkeyPatch
                ) -> tuple[str, list[Phone]]:
    app = create_app(services, testing=True)
    host = Phone(app)
    created = host.post("/api/tables", {"game": "burkes-gambit", "seats": SEATS}).json
    base = f"/api/tables/{created['id']}"
    phones = [host, Phone(app), Phone(app), Phone(app)]
    for seat, phone in enumerate(phones):
        assert phone.post(f"{base}/join", {"pin": created["pin"], "seat": seat}).status_code \
            == 200
    host.post(f"{base}/actions", {"name": "end_heads_down", "seat": None, "params": {},
                                  "expect": host.get(base).json["version"]})
    rules = services.hub.get(created["id"]).session.rules

    def rolls_a_d6(state: Any, seen: Any) -> Sequence[Action]:
        if isinstance(seen, DieFace) and seen.kind == "d6" and state.die is None:
            return (Action("roll", state.turn, {"face": FACES[int(seen.value) - 1]}),)
        return ()

    monkeypatch.setattr(rules, "suggest", rolls_a_d6)
    return base, phones


def wait_for_roll(phone: Phone, base: str) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        camera = phone.get(base).json["camera"]
        if any(r["type"] == "roll" for r in camera["readings"]):
            return camera  # type: ignore[no-any-return]
        time.sleep(0.05)
    raise AssertionError("no roll from the camera")


def test_a_settled_roll_of_pip_dice_is_read_and_a_confirmed_die_is_kept(
        camera: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    base, phones = burke_table(camera, monkeypatch)
    phones[0].post(f"{base}/camera")
    camera.start()
    turn = phones[0].get(base).json["view"]["turn"]
    roller = phones[turn]
    seen = wait_for_roll(roller, base)
    truth = sorted(d["value"] for d in json.loads(ROLL.with_suffix(".json").read_text())["dice"])
    roll = next(r for r in seen["readings"] if r["type"] == "roll")
    assert sorted(d["value"] for d in roll["dice"] if d["kind"] == "d6") == truth
    # each value read is a one-tap roll for the seat to roll; the players take one
    offered = [FACES.index(s["action"]["face"]) + 1 for s in seen["suggestions"]]
    assert sorted(offered) == sorted(set(truth))
    once = [v for v in offered if truth.count(v) == 1]
    assert once, "the roll needs a value only one die shows"
    face = FACES[once[0] - 1]
    assert roller.post(f"{base}/actions", {"name": "roll", "seat": turn, "params": {
        "face": face}, "expect": roller.get(base).json["version"]}).status_code == 201
    assert ExampleStore(camera.data).counts() == {once[0]: 1}


def test_the_host_says_what_a_die_of_a_roll_really_was_and_the_last_word_is_kept(
        camera: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    base, phones = burke_table(camera, monkeypatch)
    host = phones[0]
    host.post(f"{base}/camera")
    camera.start()
    roll = next(r for r in wait_for_roll(host, base)["readings"] if r["type"] == "roll")
    store = ExampleStore(camera.data)
    teach = f"{base}/camera/dice-example"
    # refused, keeping nothing: not the host, a roll or die it does not have, a bad body
    for phone, body, status in (
            (phones[1], {"reading": roll["id"], "index": 0, "value": 0}, 403),
            (host, {"reading": roll["id"] + 1000, "index": 0, "value": 0}, 404),
            (host, {"reading": roll["id"], "index": len(roll["dice"]), "value": 0}, 404),
            (host, {"reading": roll["id"], "index": 0, "value": 7}, 400),
            (host, {"reading": roll["id"], "index": 0}, 400)):
        answer = phone.post(teach, body)
        assert answer.status_code == status, answer.json
        assert answer.json["message"]
    assert store.counts() == {}
    # a phantom die, said so: an example of "not a die"; then said again otherwise: one
    # example of that die, the last word
    said = host.post(teach, {"reading": roll["id"], "index": 0, "value": 0})
    assert said.status_code == 200 and "no die" in said.json["message"]
    assert store.counts() == {0: 1}
    said = host.post(teach, {"reading": roll["id"], "index": 0, "value": 3})
    assert said.json["message"].endswith("shows 3")
    assert store.counts() == {3: 1}
    host.post(teach, {"reading": roll["id"], "index": 1, "value": 0})
    assert store.counts() == {3: 1, 0: 1}


def test_nothing_outside_the_roll_zone_is_read(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    save_zone(tmp_path / "data", RollZone.from_points([(0.0, 0.0), (0.05, 0.05)]))
    built = Services.build(Settings(camera=str(recorded(tmp_path / "frames"))),
                           tmp_path / "data")
    try:
        base, phones = burke_table(built, monkeypatch)
        host = phones[0]
        host.post(f"{base}/camera")
        built.start()
        time.sleep(3)  # every frame read by now
        assert built.camera.frames >= 6
        assert [r for r in host.get(base).json["camera"]["readings"] if r["type"] == "roll"] \
            == []
    finally:
        built.close()


def test_a_table_whose_game_rolls_no_dice_reads_none(tmp_path: Path) -> None:
    """Captain's Gambit rolls no dice: its settled frames spend no time on them, and the
    dice in view (a token, a coin at a real table) are never shown as a roll."""
    built = Services.build(Settings(camera=str(recorded(tmp_path / "frames"))),
                           tmp_path / "data")
    try:
        app = create_app(built, testing=True)
        host = Phone(app)
        created = host.post("/api/tables", {"game": "captains-gambit", "seats": SEATS}).json
        base = f"/api/tables/{created['id']}"
        assert host.post(f"{base}/join", {"pin": created["pin"], "seat": 0}).status_code == 200
        assert host.post(f"{base}/camera").status_code == 200
        built.start()
        deadline = time.monotonic() + 30
        while built.camera.frames < 6 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1)  # the last frame read too
        assert built.camera.frames >= 6
        camera = host.get(base).json["camera"]
        assert [r for r in camera["readings"] if r["type"] == "roll"] == []
    finally:
        built.close()


def test_the_host_adapts_the_reader_or_is_told_why_not(tmp_path: Path) -> None:
    from companion.runtime.tables import Actor, TableError
    from companion.vision.adapt import confirmed_values, example_crop, head_path
    from companion.vision.images import load_image

    built = Services.build(Settings(), tmp_path)
    try:
        with pytest.raises(TableError, match="only the host"):
            built.camera.adapt_dice(Actor(seat=1))
        with pytest.raises(TableError, match="too few to learn from.*nothing changed"):
            built.camera.adapt_dice(Actor(host=True))
        # the table's confirmed dice: every die of the rendered photos, as read
        assert built.camera.dice is not None and built.camera.dice.pips is not None
        store, reader = ExampleStore(tmp_path), built.camera.dice.pips
        for path in sorted(ROLL.parent.glob("*.jpg")):
            image = load_image(path)
            truth = [(d["value"], d["box"])
                     for d in json.loads(path.with_suffix(".json").read_text())["dice"]]
            found = reader.read(image, thorough=True)
            for die, value in zip(found, confirmed_values(found, truth), strict=True):
                store.add(example_crop(reader, image, die.box), value)
        message = built.camera.adapt_dice(Actor(host=True))
        adapted = message.endswith(": adapted")
        assert "each checked by a correction learned without it" in message
        assert head_path(tmp_path).exists() == adapted
        assert built.camera.adapt_dice(Actor(host=True), rollback=True) == (
            "rolled back to the shipped reader" if adapted
            else "the shipped reader is in use already: nothing to roll back")
        assert not head_path(tmp_path).exists()
    finally:
        built.close()
