"""The camera and the narrator in the loop, through the API. The camera is a recorded session
(fixtures/frames); the speaker, where one is needed, is a WAV file. Speech is real espeak-ng."""

from __future__ import annotations

import time
import wave
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion.narration.wav import WavWriter
from companion.runtime.service import Services
from companion.settings import Settings
from companion.web import create_app
from tests.conftest import ROOT
from tests.web.conftest import SEATS, Phone

SHOWS_OVERCHARGE = ROOT / "fixtures" / "frames" / "shows-overcharge"


@pytest.fixture
def camera_services(tmp_path: Path) -> Iterator[Services]:
    built = Services.build(Settings(camera=str(SHOWS_OVERCHARGE)), tmp_path)
    yield built
    built.close()


def seated(app: Flask, dealt_by_hand: bool = False) -> tuple[str, list[Phone]]:
    host = Phone(app)
    created = host.post("/api/tables", {"game": "captains-gambit", "seats": SEATS,
                                        "dealt_by_hand": dealt_by_hand}).json
    base = f"/api/tables/{created['id']}"
    phones = [host, Phone(app), Phone(app), Phone(app)]
    for seat, phone in enumerate(phones):
        assert phone.post(f"{base}/join", {"pin": created["pin"], "seat": seat}).status_code == 200
    return base, phones


def act(phone: Phone, base: str, name: str, seat: int | None, **params: Any) -> Any:
    version = phone.get(base).json["version"]
    response = phone.post(f"{base}/actions", {"name": name, "seat": seat, "params": params,
                                              "expect": version})
    assert response.status_code == 201, response.json
    return response.json


def test_a_permit_shown_to_the_camera_becomes_a_one_tap_suggestion(
        camera_services: Services) -> None:
    app = create_app(camera_services, testing=True)
    base, phones = seated(app, dealt_by_hand=True)  # real cards: the companion knows none
    act(phones[0], base, "end_prologue", None)
    act(phones[0], base, "overcharge", 0, via="claim")
    act(phones[1], base, "call_bluff", 1)  # Ben calls Ann's bluff: Ann must show Overcharge

    assert phones[0].post(f"{base}/camera").status_code == 200  # the host points the camera
    assert phones[1].post(f"{base}/camera").status_code == 403
    camera_services.start()
    deadline = time.monotonic() + 20
    suggestions: list[Any] = []
    while time.monotonic() < deadline and not suggestions:
        suggestions = phones[0].get(base).json["camera"]["suggestions"]
        time.sleep(0.05)
    assert suggestions == [{"card": "Overcharge 2/4", "action": {
        "action": "show_permit", "seat": 0}, "text": "Ann shows an Overcharge permit"}]
    # Only the phone of the seat that would act is offered it.
    for phone in phones[1:]:
        seen = phone.get(base).json["camera"]
        assert seen["suggestions"] == [] and seen["readings"][0]["card"] == \
            "CG/PERMIT/OVERCHARGE/2"
        assert "note" not in seen["readings"][0]  # it means something: no "ignored"
    snapshot = phones[2].get(f"{base}/camera.jpg")
    assert snapshot.mimetype == "image/jpeg" and snapshot.data[:2] == b"\xff\xd8"

    # One tap (and the confirm): the suggested action, as any action, through the rules.
    done = act(phones[0], base, "show_permit", 0)
    assert "Overcharge" in done["record"]["text"]
    assert phones[0].get(base).json["camera"]["suggestions"] == []  # no longer fits


def test_a_card_that_means_nothing_now_suggests_nothing(camera_services: Services) -> None:
    app = create_app(camera_services, testing=True)
    base, phones = seated(app, dealt_by_hand=True)
    act(phones[0], base, "end_prologue", None)  # no bluff call: Overcharge means nothing
    phones[0].post(f"{base}/camera")
    camera_services.start()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not phones[0].get(base).json["camera"]["readings"]:
        time.sleep(0.05)
    assert phones[0].get(base).json["camera"]["readings"]
    for phone in phones:
        seen = phone.get(base).json["camera"]
        assert seen["suggestions"] == []
        assert seen["readings"][0]["note"] == "nothing to do with it now: ignored"


