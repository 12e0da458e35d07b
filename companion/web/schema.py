"""Request bodies checked against the API's own OpenAPI document (openapi.py), so what the
document says a request may hold and what the service accepts are one thing.

A small JSON Schema subset, the one the document uses: type (one or a list), enum, required,
properties, additionalProperties (false, or a schema), items, minItems, maxItems,
uniqueItems, minLength, maxLength, pattern, minimum, maximum, oneOf.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from companion.engine.actions import as_json

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,), "array": (list,), "string": (str,), "boolean": (bool,),
    "integer": (int,), "number": (int, float), "null": (type(None),)}


def _is(value: Any, kind: str) -> bool:
    if kind in ("integer", "number") and isinstance(value, bool):
        return False
    if kind == "integer" and isinstance(value, float):
        return value.is_integer()  # JSON Schema's integers include 3.0
    return isinstance(value, _TYPES[kind])


def normalized(value: Any, schema: Mapping[str, Any]) -> Any:
    """``value`` (that fits ``schema``) with every whole number where the schema wants an
    integer made an int: 3.0 and 3 are the same integer to JSON Schema, not to Python."""
    kinds = schema.get("type")
    if isinstance(value, float) and value.is_integer() and kinds is not None and "integer" in (
            [kinds] if isinstance(kinds, str) else kinds):
        return int(value)
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        return {k: normalized(v, properties[k]) if k in properties else v
                for k, v in value.items()}
    if isinstance(value, list) and "items" in schema:
        return [normalized(v, schema["items"]) for v in value]
    return value


def problem(value: Any, schema: Mapping[str, Any], where: str = "the body") -> str | None:
    """Why ``value`` does not fit ``schema``, in words naming the field; None when it does."""
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if not any(_is(value, k) for k in kinds):
            return f"{where} must be {' or '.join(kinds)}"
    if "enum" in schema and value not in schema["enum"]:
        shown = ", ".join(map(str, schema["enum"][:12]))
        given = as_json(value)
        return f"{where} must be one of {shown}, not {given if len(given) <= 40 else 'that'}"
    if "oneOf" in schema:
        fits = [s for s in schema["oneOf"] if problem(value, s, where) is None]
        if len(fits) != 1:
            return problem(value, schema["oneOf"][0], where) if not fits else \
                f"{where} fits more than one form"
    if isinstance(value, str):
        if "description" in schema and (len(value) < schema.get("minLength", 0) or (
                "pattern" in schema and not re.search(schema["pattern"], value))):
            return f"{where} must be {schema['description']}"  # in the players' words
        if len(value) < schema.get("minLength", 0):
            return f"{where} is too short"
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            return f"{where} is longer than {schema['maxLength']} characters"
        if "pattern" in schema and not re.search(schema["pattern"], value):
            return f"{where} is not in the expected form"
    elif isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            return f"{where} must be at least {schema['minimum']}"
        if "maximum" in schema and value > schema["maximum"]:
            return f"{where} must be at most {schema['maximum']}"
    elif isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            return f"{where} needs at least {schema['minItems']} items"
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            return f"{where} takes at most {schema['maxItems']} items"
        if schema.get("uniqueItems") and len({repr(v) for v in value}) != len(value):
            return f"{where} holds the same item twice"
        for index, item in enumerate(value):
            found = problem(item, schema.get("items", {}), f"{where}[{index}]")
            if found:
                return found
    elif isinstance(value, dict):
        for name in schema.get("required", ()):
            if name not in value:
                return f"{where} needs \"{name}\""
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for name, item in value.items():
            field = f"\"{name}\""
            if name in properties:
                found = problem(item, properties[name], field)
            elif extra is False:
                found = f"unknown field {field}"
            else:
                found = problem(item, extra, field) if isinstance(extra, Mapping) else None
            if found:
                return found
    return None
