"""The phone dashboard and its JSON API: a thin Flask shell over the runtime.

`create_app(services)` takes everything it needs; nothing is created at import time.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, jsonify, request
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
    def table_error(exc: TableError) -> tuple[Response, int]:
        return error_response(exc.status, exc.code, exc.message, exc.detail)

    @app.errorhandler(StorageError)
    def storage_error(exc: StorageError) -> tuple[Response, int]:
        log.error("storage: %s", exc)
        return error_response(503, "storage", f"nothing was changed: {exc}")

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        if request.path.startswith("/api/"):
            code = (exc.name or "error").lower().replace(" ", "_")
            response, status = error_response(exc.code or 500, code,
                                              exc.description or exc.name)
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


def error_response(status: int, code: str, message: str,
                   detail: str = "") -> tuple[Response, int]:
    """The API's error: a code, a message for the person holding the phone, and where that
    was put in players' words, the engine's own sentence (`detail`)."""
    body = {"error": code, "message": message, **({"detail": detail} if detail else {})}
    return jsonify(body), status
