"""A script laid out in time: spoken lines and pauses, in samples at one sample rate.

Pause lengths come from a pacing preset (data/pacing.toml), optionally changed per section
or per kind; the length of a spoken line is the length of its rendered speech.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from companion.narration.scripts import PAUSE_KINDS, NarrationError, Script, pacing_data

RATE = 22050  # espeak-ng's rate; everything is mixed at it

_PRESET_KEYS = ("lead_in", "line_gap", "countdown_step", "tail", *PAUSE_KINDS)
ACTING = ("act", "enter", "look")  # the pauses where somebody does something


def presets() -> tuple[str, ...]:
    return tuple(pacing_data())


@dataclass(frozen=True)
class Pacing:
    """Seconds for each kind of pause. `overrides` maps a section name or a pause kind to
    seconds: a section's value sets that section's act, enter and look pauses (the ones where
    somebody does something), a kind's value sets every pause of that kind."""

    name: str
    seconds: Mapping[str, float]
    overrides: Mapping[str, float]

    @classmethod
    def preset(cls, name: str = "normal", overrides: Mapping[str, float] | None = None) -> Pacing:
        table = pacing_data()
        if name not in table:
            raise NarrationError(f"unknown pacing {name!r} (known: {', '.join(table)})")
        seconds = {key: float(table[name][key]) for key in _PRESET_KEYS}
        for key, value in (overrides or {}).items():
            if not 0 <= value <= 600:
                raise NarrationError(f"pause {key!r}: {value} s is not between 0 and 600")
        return cls(name, seconds, dict(overrides or {}))

    def pause(self, section: str, kind: str, step_seconds: float | None = None) -> float:
        """A pause's length: set for its section, else for its kind, else the step's own
        length in the script data, else the preset's."""
        if kind in ACTING and section in self.overrides:
            return self.overrides[section]
        if kind in self.overrides:
            return self.overrides[kind]
        return step_seconds if step_seconds is not None else self.seconds[kind]


@dataclass(frozen=True)
class Cue:
    """A stretch of the timeline: a spoken line (`text`) or a pause (`reason`)."""

    start: int  # samples
    length: int
    text: str = ""
    reason: str = ""  # lead_in, gap, settle, act, look, count, tail
    section: str = ""

    @property
    def spoken(self) -> bool:
        return bool(self.text)


@dataclass(frozen=True)
class Timeline:
    title: str
    cues: tuple[Cue, ...]
    rate: int = RATE

    @property
    def length(self) -> int:
        return self.cues[-1].start + self.cues[-1].length if self.cues else 0

    @property
    def seconds(self) -> float:
        return self.length / self.rate

    @property
    def spoken(self) -> list[Cue]:
        return [cue for cue in self.cues if cue.spoken]


def estimate_speech(text: str, words_per_minute: int = 165) -> int:
    """Samples a line would take to say, for timelines built without a voice."""
    words = max(1, len(text.split()))
    return int((words * 60 / words_per_minute + 0.3) * RATE)


def build(script: Script, pacing: Pacing, speech_length: Callable[[str], int]) -> Timeline:
    """Lay out a script: a lead-in, then each line followed by a gap (countdown numbers are one
    per `countdown_step`), each pause at its length, and a tail for the ambience to fade."""
    cues: list[Cue] = []
    position = 0

    def add(length: int, **fields: str) -> None:
        nonlocal position
        if length > 0:
            cues.append(Cue(position, length, **fields))
            position += length

    check_pauses(script, pacing)
    add(_samples(pacing.seconds["lead_in"]), reason="lead_in")
    for step in script.steps:
        if step.text:
            spoken = speech_length(step.text)
            add(spoken, text=step.text, section=step.section)
            if step.count:
                add(max(_samples(pacing.seconds["countdown_step"]) - spoken, _samples(0.15)),
                    reason="count", section=step.section)
            else:
                add(_samples(pacing.seconds["line_gap"]), reason="gap", section=step.section)
        else:
            add(_samples(pacing.pause(step.section, step.pause, step.seconds)),
                reason=step.pause, section=step.section)
    add(_samples(pacing.seconds["tail"]), reason="tail")
    return Timeline(script.title, tuple(cues))


def check_pauses(script: Script, pacing: Pacing) -> None:
    """Every pause named on the command line must be one this script has."""
    acting = {s.section for s in script.steps if s.pause in ACTING}
    for name in pacing.overrides:
        if name in PAUSE_KINDS or name in acting:
            continue
        known = ", ".join([*sorted(acting), *PAUSE_KINDS])
        raise NarrationError(f"no pause {name!r} in {script.title}: name a section where"
                             f" somebody acts or looks, or a kind of pause ({known})")


def _samples(seconds: float) -> int:
    return round(seconds * RATE)


def describe(timeline: Timeline) -> str:
    """The timeline as text: start time, length and what happens, one cue per line."""
    lines = [f"{timeline.title}: {timeline.seconds:.1f} s, {len(timeline.spoken)} spoken lines"]
    for cue in timeline.cues:
        start, length = cue.start / timeline.rate, cue.length / timeline.rate
        what = f'say  "{cue.text}"' if cue.spoken else f"pause ({cue.reason})"
        lines.append(f"{start:7.1f} s  {length:5.1f} s  {what}")
    return "\n".join(lines)
