"""Live tables: each open table's session, who may do what at it, and change notification.

The store's log is the truth; a LiveTable is the session rebuilt from it (by replay at start)
plus a version number (the log's length) that clients send back with every change, so a
stale or replayed request is refused instead of applied twice.

Who is who: the host (who created the table) holds a host token; each player holds a seat
token for one seat; anyone with the table's PIN may watch. Tokens are random, kept only as
HMACs under the companion's secret key, and compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from companion.engine import (
    UNSHOWN,
    Accepted,
    Action,
    ActionRecord,
    IllegalActionError,
    LogLine,
    RulesError,
    TableSession,
    get_game,
    house_changes,
    parse_setup,
    unshowable,
)
from companion.storage import StoredTable, TableStore

log = logging.getLogger(__name__)

RECENT = 12  # log lines sent with every update; the whole history is its own request
PIN_TRIES = 5  # wrong PINs from one phone per minute before it waits a minute
PIN_TRIES_LONG = 20  # wrong PINs from one phone in PIN_LONG seconds: it waits PIN_LONG
PIN_LONG = 30 * 60
IDLE_SECONDS = 12 * 3600  # an open table untouched this long may be ended for a new one
FINISHED_KEPT = 10 * 60  # a finished game untouched this long may be ended for a new one
UNUSED_KEPT = 30 * 60  # a table nobody joined or played this long may be ended for a new one
PHONE_COUNTED = 2 * 3600  # a game untouched this long no longer counts against its phone
ENDED_KEPT = 2  # ended tables kept in memory (for their export); the store keeps them all


class TableError(Exception):
    """A request that cannot be done, with the HTTP status and code the API answers, and the
    engine's own wording as ``detail`` where the message was put in players' words."""

    def __init__(self, status: int, code: str, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.detail = detail


def refused(exc: RulesError) -> TableError:
    """A refusal in players' words: the rule's reason, people by name ("Dan is dead", not
    "cannot strike by seat 1 (Ben): seat 3 (Dan) is dead"), the engine's sentence kept."""
    reason = exc.words if isinstance(exc, IllegalActionError) else str(exc)
    words = re.sub(r"\bseat \d+ \(([^)]+)\)", r"\1", reason)
    return TableError(422, "refused", words[:1].upper() + words[1:], str(exc))


def not_found(table_id: str) -> TableError:
    return TableError(404, "not_found", f"no table {table_id!r}")


def damaged(table_id: str) -> TableError:
    return TableError(503, "not_rebuilt", f"table {table_id!r} is kept but could not be rebuilt:"
                      " the companion's log says why (other tables are not affected)")


@dataclass(frozen=True)
class Actor:
    """Who sends a request, from its cookies: the host, a seat, a watcher with the PIN."""

    host: bool = False
    seat: int | None = None
    watcher: bool = False

    @property
    def admitted(self) -> bool:
        return self.host or self.seat is not None or self.watcher

    @property
    def name(self) -> str:
        return "host" if self.host else f"seat {self.seat}" if self.seat is not None else "watcher"


@dataclass
class Keys:
    """Makes and checks tokens with the companion's secret key."""

    secret: bytes

    def new_token(self) -> tuple[str, str]:
        token = secrets.token_urlsafe(24)
        return token, self.digest(token)

    def digest(self, token: str) -> str:
        return hmac.new(self.secret, token.encode(), hashlib.sha256).hexdigest()

    def matches(self, token: str | None, digest: str) -> bool:
        return token is not None and hmac.compare_digest(self.digest(token), digest)

    def watch_token(self, table_id: str, pin: str) -> str:
        """The same for every watcher of a table (they all know the PIN); a new PIN (a host
        link) makes a new one."""
        return self.digest(f"watch:{table_id}:{pin}")

    def join_code(self, table_id: str, pin: str) -> str:
        """The secret in the host's join QR code: joins like the PIN, but 128 bits, so it
        cannot be guessed (and needs no limit on tries). It changes with the PIN."""
        return self.digest(f"join:{table_id}:{pin}")[:32]

    def host_code(self, table_id: str, host_key: str) -> str:
        """The secret of a host link (`companion tables host`, on the companion's own
        machine): made from the host's key of the moment, so it serves once."""
        return self.digest(f"host:{table_id}:{host_key}")[:32]


