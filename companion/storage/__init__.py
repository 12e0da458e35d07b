"""Tables kept in SQLite: each table's setup and its append-only log; loading is replaying."""

from companion.storage.store import LogEntry, StorageError, StoredTable, TableStore

__all__ = ["LogEntry", "StorageError", "StoredTable", "TableStore"]
