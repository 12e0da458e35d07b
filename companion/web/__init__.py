"""The phone dashboard and its JSON API: a thin Flask shell over the runtime.

`create_app(services)` takes everything it needs; nothing is created at import time.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import logging
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from companion.runtime.service import Services
from companion.runtime.tables import TableError
from companion.storage import StorageError

log = logging.getLogger(__name__)

MAX_BODY = 64 * 1024  # bytes: the largest request body the service reads


def create_app(services: Services, testing: bool = False) -> Flask:
    from companion.web import api, pages

    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=services.secret,
        MAX_CONTENT_LENGTH=MAX_BODY,
        TESTING=testing,
    )
    app.json.sort_keys = False  # type: ignore[attr-defined]  # keep the API's field order
    app.extensions["companion"] = services
    # Leave threads for ordinary requests however many phones hold live connections.
    app.extensions["companion_streams"] = api.StreamLimits(
        total=max(4, services.settings.threads - 8))
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)

    @app.errorhandler(TableError)
    def table_error(exc: TableError) -> Any:
        if request.endpoint == "pages.table" and exc.code in ("not_found", "not_rebuilt"):
            # a page, for the phone that scanned an old QR code or opened a damaged table
            return render_template("missing.html", damaged=exc.code == "not_rebuilt"), exc.status
        return error_response(exc.status, exc.code, exc.message, exc.detail)

    @app.errorhandler(StorageError)
    def storage_error(exc: StorageError) -> tuple[Response, int]:
        log.error("storage: %s", exc)
        return error_response(503, "storage", f"nothing was changed: {exc}")

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        if request.path.startswith("/api/"):
            code = (exc.name or "error").lower().replace(" ", "_")
            # Werkzeug's words are for a web browser's user; these are the API's.
            words = {404: "no such address in the companion's API (its document:"
                          " /api/openapi.json)",
                     413: f"the body is over {MAX_BODY // 1024} KB: nothing was read"}
            response, status = error_response(exc.code or 500, code,
                                              words.get(exc.code or 500, exc.description
                                                        or exc.name))
            for name, value in exc.get_headers():  # a 405's Allow, say
                if name.lower() != "content-type":
                    response.headers[name] = value
            return response, status
        return exc

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> tuple[Response, int]:
        log.exception("unexpected error on %s %s", request.method, request.path)
        return error_response(500, "internal", "something went wrong inside the companion;"
                                               " nothing was changed, and the log says what")

    @app.url_defaults
    def versioned_static(endpoint: str, values: dict[str, Any]) -> None:
        # A static file's address names its content, so phones keep it for a year and fetch
        # it again only when it changes.
        if endpoint == "static" and "filename" in values:
            values["v"] = static_version(app, values["filename"])

    @app.after_request
    def compress_and_cache(response: Response) -> Response:
        if request.endpoint == "static" and request.args.get("v"):
            response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
        return gzipped(response)

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:;"
            " style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'")
        if request.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    return app


COMPRESSED = ("application/json", "text/html", "text/css", "text/javascript",
              "application/javascript", "image/svg+xml")


def gzipped(response: Response) -> Response:
    """The response gzipped for a phone that takes it (the live stream is left alone: it is
    small messages over a long time)."""
    if (response.is_streamed and not response.direct_passthrough) or response.status_code >= 300 \
            or "gzip" not in request.headers.get("Accept-Encoding", "") \
            or response.mimetype not in COMPRESSED or "Content-Encoding" in response.headers:
        return response
    response.direct_passthrough = False  # a static file: read it to compress it
    data = response.get_data()
    if len(data) < 512:
        return response
    response.set_data(gzip.compress(data, compresslevel=6))
    response.headers["Content-Encoding"] = "gzip"
    response.headers.add("Vary", "Accept-Encoding")
    return response


@functools.cache
def _file_version(path: str, mtime: float) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def static_version(app: Flask, filename: str) -> str:
    path = Path(app.static_folder or "") / filename
    try:
        return _file_version(str(path), path.stat().st_mtime)
    except OSError:
        return "0"


def error_response(status: int, code: str, message: str,
                   detail: str = "") -> tuple[Response, int]:
    """The API's error: a code, a message for the person holding the phone, and where that
    was put in players' words, the engine's own sentence (`detail`)."""
    body = {"error": code, "message": message, **({"detail": detail} if detail else {})}
    return jsonify(body), status
