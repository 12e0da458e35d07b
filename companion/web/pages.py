"""The phone pages: a home page (tables, a new table) and one page per table. The pages are
shells; their script draws everything from the JSON API and its live events."""

from __future__ import annotations

import io
import ipaddress
import socket

import segno
from flask import Blueprint, Response, abort, render_template, request

from companion.web.api import actor_for, services

bp = Blueprint("pages", __name__)


def lan_address() -> str:
    """This machine's address on the local network (what a phone can reach; a `.local` name
    often fails on Android), or 127.0.0.1 when it has none."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # no packet is sent: this only picks a route
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def phones_address(host: str) -> str:
    """Where phones reach a companion listening on ``host``: its address on the network when
    it listens on all of them."""
    return lan_address() if host in ("0.0.0.0", "::") else host


def join_url(table_id: str) -> str:
    host = request.host
    name, _, port = host.rpartition(":") if host.count(":") == 1 else (host, "", "")
    try:
        local = ipaddress.ip_address(name).is_loopback
    except ValueError:
        local = name in ("localhost", "") or name.endswith(".local")
    if local:
        host = lan_address() + (f":{port}" if port else "")
    return f"{request.scheme}://{host}/t/{table_id}"


@bp.get("/")
def home() -> str:
    """The tables on this companion, and a form for a new one."""
    return render_template("home.html")


@bp.get("/t/<table_id>")
def table(table_id: str) -> str:
    """One table: join, then the table, your seat, history, narration, the camera."""
    found = services().hub.get(table_id)
    return render_template("table.html", table=found.summary(), join_url=join_url(table_id))


@bp.get("/t/<table_id>/join.svg")
def join_code(table_id: str) -> Response:
    """A QR code of the table's address with its join code, for phones to scan from the
    host's screen: it joins without the PIN, so only the host gets it."""
    table = services().hub.get(table_id)
    if not actor_for(table).host:
        abort(403)
    out = io.BytesIO()
    segno.make(f"{join_url(table_id)}?join={table.join_code}", error="m").save(
        out, kind="svg", scale=6, border=2, dark="#000", light="#fff")
    return Response(out.getvalue(), mimetype="image/svg+xml")


@bp.get("/favicon.ico")
def favicon() -> Response:
    abort(404)
