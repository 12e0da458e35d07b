"""The table store: SQLite (standard library), WAL, one transaction per log entry.

A table is its setup (game, seats, options, seed) and an append-only log of entries: an
action, or an undo of the entry before. Nothing is ever rewritten, so the log is also the
audit trail of every correction and undo. With `synchronous=FULL` an entry that was
acknowledged survives a power cut.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    setup TEXT NOT NULL,          -- JSON: game, seats, options, seed
    pin TEXT NOT NULL,            -- shown on the host's screen, so kept as is
    host_key TEXT NOT NULL,       -- HMAC of the host's token, never the token
    created REAL NOT NULL,
    ended REAL
);
CREATE TABLE IF NOT EXISTS log (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,         -- 1, 2, 3... per table: the table's version
    entry TEXT NOT NULL,          -- JSON: {"kind": "action", "action": {...}, "by": ...} or undo
    at REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    seat_key TEXT NOT NULL,       -- HMAC of the seat's token
    joined REAL NOT NULL,
    PRIMARY KEY (table_id, seat)
);
"""


class StorageError(RuntimeError):
    """The database cannot be opened or written (disk full, wrong version, corrupt file)."""


@dataclass(frozen=True)
class LogEntry:
    seq: int
    kind: str  # action | undo
    action: dict[str, Any] | None
    by: str  # who sent it: host, seat N, camera
    at: float
    reason: str = ""  # an undo's: why a step that showed something hidden was taken back


@dataclass(frozen=True)
class StoredTable:
    id: str
    name: str
    setup: dict[str, Any]
    pin: str
    host_key: str
    created: float
    ended: float | None


class TableStore:
    """One SQLite file for every table of this companion. Thread-safe: one connection, one lock
    (writes are a few per second at most; SQLite serialises them anyway)."""

    def __init__(self, path: Path, read_only: bool = False) -> None:
        """``read_only``: to look while the service may be writing (`companion tables`):
        nothing is created nor written."""
        self.path = path
        self._lock = threading.Lock()
        if read_only:
            try:
                self._db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                                           check_same_thread=False)
                self._db.execute("SELECT 1 FROM tables LIMIT 1")
            except sqlite3.Error as exc:
                raise StorageError(f"cannot read the database {path}: {exc}") from exc
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StorageError(f"{path} was written by a newer companion (schema {version})")
            self._db.executescript(_SCHEMA)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.Error as exc:
            raise StorageError(f"cannot open the database {path}: {exc}") from exc

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                raise StorageError(f"the database refused a write: {exc}") from exc

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error as exc:
                raise StorageError(f"the database refused a read: {exc}") from exc

    # --- tables -------------------------------------------------------------------------
    def create(self, table_id: str, name: str, setup: dict[str, Any], pin: str,
               host_key: str) -> StoredTable:
        now = time.time()
        with self._transaction() as db:
            db.execute("INSERT INTO tables (id, name, setup, pin, host_key, created)"
                       " VALUES (?, ?, ?, ?, ?, ?)",
                       (table_id, name, json.dumps(setup), pin, host_key, now))
        return StoredTable(table_id, name, setup, pin, host_key, now, None)

    def tables(self, include_ended: bool = False) -> list[StoredTable]:
        rows = self._read("SELECT id, name, setup, pin, host_key, created, ended FROM tables"
                          + ("" if include_ended else " WHERE ended IS NULL")
                          + " ORDER BY created")
        return [StoredTable(r[0], r[1], json.loads(r[2]), r[3], r[4], r[5], r[6]) for r in rows]

    def table(self, table_id: str) -> StoredTable | None:
        rows = self._read("SELECT id, name, setup, pin, host_key, created, ended FROM tables"
                          " WHERE id = ?", (table_id,))
        return (StoredTable(rows[0][0], rows[0][1], json.loads(rows[0][2]), *rows[0][3:])
                if rows else None)

    def end(self, table_id: str) -> None:
        with self._transaction() as db:
            db.execute("UPDATE tables SET ended = ? WHERE id = ? AND ended IS NULL",
                       (time.time(), table_id))

    def record_setup(self, table_id: str, setup: dict[str, Any]) -> None:
        """A table's setup as the engine records it now (a table begun before the setup held
        the game's rule data gets it, so it keeps those rules from then on)."""
        with self._transaction() as db:
            db.execute("UPDATE tables SET setup = ? WHERE id = ?", (json.dumps(setup), table_id))

    def log_size(self, table_id: str) -> tuple[int, float | None]:
        """How many entries a table's log holds, and when the last was written."""
        rows = self._read("SELECT COUNT(*), MAX(at) FROM log WHERE table_id = ?", (table_id,))
        return int(rows[0][0]), rows[0][1]

    def set_host(self, table_id: str, host_key: str, pin: str) -> None:
        """Another phone is the host (the one before is host no more), with a new PIN: both
        in one step, so a power cut never leaves the new host with the old PIN."""
        with self._transaction() as db:
            db.execute("UPDATE tables SET host_key = ?, pin = ? WHERE id = ?",
                       (host_key, pin, table_id))

    # --- the log ------------------------------------------------------------------------
    def log(self, table_id: str) -> list[LogEntry]:
        rows = self._read("SELECT seq, entry, at FROM log WHERE table_id = ? ORDER BY seq",
                          (table_id,))
        out = []
        for seq, text, at in rows:
            entry = json.loads(text)
            out.append(LogEntry(seq, entry["kind"], entry.get("action"), entry.get("by", ""), at,
                                entry.get("reason", "")))
        return out

    def append(self, table_id: str, seq: int, kind: str, action: dict[str, Any] | None,
               by: str, reason: str = "") -> LogEntry:
        """Add entry `seq`; fails (StorageError) if that number is taken, so two writers can
        never both append the same version."""
        now = time.time()
        entry = {"kind": kind, "by": by, **({"action": action} if action is not None else {}),
                 **({"reason": reason} if reason else {})}
        with self._transaction() as db:
            db.execute("INSERT INTO log (table_id, seq, entry, at) VALUES (?, ?, ?, ?)",
                       (table_id, seq, json.dumps(entry), now))
        return LogEntry(seq, kind, action, by, now, reason)

    # --- seats --------------------------------------------------------------------------
    def seat_keys(self, table_id: str) -> dict[int, str]:
        rows = self._read("SELECT seat, seat_key FROM seats WHERE table_id = ?", (table_id,))
        return {int(seat): key for seat, key in rows}

    def claim_seat(self, table_id: str, seat: int, seat_key: str) -> bool:
        """Give a free seat to the holder of `seat_key`; False if someone holds it already."""
        with self._transaction() as db:
            taken = db.execute("SELECT 1 FROM seats WHERE table_id = ? AND seat = ?",
                               (table_id, seat)).fetchone()
            if taken:
                return False
            db.execute("INSERT INTO seats (table_id, seat, seat_key, joined) VALUES (?, ?, ?, ?)",
                       (table_id, seat, seat_key, time.time()))
        return True

    def release_seat(self, table_id: str, seat: int) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat))
