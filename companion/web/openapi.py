"""The OpenAPI document of /api/ (served at /api/openapi.json, fuzzed by the tests)."""

from __future__ import annotations

from typing import Any

from companion import __version__
from companion.engine import all_games


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _ok(description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"description": description, **(_json(schema) if schema else {})}


_ERRORS = {
    "400": _ok("Malformed request", _ref("Error")),
    "403": _ok("Not allowed for this phone", _ref("Error")),
    "404": _ok("No such table", _ref("Error")),
    "409": _ok("Stale version, seat taken, or nothing to undo", _ref("Error")),
    "410": _ok("The table has ended", _ref("Error")),
    "413": _ok("Body too large", _ref("Error")),
    "415": _ok("Not JSON", _ref("Error")),
    "422": _ok("Well formed, but refused by the rules or the game's setup (the message"
               " says why)", _ref("Error")),
    "429": _ok("Too many wrong PINs, too many open tables, or too many games in play"
               " started by this phone", _ref("Error")),
    "503": _ok("The database refused a write; nothing changed", _ref("Error")),
}

_TABLE_ID = {"name": "table_id", "in": "path", "required": True,
             "schema": {"type": "string", "pattern": "^[0-9a-f]{8}$"}}
_ANY = {"type": "object", "additionalProperties": True}


def _op(summary: str, responses: dict[str, Any], body: dict[str, Any] | None = None,
        table: bool = True, errors: tuple[str, ...] = ("400", "403", "404")) -> dict[str, Any]:
    op: dict[str, Any] = {"summary": summary,
                          "responses": {**responses, **{c: _ERRORS[c] for c in errors}}}
    if table:
        op["parameters"] = [_TABLE_ID]
    if body is not None:
        op["requestBody"] = {"required": True, **_json(body)}
    return op


def request_schemas() -> dict[str, dict[str, Any]]:
    """What each request body may hold: the service checks every body against these
    (web/schema.py), so the document and the server never disagree."""
    games = all_games()
    action = {
        "type": "object", "additionalProperties": False, "required": ["name", "expect"],
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 64,
                     "description": "the action's name, from the view's `actions`"},
            "seat": {"type": ["integer", "null"], "minimum": 0,
                     "description": "your seat; null for a table action (host only)"},
            "params": {"type": "object"},
            "expect": {"type": "integer", "description": "the table's `version` you saw"},
        },
    }
    expect_only = {"type": "object", "additionalProperties": False, "required": ["expect"],
                   "properties": {"expect": {"type": "integer"}}}
    return {
        "NewTable": {
            "type": "object", "additionalProperties": False, "required": ["game", "seats"],
            "properties": {
                "game": {"type": "string", "enum": [g.info.slug for g in games]},
                # Two seats of one name are the game's refusal (422), in its words: the
                # names are compared as read, "Ann" and "ann" too.
                "seats": {"type": "array",
                          "minItems": min((g.info.min_players for g in games), default=1),
                          "maxItems": max((g.info.max_players for g in games), default=8),
                          # Not blank (the same class in Python and in JSON Schema's regex).
                          "items": {"type": "string", "minLength": 1, "maxLength": 24,
                                    "pattern": "[^ \t\r\n]",
                                    "description": "a player's name, not blank"}},
                "options": {"type": "object"},
                "name": {"type": "string", "maxLength": 60},
                "dealt_by_hand": {"type": "boolean"}}},
        "Join": {
            "type": "object", "additionalProperties": False,
            "properties": {"pin": {"type": "string", "maxLength": 32},
                           "code": {"type": "string", "maxLength": 64},
                           "seat": {"type": ["integer", "null"], "minimum": 0}}},
        "TakeHost": {
            "type": "object", "additionalProperties": False, "required": ["code"],
            "properties": {"code": {"type": "string", "maxLength": 64}}},
        "Action": action,
        "Preview": {**action, "required": ["name"]},
        "Undo": {"type": "object", "additionalProperties": False, "required": ["expect"],
                 "properties": {
                     "expect": {"type": "integer"},
                     # Only with a reason may a step that showed hidden cards be undone: a
                     # wrong input corrected, in the open (everyone has seen what it showed).
                     "reason": {"type": "string", "maxLength": 200,
                                "description": "why: needed to undo a step that showed"
                                               " something hidden; in everyone's log"}}},
        "Pass": expect_only,
        "Narration": {"oneOf": [
            {"type": "object", "additionalProperties": False, "required": ["start"],
             "properties": {"start": {"type": "string", "minLength": 1, "maxLength": 64,
                                      "description": "a phase from `narration.phases`"}}},
            {"type": "object", "additionalProperties": False, "required": ["command"],
             "properties": {"command": {"type": "string",
                                        "enum": ["pause", "resume", "repeat", "skip",
                                                 "stop"]}}}]},
        "Camera": {"type": "object", "additionalProperties": False,
                   "properties": {"use": {"type": "boolean"}}},
        "DiceAdapt": {"type": "object", "additionalProperties": False,
                      "properties": {"rollback": {"type": "boolean"}}},
        "DiceExample": {
            "type": "object", "additionalProperties": False,
            "required": ["reading", "index", "value"],
            "properties": {
                "reading": {"type": "integer", "minimum": 1,
                            "description": "a roll's `id` from the camera's `readings`"},
                "index": {"type": "integer", "minimum": 0, "maximum": 99,
                        "description": "the die's place in that roll's `dice`, from 0"},
                "value": {"type": "integer", "minimum": 0, "maximum": 6,
                          "description": "what it shows, 1 to 6; 0: it is no die"}}},
        "Empty": {"type": "object", "additionalProperties": False},
    }


