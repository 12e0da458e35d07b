"""The JSON API under /api/ (described by /api/openapi.json). The pages use it too."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, cast
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Response,
    current_app,
    jsonify,
    request,
    send_file,
    stream_with_context,
)

from companion import __version__
from companion.engine import all_games
from companion.runtime.service import Services
from companion.runtime.tables import Actor, LiveTable, TableError
from companion.web.openapi import openapi_document, request_schemas
from companion.web.schema import normalized, problem

log = logging.getLogger(__name__)

bp = Blueprint("api", __name__, url_prefix="/api")

COOKIE_AGE = 7 * 24 * 3600  # a game night, and the next if the phone is left as it is
STREAM_SECONDS = 300  # a live connection ends after this; the browser reconnects at once
KEEP_ALIVE = 5.0  # a comment this often: a phone that went away frees its thread soon


def services() -> Services:
    found: Services = current_app.extensions["companion"]
    return found


def cookie_names(table_id: str) -> tuple[str, str, str]:
    return f"gc_host_{table_id}", f"gc_seat_{table_id}", f"gc_watch_{table_id}"


def actor_for(table: LiveTable) -> Actor:
    host, seat, watch = cookie_names(table.id)
    return services().hub.actor(table, request.cookies.get(host), request.cookies.get(seat),
                                request.cookies.get(watch))


def set_cookie(response: Response, name: str, value: str) -> None:
    # HttpOnly: page scripts never see a token. SameSite=Strict: another site's page cannot
    # make a phone send it (with the JSON-only rule below, that is the CSRF defence).
    response.set_cookie(name, value, max_age=COOKIE_AGE, httponly=True, samesite="Strict",
                        path="/")


def body(schema: str) -> dict[str, Any]:
    """The request's JSON object, checked against its schema in the API's document (the
    document and the service agree by construction): 400 naming what is wrong."""
    try:  # strictly: bytes that are not UTF-8 are refused, never stored as U+FFFD
        text = request.get_data().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TableError(400, "bad_request", f"the body is not UTF-8 text (byte {exc.start})"
                         ) from None
    try:
        data = json.loads(text) if text.strip() else None
    except json.JSONDecodeError as exc:  # say where, as a client's developer needs it
        raise TableError(400, "bad_request", f"the body is not valid JSON: {exc.msg} at"
                                             f" character {exc.pos}") from None
    except RecursionError:  # "[[[[..." nested past Python's limit
        raise TableError(400, "bad_request", "the body's JSON is nested too deep") from None
    if not isinstance(data, dict):
        raise TableError(400, "bad_request", "the body must be a JSON object")
    if not _whole_unicode(data):
        raise TableError(400, "bad_request", "the body holds text that is not valid Unicode"
                                             " (a lone surrogate)")
    wrong = problem(data, request_schemas()[schema])
    if wrong:
        raise TableError(400, "bad_request", wrong)
    return cast(dict[str, Any], normalized(data, request_schemas()[schema]))


def _whole_unicode(value: Any) -> bool:
    """Whether every string in a JSON value can be written as UTF-8 (JSON's "\\ud800"
    escapes make lone surrogates, which the database and the pages cannot hold)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(_whole_unicode(k) and _whole_unicode(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_whole_unicode(v) for v in value)
    return True


def table_and_actor(table_id: str) -> tuple[LiveTable, Actor]:
    """The table, and the phone asking, which must have joined it."""
    table = services().hub.get(table_id)
    actor = actor_for(table)
    if not actor.admitted:
        raise TableError(403, "not_joined", "join the table with its PIN first")
    return table, actor


@bp.before_request
def refuse_cross_site_writes() -> None:
    """A state change must be JSON (a form on another site cannot send that without the
    browser asking first, and we never say yes) from a page of this companion."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    if not request.is_json:
        raise TableError(415, "json_only", "send the request body as application/json")
    origin = request.headers.get("Origin")
    if origin and urlsplit(origin).netloc != request.host:
        raise TableError(403, "cross_site", "requests from other sites are refused")


@bp.get("/health")
def health() -> Response:
    """The service is up."""
    return jsonify({"ok": True, "version": __version__})


@bp.get("/openapi.json")
def openapi() -> Response:
    """This API, described."""
    return jsonify(openapi_document())


@bp.get("/games")
def games() -> Response:
    """The games a table can be created for, with their options and house readings."""
    return jsonify([{"slug": g.info.slug, "title": g.info.title, "summary": g.info.summary,
                     "min_players": g.info.min_players, "max_players": g.info.max_players,
                     "deals_by_hand": g.info.deals_by_hand,
                     "options": [p.to_dict() for p in g.info.options],
                     "house_readings": [p.to_dict() for p in g.info.house_readings]}
                    for g in all_games()])


@bp.get("/tables")
def tables() -> Response:
    """The open tables (names and games only: joining needs the PIN)."""
    return jsonify([t.summary() for t in services().hub.tables()])


@bp.post("/tables")
def create_table() -> tuple[Response, int]:
    """Create a table; the creator becomes its host (a cookie) and gets the PIN."""
    data = body("NewTable")
    seats = [s.strip() for s in data["seats"]]
    table, host_token = services().hub.create(data["game"], seats, data.get("options", {}),
                                              data.get("name", ""),
                                              dealt_by_hand=data.get("dealt_by_hand", False),
                                              client=request.remote_addr or "")
    response = jsonify({**table.summary(), "pin": table.stored.pin})
    set_cookie(response, cookie_names(table.id)[0], host_token)
    return response, 201


@bp.get("/tables/<table_id>")
def table_state(table_id: str) -> Response:
    """The table as this phone may see it (its seat's secrets and no one else's)."""
    table, actor = table_and_actor(table_id)
    return jsonify(services().hub.snapshot(table, actor))


@bp.get("/tables/<table_id>/seats")
def seats(table_id: str) -> Response:
    """Which seats are free (what the join page needs; no PIN needed to see it)."""
    table = services().hub.get(table_id)
    actor = actor_for(table)
    return jsonify({**table.summary(), "taken": sorted(table.seat_keys), "you": {
        "seat": actor.seat, "host": actor.host, "joined": actor.admitted}})


@bp.post("/tables/<table_id>/join")
def join(table_id: str) -> Response:
    """With the PIN (or the code of the host's join QR code): take a free seat (a cookie for
    that seat only), or watch (seat null). A phone holds one seat; the host's phone may move
    to a free seat (to answer for a player who has left), and the seat it held is freed, to
    be taken back the same way (docs/decisions.md, "Cards dealt by hand")."""
    table = services().hub.get(table_id)
    data = body("Join")
    actor = actor_for(table)
    held = actor.seat
    wanted = data.get("seat")
    if held is not None and wanted is not None and (not actor.host or wanted == held):
        raise TableError(409, "already_seated", f"this phone already holds seat {held}")
    seat, token, watching = services().hub.join(table, data.get("pin"), wanted,
                                                 data.get("code"),
                                                 client=request.remote_addr or "")
    left = None
    if held is not None and seat is not None:  # the host moved: its old seat is free now
        services().hub.release_seat(table, actor, held)
        left = held
    response = jsonify({"seat": seat, "left": left})
    _, seat_cookie, watch_cookie = cookie_names(table.id)
    set_cookie(response, seat_cookie if seat is not None else watch_cookie, token)
    if seat is not None:  # a seat can always watch too
        set_cookie(response, watch_cookie, watching)
    return response


@bp.post("/tables/<table_id>/host")
def take_host(table_id: str) -> Response:
    """A host link (`companion tables host`): this phone becomes the host."""
    table = services().hub.get(table_id)
    token = services().hub.take_host(table, body("TakeHost")["code"])
    response = jsonify({"host": True})
    set_cookie(response, cookie_names(table.id)[0], token)
    return response


@bp.post("/tables/<table_id>/seats/<int:seat>/release")
def release(table_id: str, seat: int) -> Response:
    """The host frees a seat, so its player can join again from another phone."""
    table, actor = table_and_actor(table_id)
    body("Empty")
    services().hub.release_seat(table, actor, seat)
    return jsonify({"released": seat})


@bp.post("/tables/<table_id>/preview")
def preview(table_id: str) -> Response:
    """What an action would be logged as, or why it would be refused. Changes nothing."""
    table, actor = table_and_actor(table_id)
    return jsonify(services().hub.preview(table, actor, body("Preview")))


@bp.post("/tables/<table_id>/actions")
def act(table_id: str) -> tuple[Response, int]:
    """Do an action for your seat (or, as host, a table action). `expect` is the version the
    phone shows; a stale or repeated request is refused with 409 and changes nothing."""
    table, actor = table_and_actor(table_id)
    record = services().hub.act(table, actor, body("Action"))
    return jsonify({"record": record, "version": table.seen_version(actor)}), 201


@bp.post("/tables/<table_id>/pass")
def pass_answer(table_id: str) -> Response:
    """Your seat passes on the answers it was offered (a Shield, a bluff call), for every
    phone to see until the table moves on. Changes nothing in the game."""
    table, actor = table_and_actor(table_id)
    services().hub.pass_answer(table, actor, body("Pass"))
    return jsonify({"passed": table.passed()})


@bp.post("/tables/<table_id>/undo")
def undo(table_id: str) -> Response:
    """The host takes back the last action (one that showed hidden cards only with a reason,
    which every phone's log shows)."""
    table, actor = table_and_actor(table_id)
    result = services().hub.undo(table, actor, body("Undo"))
    return jsonify({**result, "version": table.seen_version(actor)})


@bp.post("/tables/<table_id>/end")
def end(table_id: str) -> Response:
    """The host ends the table; it stays readable."""
    table, actor = table_and_actor(table_id)
    body("Empty")
    services().hub.end(table, actor)
    return jsonify({"ended": True})


@bp.get("/tables/<table_id>/history")
def history(table_id: str) -> Response:
    """The whole log as this phone may see it."""
    table, actor = table_and_actor(table_id)
    return jsonify(table.history(actor))


@bp.get("/tables/<table_id>/rules")
def rules(table_id: str) -> Response:
    """The rules summary as this table plays them, house readings marked; ``house``: this
    table's own house edits, in words."""
    table, _ = table_and_actor(table_id)
    return jsonify(table.rules())


@bp.get("/tables/<table_id>/export")
def export(table_id: str) -> Response:
    """The transcript: complete (with the seed) for the host once the table has ended; until
    then, this phone's own view of the log."""
    table, actor = table_and_actor(table_id)
    return jsonify(services().hub.export(table, actor))


@bp.post("/tables/<table_id>/narration")
def narration(table_id: str) -> Response:
    """Start an eyes-closed phase (host: {"start": "prologue"}) or steer the one playing
    (host and players: {"command": "pause" | "resume" | "repeat" | "skip" | "stop"})."""
    table, actor = table_and_actor(table_id)
    data = body("Narration")
    if "start" in data:
        return jsonify(services().narration.start(table, actor, data["start"]))
    return jsonify(services().narration.control(table, actor, data["command"]))


@bp.get("/tables/<table_id>/narration.wav")
def narration_wav(table_id: str) -> Response:
    """The narration mixed for the host's phone, when the companion has no speaker."""
    table, actor = table_and_actor(table_id)
    if not actor.host:
        raise TableError(403, "host_only", "the narration plays on the host's phone")
    return send_file(services().narration.wav_path(table), mimetype="audio/wav")


@bp.post("/tables/<table_id>/camera")
def camera(table_id: str) -> Response:
    """The host points the companion's camera at this table ({"use": false}: lets it go)."""
    table, actor = table_and_actor(table_id)
    services().camera.attach(table, actor, body("Camera").get("use", True))
    return jsonify(services().camera.extras(table, actor))


def _camera_watches(table: LiveTable) -> None:
    """The dice reader belongs to the companion's one camera: taught only from its table."""
    if services().camera.table_id != table.id:
        raise TableError(409, "camera_elsewhere", "the camera is not watching this table")


@bp.post("/tables/<table_id>/camera/dice-adapt")
def dice_adapt(table_id: str) -> Response:
    """The host fits the pip reader to this table's confirmed dice ({"rollback": true}: goes
    back to the reader before); says what happened, or why nothing changed."""
    table, actor = table_and_actor(table_id)
    rollback = body("DiceAdapt").get("rollback", False)
    _camera_watches(table)
    return jsonify({"message": services().camera.adapt_dice(actor, rollback=rollback)})


@bp.post("/tables/<table_id>/camera/dice-example")
def dice_example(table_id: str) -> Response:
    """The host says what one die of a roll the camera read really shows ({"reading",
    "index", "value"}: 1 to 6, or 0 for no die at all): an example for the reader to learn."""
    table, actor = table_and_actor(table_id)
    taught = body("DiceExample")
    _camera_watches(table)
    return jsonify({"message": services().camera.teach_die(
        actor, taught["reading"], taught["index"], taught["value"])})


@bp.get("/tables/<table_id>/camera.jpg")
def camera_snapshot(table_id: str) -> Response:
    """What the camera sees now (small), for the table it is attached to."""
    table, _ = table_and_actor(table_id)
    camera_service = services().camera
    jpeg = camera_service.snapshot_jpeg() if camera_service.table_id == table.id else None
    if jpeg is None:
        raise TableError(404, "no_frame", "the camera has no picture for this table")
    return Response(jpeg, mimetype="image/jpeg")


@bp.get("/tables/<table_id>/events")
def events(table_id: str) -> Response:
    """Server-sent events: the table as this phone may see it, now and whenever that changes."""
    table, actor = table_and_actor(table_id)
    hub = services().hub
    host, seat, watch = (request.cookies.get(n) for n in cookie_names(table.id))
    streams: StreamLimits = current_app.extensions["companion_streams"]
    # Who the phone is, as its valid cookies prove (not what it sends): a seat or the host is
    # one phone wherever it is; watchers share one cookie, so each is told apart by address.
    who = (f"seat {actor.seat}" if actor.seat is not None else "host" if actor.host
           else f"watcher {request.remote_addr}")
    release = streams.take((table.id, who), request.remote_addr or "")

    def stream() -> Iterator[str]:
        try:
            seen, sent, number = -1, "", 0
            start = time.monotonic()
            beat, stop = start + KEEP_ALIVE, start + STREAM_SECONDS
            yield "retry: 1000\n\n"
            while time.monotonic() < stop:
                changes = table.wait(seen, max(0.0, beat - time.monotonic()))
                if changes != seen:
                    seen = changes
                    # Who the phone is, checked again each time: a freed seat stops seeing
                    # its secrets.
                    actor = hub.actor(table, host, seat, watch)
                    if not actor.admitted:
                        yield "event: gone\ndata: {}\n\n"
                        return
                    final = table.ended  # read first: the snapshot then shows the end
                    payload = json.dumps(hub.snapshot(table, actor))
                    if payload != sent:  # else nothing this phone can see changed: say nothing
                        sent, number = payload, number + 1
                        yield f"id: {number}\nevent: state\ndata: {payload}\n\n"
                    if final:
                        # Nothing changes any more: free the connection (and its thread) at
                        # once; the phone stops asking rather than reconnecting.
                        yield "event: ended\ndata: {}\n\n"
                        return
                if time.monotonic() >= beat:
                    # On a clock of its own, never moved by a change: the comments' timing
                    # must not tell a phone that something it cannot see happened.
                    beat += KEEP_ALIVE
                    yield ": still here\n\n"  # also finds a phone that has gone away
        finally:
            release()

    response = Response(stream_with_context(stream()), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(release)  # also when the stream never started
    return response


class StreamLimits:
    """Live connections hold a server thread each: at most `per_phone` for one phone (its
    cookies), half of `total` for one address (a script holding every seat of tables it made
    from one machine would leave the real phones none), and `total` in all, so a flood of
    them cannot starve the other requests. A phone refused updates by asking instead."""

    def __init__(self, total: int, per_phone: int = 3) -> None:
        self.total = total
        self.per_phone = per_phone
        self.per_address = max(per_phone, total // 2)
        self._open: dict[object, int] = {}
        self._by_address: dict[object, int] = {}
        self._warned: dict[str, float] = {}  # address -> when its refusal was last logged
        self._lock = threading.Lock()

    def take(self, phone: object, address: str = "") -> Callable[[], None]:
        with self._lock:
            full: str | None = None
            if sum(self._open.values()) >= self.total:
                full = "every live connection is taken"
            elif self._by_address.get(address, 0) >= self.per_address:
                full = f"{address} holds {self.per_address} live connections"
            elif self._open.get(phone, 0) >= self.per_phone:
                full = ""  # one phone's own tabs beyond its three are no news to the log
            if full is not None:
                now = time.monotonic()
                # once a minute per address: a refused phone tries again every 30 s
                if full and now - self._warned.get(address, -60.0) >= 60:
                    self._warned = {a: t for a, t in self._warned.items() if now - t < 60}
                    self._warned[address] = now
                    log.warning("a live connection refused (%s): that phone asks instead", full)
                raise TableError(503, "busy", "too many live connections: this phone updates"
                                              " by asking instead")
            self._open[phone] = self._open.get(phone, 0) + 1
            self._by_address[address] = self._by_address.get(address, 0) + 1
        done = threading.Event()

        def release() -> None:
            if done.is_set():
                return
            done.set()
            with self._lock:
                for counts, key in ((self._open, phone), (self._by_address, address)):
                    counts[key] -= 1
                    if not counts[key]:
                        del counts[key]

        return release
