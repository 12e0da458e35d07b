"""The camera in the service: one camera per companion, watched on its own thread, its stable
readings offered to the table it is attached to as suggested actions that a player confirms.

Nothing the camera reads is ever applied by itself: a reading becomes a suggestion only when
the game says what it may stand for now (GameRules.suggest) and the rules would accept it, and
only the phone of the seat that would act sees it. A board's stable reading is compared with
the table's position (board_moves.py): the move it shows is offered to the seat that made it,
and what the camera sees wrong on a board (an illegal move and the rule it breaks, a sticker
of another game, a board it cannot place) is shown on every phone.

Dice are read once a roll has settled (vision/motion.py): pip dice in the table's roll zone,
with the reader adapted to this table, and the taught dice. A pip die the reader is unsure of
is offered with every value it could show (the phone asks). A suggestion taken from a roll is
a die the players confirmed (or, taken for another value, corrected): kept as an example
for `companion dice adapt` (vision/adapt.py).
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.devices.camera import Camera
from companion.engine import (
    Action,
    Component,
    DieFace,
    InvalidPayloadError,
    RulesError,
    UnknownComponentError,
    parse_payload,
)
from companion.runtime.board_moves import BoardCheck, check_boards
from companion.runtime.camera_loop import ReadDice, watch
from companion.runtime.tables import Actor, LiveTable, TableError, TableHub
from companion.settings import models_dir
from companion.vision.board_photo import scored
from companion.vision.board_watch import BoardWatch
from companion.vision.images import Image, encode_jpeg
from companion.vision.motion import SettleGate
from companion.vision.qr import CodeReading
from companion.vision.tracker import UNSURE, DieReading

if TYPE_CHECKING:
    from companion.vision.dice import DiceReader
    from companion.vision.zone import EmptyReference, RollZone

log = logging.getLogger(__name__)

FRESH_SECONDS = 120.0  # a reading older than this suggests nothing any more
KEEP = 20  # readings shown on the camera tab


class TableDice:
    """The dice this companion reads in a settled frame: pip dice (the shipped reader with
    this table's adaptation, in its roll zone: corner stickers seen in the frame, else the
    stored zone) and the taught dice (``companion dice teach``). Files that cannot be read
    are logged and left out; the rest still reads."""

    def __init__(self, data: Path) -> None:
        from companion.vision.taught import TeachError, load, taught_names

        self.data = data
        self.taught = []
        for name in taught_names(data):
            try:
                self.taught.append(load(data, name))
            except TeachError as exc:  # one damaged model must not keep the others out
                log.error("taught dice %r not loaded: %s", name, exc)
        self.pips: DiceReader | None = None
        self.zone: RollZone | None = None
        self.empty: EmptyReference | None = None
        self._seen: list[float] = []
        self.reload()

    def _files(self) -> list[float]:
        """When the adapted reader, the zone and its empty picture last changed (0: none)."""
        from companion.vision.adapt import head_path
        from companion.vision.zone import reference_path, zone_path

        paths = (head_path(self.data), zone_path(self.data), reference_path(self.data))
        return [p.stat().st_mtime if p.exists() else 0.0 for p in paths]

    def reload(self) -> None:
        """Read the adapted reader, the zone and the empty zone's picture again (`companion
        dice adapt` or `zone` changed them)."""
        from companion.vision.adapt import AdaptError, load_head
        from companion.vision.dice import DiceReader, ModelMissingError
        from companion.vision.zone import ZoneError, load_reference, load_zone

        self._seen = self._files()
        try:
            if self.pips is None:
                self.pips = DiceReader(models_dir() / "dice")
            self.pips.use_head(load_head(self.data))
        except (ModelMissingError, AdaptError, ValueError) as exc:
            log.error("pip dice: %s", exc)
        try:
            self.zone, self.empty = load_zone(self.data), load_reference(self.data)
        except ZoneError as exc:
            log.error("roll zone: %s", exc)

    def __call__(self, frame: Image, codes: list[CodeReading]) -> list[DieReading]:
        from companion.vision.scan import read_all_dice
        from companion.vision.zone import zone_from_codes

        if self._files() != self._seen:
            self.reload()
        zone = zone_from_codes(codes, frame.shape[1], frame.shape[0]) or self.zone
        return read_all_dice(frame, self.pips, self.taught, codes=codes, zone=zone,
                             empty=self.empty)

    def crop(self, frame: Image, box: Any) -> Image | None:
        """A pip die's crop as the classifier sees it (an example), or None without pips."""
        from companion.vision.adapt import example_crop

        return None if self.pips is None else example_crop(self.pips, frame, box)


class CameraService:
    def __init__(self, hub: TableHub, open_camera: Callable[[], Camera] | None,
                 read_dice: ReadDice | None = None, data: Path | None = None) -> None:
        self.hub = hub
        self._open = open_camera
        # The service reads its table's dice (pip and taught) from the data directory; with
        # no camera it loads no reader (onnxruntime and the models: about 40 MB).
        self.dice = TableDice(data) if data is not None and open_camera is not None else None
        self._read_dice = read_dice or self.dice
        self._dice_wanted = True  # the attached table's game rolls real dice (or none attached)
        self.status: dict[str, Any] = {"ok": False, "source": None,
                                       "message": "no camera configured"}
        self.readings: deque[dict[str, Any]] = deque(maxlen=KEEP)
        self.table_id: str | None = None
        self._frame: Any = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._reading_ids = itertools.count(1)  # the host names a roll's die by its reading
        self.frames = 0
        # When each table last changed: a reading older than that has been used, or passed by
        # (one die, one roll), so it suggests nothing any more.
        self._acted: dict[str, float] = {}
        self._history_length: dict[str, int] = {}  # each table's log length when it last changed
        # Boards: what to look for (the attached table's game), the last stable reading of
        # each, what is in view, and the comparison with the table (kept per table version).
        self.boards = BoardWatch()
        self.board_readings: dict[str, dict[str, Any]] = {}
        self.boards_seen: dict[str, Any] = {"boards": [], "problems": []}
        self._checks: tuple[tuple[Any, ...], list[BoardCheck], dict[str, Any]] | None = None
        self._positions: dict[str, dict[str, str]] = {}  # each board's marks, as the table has
        self._position_changed: dict[str, float] = {}  # when each last changed
        hub.on_change(self._table_changed)
        hub.on_end(self._table_ended)

    def _table_ended(self, table: LiveTable) -> None:
        self._acted.pop(table.id, None)  # kept per table: a café's day of tables would pile up
        self._history_length.pop(table.id, None)

    def _table_changed(self, table: LiveTable) -> None:
        # A roll's suggestion taken is its die confirmed (or, for another value, corrected).
        for reading in self.readings if self.table_id == table.id else []:
            if reading["type"] == "roll" and self._fresh(table, reading):
                self._keep_confirmed(table, reading)
        if table.ended:
            return  # nothing more to suggest at it (its books were cleared at its end)
        history = table.session.history
        before = self._history_length.get(table.id)
        self._history_length[table.id] = len(history)
        # A private input passes no reading by: its readings going stale on every phone at
        # once would tell the table that someone had just told the companion a secret.
        if not (before is not None and len(history) == before + 1 and history[-1].private):
            self._acted[table.id] = time.time()
        if table.id == self.table_id:
            self._note_positions(table)

    def _remember_roll(self, reading: dict[str, Any]) -> None:
        """Keep what a roll's pip dice look like (the frame is gone by the time a player
        confirms them, or the host says what one really was), and which value each action
        the roll suggests stands for now at the table the camera watches."""
        with self._lock:
            frame = self._frame
        if self.dice is None or frame is None:
            return
        crops = {i: self.dice.crop(frame, die["box"])
                 for i, die in enumerate(reading.get("dice", []))
                 if die["kind"] in ("d6", UNSURE)}
        values: dict[str, int] = {}
        try:
            table = self.hub.get(self.table_id) if self.table_id is not None else None
        except TableError:
            table = None
        if table is not None:
            with table.lock:
                session = table.session
                for value in range(1, 7):
                    for action in session.rules.suggest(session.state, DieFace("d6", value)):
                        values.setdefault(str(action.to_dict()), value)
        reading["_examples"] = crops, values

    def _keep_confirmed(self, table: LiveTable, reading: dict[str, Any]) -> None:
        """The action just taken, if a roll's die stood for it: that die, with the value the
        players took, is an example (the die read with that value; or, when the roll had
        one pip die, that die, read otherwise or unsure: a correction)."""
        from companion.vision.adapt import AdaptError

        crops, values = reading.get("_examples", ({}, {}))
        if not table.session.history or self.dice is None:
            return
        value = values.get(str(table.session.history[-1].action.to_dict()))
        if value is None:
            return
        dice = reading.get("dice", [])
        read_so = [i for i in crops if dice[i]["value"] == value]
        chosen = read_so if len(read_so) == 1 else list(crops) if len(crops) == 1 else []
        if len(chosen) != 1 or crops[chosen[0]] is None:
            return  # which die the players meant cannot be told
        try:
            self._keep_example(reading, chosen[0], value)
        except AdaptError as exc:  # a full disk costs an example, never the game
            log.error("dice example not kept: %s", exc)

    def _keep_example(self, reading: dict[str, Any], die: int, label: int) -> None:
        """Keep one die of a roll as an example: one per die, the last word on it kept (the
        host's correction replaces what the players' confirmation kept)."""
        from companion.vision.adapt import ExampleStore

        assert self.dice is not None
        kept = reading.setdefault("_kept", {})
        path = ExampleStore(self.dice.data).add(reading["_examples"][0][die], label)
        if die in kept:
            kept[die].unlink(missing_ok=True)
        kept[die] = path

    def _fresh(self, table: LiveTable, reading: dict[str, Any]) -> bool:
        return bool(not table.ended and time.time() - reading["at"] <= FRESH_SECONDS
                    and reading["at"] > self._acted.get(table.id, 0.0))

    # --- the watching thread ------------------------------------------------------------
    def start(self) -> None:
        if self._open is None or self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

    def _keep_frame(self, frame: Any) -> None:
        with self._lock:
            self._frame = frame
            self.frames += 1
        if self._stop.is_set():
            raise _Stopped

    def _run(self) -> None:
        assert self._open is not None
        try:
            camera = self._open()
        except Exception as exc:  # a bad camera setting: shown as the camera's status
            self.status = {"ok": False, "source": None, "message": str(exc)}
            log.error("camera: %s", exc)
            return
        settle = SettleGate(self.dice.zone if self.dice else None)
        try:
            for report in watch(camera, read_dice=self._read_table_dice, on_frame=self._keep_frame,
                                boards=self.boards, settle=settle, stop=self._stop):
                self._take(report)
                if self._stop.is_set():
                    break
        except _Stopped:
            pass
        except Exception:  # the camera thread must never take the service down
            log.exception("the camera loop stopped")
            self.status = {**self.status, "ok": False, "message": "the camera loop stopped"}
        finally:
            camera.close()

    def _read_table_dice(self, frame: Any, codes: list[CodeReading]) -> list[DieReading]:
        """The dice in a settled frame, at a table whose game rolls real dice (with no table
        attached too: the host checks the camera). A card game's table spends no time on
        them, and no coin or token there is shown as a roll."""
        if self._read_dice is None or not self._dice_wanted:
            return []
        return self._read_dice(frame, codes)

    def _take(self, report: dict[str, Any]) -> None:
        if report["type"] == "camera":
            self.status = {"ok": report["ok"], "source": report["source"],
                           "message": report["message"]}
            log.info("camera %s: %s", report["source"], report["message"])
        elif report["type"] in ("card", "roll"):
            reading = {**report, "at": time.time(), "id": next(self._reading_ids)}
            if report["type"] == "roll":
                # left to right as in the camera's picture: how the host finds a die on a phone
                reading["dice"] = sorted(report.get("dice", []),
                                         key=lambda d: float(d["box"][0]) + float(d["box"][2]) / 2)
                self._remember_roll(reading)
            self.readings.appendleft(reading)
            log.info("camera read %s", report.get("card") or report.get("payload")
                     or report.get("dice"))
        elif not self._take_board(report):
            return
        self._touch()

    def _touch(self) -> None:
        if self.table_id is None:
            return
        try:
            self.hub.get(self.table_id).touch()
        except TableError:  # the table is gone: nothing to tell
            self.table_id = None

    # --- what the phones get --------------------------------------------------------------
    def attach(self, table: LiveTable, actor: Actor, use: bool = True) -> None:
        """Point the camera at this table (or, `use` False, let it go). It stays with a table
        until that table's host lets it go or the table ends: a stranger who makes a table
        of their own cannot take it from a game in progress."""
        if not actor.host:
            raise TableError(403, "host_only", "only the host points the camera at a table")
        if not use:
            if self.table_id == table.id:
                self.table_id = None
                self.readings.clear()  # this table's readings are not the next table's
                self._look_for(None)
                table.touch()
            return
        if self.table_id not in (None, table.id):
            try:
                holder = self.hub.get(self.table_id)
            except TableError:
                holder = None
            if holder is not None and not holder.ended:
                raise TableError(409, "camera_in_use", f"the camera watches the table"
                                 f" {holder.stored.name!r}: its host can let it go, or end it")
        if self.table_id not in (None, table.id):
            self.readings.clear()  # what it saw at another table is not this table's business
        self.table_id = table.id
        self._look_for(table)
        table.touch()

    def snapshot_jpeg(self) -> bytes | None:
        with self._lock:
            frame = self._frame
        return None if frame is None else encode_jpeg(frame)

    def extras(self, table: LiveTable, actor: Actor) -> dict[str, Any]:
        attached = self.table_id == table.id
        readings = list(self.readings) if attached else []  # the camera thread adds to it
        # What each fresh reading stands for, worked out once for the list and the suggestions
        meanings = {id(r): self._meanings(table, r) for r in readings if self._fresh(table, r)}
        checks, seen = self._board_checks(table) if attached else ([], {})
        return {
            **self.status,
            "attached": attached,
            "configured": self._open is not None,
            "readings": [self._public(r, meanings) for r in readings],
            "suggestions": self._suggestions(table, actor, readings, meanings)
            + _board_suggestions(table, actor, checks),
            "boards": ({**self._boards_public(checks), **seen}
                       if attached and self.boards.looking else None),
            # the host may fit the pip reader to this table's confirmed dice (adapt_dice)
            "can_adapt": bool(attached and actor.host and self.dice is not None
                              and self.dice.pips is not None),
        }

    # --- boards ------------------------------------------------------------------------------
    def _look_for(self, table: LiveTable | None) -> None:
        """Look for the boards of the table's game (none without a table), and for dice
        unless its game rolls none."""
        self.boards.look_for(table.session.rules.physical_boards() if table else ())
        self._dice_wanted = table is None or table.session.rules.info.uses_dice
        self.board_readings.clear()
        self._checks = None
        self._positions.clear()
        self._position_changed.clear()
        if table is not None:
            self._note_positions(table)

    def _note_positions(self, table: LiveTable) -> None:
        """When each board's position last changed at the table: a reading from before that
        may not show the change yet (a move entered on a phone)."""
        with table.lock:
            rules, state = table.session.rules, table.session.state
            now = {b.shape: dict(b.marks) for b in rules.boards_in_play(state)}
        for shape, marks in now.items():
            if self._positions.get(shape, marks) != marks:
                self._position_changed[shape] = time.time()
        self._positions = now

    def _take_board(self, report: dict[str, Any]) -> bool:
        """Keep a board report; False for a report that is not a board's."""
        if report["type"] == "board":
            self.board_readings[report["board"]] = {**report, "at": time.time()}
            log.info("camera read board %s", report["board"])
        elif report["type"] == "boards_seen":
            self.boards_seen = {"boards": report["boards"], "problems": report["problems"]}
        else:
            return False
        return True

    def _board_checks(self, table: LiveTable) -> tuple[list[BoardCheck], dict[str, Any]]:
        """The boards read against the table's position, and what they show (each board's
        grid, and the game's score of them if it has one), worked out once per table
        version and reading."""
        readings = dict(self.board_readings)  # the camera thread replaces entries
        key = (table.id, table.version, tuple(sorted((k, r["at"]) for k, r in readings.items())))
        if self._checks is not None and self._checks[0] == key:
            return self._checks[1], self._checks[2]
        with table.lock:
            rules, state = table.session.rules, table.session.state
            checks = check_boards(rules, state, readings, self._position_changed)
        shapes = [s for s in rules.physical_boards() if s.name in readings]
        shown = scored(rules, shapes, {k: r["cells"] for k, r in readings.items()})
        seen = {"grids": shown["boards"], "sheet": shown["sheet"]}
        self._checks = (key, checks, seen)
        return checks, seen

    def _boards_public(self, checks: list[BoardCheck]) -> dict[str, Any]:
        """What every phone shows of the boards: which are in view, what keeps one from being
        read, and each board read against the table's position."""
        return {"in_view": list(self.boards_seen["boards"]),
                "problems": list(self.boards_seen["problems"]),
                "checks": [c.to_dict() for c in checks]}

    # --- the table's own pip reader (the host's) ----------------------------------------------
    def adapt_dice(self, actor: Actor, rollback: bool = False) -> str:
        """The host improves the pip reader from this companion's confirmed dice (or, with
        ``rollback``, goes back to the reader used before): what happened, in a sentence.
        Refused (too few examples, contradictory ones, a full disk) with a message, changing
        nothing."""
        from companion.vision import adapt

        if not actor.host:
            raise TableError(403, "host_only", "only the host adapts the dice reader")
        if self.dice is None or self.dice.pips is None:
            raise TableError(409, "no_pip_reader", "this companion reads no pip dice")
        try:
            if rollback:
                message = adapt.rollback(self.dice.data)
            else:
                result = adapt.adapt(self.dice.pips, adapt.ExampleStore(self.dice.data).examples())
                if result.head is not None:
                    adapt.save_head(self.dice.data, result.head)
                message = result.message
        except adapt.AdaptError as exc:
            raise TableError(409, "cannot_adapt", f"{exc}; nothing changed") from None
        self.dice.reload()
        return message

    def teach_die(self, actor: Actor, reading_id: int, die: int, label: int) -> str:
        """The host tells the pip reader what one die of a roll it read really shows (1 to 6),
        or that it is no die at all (0, a phantom die): kept as an example for
        ``adapt_dice``. Refused with a message (no such roll or die, a full disk), keeping
        nothing."""
        from companion.vision.adapt import NOT_A_DIE, AdaptError

        if not actor.host:
            raise TableError(403, "host_only", "only the host teaches the dice reader")
        if self.dice is None or self.dice.pips is None:
            raise TableError(409, "no_pip_reader", "this companion reads no pip dice")
        reading = next((r for r in list(self.readings)
                        if r["type"] == "roll" and r["id"] == reading_id), None)
        if reading is None:
            raise TableError(404, "no_such_roll", "that roll is no longer kept: teach the"
                                                  " reader from a newer one")
        if reading.get("_examples", ({}, {}))[0].get(die) is None:
            raise TableError(404, "no_such_die", f"that roll has no pip die number {die + 1}")
        try:
            self._keep_example(reading, die, label)
        except AdaptError as exc:
            raise TableError(409, "cannot_keep", f"{exc}; nothing kept") from None
        return ("kept: the reader will learn that this is no die" if label == NOT_A_DIE
                else f"kept: the reader will learn that this die shows {label}")

    @staticmethod
    def _public(reading: dict[str, Any], meanings: dict[int, list[Action]]) -> dict[str, Any]:
        if reading["type"] == "card":
            out = {"type": "card", "card": reading.get("card"), "payload": reading["payload"],
                   "at": reading["at"]}
            if meanings.get(id(reading)) == []:
                # The rules suggest nothing for it: said whatever the secrets (a suggestion
                # the rules refuse, such as showing a permit the player may not hold, is
                # neither offered nor called ignored on another seat's phone).
                out["note"] = "nothing to do with it now: ignored"
        else:
            out = {"type": "roll", "dice": [{"kind": d["kind"], "value": d["value"]}
                                            for d in reading.get("dice", [])],
                   "at": reading["at"], "id": reading["id"]}
            if meanings.get(id(reading)) == []:
                # Shown, never applied: a die on the table now is not a roll the game expects.
                out["note"] = "no roll is expected now: ignored"
        return out

    @staticmethod
    def _seen(reading: dict[str, Any]) -> list[Component | DieFace]:
        if reading["type"] == "card":
            try:
                return [parse_payload(reading["payload"])]
            except (InvalidPayloadError, UnknownComponentError):
                return []
        # a die the reader is unsure of could show any value: the phone asks which
        return [face for d in reading.get("dice", [])
                for face in ([DieFace("d6", v) for v in range(1, 7)] if d["kind"] == UNSURE
                             else [DieFace(str(d["kind"]), d["value"])])]

    def _meanings(self, table: LiveTable, reading: dict[str, Any]) -> list[Action]:
        """The actions the rules suggest a reading stands for now, whoever would take them,
        legal or not: whether one is legal may hang on a secret of the seat that would take
        it, so only that seat's phone learns it (``_suggestions``)."""
        out: list[Action] = []
        with table.lock:
            session = table.session
            for seen in self._seen(reading):
                for action in session.rules.suggest(session.state, seen):
                    if action not in out:
                        out.append(action)
        return out

    @staticmethod
    def _suggestions(table: LiveTable, actor: Actor, readings: list[dict[str, Any]],
                     meanings: dict[int, list[Action]]) -> list[dict[str, Any]]:
        """Fresh readings that stand for an action this phone may take now."""
        out: list[dict[str, Any]] = []
        for reading in readings:
            for action in meanings.get(id(reading), []):
                mine = action.seat == actor.seat if action.seat is not None else actor.host
                if not mine or any(s["action"] == action.to_dict() for s in out):
                    continue
                with table.lock:
                    try:
                        table.session.rules.apply(table.session.state, action)
                    except RulesError:
                        continue  # refused: this phone alone may know why
                    text = table.session.rules.describe(table.session.state, action)
                out.append({"card": _label(reading), "action": action.to_dict(), "text": text})
        return out


def _board_suggestions(table: LiveTable, actor: Actor,
                       checks: list[BoardCheck]) -> list[dict[str, Any]]:
    """The next step of each move the camera sees on a board, for the phone that makes it."""
    out = []
    for check in checks:
        if check.verdict != "move":
            continue
        action = check.steps[0]
        mine = action.seat == actor.seat if action.seat is not None else actor.host
        if mine:
            with table.lock:
                text = table.session.rules.describe(table.session.state, action)
            more = f" (the camera sees: {check.text})" if len(check.steps) > 1 else ""
            out.append({"card": f"a move on {check.title}", "action": action.to_dict(),
                        "text": text + more})
    return out


def _label(reading: dict[str, Any]) -> str:
    if reading["type"] == "card":
        try:
            return parse_payload(reading["payload"]).label
        except (InvalidPayloadError, UnknownComponentError):
            return str(reading["payload"])
    return ", ".join("?" if d["kind"] == UNSURE else str(d["value"])
                     for d in reading.get("dice", []))


class _Stopped(Exception):
    """Raised from the frame hook to end the watch loop promptly on shutdown."""
