"""`companion serve`: the table service for the phones, on the local network."""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time

from companion.settings import SettingsError, data_dir, load_settings, settings_warnings

log = logging.getLogger("companion")


def _serve(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    # Loaded here, not at import: `companion --help` must not wait for the whole service.
    from companion.runtime.service import Services, one_malloc_arena, record_serving
    from companion.storage import StorageError

    one_malloc_arena()  # before any thread starts: memory stays flat over a long evening

    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not args.verbose:  # a phone leaving its page is no news: "Client disconnected ..."
        logging.getLogger("waitress").setLevel(logging.WARNING)
    try:
        settings = load_settings().with_options(host=args.host, port=args.port, data=args.data)
        for warning in settings_warnings():
            log.warning("settings: %s", warning)
        data = data_dir(settings.data or None)
        services = Services.build(settings, data)
    except (SettingsError, StorageError, OSError, ValueError) as exc:
        print(f"companion serve: {exc}", file=sys.stderr)
        return 2
    import waitress

    from companion.web import create_app
    from companion.web.pages import phones_address

    app = create_app(services)
    try:
        # Listening first: the phones' address is logged only once it answers. Each phone's
        # live connection holds a thread while it is open.
        server = waitress.create_server(
            app, host=settings.host, port=settings.port, threads=settings.threads,
            ident="companion", channel_timeout=3600, clear_untrusted_proxy_headers=True)
    except (OSError, ValueError) as exc:
        services.close()
        print(f"companion serve: cannot listen on {settings.host}:{settings.port}: {exc}"
              " (is another companion running? choose another --port; --host is an address"
              " of this machine, or 0.0.0.0)", file=sys.stderr)
        return 2
    # What it writes from now on no other user may read (a table's photos of dice, its
    # exports), as the Pi's unit says (UMask=0027): a desktop's umask lets everyone read.
    # The database and key are kept private by Services.build.
    os.umask(0o027)
    services.start()
    try:  # for `companion tables host`: a convenience, never a reason not to serve
        record_serving(data, settings.host, settings.port)
    except OSError as exc:
        log.warning("cannot note the port served on in %s (%s): `companion tables host`"
                    " links to the settings' port", data, exc)
    tables = services.hub.tables()
    log.info("data in %s; %d open table(s)", data, len(tables))
    log.info("phones: open http://%s:%d/ (ready in %.2f s)", phones_address(settings.host),
             settings.port, time.perf_counter() - started)
    try:
        server.run()  # until Ctrl-C or the service manager stops it
    finally:
        log.info("stopping: every table is kept as it is")
        services.close()
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    serve = sub.add_parser(
        "serve", help="run the table service for the players' phones",
        description="Serve the phone dashboard and its API on the local network (waitress)."
                    " Settings also come from the settings file and COMPANION_* variables"
                    " (docs/service.md).")
    serve.add_argument("--host", help="address to listen on (default 0.0.0.0: the network)")
    serve.add_argument("--port", type=int, help="port (default 8000)")
    serve.add_argument("--data", metavar="DIR", help="the data directory (database, key)")
    serve.add_argument("--verbose", action="store_true", help="log more")
    serve.set_defaults(run=_serve)