def new_pin(old: str = "") -> str:
    """Six random digits (never the PIN it replaces)."""
    while (pin := f"{secrets.randbelow(10**6):06d}") == old:
        pass
    return pin


@dataclass(frozen=True)
class Entry:
    """A stored log entry as the phones know it. `owner` None: everyone sees it; a seat: only
    that seat does (its private input). Undos are public: the host undoes only what everyone
    saw. A `dropped` note tells a seat that its private input no longer fits after an undo."""

    seq: int
    kind: str  # action | undo | dropped
    owner: int | None = None
    text: str = ""
    reason: str = ""  # an undo's, when the host gave one

    def visible_to(self, actor: Actor) -> bool:
        return self.owner is None or self.owner == actor.seat


@dataclass
class LiveTable:
    stored: StoredTable
    session: TableSession
    seat_keys: dict[int, str]
    entries: list[Entry] = field(default_factory=list)  # every stored entry, in order
    live_seqs: list[int] = field(default_factory=list)  # the entry of each record in history
    changes: int = 0  # anything a phone shows may have changed (the log, narration, camera)
    lock: threading.RLock = field(default_factory=threading.RLock)
    changed: threading.Condition = field(init=False)
    pin_failures: dict[str, list[float]] = field(default_factory=dict)  # client -> times
    last_active: float = field(default_factory=time.time)  # the last change, wall clock
    join_code: str = ""  # the secret of the host's join QR code (Keys.join_code)
    watch_token: str = ""  # what every watcher's cookie holds (Keys.watch_token)
    started_by: str = ""  # the address of the phone that created it (this run only; "" after)
    # Seats that said "pass" on the answers they were offered, and the public version they
    # said it at: a spoken "pass", for the phones, never stored and never in the game.
    passes: tuple[int, frozenset[int]] = (0, frozenset())

    def __post_init__(self) -> None:
        self.changed = threading.Condition(self.lock)

    @property
    def version(self) -> int:
        """Entries in the stored log (the next one is version + 1)."""
        return sum(1 for e in self.entries if e.kind != "dropped")

    def seen_version(self, actor: Actor) -> int:
        """The entries this phone can know of: what it must send back as `expect`. Counting
        every entry would let a phone see that another seat made a private input."""
        return sum(1 for e in self.entries if e.kind != "dropped" and e.visible_to(actor))

    def apply(self, seq: int, kind: str, action: Action | None,
              accepted: Accepted | None = None, reason: str = "",
              stored: bool = False) -> ActionRecord:
        """Apply a stored entry (when it is made, or when the log is replayed at start:
        ``stored``, an undo accepted when it was made, never judged again by a later rule);
        ``accepted``: the action as the rules already accepted it, not applied again;
        ``reason``: an undo's, with which it may take back a step that showed something."""
        session = self.session
        if kind == "undo":
            last = session.last_public()
            start = next((i for i in range(len(session.history) - 1, -1, -1)
                          if session.history[i] is last), 0)
            seq_of = {id(r): q for r, q in zip(session.history[start + 1:],
                                               self.live_seqs[start + 1:], strict=True)}
            undone, kept, dropped = session.undo_public(past_reveal=bool(reason) or stored)
            self.live_seqs = self.live_seqs[:start] + [seq_of[id(r)] for r in kept]
            self.entries.append(Entry(seq, "undo", None, undone.text, reason))
            for record in dropped:
                self.entries.append(Entry(seq, "dropped", record.action.seat, record.text))
            return undone
        assert action is not None
        record = session.commit(accepted) if accepted else session.submit(action)
        self.live_seqs.append(seq)
        owner = None if record.is_visible_to(None) else record.action.seat
        self.entries.append(Entry(seq, "action", owner))
        return record

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def ended(self) -> bool:
        return self.stored.ended is not None

    def touch(self) -> None:
        """Wake every phone waiting for news of this table."""
        with self.changed:
            self.changes += 1
            self.changed.notify_all()

    def wait(self, seen: int, timeout: float) -> int:
        """Block until something changed after `seen` (or timeout); the current count."""
        with self.changed:
            self.changed.wait_for(lambda: self.changes != seen, timeout)
            return self.changes

    @property
    def public_version(self) -> int:
        """The entries everyone can know of (a private input is not one)."""
        return self.seen_version(Actor(watcher=True))

    def passed(self) -> list[int]:
        """The seats that passed since the last public change."""
        at, seats = self.passes
        return sorted(seats) if at == self.public_version else []

    # --- what a phone sees ----------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        setup = self.session.setup
        return {"id": self.id, "name": self.stored.name, "game": setup.game,
                "title": self.session.rules.info.title, "seats": list(setup.seats),
                "created": self.stored.created, "ended": self.ended,
                "seat_secrets": self.session.rules.info.has_seat_secrets}

    def rules(self) -> dict[str, Any]:
        """The game's rules summary as this table plays it (its options and house edits),
        house readings marked, and the house edits this table made, in words: public, like the
        options themselves."""
        setup, rules = self.session.setup, self.session.rules
        dropped = [f"{key}: not applied (this companion no longer has that rule)"
                   for key in self.session.house_dropped]
        return {"title": rules.info.title, "text": rules.rules_summary(self.session.options),
                "house": house_changes(setup.options.get("house"), rules.info.house_readings)
                + dropped}

    def snapshot(self, actor: Actor) -> dict[str, Any]:
        """Everything one phone shows, as that phone may see it: the engine's view for its seat
        (the one secrets filter), its legal actions, the host's tools, the recent log."""
        with self.lock:
            session = self.session
            seat = actor.seat
            recent = [LogLine(line["text"], tuple(line["notes"]), line.get("undo", False),
                              line.get("private", False))
                      for line in reversed(self.history(actor, RECENT))]  # the newest first
            view = session.table_view(seat, recent, () if self.ended or seat is None else None)
            out: dict[str, Any] = {
                **self.summary(),
                "version": self.seen_version(actor),
                "you": {"seat": seat, "host": actor.host},
                "taken_seats": sorted(self.seat_keys),
                "passed": self.passed(),
                "view": view.to_dict(),
                "log_length": self.log_length(actor),
            }
            if actor.host:
                out["host"] = {
                    "pin": self.stored.pin,
                    "join_code": self.join_code,
                    "actions": ([] if self.ended else
                                [a.to_dict() for a in session.legal_actions(None)]),
                    "can_undo": not self.ended and session.can_undo_public(),
                    # a step that showed something hidden: undone only with a reason
                    "undo_needs_reason": not self.ended and not session.can_undo_public()
                    and session.public_undo_refusal(past_reveal=True) is None,
                    "last": last.text if (last := session.last_public()) else None,
                }
            return out

    def history(self, actor: Actor, last: int | None = None) -> list[dict[str, Any]]:
        """The log as this phone may see it, with the host's undos where they happened
        (``last``: only the last lines; every snapshot sends a few)."""
        with self.lock:
            lines: list[tuple[int, ActionRecord | Entry]] = [
                (seq, record)
                for record, seq in zip(self.session.history, self.live_seqs, strict=True)
                if record.is_visible_to(actor.seat)]
            lines += [(entry.seq, entry) for entry in self.entries if _shown(entry, actor)]
            lines.sort(key=lambda pair: pair[0])
            return [_line(item, actor) for _, item in lines[-last if last else 0:]]

    def log_length(self, actor: Actor) -> int:
        """How many lines the log has for this phone."""
        with self.lock:
            return (sum(1 for record in self.session.history if record.is_visible_to(actor.seat))
                    + sum(1 for entry in self.entries if _shown(entry, actor)))