def _readings_on_cats_phone(services: Services, hand: list[str]) -> dict[str, Any]:
    """Ann claims Overcharge with ``hand`` (told privately), Ben calls it, and an Overcharge
    card lies under the camera: what Cat's phone shows of it."""
    app = create_app(services, testing=True)
    base, phones = seated(app, dealt_by_hand=True)
    act(phones[0], base, "permits_seen", 0, permits=hand)
    act(phones[0], base, "end_prologue", None)
    act(phones[0], base, "overcharge", 0, via="claim")
    act(phones[1], base, "call_bluff", 1)
    phones[0].post(f"{base}/camera")
    services.start()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not phones[2].get(base).json["camera"]["readings"]:
        time.sleep(0.05)
    own = phones[0].get(base).json["camera"]["suggestions"]
    return {"cat": phones[2].get(base).json["camera"], "ann_offered": bool(own)}


@pytest.mark.parametrize("holds", [True, False])
def test_a_card_reading_tells_no_other_phone_whether_a_claim_was_true(
        tmp_path: Path, holds: bool) -> None:
    """Whether Ann may show Overcharge hangs on her hand: only her phone may learn it (it had
    been written on every phone as "ignored" when she had bluffed)."""
    services = Services.build(Settings(camera=str(SHOWS_OVERCHARGE)), tmp_path)
    try:
        seen = _readings_on_cats_phone(services,
                                       ["overcharge", "shield"] if holds else ["barrage", "shield"])
    finally:
        services.close()
    assert seen["ann_offered"] is holds
    assert seen["cat"]["suggestions"] == []
    assert "note" not in seen["cat"]["readings"][0]


def test_a_private_input_passes_no_reading_by(camera_services: Services) -> None:
    """A reading goes stale when the table changes; a private input must not make it so on
    every phone at once (that would show someone had just told the companion a secret)."""
    app = create_app(camera_services, testing=True)
    base, phones = seated(app, dealt_by_hand=True)
    act(phones[0], base, "end_prologue", None)  # Overcharge means nothing now: "ignored"
    phones[0].post(f"{base}/camera")
    camera_services.start()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not phones[2].get(base).json["camera"]["readings"]:
        time.sleep(0.05)
    camera_services.camera.stop()  # no newer reading from here on
    before = phones[2].get(base).json["camera"]["readings"]
    assert before[0]["note"] == "nothing to do with it now: ignored"
    act(phones[1], base, "captain_seen", 1, captain="puck")  # Ben's private input
    assert phones[2].get(base).json["camera"]["readings"] == before
    act(phones[0], base, "charge", phones[0].get(base).json["view"]["turn"])  # a public one
    assert "note" not in phones[2].get(base).json["camera"]["readings"][0]


def test_no_camera_is_a_status_not_an_error(tmp_path: Path) -> None:
    services = Services.build(Settings(camera=str(tmp_path / "nothing-here")), tmp_path)
    try:
        app = create_app(services, testing=True)
        base, phones = seated(app)
        phones[0].post(f"{base}/camera")
        services.start()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and services.camera.status["source"] is None:
            time.sleep(0.05)
        seen = phones[0].get(base).json["camera"]
        assert seen["ok"] is False and "not a folder of images or a video" in seen["message"]
        assert phones[0].get(f"{base}/camera.jpg").status_code == 404
        assert phones[0].get(base).status_code == 200  # the service goes on
    finally:
        services.close()


