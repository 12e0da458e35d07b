"""Transcripts: JSON Lines, a setup line then one action or observation per line.

Blank lines and lines starting with ``#`` are comments. A table's export (one JSON object,
``setup`` and ``actions``) replays too. See docs/transcripts.md.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.engine.actions import Action
from companion.engine.errors import RulesError
from companion.engine.rules import GameSetup
from companion.engine.session import TableSession

_SETUP_FIELDS = ("game", "seats", "options", "seed", "deal", "book")


class TranscriptError(RulesError):
    """A transcript line that cannot be read or is refused by the rules."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass(frozen=True)
class ReplayResult:
    """A replayed transcript: the session up to the first refused line, and that refusal."""

    session: TableSession | None
    error: TranscriptError | None
    # The setup gave no seed and no deal: the session dealt with a seed drawn at random.
    seed_drawn: bool = False


def parse_setup(data: Any) -> GameSetup:
    """The setup line's object as a GameSetup; raises RulesError naming what is wrong."""
    if not isinstance(data, dict):
        raise RulesError("the first line must be an object naming the game and its seats")
    unknown = sorted(set(data) - set(_SETUP_FIELDS))
    if unknown:
        raise RulesError(f"unknown field {unknown[0]!r} in the setup line")
    game = data.get("game")
    if not isinstance(game, str):
        raise RulesError("the setup line needs \"game\", the game's name")
    seats = data.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, str) and s.strip() for s in seats):
        raise RulesError("\"seats\" must be a list of the players' names")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RulesError("\"options\" must be an object")
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | str)):
        raise RulesError("\"seed\" must be a number or text")
    deal = data.get("deal")
    if deal is not None and not isinstance(deal, dict):
        raise RulesError("\"deal\" must be an object")
    book = data.get("book")
    if book is not None and not isinstance(book, dict):
        raise RulesError("\"book\" must be an object: the game's rule data")
    return GameSetup(game=game, seats=tuple(seats), options=options, seed=seed, deal=deal,
                     book=book)


def _lines(text_lines: Iterable[str]) -> Iterable[tuple[int, Any]]:
    for number, raw in enumerate(text_lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as exc:
            reason = f"invalid JSON ({exc.msg} at column {exc.colno})"
            raise TranscriptError(number, reason) from None
        except (ValueError, RecursionError) as exc:  # a 5,000-digit number, deep nesting
            raise TranscriptError(number, f"invalid JSON ({exc})") from None


def replay_text(text: str) -> ReplayResult:
    """Replay a transcript file's text: JSON Lines, or a table's export as the companion gives
    it (one object: ``setup`` and ``actions``; its lines are counted as the transcript's)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        data = None  # JSON Lines (or not JSON at all: the lines say where)
    if not isinstance(data, dict) or "setup" not in data:
        return replay_transcript(text.splitlines())
    actions = data.get("actions")
    if not isinstance(actions, list):
        why = ("this export is one phone's view of the log (no seed, no actions): only the"
               " host's export of an ended table replays" if "history" in data else
               "an export needs \"actions\", a list")
        return ReplayResult(None, TranscriptError(1, why))
    return replay_transcript(json.dumps(line) for line in (data["setup"], *actions))


def replay_transcript(text_lines: Iterable[str]) -> ReplayResult:
    """Replay a transcript's lines. The session holds every line before the first refused one."""
    session: TableSession | None = None
    drawn = False
    try:
        for number, data in _lines(text_lines):
            try:
                if session is None:
                    setup = parse_setup(data)
                    drawn = setup.seed is None and setup.deal is None
                    session = TableSession(setup)
                    continue
                if not isinstance(data, dict):
                    raise RulesError("each line after the first must be an object")
                session.submit(Action.from_dict(data))
            except RulesError as exc:
                raise TranscriptError(number, str(exc)) from None
    except TranscriptError as exc:
        return ReplayResult(session, exc, drawn)
    if session is None:
        return ReplayResult(None, TranscriptError(1, "the transcript is empty"))
    return ReplayResult(session, None, drawn)
