"""`companion tables`: the tables this companion keeps, for whoever runs it (a game café's
operator, the friend who set up the Pi), a host link for a table whose host's phone is lost
(the phone that opens it becomes the host, to undo, rule, end the table), and `end` for a
table left behind. Listing and links only read: they may run while the companion serves;
`end` asks the running companion, as a host link's phone would."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from companion.settings import Settings, SettingsError, data_dir, load_settings, local_address

if TYPE_CHECKING:
    from companion.storage import StoredTable, TableStore

EXIT_OK, EXIT_USAGE = 0, 2


def _store(args: argparse.Namespace) -> tuple[Settings, Path, TableStore]:
    """The settings, the data directory and its database, opened read only."""
    from companion.storage import StorageError, TableStore

    settings = load_settings().with_options(data=args.data)
    data = data_dir(settings.data or None)
    if not (data / "tables.sqlite3").is_file():
        raise SettingsError(f"no tables in {data} yet (is this the companion's data"
                            " directory? --data or COMPANION_DATA names it)")
    try:
        return settings, data, TableStore(data / "tables.sqlite3", read_only=True)
    except StorageError as exc:
        raise SettingsError(f"{exc} (run this as the companion's user, for example"
                            " `sudo -u companion`)") from None


def _when(at: float) -> str:
    recent = time.time() - at < 6 * 86400  # this week: its day and time
    return time.strftime("%a %H:%M" if recent else "%Y-%m-%d", time.localtime(at))


def _list(args: argparse.Namespace) -> int:
    from companion.runtime.service import last_served
    from companion.storage import StorageError

    try:
        _, data, store = _store(args)
        try:
            tables = store.tables(include_ended=args.all)
            served = last_served(data)
            # Which data it read: a shell's settings may not be the service's.
            print(f"{len(tables) or 'no'} {'' if args.all else 'open '}table(s) in {data}"
                  + (f" (served on port {served['port']})" if served else ""))
            for table in tables:
                entries, last = store.log_size(table.id)
                state = (f"ended {_when(table.ended)}" if table.ended
                         else f"last move {_when(last)}" if last
                         else f"created {_when(table.created)}, no move yet")
                print(f"{table.id}  {table.name[:40]:40}  {table.setup.get('game', '?'):16}"
                      f"  {len(table.setup.get('seats', ())):2} players  {entries:4} entries"
                      f"  {state}")
        finally:
            store.close()
    except (SettingsError, StorageError) as exc:
        print(f"companion tables: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK


def _table(args: argparse.Namespace) -> tuple[Settings, Path, StoredTable]:
    """The settings, the data directory and the table `args.table` names."""
    settings, data, store = _store(args)
    try:
        table = store.table(args.table)
    finally:
        store.close()
    if table is None:
        raise SettingsError(f"no table {args.table!r} in {data} (`companion tables` lists"
                            " them)")
    return settings, data, table


def _port(args: argparse.Namespace, data: Path, settings: Settings) -> int:
    """The port the companion serves on: --port, else where it last served these tables
    (`./start.sh --port 8080` says it on its own command line, not in the settings)."""
    from companion.runtime.service import last_served

    served = last_served(data)
    return int(args.port or (served["port"] if served else settings.port))


def _host(args: argparse.Namespace) -> int:
    import segno

    from companion.runtime.service import existing_secret_key
    from companion.runtime.tables import Keys
    from companion.storage import StorageError
    from companion.web.pages import phones_address

    try:
        settings, data, table = _table(args)
        code = Keys(existing_secret_key(data)).host_code(table.id, table.host_key)
    except (SettingsError, StorageError) as exc:
        print(f"companion tables host: {exc}", file=sys.stderr)
        return EXIT_USAGE
    port = _port(args, data, settings)
    link = f"http://{phones_address(settings.host)}:{port}/t/{table.id}?host={code}"
    print(f"{table.name}{' (ended)' if table.ended else ''}: open this on the new host's"
          f" phone (once; the phone that was the host is host no more):\n\n{link}\n")
    if not args.no_qr:
        segno.make(link, error="m").terminal(compact=True)
    return EXIT_OK


def _end(args: argparse.Namespace) -> int:
    """End a table through the running companion: take the host's place with the link
    `tables host` would print, then end it as a host does (every phone sees it end; its
    log is kept)."""
    import json
    import urllib.error
    import urllib.request

    from companion.runtime.service import existing_secret_key
    from companion.runtime.tables import Keys
    from companion.storage import StorageError

    try:
        settings, data, table = _table(args)
        if table.ended:
            print(f"{table.name} has already ended")
            return EXIT_OK
        code = Keys(existing_secret_key(data)).host_code(table.id, table.host_key)
    except (SettingsError, StorageError) as exc:
        print(f"companion tables end: {exc}", file=sys.stderr)
        return EXIT_USAGE
    port = _port(args, data, settings)
    base = f"http://{local_address(settings.host)}:{port}/api/tables/{table.id}"

    def post(path: str, body: dict[str, str], cookie: str = "") -> str:
        request = urllib.request.Request(f"{base}{path}", json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json",
                                                  "Cookie": cookie})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return str(answer.headers.get("Set-Cookie", "")).split(";")[0]

    try:
        host = post("/host", {"code": code})
        post("/end", {}, host)
    except urllib.error.HTTPError as exc:
        print(f"companion tables end: the companion refused: {exc.read(500).decode()}",
              file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(f"companion tables end: no companion answers on port {port} ({exc}): it ends"
              " tables while it serves (start it, or give --port)", file=sys.stderr)
        return EXIT_USAGE
    print(f"{table.name} has ended: every phone sees it; its log is kept (`companion tables"
          " --all` lists it)")
    return EXIT_OK


def add_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    # --data given before or after `host`: the subcommand's own must not hide the parent's
    data = {"metavar": "DIR", "help": "the data directory (database, key)"}
    tables = sub.add_parser(
        "tables", help="list the tables this companion keeps; a host link for a lost host;"
                       " end a table left behind",
        description="The tables in the companion's data directory (the same settings as"
                    " `companion serve`). It only reads: it may run while the companion"
                    " serves.")
    tables.add_argument("--data", **data)
    tables.add_argument("--all", action="store_true", help="ended tables too")
    tables.set_defaults(run=_list)
    tables_sub = tables.add_subparsers(dest="tables_command", metavar="COMMAND")
    host = tables_sub.add_parser(
        "host", help="a link that makes a phone the host of a table (its host's phone lost)",
        description="Prints a link (and its QR code) for one table: the phone that opens it"
                    " becomes the host, and the phone that was the host is host no more. It"
                    " serves once; make another for another phone.")
    host.add_argument("table", help="the table's id (the first column of `companion tables`)")
    host.add_argument("--data", default=argparse.SUPPRESS, **data)
    host.add_argument("--port", type=int, help="the port the companion serves on (default:"
                      " where it last served these tables)")
    host.add_argument("--no-qr", action="store_true", help="the link only, no QR code")
    host.set_defaults(run=_host)
    end = tables_sub.add_parser(
        "end", help="end a table left behind (the running companion ends it, log kept)",
        description="Ends one table through the running companion, as its host would: every"
                    " phone sees it end, and its log is kept (`companion tables --all`).")
    end.add_argument("table", help="the table's id (the first column of `companion tables`)")
    end.add_argument("--data", default=argparse.SUPPRESS, **data)
    end.add_argument("--port", type=int, help="the port the companion serves on (default:"
                     " where it last served these tables)")
    end.set_defaults(run=_end)
