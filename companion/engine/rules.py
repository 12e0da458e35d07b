"""The interface every game implements, and the small types it speaks in."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from companion.engine.actions import Action, ActionSpec, Param
from companion.engine.boards import BoardInPlay, BoardShape, PhotoScore
from companion.engine.components import Component
from companion.engine.errors import RulesError, SetupError
from companion.engine.house import RuleBook
from companion.engine.table_view import TableView

Event = dict[str, Any]
"""Something that happened, public information only: ``{"type": "damaged", "seat": 2, ...}``."""


@dataclass(frozen=True)
class GameInfo:
    """What a game is: its slug (registry key, URL segment), its sticker code (``CG`` in
    ``GC1/CG/...``) and what it needs."""

    slug: str
    title: str
    code: str
    min_players: int
    max_players: int
    summary: str
    has_hidden_information: bool = True
    # Whether a seat holds secrets of its own (a role, powers): a phone then covers them. A
    # game that hides things from everyone alike (a tile's back) has none.
    has_seat_secrets: bool = True
    # Whether the table rolls real dice that the camera reads (a game whose dice the
    # companion rolls, in secret or not, rolls none): the service reads no dice otherwise.
    uses_dice: bool = False
    uses_cards: bool = True
    # Whether a table may deal the game's cards by hand (setup ``deal``): the phone offers
    # it only then (a tick for a game with no deal was refused at creation).
    deals_by_hand: bool = False
    # The table options a phone offers when a table is created (a game may accept more).
    options: tuple[Param, ...] = ()
    # The house readings a phone offers then (``house.house_reading``): each named by its data
    # file key, its default the packaged value; what a table changes goes in option "house".
    house_readings: tuple[Param, ...] = ()


@dataclass(frozen=True)
class GameSetup:
    """How a game begins: the first line of a transcript.

    ``seed`` drives every shuffle the companion does itself. ``deal`` is given when the
    cards are dealt by hand at a real table: it holds what is known of the deal (possibly
    nothing yet); the rest becomes known through seats' private inputs and card scans.

    ``book`` is the game's rule data (its data file) as it was when the table began: a table
    keeps the rules it began with when the file is edited or the companion updated (the
    table's own house edits, in ``options``, apply on top of it, as they did then).
    """

    game: str
    seats: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int | str | None = None
    deal: Mapping[str, Any] | None = None
    book: Mapping[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "seats": list(self.seats),
            "options": dict(self.options),
            "seed": self.seed,
        }
        if self.deal is not None:
            out["deal"] = dict(self.deal)
        if self.book is not None:
            out["book"] = self.book
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
    """How a game ended: the winning seats and the game's name for the reason; ``details``
    holds what else the game records of its ending (its table view says it in words)."""

    winners: tuple[int, ...]
    reason: str
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "reason": self.reason, **self.details}


@dataclass(frozen=True)
class DieFace:
    """A die seen by the camera: its kind (a taught die's name, or "d6") and the face up."""

    kind: str
    value: int | str


@dataclass(frozen=True)
class Transition:
    """The result of applying an action.

    ``reveals``: the action showed hidden information (a card, a captain), so a plain undo
    stops here (the host's undo with a reason goes on).
    ``private``: the action is a seat's private input; only that seat sees it in history.
    ``notes``: what followed, in words anyone may read ("Cat takes 3 damage", "Ann wins").
    """

    state: Any
    events: tuple[Event, ...] = ()
    reveals: bool = False
    private: bool = False
    notes: tuple[str, ...] = ()
    secret_fields: tuple[str, ...] = ()  # action fields only the acting seat may see


@dataclass(frozen=True)
class EyesClosed:
    """One eyes-closed phase of a table, as the narrator reads it: built from public
    information only (the table's view), so nothing spoken depends on a secret.

    ``script`` is the phase's script data from the game's own folder (docs/narration.md:
    a title and sections of steps); ``in_play`` is what its sections' ``when_any`` and
    ``unless_any`` test; ``labels`` are the words for those names, to fill in lines.
    """

    name: str  # "prologue": what a phone's button and `companion narrate` name
    title: str  # "the Prologue"
    script: Mapping[str, Any]
    in_play: frozenset[str] = frozenset()
    labels: Mapping[str, str] = field(default_factory=dict)
    during: str = ""  # the game's phase (its table view's `phase`) this happens in
    instructions: str = ""  # what every player does meanwhile, shown on every phone


class GameRules(ABC):
    """One game, as a plug-in: its rules and everything the shared layers need to know of it.
    Pure: no I/O, and the state passed in is never changed.

    Shared layers (narration, runtime, web, command line) know a game only through these
    methods and ``info``; the parts a game may leave out have defaults here.
    """

    info: GameInfo
    # The game's rule book (numbers and texts as data, house edits on top), if it has one: a
    # table records its packaged data when it begins and keeps playing by it.
    rule_book: ClassVar[type[RuleBook] | None] = None

    @abstractmethod
    def setup(self, setup: GameSetup) -> Any:
        """The first state. Raises SetupError for bad seats, options or deal."""

    @abstractmethod
    def legal_actions(self, state: Any, seat: int | None) -> Sequence[ActionSpec]:
        """What ``seat`` (None: the table) may do now, with parameters a UI can render."""

    @abstractmethod
    def apply(self, state: Any, action: Action) -> Transition:
        """The new state after ``action``. Raises IllegalActionError naming the reason."""

    @abstractmethod
    def outcome(self, state: Any) -> Outcome | None:
        """None while the game runs."""

    @abstractmethod
    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (None: the table, public information only), as the game's
        own data: what transcripts' replays print (docs/transcripts.md)."""

    @abstractmethod
    def table_view(self, state: Any, seat: int | None) -> TableView:
        """What ``seat``'s screen shows (engine/table_view.py), without the legal actions and
        the log, which the session adds."""

    @abstractmethod
    def describe(self, state: Any, action: Action) -> str:
        """One line for the log, readable by everyone; ``state`` is the state before it."""

    @abstractmethod
    def rules_summary(self, options: Mapping[str, Any] | None = None) -> str:
        """A readable summary of the rules, house defaults marked."""

    def as_known_to(self, state: Any, seat: int | None) -> Any:
        """The state with everything ``seat`` (None: the table) may not know blanked out:
        how a game declares its secrets. Whatever is shown to a seat must come out the same
        from this state (the conformance suite checks it). A game without hidden information
        returns the state itself."""
        return state

    def suggest(self, state: Any, seen: Component | DieFace) -> Sequence[Action]:
        """Actions that a card or die seen by the camera may stand for now (a permit shown
        after a bluff call, a die rolled on a turn). Players confirm them; they need not be
        legal (the caller keeps the legal ones), and each names the seat that would take it."""
        return ()

    def components(self) -> Sequence[Component]:
        """The game's physical components, each with its sticker payload."""
        return ()

    def in_play(self, view: Mapping[str, Any]) -> frozenset[str]:
        """What is in play at a table, from its public view: what the eyes-closed scripts
        depend on (which characters are in the game, say)."""
        return frozenset()

    def check_in_play(self, names: Sequence[str], players: int | None) -> frozenset[str]:
        """``names`` as what is in play, if a setup can produce it (`companion narrate
        --in-play`); raises RulesError naming what is wrong."""
        raise RulesError(f"{self.info.title}'s narration does not depend on what is in play")

    def eyes_closed(self, in_play: frozenset[str], players: int) -> Sequence[EyesClosed]:
        """The eyes-closed phases a table has, for what is in play and its player count."""
        return ()

    def announce(self, events: Sequence[Event]) -> str:
        """What the table should hear at once of an action's public events ("" for nothing)."""
        return ""

    # --- boards the camera reads (engine/boards.py) ----------------------------------------
    def physical_boards(self) -> Sequence[BoardShape]:
        """Every board the game's corner stickers frame, whatever the table plays."""
        return ()

    def boards_in_play(self, state: Any) -> Sequence[BoardInPlay]:
        """The boards a table plays on now, each cell with the mark the camera should see."""
        return ()

    def board_mark(self, component: Component) -> str | None:
        """What a sticker seen on a board stands for: the mark ``boards_in_play`` uses (None:
        not a sticker of the game's pieces or tiles)."""
        return None

    def score_photo(self, boards: Mapping[str, Mapping[str, str]],
                    unread: Mapping[str, Sequence[str]]) -> PhotoScore:
        """The score of boards seen in one photo: by shape name, each cell read -> its mark
        ("" empty), and the cells that could not be read. Raises RulesError if the game has
        no score to read from its boards."""
        raise RulesError(f"{self.info.title} has no score to read from a photo of its boards")
