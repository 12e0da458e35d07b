"""The interface every game implements, and the small types it speaks in."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.engine.actions import Action, ActionSpec, Param
from companion.engine.components import Component
from companion.engine.errors import SetupError

Event = dict[str, Any]
"""Something that happened, public information only: ``{"type": "damaged", "seat": 2, ...}``."""


@dataclass(frozen=True)
class GameInfo:
    """What a game is: its slug (registry key, URL segment) and what it needs."""

    slug: str
    title: str
    min_players: int
    max_players: int
    summary: str
    has_hidden_information: bool = True
    uses_dice: bool = False
    uses_cards: bool = True
    # The table options a phone offers when a table is created (a game may accept more).
    options: tuple[Param, ...] = ()


@dataclass(frozen=True)
class GameSetup:
    """How a game begins: the first line of a transcript.

    ``seed`` drives every shuffle the companion does itself. ``deal`` is given when the
    cards are dealt by hand at a real table: it holds what is known of the deal (possibly
    nothing yet); the rest becomes known through seats' private inputs and card scans.
    """

    game: str
    seats: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int | str | None = None
    deal: Mapping[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "seats": list(self.seats),
            "options": dict(self.options),
            "seed": self.seed,
        }
        if self.deal is not None:
            out["deal"] = dict(self.deal)
        return out


def refuse_unknown(given: Iterable[str], known: Sequence[str], what: str) -> None:
    """Refuse the first of ``given`` (option or field names) that is not ``known``."""
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise SetupError(f"{what} {unknown[0]!r} (known: {', '.join(known)})")


def seat_key(key: Any, players: int) -> int:
    """A seat number written as a deal's key ("0", "1", ...), checked."""
    if not (isinstance(key, str) and key.isascii() and key.isdigit() and key == str(int(key))):
        raise SetupError(f"deal: {key!r} is not a seat number")
    seat = int(key)
    if not 0 <= seat < players:
        raise SetupError(f"deal: there is no seat {seat}")
    return seat


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``reason`` is ``win``, ``all_dead`` or ``round_limit``."""

    winners: tuple[int, ...]
    reason: str
    comedy: bool = False
    tragedy: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "reason": self.reason,
            "comedy": self.comedy,
            "tragedy": self.tragedy,
        }


@dataclass(frozen=True)
class DieFace:
    """A die seen by the camera: its kind (a taught die's name, or "d6") and the face up."""

    kind: str
    value: int | str


@dataclass(frozen=True)
class Transition:
    """The result of applying an action.

    ``reveals``: the action showed hidden information (a card, a captain), so undo stops here.
    ``private``: the action is a seat's private input; only that seat sees it in history.
    ``notes``: what followed, in words anyone may read ("Cat takes 3 damage", "Ann wins").
    """

    state: Any
    events: tuple[Event, ...] = ()
    reveals: bool = False
    private: bool = False
    notes: tuple[str, ...] = ()
    secret_fields: tuple[str, ...] = ()  # action fields only the acting seat may see


class GameRules(Protocol):
    """One game's rules. Pure: no I/O, the state passed in is never changed."""

    info: GameInfo

    def setup(self, setup: GameSetup) -> Any:
        """The first state. Raises SetupError for bad seats, options or deal."""

    def legal_actions(self, state: Any, seat: int | None) -> Sequence[ActionSpec]:
        """What ``seat`` (None: the table) may do now, with parameters a UI can render."""

    def apply(self, state: Any, action: Action) -> Transition:
        """The new state after ``action``. Raises IllegalActionError naming the reason."""

    def outcome(self, state: Any) -> Outcome | None:
        """None while the game runs."""

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (None: the table, public information only)."""

    def describe(self, state: Any, action: Action) -> str:
        """One line for the log, readable by everyone; ``state`` is the state before it."""

    def rules_summary(self, options: Mapping[str, Any] | None = None) -> str:
        """A readable summary of the rules, house defaults marked."""

    def suggest(self, state: Any, seen: Component | DieFace) -> Sequence[Action]:
        """Actions that a card or die seen by the camera may stand for now (a permit shown
        after a bluff call, a die rolled on a turn). Players confirm them; they need not be
        legal (the caller keeps the legal ones), and each names the seat that would take it."""
