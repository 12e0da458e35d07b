"""The narrator's scripts, built from data (data/scripts.toml) and from what is in play.

A script is a flat list of steps: spoken lines and named pauses. It says nothing about time;
`timeline.py` turns it into one with a pacing preset and the lengths of the spoken lines.
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from companion.games.captains_gambit import Book

PAUSE_KINDS = ("settle", "act", "look")


class NarrationError(ValueError):
    """A script cannot be built as asked (unknown captain, impossible pool, bad data)."""


@dataclass(frozen=True)
class Step:
    """One step of a script: a spoken line (`text`) or a pause of a named kind (`pause`).
    `count` marks the numbers of a countdown, which are paced by the clock, not by gaps."""

    section: str
    text: str = ""
    pause: str = ""
    count: bool = False
    seconds: float | None = None  # a pause's own length in the script data


@dataclass(frozen=True)
class Script:
    name: str
    title: str
    steps: tuple[Step, ...]

    @property
    def lines(self) -> list[str]:
        return [step.text for step in self.steps if step.text]


@cache
def _packaged() -> dict[str, Any]:
    text = resources.files("companion.narration").joinpath("data/scripts.toml").read_text("utf-8")
    return tomllib.loads(text)


def script_data() -> dict[str, Any]:
    return _packaged()


def _applies(entry: Mapping[str, Any], pool: set[str]) -> bool:
    if "when_any" in entry and not pool.intersection(entry["when_any"]):
        return False
    return not ("unless_any" in entry and pool.intersection(entry["unless_any"]))


def _build(name: str, pool: set[str], labels: Mapping[str, str]) -> Script:
    data = script_data()[name]
    steps: list[Step] = []
    for section in data["sections"]:
        if not _applies(section, pool):
            continue
        fill = {role: labels[c] for role, options in section.get("roles", {}).items()
                for c in options if c in pool}
        for entry in section["steps"]:
            if not _applies(entry, pool):
                continue
            steps.extend(_steps(section["name"], entry, fill))
    return Script(name, data["title"], tuple(steps))


def _steps(section: str, entry: Mapping[str, Any], fill: Mapping[str, str]) -> list[Step]:
    if "say" in entry:
        try:
            return [Step(section, text=str(entry["say"]).format_map(fill))]
        except KeyError as exc:
            raise NarrationError(f"script section {section!r}: no captain fills {exc}") from None
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


# --- Captain's Gambit ----------------------------------------------------------------------

def possible_pools(players: int) -> list[tuple[tuple[str, ...], list[str]]]:
    """Every captain pool setup can produce for a player count, with its Warp In groups."""
    book = Book.load()
    groups = book.warp_in_groups()
    pools = []
    for size in range(len(groups) + 1):
        for chosen in itertools.combinations(groups, size):
            pools.append((chosen, book.pool(players, list(chosen))))
    return pools


def pool_from_setup(players: int, warp_in: Sequence[str] = ()) -> list[str]:
    """The pool setup deals from, or a NarrationError that says why not."""
    if not 4 <= players <= 8:
        raise NarrationError(f"Captain's Gambit is for 4 to 8 players, not {players}")
    try:
        return Book.load().pool(players, list(warp_in))
    except ValueError as exc:
        raise NarrationError(str(exc)) from None


def check_pool(captains: Iterable[str], players: int | None = None) -> list[str]:
    """The named captains as a pool, if setup can produce exactly that pool (for `players`,
    or for some player count); otherwise a NarrationError naming what setup would give."""
    book = Book.load()
    named = [c.strip().lower().replace(" ", "_").replace("-", "_") for c in captains if c.strip()]
    unknown = [c for c in named if c not in book.data["captains"]]
    if unknown:
        raise NarrationError(f"unknown captain {', '.join(map(repr, unknown))}"
                             f" (known: {', '.join(book.data['captains'])})")
    if players is not None:
        pool_from_setup(players)  # checks the player count
    for count in [players] if players is not None else range(4, 9):
        for _, pool in possible_pools(count):
            if sorted(pool) == sorted(named):
                return pool
    if players is not None:
        expected = ", ".join(pool_from_setup(players))
        raise NarrationError(f"setup cannot deal that pool to {players} players: the pool for"
                             f" {players} is {expected}, with Warp In swaps (name every captain"
                             " in the pool, or give --players and --warp-in instead)")
    raise NarrationError("setup cannot deal that pool for any player count: name every captain in"
                         " the pool (for example the 5-player pool is"
                         f" {', '.join(pool_from_setup(5))}), or give --players and --warp-in")


def prologue(pool: Iterable[str]) -> Script:
    """The Prologue for a captain pool: only the parts of captains in it, in the seed's order."""
    book = Book.load()
    chosen = set(pool)
    labels = {name: book.label(name) for name in book.data["captains"]}
    return _build("prologue", chosen, labels)


def needs_prologue(pool: Iterable[str]) -> bool:
    return bool(set(pool).intersection(Book.load().prologue_captains()))


# --- Burke's Gambit ------------------------------------------------------------------------

def head_down(players: int) -> Script:
    """Burke's Gambit's heads-down phase; the same words for every allowed player count."""
    limits = script_data()["head_down"]["players"]
    if not limits["min"] <= players <= limits["max"]:
        raise NarrationError(f"Burke's Gambit is for {limits['min']} to {limits['max']} players,"
                             f" not {players}")
    return _build("head_down", set(), {})


# --- What a table hears, by game ---------------------------------------------------------------

def eyes_closed_phases(game: str, view: Mapping[str, Any]) -> dict[str, str]:
    """The eyes-closed phases a table of ``game`` has (name -> title), from its public view."""
    if game == "captains-gambit" and needs_prologue(view.get("pool", [])):
        return {"prologue": "the Prologue"}
    if game == "burkes-gambit":
        return {"heads-down": "heads down"}
    return {}


def phase_script(phase: str, view: Mapping[str, Any], players: int) -> Script:
    """The script of one of ``eyes_closed_phases``: public information only."""
    return prologue(view["pool"]) if phase == "prologue" else head_down(players)


def announcements(events: Iterable[Mapping[str, Any]]) -> str:
    """What the table should hear at once of an action's public events ("" for nothing)."""
    return " ".join(f"Engines at {e['engines']} of {e['to_earth']}." for e in events
                    if e.get("type") == "engine_powered")
