"""The narrator's scripts, built from a game's script data and from what is in play.

Each game keeps the words of its eyes-closed phases in its own folder and hands them over as
``EyesClosed`` (engine/rules.py). A script is a flat list of steps: spoken lines and named
pauses. It says nothing about time; `timeline.py` turns it into one with a pacing preset
(data/pacing.toml) and the lengths of the spoken lines.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any

from companion.engine import EyesClosed, GameRules

PAUSE_KINDS = ("settle", "act", "enter", "look")


class NarrationError(ValueError):
    """A script cannot be built as asked (nothing to read, bad data)."""


@dataclass(frozen=True)
class Step:
    """One step of a script: a spoken line (`text`) or a pause of a named kind (`pause`).
    `count` marks the numbers of a countdown, which are paced by the clock, not by gaps."""

    section: str
    text: str = ""
    pause: str = ""
    count: bool = False
    seconds: float | None = None  # a pause's own length in the script data
    speak: str = ""  # what the voice is given, where it differs from `text` (say_as)


@dataclass(frozen=True)
class Script:
    name: str
    title: str
    steps: tuple[Step, ...]

    @property
    def lines(self) -> list[str]:
        return [step.text for step in self.steps if step.text]

    @property
    def speech(self) -> dict[str, str]:
        """The lines the voice is given in other words (text -> words spoken)."""
        return {step.text: step.speak for step in self.steps if step.speak}


@cache
def _data(name: str) -> dict[str, Any]:
    text = resources.files("companion.narration").joinpath(f"data/{name}").read_text("utf-8")
    return tomllib.loads(text)


def _pacing() -> dict[str, Any]:
    return _data("pacing.toml")


def say_as(table: Mapping[str, str], text: str) -> str:
    """`text` as the voice should be given it: each phrase of `table` (whole words, as
    written) replaced by its respelling. The screen keeps the script's own words."""
    for written, spoken in table.items():
        text = re.sub(rf"\b{re.escape(written)}\b", spoken, text)
    return text


def pacing_data() -> dict[str, Any]:
    """The pacing presets (data/pacing.toml): name -> lengths in seconds."""
    return dict(_pacing()["pacing"])


def _applies(entry: Mapping[str, Any], in_play: frozenset[str]) -> bool:
    if "when_any" in entry and not in_play.intersection(entry["when_any"]):
        return False
    return not ("unless_any" in entry and in_play.intersection(entry["unless_any"]))


def build_script(phase: EyesClosed) -> Script:
    """A game's eyes-closed phase as a script: only the sections and steps for what is in
    play, in the data's order, with the names in play filled into the lines."""
    data = phase.script
    steps: list[Step] = []
    respell = {**_data("say_as.toml")["say_as"], **data.get("say_as", {})}
    try:
        for section in data["sections"]:
            if not _applies(section, phase.in_play):
                continue
            fill = {role: phase.labels.get(name, name)
                    for role, options in section.get("roles", {}).items()
                    for name in options if name in phase.in_play}
            for entry in section["steps"]:
                if not _applies(entry, phase.in_play):
                    continue
                steps.extend(_steps(section["name"], entry, fill))
        steps = [replace(step, speak=spoken) if step.text and not step.count
                 and (spoken := say_as(respell, step.text)) != step.text else step
                 for step in steps]
        return Script(phase.name, str(data["title"]), tuple(steps))
    except (KeyError, TypeError) as exc:
        raise NarrationError(f"the script of {phase.name!r} is not as docs/narration.md"
                             f" describes: {exc}") from None


def _steps(section: str, entry: Mapping[str, Any], fill: Mapping[str, str]) -> list[Step]:
    if "say" in entry:
        try:
            return [Step(section, text=str(entry["say"]).format_map(fill))]
        except KeyError as exc:
            raise NarrationError(f"script section {section!r}: nothing in play fills {exc}"
                                 ) from None
    if "pause" in entry:
        if entry["pause"] not in PAUSE_KINDS:
            raise NarrationError(f"script section {section!r}: unknown pause {entry['pause']!r}"
                                 f" (known: {', '.join(PAUSE_KINDS)})")
        seconds = entry.get("seconds")
        if seconds is not None and not (isinstance(seconds, int | float) and 0 <= seconds <= 600):
            raise NarrationError(f"script section {section!r}: seconds must be 0 to 600")
        return [Step(section, pause=entry["pause"],
                     seconds=float(seconds) if seconds is not None else None)]
    if "countdown" in entry:
        start = int(entry["countdown"])
        return [Step(section, text=str(n), count=True) for n in range(start, 0, -1)]
    raise NarrationError(f"script section {section!r}: a step needs say, pause or countdown")


def eyes_closed(rules: GameRules, view: Mapping[str, Any], players: int) -> dict[str, EyesClosed]:
    """The eyes-closed phases of a table of ``rules`` (name -> phase), from its public view."""
    return {phase.name: phase for phase in rules.eyes_closed(rules.in_play(view), players)}