def test_with_no_speaker_the_prologue_plays_on_the_hosts_phone(services: Services,
                                                               app: Flask,
                                                               monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    import sounddevice

    monkeypatch.setattr(sounddevice, "query_devices", lambda: [])
    base, phones = seated(app)
    assert phones[1].get(base).json["narration"]["phases"] == {"prologue": "the Prologue"}
    refused = phones[1].post(f"{base}/narration", {"start": "prologue"})
    assert (refused.status_code, refused.json["error"]) == (403, "host_only")
    started = phones[0].post(f"{base}/narration", {"start": "prologue"})
    assert started.status_code == 200, started.json
    status = started.json
    assert status["state"] == "on_phone" and status["wav"].endswith("/narration.wav")
    assert status["cues"][0] == {"start": 0.0, "spoken": False}  # the lead-in
    audio = phones[0].get(status["wav"])
    assert audio.mimetype == "audio/wav" and audio.data[:4] == b"RIFF"
    audio.close()
    path = services.data / "narration"
    with wave.open(str(next(path.glob("*.wav"))), "rb") as wav:
        assert wav.getnframes() > 20 * wav.getframerate()
    refused_audio = phones[1].get(status["wav"])
    assert refused_audio.status_code == 403
    assert "wav" not in phones[1].get(base).json["narration"]  # only the host's phone plays it
    steer = phones[0].post(f"{base}/narration", {"command": "pause"})
    assert (steer.status_code, steer.json["error"]) == (409, "not_playing")


def test_on_the_speaker_the_phones_steer_it(services: Services, app: Flask,
                                            tmp_path: Path) -> None:
    class SlowWav(WavWriter):
        """The speaker, replaced by a WAV file that takes blocks at the speed of sound."""

        def write(self, block: Any) -> None:
            time.sleep(len(block) / self.rate)
            super().write(block)

    services.narration.narrator.open_output = (  # type: ignore[method-assign]
        lambda device=None: SlowWav(tmp_path / "speaker.wav"))
    base, phones = seated(app)
    started = phones[0].post(f"{base}/narration", {"start": "prologue"}).json
    assert started["state"] == "playing" and started["phase"] == "prologue"
    busy = phones[0].post(f"{base}/narration", {"start": "prologue"})
    assert (busy.status_code, busy.json["error"]) == (409, "busy")
    player = phones[2].post(f"{base}/narration", {"command": "skip"})  # eyes open: heard
    assert (player.status_code, player.json["error"]) == (403, "host_only")
    assert phones[0].post(f"{base}/narration", {"command": "pause"}).json["state"] == "paused"
    assert phones[3].get(base).json["narration"]["state"] == "paused"
    assert phones[0].post(f"{base}/narration", {"command": "resume"}).json["state"] == "playing"
    bad = phones[0].post(f"{base}/narration", {"command": "louder"})
    assert bad.status_code == 400
    phones[0].post(f"{base}/narration", {"command": "stop"})
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and \
            phones[0].get(base).json["narration"]["state"] != "finished":
        time.sleep(0.05)
    assert phones[0].get(base).json["narration"]["state"] == "finished"


def test_a_stranger_cannot_take_the_camera_from_a_game(camera_services: Services) -> None:
    app = create_app(camera_services, testing=True)
    base, phones = seated(app)
    assert phones[0].post(f"{base}/camera").status_code == 200
    camera_services.start()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not phones[0].get(base).json["camera"]["readings"]:
        time.sleep(0.05)
    stranger_base, stranger = seated(app)  # anyone may make a table of their own
    taken = stranger[0].post(f"{stranger_base}/camera")
    assert (taken.status_code, taken.json["error"]) == (409, "camera_in_use")
    assert stranger[0].get(f"{stranger_base}/camera.jpg").status_code == 404
    assert phones[0].get(base).json["camera"]["attached"] is True
    # The host lets it go: now the other table may have it, without this table's readings.
    assert phones[0].post(f"{base}/camera", {"use": False}).status_code == 200
    assert stranger[0].post(f"{stranger_base}/camera").status_code == 200
    assert stranger[0].get(stranger_base).json["camera"]["readings"] == []


ROLLS_QUARANTINE = ROOT / "fixtures" / "frames" / "rolls-quarantine"
TEACH = ROOT / "fixtures" / "images" / "taught" / "teach"


def teach_burke_dice(data: Path) -> None:
    from companion.cli import main

    for face in sorted({p.name.rsplit("-", 1)[0] for p in TEACH.glob("*.jpg")}):
        assert main(["dice", "teach", "burke", "--face", face,
                     *map(str, sorted(TEACH.glob(f"{face}-*.jpg"))), "--data", str(data)]) == 0


@pytest.fixture
def dice_services(tmp_path: Path) -> Iterator[Services]:
    teach_burke_dice(tmp_path)
    built = Services.build(Settings(camera=str(ROLLS_QUARANTINE)), tmp_path)
    yield built
    built.close()


def burke_table(app: Flask) -> tuple[str, list[Phone]]:
    host = Phone(app)
    created = host.post("/api/tables", {"game": "burkes-gambit", "seats": SEATS}).json
    base = f"/api/tables/{created['id']}"
    phones = [host, Phone(app), Phone(app), Phone(app)]
    for seat, phone in enumerate(phones):
        assert phone.post(f"{base}/join", {"pin": created["pin"], "seat": seat}).status_code == 200
    act(host, base, "end_heads_down", None)
    return base, phones


def wait_for(phone: Phone, base: str, key: str) -> dict[str, Any]:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        camera = phone.get(base).json["camera"]
        if camera[key]:
            return camera  # type: ignore[no-any-return]
        time.sleep(0.05)
    raise AssertionError(f"no {key} from the camera")


def test_a_rolled_burke_die_becomes_the_turn_players_roll(dice_services: Services) -> None:
    app = create_app(dice_services, testing=True)
    base, phones = burke_table(app)
    turn = phones[0].get(base).json["view"]["turn"]
    phones[0].post(f"{base}/camera")
    dice_services.start()
    camera = wait_for(phones[turn], base, "suggestions")
    assert camera["suggestions"] == [{"card": "QUARANTINE", "action": {
        "action": "roll", "seat": turn, "face": "quarantine"},
        "text": f"{SEATS[turn]} rolled Quarantine"}]
    others = [p for i, p in enumerate(phones) if i != turn]
    assert all(p.get(base).json["camera"]["suggestions"] == [] for p in others)
    act(phones[turn], base, "roll", turn, face="quarantine")  # the tap, confirmed
    seen = phones[turn].get(base).json
    assert {"key": "die", "label": "Die rolled", "value": "Quarantine"} in seen["view"]["facts"]
    # One die, one roll: the reading that was used suggests nothing more (not a reroll, not
    # the next player's roll).
    assert seen["camera"]["suggestions"] == []
    assert "note" not in seen["camera"]["readings"][0]


def test_a_die_when_no_roll_is_expected_is_ignored_with_a_notice(
        dice_services: Services) -> None:
    app = create_app(dice_services, testing=True)
    host = Phone(app)
    created = host.post("/api/tables", {"game": "burkes-gambit", "seats": SEATS}).json
    base = f"/api/tables/{created['id']}"
    host.post(f"{base}/join", {"pin": created["pin"], "seat": 0})
    host.post(f"{base}/camera")  # heads down: nobody rolls yet
    dice_services.start()
    camera = wait_for(host, base, "readings")
    assert camera["readings"][0]["note"] == "no roll is expected now: ignored"
    assert camera["suggestions"] == [] and host.get(base).json["version"] == 0


def test_engine_power_ups_are_announced_on_the_speaker(services: Services, app: Flask,
                                                       tmp_path: Path) -> None:
    speakers: list[Path] = []

    def recording_speaker(device: object = None) -> WavWriter:
        speakers.append(tmp_path / f"speaker-{len(speakers)}.wav")
        return WavWriter(speakers[-1])

    services.narration.narrator.open_output = recording_speaker  # type: ignore[method-assign]
    base, phones = burke_table(app)
    turn = phones[0].get(base).json["view"]["turn"]
    act(phones[turn], base, "roll", turn, face="engine")
    deadline = time.monotonic() + 10
    cache = services.narration.narrator.renderer.cache
    while time.monotonic() < deadline and not (speakers and cache.path(
            "Engines at 1 of 3.").exists() and _closed(speakers[0])):
        time.sleep(0.05)
    assert cache.path("Engines at 1 of 3.").exists()  # what was said
    with wave.open(str(speakers[0]), "rb") as spoken:  # and that it reached the speaker
        samples = spoken.readframes(spoken.getnframes())
    assert max(abs(int.from_bytes(samples[i:i + 2], "little", signed=True))
               for i in range(0, len(samples), 2)) > 8000
    act(phones[(turn + 1) % 4], base, "roll", (turn + 1) % 4, face="id_check")
    version = phones[0].get(base).json["version"]
    assert phones[0].post(f"{base}/undo", {"expect": version}).status_code == 200
    time.sleep(0.5)
    assert len(speakers) == 1  # nothing else is announced, not even after the undo


def _closed(path: Path) -> bool:
    try:
        with wave.open(str(path), "rb") as done:
            return done.getnframes() > 0
    except (EOFError, wave.Error):
        return False


def test_the_heads_down_phase_is_started_from_the_dashboard(services: Services, app: Flask,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    import sounddevice

    monkeypatch.setattr(sounddevice, "query_devices", lambda: [])
    host = Phone(app)
    created = host.post("/api/tables", {"game": "burkes-gambit", "seats": SEATS}).json
    base = f"/api/tables/{created['id']}"
    host.post(f"{base}/join", {"pin": created["pin"], "seat": 0})
    seen = host.get(base).json
    assert seen["view"]["phase"] == "heads_down"
    assert seen["narration"]["phases"] == {"heads-down": "heads down"}
    started = host.post(f"{base}/narration", {"start": "heads-down"}).json
    assert started["state"] == "on_phone" and started["phase"] == "heads-down"
    spoken = sum(1 for cue in started["cues"] if cue["spoken"])
    from tests.narration.scripts import head_down

    assert spoken == len(head_down().lines)


def test_each_table_keeps_its_own_narration_and_one_file(services: Services, app: Flask,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """A stranger's table starting its narration neither stops nor replaces another's; a
    table keeps one narration file, gone when the table ends."""
    import sounddevice

    monkeypatch.setattr(sounddevice, "query_devices", lambda: [])  # no speaker: on the phone
    tables = []
    for _ in range(2):
        host = Phone(app)
        created = host.post("/api/tables", {"game": "burkes-gambit", "seats": SEATS}).json
        tables.append((host, f"/api/tables/{created['id']}", created["id"]))
    folder = services.data / "narration"
    (host_a, base_a, id_a), (host_b, base_b, id_b) = tables

    def wav(host: Phone, base: str) -> int:
        response = host.get(f"{base}/narration.wav")
        response.close()  # a file response holds the file open until closed
        return int(response.status_code)

    assert host_a.post(f"{base_a}/narration", {"start": "heads-down"}).status_code == 200
    assert host_b.post(f"{base_b}/narration", {"start": "heads-down"}).status_code == 200
    assert host_a.get(base_a).json["narration"]["state"] == "on_phone"
    assert wav(host_a, base_a) == 200 and wav(host_b, base_b) == 200
    assert host_a.post(f"{base_a}/narration", {"start": "heads-down"}).status_code == 200
    assert sorted(p.name for p in folder.glob("*.wav")) == sorted(
        [f"table-{id_a}.wav", f"table-{id_b}.wav"])  # started again: the same one file
    assert host_a.post(f"{base_a}/end", {}).status_code == 200
    assert [p.name for p in folder.glob("*.wav")] == [f"table-{id_b}.wav"]
    assert wav(host_a, base_a) == 404 and wav(host_b, base_b) == 200
    # Phones still looking at the ended table must not make the service keep it again.
    assert host_a.get(base_a).json["narration"]["phases"] == {}
    narration = services.narration
    assert id_a not in narration._phases and id_a not in narration._said  # noqa: SLF001
    assert id_b in narration._phases


def test_files_of_tables_no_longer_open_are_removed_at_start(tmp_path: Path) -> None:
    from companion.settings import Settings

    folder = tmp_path / "narration"
    folder.mkdir()
    (folder / "0123abcd-prologue.wav").write_bytes(b"RIFF")  # an older version's file
    built = Services.build(Settings(), tmp_path)
    try:
        assert list(folder.glob("*.wav")) == []
    finally:
        built.close()


def test_the_host_teaches_the_camera_the_tables_dice_or_is_told_why_not(
        camera_services: Services) -> None:
    app = create_app(camera_services, testing=True)
    base, phones = seated(app)
    adapt = f"{base}/camera/dice-adapt"
    refused = phones[0].post(adapt, {})
    assert refused.status_code == 409 and "not watching this table" in refused.json["message"]
    assert phones[0].get(base).json["camera"]["can_adapt"] is False
    phones[0].post(f"{base}/camera")
    assert phones[0].get(base).json["camera"]["can_adapt"] is True
    assert phones[1].get(base).json["camera"]["can_adapt"] is False
    assert phones[1].post(adapt, {}).status_code == 403  # only the host
    assert phones[0].post(adapt, {"rollback": "yes"}).status_code == 400
    few = phones[0].post(adapt, {})  # no die confirmed yet
    assert few.status_code == 409 and "nothing changed" in few.json["message"]
    back = phones[0].post(adapt, {"rollback": True})
    assert back.status_code == 200 and "nothing to roll back" in back.json["message"]


def test_the_service_keeps_one_malloc_arena_on_glibc() -> None:
    """Measured by bench_soak.py: with an arena per thread the resident memory of a long
    evening crept up twice as much. In a child process, as it changes the allocator."""
    import platform
    import subprocess
    import sys

    if platform.libc_ver()[0] != "glibc":
        pytest.skip("mallopt is glibc's")
    code = ("from companion.runtime.service import one_malloc_arena;"
            "import sys; sys.exit(0 if one_malloc_arena() is True else 1)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_an_ended_table_leaves_nothing_in_the_cameras_books(camera_services: Services) -> None:
    app = create_app(camera_services, testing=True)
    base, phones = seated(app, dealt_by_hand=True)
    act(phones[0], base, "end_prologue", None)
    table_id = base.rsplit("/", 1)[1]
    camera = camera_services.camera
    assert table_id in camera._acted and table_id in camera._history_length
    assert phones[0].post(f"{base}/end").status_code == 200
    assert table_id not in camera._acted and table_id not in camera._history_length
