"""A command-line value given as JSON or as the path of a file holding it (`rules --house`,
`narrate --option house=...`): one reading for every command that takes one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def _names_a_file(given: str) -> bool:
    """Whether ``given`` is the path of a file that exists. A text the system cannot look
    up as a name (too long, or holding a NUL byte, as a long JSON text may be) names none."""
    try:
        return Path(given).is_file()
    except (OSError, ValueError):
        return False


def json_object(given: str, what: str) -> dict[str, Any]:
    """``given`` as a JSON object: the text of the file it names, if it names a file that
    exists, else ``given`` itself. ValueError says what is wrong, naming ``what`` (the option,
    for example ``--house``)."""
    text = given
    if _names_a_file(given):
        try:
            text = Path(given).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise ValueError(f"{what}: cannot read {given}: {reason}") from None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        if given.endswith(".json") or "/" in given:  # meant as a file's name
            raise ValueError(f"{what}: there is no file {given}") from None
        raise ValueError(f"{what} is neither a JSON object nor a file holding one ({exc})"
                         ) from None
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be a JSON object, such as '{{\"coins\": {{...}}}}'")
    return value