def _with_links(document: dict[str, Any]) -> dict[str, Any]:
    """Every operation named, and the created table's id linked to each operation on a
    table: how a client (and schemathesis' stateful tests) goes from creating a table to
    using it."""
    linked = {}
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            name = f"{method}_{path.removeprefix('/api/')}".replace("/", "_")
            operation["operationId"] = "".join(c if c.isalnum() else "_" for c in name)
            if "{table_id}" in path:
                linked[operation["operationId"]] = {
                    "operationId": operation["operationId"],
                    "parameters": {"path.table_id": "$response.body#/id"}}
    document["paths"]["/api/tables"]["post"]["responses"]["201"]["links"] = linked
    return document


def openapi_document() -> dict[str, Any]:
    writes = ("400", "403", "404", "409", "410", "413", "415", "422", "503")
    return _with_links({
        "openapi": "3.1.0",
        "info": {"title": "Gambit Table Companion", "version": __version__,
                 "description": "The table service's JSON API. Errors are"
                                " {\"error\": code, \"message\": text} with a 4xx status; a"
                                " refused request changes nothing. Identity is by cookies"
                                " (host, seat, watcher) that the create and join calls set."},
        "paths": {
            "/api/health": {"get": _op("The service is up", {"200": _ok("Up", _ANY)},
                                       table=False, errors=())},
            "/api/openapi.json": {"get": _op("This document", {"200": _ok("OpenAPI", _ANY)},
                                             table=False, errors=())},
            "/api/games": {"get": _op("Games, their table options and house readings",
                                      {"200": _ok("Games", {"type": "array", "items": _ANY})},
                                      table=False, errors=())},
            "/api/tables": {
                "get": _op("Open tables", {"200": _ok("Tables", {"type": "array",
                                                                 "items": _ref("Summary")})},
                           table=False, errors=()),
                "post": _op("Create a table; you become its host",
                            {"201": _ok("Created", _ANY)}, _ref("NewTable"), table=False,
                            errors=("400", "413", "415", "422", "429", "503")),
            },
            "/api/tables/{table_id}": {"get": _op(
                "The table as this phone may see it: `view` is the table view for its seat"
                " (docs/table-view.md)", {"200": _ok("Snapshot", _ANY)})},
            "/api/tables/{table_id}/seats": {"get": _op("Free and taken seats",
                                                        {"200": _ok("Seats", _ANY)},
                                                        errors=("404",))},
            "/api/tables/{table_id}/join": {"post": _op(
                "Join with the PIN (or the code of the host's QR code): a seat, or watch"
                " (seat null). The host's phone may move to a free seat: `left` is the seat"
                " it held, now free", {"200": _ok("Joined", _ANY)}, _ref("Join"),
                errors=(*writes, "429"))},
            "/api/tables/{table_id}/host": {"post": _op(
                "With a host link's code (`companion tables host`): this phone becomes the"
                " host, and the phone that was is host no more", {"200": _ok("Host", _ANY)},
                _ref("TakeHost"), errors=writes)},
            "/api/tables/{table_id}/seats/{seat}/release": {"post": {
                **_op("The host frees a seat", {"200": _ok("Freed", _ANY)}, _ref("Empty"),
                      errors=writes),
                "parameters": [_TABLE_ID, {"name": "seat", "in": "path", "required": True,
                                           "schema": {"type": "integer", "minimum": 0}}]}},
            "/api/tables/{table_id}/preview": {"post": _op(
                "What an action would be logged as; changes nothing",
                {"200": _ok("Preview", _ANY)}, _ref("Preview"), errors=writes)},
            "/api/tables/{table_id}/actions": {"post": _op(
                "Do an action", {"201": _ok("Done", _ANY)}, _ref("Action"), errors=writes)},
            "/api/tables/{table_id}/pass": {"post": _op(
                "Your seat passes on the answers it was offered, for every phone to see until"
                " the table moves on; changes nothing in the game",
                {"200": _ok("Passed", _ANY)}, _ref("Pass"), errors=writes)},
            "/api/tables/{table_id}/undo": {"post": _op(
                "The host undoes the last action (one that showed something hidden only"
                " with a reason)", {"200": _ok("Undone", _ANY)},
                _ref("Undo"), errors=writes)},
            "/api/tables/{table_id}/end": {"post": _op("The host ends the table",
                                                       {"200": _ok("Ended", _ANY)},
                                                       _ref("Empty"), errors=writes)},
            "/api/tables/{table_id}/history": {"get": _op(
                "The log as this phone may see it",
                {"200": _ok("History", {"type": "array", "items": _ANY})})},
            "/api/tables/{table_id}/rules": {"get": _op(
                "The rules summary as this table plays them (its options and house edits),"
                " house readings marked",
                {"200": _ok("Rules", {"type": "object", "required": ["title", "text"],
                                      "properties": {"title": {"type": "string"},
                                                     "text": {"type": "string"}}})})},
            "/api/tables/{table_id}/export": {"get": _op("The transcript this phone may have",
                                                         {"200": _ok("Export", _ANY)})},
            "/api/tables/{table_id}/narration": {"post": _op(
                "Start an eyes-closed phase (host) or steer the one playing",
                {"200": _ok("Narration status", _ANY)}, _ref("Narration"), errors=writes)},
            "/api/tables/{table_id}/narration.wav": {"get": {
                **_op("The narration for the host's phone (when there is no speaker)",
                      {"200": {"description": "A WAV file",
                               "content": {"audio/wav": {"schema": {"type": "string"}}}}})}},
            "/api/tables/{table_id}/camera": {"post": _op(
                "The host points the camera at this table", {"200": _ok("Camera", _ANY)},
                _ref("Camera"), errors=writes)},
            "/api/tables/{table_id}/camera/dice-adapt": {"post": _op(
                "The host fits the pip reader to this table's confirmed dice (or rolls back)",
                {"200": _ok("What happened", {"type": "object", "required": ["message"],
                                              "properties": {"message": {"type": "string"}}})},
                _ref("DiceAdapt"), errors=writes)},
            "/api/tables/{table_id}/camera/dice-example": {"post": _op(
                "The host says what one die of a roll the camera read really shows (or that"
                " it is no die): kept for the pip reader to learn",
                {"200": _ok("What was kept", {"type": "object", "required": ["message"],
                                              "properties": {"message": {"type": "string"}}})},
                _ref("DiceExample"), errors=writes)},
            "/api/tables/{table_id}/camera.jpg": {"get": {
                **_op("What the camera sees now",
                      {"200": {"description": "A JPEG",
                               "content": {"image/jpeg": {"schema": {"type": "string"}}}}})}},
            "/api/tables/{table_id}/events": {"get": {
                **_op("Live updates (server-sent events: `state` with a snapshot)",
                      {"200": {"description": "An event stream",
                               "content": {"text/event-stream": {"schema": {"type": "string"}}}}}),
                "x-stream": True}},
        },
        "components": {"schemas": {
            "Error": {"type": "object", "required": ["error", "message"],
                      "properties": {"error": {"type": "string"},
                                     "message": {"type": "string"},
                                     "detail": {"type": "string",
                                                "description": "the engine's own sentence,"
                                                               " when the message is in"
                                                               " players' words"}}},
            "Summary": {"type": "object", "required": ["id", "name", "game", "seats"],
                        "properties": {"id": {"type": "string"}, "name": {"type": "string"},
                                       "game": {"type": "string"},
                                       "seats": {"type": "array", "items": {"type": "string"}}}},
            **request_schemas(),
        }},
    })