def _shown(entry: Entry, actor: Actor) -> bool:
    """Whether a phone's log shows the host's entry: every undo, and a private input the undo
    dropped to its own seat only."""
    return entry.kind == "undo" or (entry.kind == "dropped" and entry.visible_to(actor))


def _line(item: ActionRecord | Entry, actor: Actor) -> dict[str, Any]:
    """One line of a phone's log: an action as it may see it, or the host's undo."""
    if isinstance(item, ActionRecord):
        return item.to_dict(actor.seat)
    if item.kind == "undo":
        why = f". Why: {item.reason}" if item.reason else ""
        return {"text": f"The host undid: {item.text}{why}", "notes": [], "undo": True}
    return {"text": f"After the host's undo, your input no longer fits: {item.text}. Make it"
                    " again if it still holds.", "notes": [], "undo": True}


def _require(condition: bool, status: int, code: str, message: str) -> None:
    if not condition:
        raise TableError(status, code, message)


class TableHub:
    """Every table of this companion: created, opened (rebuilt from the store), acted on."""

    def __init__(self, store: TableStore, keys: Keys, max_tables: int = 40,
                 tables_per_phone: int = 4) -> None:
        self.store = store
        self.keys = keys
        self.max_tables = max_tables  # open tables at once (each holds memory, a file)
        self.tables_per_phone = tables_per_phone  # games in play one phone may have started
        self._tables: dict[str, LiveTable] = {}
        self._lock = threading.Lock()
        self._creating = threading.Lock()
        self._broken: set[str] = set()  # tables that could not be rebuilt (the log says why)
        self._listeners: list[Callable[[LiveTable], None]] = []
        self._enders: list[Callable[[LiveTable], None]] = []
        # More for each phone's snapshot: name -> what it holds for this table and phone.
        self.extras: dict[str, Callable[[LiveTable, Actor], Any]] = {}
        self._load_all()

    def _load_all(self) -> None:
        for stored in self.store.tables():
            try:
                self._tables[stored.id] = self._rebuild(stored)
            except Exception:  # whatever is wrong with one table (a damaged entry, a
                # rule that changed under it) must not keep the others down
                log.exception("table %s (%s) could not be rebuilt", stored.id, stored.name)
                self._broken.add(stored.id)

    def _rebuild(self, stored: StoredTable) -> LiveTable:
        session = TableSession(parse_setup(stored.setup))
        if "book" not in stored.setup and session.setup.book is not None:
            # begun before a table recorded its rule data: it keeps today's from now on
            self.store.record_setup(stored.id, session.setup.to_dict())
        if session.house_dropped:
            log.warning("table %s (%s): house edits this companion no longer has a rule for,"
                        " not applied: %s", stored.id, stored.name,
                        ", ".join(session.house_dropped))
        join_code, watch_token = self._codes(stored.id, stored.pin)
        table = LiveTable(stored, session, self.store.seat_keys(stored.id),
                          join_code=join_code, watch_token=watch_token)
        entries = self.store.log(stored.id)
        for entry in entries:
            table.apply(entry.seq, entry.kind,
                        Action.from_dict(entry.action) if entry.action is not None else None,
                        reason=entry.reason, stored=True)
        table.last_active = entries[-1].at if entries else stored.created
        log.info("table %s (%s): %d log entries replayed", stored.id, stored.name, len(entries))
        return table

    def snapshot(self, table: LiveTable, actor: Actor) -> dict[str, Any]:
        """A phone's snapshot of the table, with what the narrator and the camera add."""
        out = table.snapshot(actor)
        for name, extra in self.extras.items():
            out[name] = extra(table, actor)
        return out

    def on_change(self, listener: Callable[[LiveTable], None]) -> None:
        """Called after every accepted change of any table (narration and camera hook in)."""
        self._listeners.append(listener)

    def on_end(self, listener: Callable[[LiveTable], None]) -> None:
        """Called when a table ends (what was kept for it can go)."""
        self._enders.append(listener)

    # --- tables -------------------------------------------------------------------------
    def create(self, game: str, seats: list[str], options: Mapping[str, Any],
               name: str = "", dealt_by_hand: bool = False, client: str = ""
               ) -> tuple[LiveTable, str]:
        """A new table; returns it and the host's token (the only time it exists in clear).
        `dealt_by_hand`: the cards are real cards dealt at the table, so the companion knows
        nothing of the deal until seats tell it or show it (else it deals, seeded).
        `client`: the address of the phone asking, which may have `tables_per_phone` games
        in play at once, so that one phone cannot fill a café's `max_tables`."""
        try:
            setup = parse_setup({"game": game, "seats": seats, "options": dict(options),
                                 **({"deal": {}} if dealt_by_hand else {})})
            get_game(setup.game)
            session = TableSession(setup)
        except RulesError as exc:  # well formed, but not a setup the game can play
            raise TableError(422, "bad_setup", str(exc)) from None
        table_id = secrets.token_hex(4)
        pin = new_pin()
        host_token, host_key = self.keys.new_token()
        title = name.strip()[:60] or f"{session.rules.info.title} ({len(seats)} players)"
        with self._creating:  # room counted and taken as one step: never above max_tables
            self._check_phone(client)
            self._make_room()
            stored = self.store.create(table_id, title, session.setup.to_dict(), pin, host_key)
            join_code, watch_token = self._codes(table_id, pin)
            table = LiveTable(stored, session, {}, join_code=join_code,
                              watch_token=watch_token, started_by=client)
            with self._lock:
                self._tables[table_id] = table
        log.info("table %s created by %s: %s, seats %s", table_id, client or "this machine",
                 title, ", ".join(seats))
        return table, host_token

    def _codes(self, table_id: str, pin: str) -> tuple[str, str]:
        """The table's join QR code and watchers' token, both made from its PIN."""
        return self.keys.join_code(table_id, pin), self.keys.watch_token(table_id, pin)

    def _check_phone(self, client: str) -> None:
        """Refuse a phone that already started `tables_per_phone` games still in play (played
        in the last two hours: one whose host cookie was lost could not end them)."""
        if not client:  # this machine's own code (tests, tools): no phone to count
            return
        now = time.time()
        in_play = [t for t in self.tables() if t.started_by == client
                   and t.session.outcome is None and now - t.last_active < PHONE_COUNTED]
        if len(in_play) >= self.tables_per_phone:
            log.info("phone %s refused a new table: it started %d games still in play (%s)",
                     client, len(in_play), ", ".join(t.id for t in in_play))
            names = ", ".join(t.stored.name for t in in_play)
            raise TableError(429, "too_many_from_phone",
                             f"this phone (its address on the network) already started"
                             f" {len(in_play)} game{'s' * (len(in_play) != 1)} still in play"
                             f" ({names}): end one you no longer play (its Host tab) first")

    def _make_room(self) -> None:
        """Refuse a new table when `max_tables` are open, unless one of them is done with: a
        game that is over (players rarely tap "End table" after the last move), the one over
        longest first; else one nobody joined or played for half an hour (made and left, or
        made by the dozen from a few phones); else one idle for half a day. That one is
        ended (its log kept)."""
        open_tables = self.tables()
        if len(open_tables) < self.max_tables:
            return
        now = time.time()
        # over, and left so for a while: a final move may still be undone or corrected
        over = [t for t in open_tables if t.session.outcome is not None
                and now - t.last_active >= FINISHED_KEPT]
        unused = [t for t in open_tables if not t.seat_keys and not t.entries
                  and now - t.last_active >= UNUSED_KEPT]
        oldest = min(over or unused or open_tables, key=lambda t: t.last_active)
        idle_hours = (now - oldest.last_active) / 3600
        if not over and not unused and idle_hours < IDLE_SECONDS / 3600:
            log.warning("a new table refused: %d tables open (max_tables), none over, unused"
                        " or idle", len(open_tables))
            raise TableError(429, "too_many_tables",
                             f"this companion already runs {len(open_tables)} tables: end one"
                             " you no longer play (its Host tab) first, or ask whoever runs"
                             " the companion")
        log.info("table %s ended to make room: %s", oldest.id,
                 "its game is over" if over else "nobody joined or played it" if unused
                 else f"idle {idle_hours:.0f} hours")
        self.end(oldest, Actor(host=True))

    def tables(self) -> list[LiveTable]:
        with self._lock:
            return [t for t in self._tables.values() if not t.ended]

    def get(self, table_id: str) -> LiveTable:
        """An open table, or an ended one (rebuilt from the store when first asked for: ended
        tables are not loaded at start, so a café's history never slows a start)."""
        with self._lock:
            table = self._tables.get(table_id)
            if table is None:
                if table_id in self._broken:  # tried once: not again at every request
                    raise damaged(table_id)
                stored = self.store.table(table_id)
                if stored is None:
                    raise not_found(table_id)
                try:
                    table = self._tables[table_id] = self._rebuild(stored)
                except Exception:  # as at start: one table's damage is its own
                    log.exception("table %s could not be rebuilt", table_id)
                    self._broken.add(table_id)
                    raise damaged(table_id) from None
                self._forget_ended(keep=table)
        return table

    def _forget_ended(self, keep: LiveTable) -> None:
        """Ended tables beyond the last few leave memory (rebuilt from the store if asked
        for again): a long evening of games must not grow the service."""
        ended = [t for t in self._tables.values() if t.ended and t is not keep]
        for old in ended[:max(0, len(ended) - ENDED_KEPT)]:  # the first ended or asked for
            del self._tables[old.id]

    def actor(self, table: LiveTable, host_token: str | None, seat_token: str | None,
              watch_token: str | None) -> Actor:
        """Who the cookies say the requester is at this table."""
        host = self.keys.matches(host_token, table.stored.host_key)
        seat = None
        if seat_token:
            with table.lock:  # seats are taken and freed by other requests
                keys = list(table.seat_keys.items())
            for number, key in keys:
                if self.keys.matches(seat_token, key):
                    seat = number
        with table.lock:  # a host link changes it
            watching = table.watch_token
        # as bytes: a cookie may hold any text, and str compares only ASCII
        watcher = watch_token is not None and hmac.compare_digest(watch_token.encode(),
                                                                  watching.encode())
        return Actor(host=host, seat=seat, watcher=watcher)

    # --- joining ------------------------------------------------------------------------
    def check_pin(self, table: LiveTable, pin: Any, code: Any = None, client: str = "") -> None:
        """The join QR code's secret, or the PIN. Wrong PINs are counted per phone
        (``client``, its address): one that keeps guessing waits, longer and longer, and
        never locks anyone else out."""
        if code is not None:
            with table.lock:
                wanted = table.join_code
            if not isinstance(code, str) or not hmac.compare_digest(code.encode(),
                                                                    wanted.encode()):
                raise TableError(403, "wrong_code", "this join link is not for this table:"
                                                    " scan its QR code again, or type the PIN")
            return
        now = time.monotonic()
        with table.lock:
            for who in list(table.pin_failures):  # forget what is old, so the map stays small
                table.pin_failures[who] = [t for t in table.pin_failures[who]
                                           if now - t < PIN_LONG]
                if not table.pin_failures[who]:
                    del table.pin_failures[who]
            failures = table.pin_failures.get(client, [])
            if len([t for t in failures if now - t < 60]) >= PIN_TRIES:
                raise TableError(429, "too_many_tries", "too many wrong PINs: wait a minute")
            if len(failures) >= PIN_TRIES_LONG:
                raise TableError(429, "too_many_tries",
                                 "too many wrong PINs: wait half an hour, or scan the QR code")
            typed = "".join(pin.split()) if isinstance(pin, str) else None  # "225 564" too
            if typed is None or not hmac.compare_digest(typed.encode(),
                                                        table.stored.pin.encode()):
                table.pin_failures[client] = [*failures, now]
                tries = len(failures) + 1
                # Never the PIN typed: a near miss would narrow the real one down.
                (log.warning if tries in (PIN_TRIES, PIN_TRIES_LONG) else log.info)(
                    "table %s: a wrong PIN from %s (%d in half an hour)%s", table.id,
                    client or "this machine", tries,
                    ": it waits now" if tries in (PIN_TRIES, PIN_TRIES_LONG) else "")
                raise TableError(403, "wrong_pin", "wrong PIN")

    def join(self, table: LiveTable, pin: Any, seat: Any, code: Any = None,
             client: str = "") -> tuple[int | None, str, str]:
        """With the PIN (or the join code): a seat token for a free seat (seat None: none),
        and the watchers' token, all as of the PIN checked: one step, so that a host link
        (a new PIN) cannot come between them."""
        seats = table.session.setup.seats
        with table.lock:
            self.check_pin(table, pin, code, client)
            watching = table.watch_token
            if seat is None:
                return None, watching, watching
            _require(isinstance(seat, int) and not isinstance(seat, bool), 400, "bad_seat",
                     "seat must be a seat's number")
            _require(0 <= seat < len(seats), 422, "bad_seat",
                     f"this table has seats 0 to {len(seats) - 1}, not {seat}")
            _require(not table.ended, 410, "ended", "this table has ended")
            token, key = self.keys.new_token()
            if not self.store.claim_seat(table.id, seat, key):
                raise TableError(409, "seat_taken",
                                 f"seat {seat} ({seats[seat]}) is taken; the host can free it")
            table.seat_keys[seat] = key
        log.info("table %s: seat %d (%s) joined from %s", table.id, seat, seats[seat],
                 client or "this machine")
        table.touch()
        return seat, token, watching

    def take_host(self, table: LiveTable, code: Any) -> str:
        """A host link's phone becomes the host (a new host token), and the phone that was
        the host is host no more: a host's phone lost or flat, or a host gone home, must not
        leave a table with nobody to undo, rule or end it. The link serves once. The PIN is
        new too (so are the join QR code and the watchers' token made from it): the lost
        phone showed the old one, and whoever finds it must not take a seat the new host
        frees. Seated phones keep their seats; watchers type the new PIN."""
        with table.lock:
            wanted = self.keys.host_code(table.id, table.stored.host_key)
            if not isinstance(code, str) or not hmac.compare_digest(code.encode(),
                                                                    wanted.encode()):
                raise TableError(403, "wrong_code", "this host link is not, or no longer, for"
                                 " this table: make a new one with `companion tables host` on"
                                 " the companion's machine")
            token, key = self.keys.new_token()
            pin = new_pin(table.stored.pin)
            self.store.set_host(table.id, key, pin)
            table.stored = replace(table.stored, host_key=key, pin=pin)
            table.join_code, table.watch_token = self._codes(table.id, pin)
            table.started_by = ""  # the old phone can no longer end it: not its count
        log.info("table %s: another phone is the host now (a host link); the PIN is new",
                 table.id)
        table.touch()  # the phone that was the host sees it is host no more
        return token

    def release_seat(self, table: LiveTable, actor: Actor, seat: Any) -> None:
        _require(actor.host, 403, "host_only", "only the host can free a seat")
        _require(isinstance(seat, int) and seat in table.seat_keys, 404, "seat_free",
                 f"seat {seat!r} is not taken")
        with table.lock:
            self.store.release_seat(table.id, seat)
            table.seat_keys.pop(seat, None)
        log.info("table %s: the host freed seat %d (%s)", table.id, seat,
                 table.session.setup.seats[seat])
        table.touch()

    # --- changes ------------------------------------------------------------------------
    def _action(self, table: LiveTable, actor: Actor, body: Mapping[str, Any]) -> Action:
        name, seat, params = body.get("name"), body.get("seat"), body.get("params", {})
        _require(isinstance(name, str) and bool(name), 400, "bad_request",
                 "\"name\" must be the action's name")
        _require(isinstance(params, dict), 400, "bad_request", "\"params\" must be an object")
        _require(seat is None or (isinstance(seat, int) and not isinstance(seat, bool)), 400,
                 "bad_request", "\"seat\" must be your seat number, or null for a table action")
        if seat is None:
            _require(actor.host, 403, "host_only", "only the host sends the table's actions")
        else:
            _require(actor.seat == seat, 403, "not_your_seat",
                     f"you do not hold seat {seat}: act for your own seat")
        assert isinstance(name, str)
        return Action(name, seat, params)

    def _check_version(self, table: LiveTable, actor: Actor, body: Mapping[str, Any]) -> None:
        expect = body.get("expect")
        _require(isinstance(expect, int) and not isinstance(expect, bool), 400, "bad_request",
                 "\"expect\" must be the table's version your phone shows")
        _require(not table.ended, 410, "ended", "this table has ended")
        _require(expect == table.seen_version(actor), 409, "stale",
                 "the table has changed since your phone last saw it: look again, then retry")

    def preview(self, table: LiveTable, actor: Actor, body: Mapping[str, Any]) -> dict[str, Any]:
        """What the action would be logged as, or why it is refused; changes nothing. (Only the
        log text: the resulting state could give away a hidden card, say a bluff's outcome.)"""
        _require(actor.admitted, 403, "not_joined", "join the table first")
        action = self._action(table, actor, body)
        with table.lock:
            _require(not table.ended, 410, "ended", "this table has ended")
            try:
                return {"text": table.session.check(action).text}
            except RulesError as exc:
                raise refused(exc) from None

    def act(self, table: LiveTable, actor: Actor, body: Mapping[str, Any]) -> dict[str, Any]:
        """Apply an action: checked by the rules, then stored, then kept (applied once), so a
        refused action or a failed write changes nothing."""
        action = self._action(table, actor, body)
        with table.lock:
            self._check_version(table, actor, body)
            try:
                accepted = table.session.check(action)
            except RulesError as exc:
                raise refused(exc) from None
            seq = table.version + 1
            self.store.append(table.id, seq, "action", action.to_dict(), actor.name)
            record = table.apply(seq, "action", action, accepted)
            result = record.to_dict(actor.seat)
        log.info("table %s v%d: %s", table.id, seq, record.text if record.is_visible_to(None)
                 else f"a private input of seat {record.action.seat}")
        self._changed(table)
        return result

    def pass_answer(self, table: LiveTable, actor: Actor, body: Mapping[str, Any]) -> None:
        """A seat says it will not answer (no Shield, no call) until the table moves on, for
        every phone to see. Open to any seat at any time, so it tells nothing of what a seat
        could have answered; it changes nothing in the game."""
        _require(actor.seat is not None, 403, "not_seated", "only a seated player can pass")
        assert actor.seat is not None
        with table.lock:
            self._check_version(table, actor, body)
            at = table.public_version
            table.passes = (at, frozenset(table.passed()) | {actor.seat})
        table.touch()

    def undo(self, table: LiveTable, actor: Actor, body: Mapping[str, Any]) -> dict[str, Any]:
        """The host takes back the last step everyone saw. One that showed something hidden
        (a card, a death, the end) only with a reason, in everyone's log: a wrong input the
        table corrects, what it showed staying seen; the table is never stuck."""
        _require(actor.host, 403, "host_only", "only the host can undo")
        reason = " ".join(str(body.get("reason", "")).split())  # one line in the log
        _require(not unshowable(reason), 400, "bad_request", f"reason {UNSHOWN}")
        with table.lock:
            self._check_version(table, actor, body)
            if refusal := table.session.public_undo_refusal(past_reveal=bool(reason)):
                raise TableError(409, "cannot_undo", refusal)
            if table.session.public_undo_refusal() is not None:
                log.warning("table %s: the host undoes a step that showed something hidden,"
                            " saying why", table.id)
            seq = table.version + 1
            self.store.append(table.id, seq, "undo", None, actor.name, reason)
            record = table.apply(seq, "undo", None, reason=reason)
        log.info("table %s v%d: undo of %s", table.id, seq, record.text)
        self._changed(table)
        return {"undone": record.text}

    def end(self, table: LiveTable, actor: Actor) -> None:
        _require(actor.host, 403, "host_only", "only the host can end the table")
        with table.lock:
            _require(not table.ended, 410, "ended", "this table has ended")
            self.store.end(table.id)
            table.stored = replace(table.stored, ended=time.time())
        log.info("table %s ended", table.id)
        for listener in self._enders:
            try:
                listener(table)
            except Exception:  # what a listener keeps must not keep the table open
                log.exception("a table-end listener failed")
        self._changed(table)
        with self._lock:
            self._forget_ended(keep=table)

    def export(self, table: LiveTable, actor: Actor) -> dict[str, Any]:
        """The whole transcript (setup with its seed, every action) once the table has ended,
        for the host; before that, the seat's own history only (the seed would show the deal)."""
        _require(actor.admitted, 403, "not_joined", "join the table first")
        with table.lock:
            if actor.host and table.ended:
                return {"setup": table.session.setup.to_dict(),
                        "actions": [r.action.to_dict() for r in table.session.history]}
            setup = {k: v for k, v in table.session.setup.to_dict().items()
                     if k in ("game", "seats", "options")}
            return {"setup": setup, "history": table.history(actor)}

    def _changed(self, table: LiveTable) -> None:
        table.last_active = time.time()
        for listener in self._listeners:
            try:
                listener(table)
            except Exception:  # a listener's failure must not undo an accepted action
                log.exception("a table listener failed")
        table.touch()

