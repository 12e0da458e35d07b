"""Gambit of Kings: setup (the ways to play, the position, the card rows, who moves first),
legal actions, apply, views, camera suggestions and the rules summary.

Two players, seat 0 the light side (the King's), seat 1 the dark side (the Exiled King's).
Nothing is hidden: the board, the card rows and the tokens lie open on the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.engine import (
    Action,
    ActionSpec,
    BoardInPlay,
    BoardShape,
    Component,
    DieFace,
    Event,
    GameInfo,
    GameRules,
    GameSetup,
    Outcome,
    Param,
    SetupError,
    TableView,
    Transition,
    check_one_of,
    house_reading,
    refuse_unknown,
    shuffled,
)
from companion.games.gambit_of_kings import components, moves, screen, summary
from companion.games.gambit_of_kings.board import Board, coords, starting, written
from companion.games.gambit_of_kings.book import CASTLE, KINDS, MODES, SIDES, Book
from companion.games.gambit_of_kings.state import State
from companion.games.gambit_of_kings.turn import begin_turn

FIRST = ("coin", "light", "dark")
DICE = ("companion", "table")
CARDS = ("shuffle", "choose")

INFO = GameInfo(
    slug=components.SLUG,
    title="Gambit of Kings",
    code=components.CODE,
    min_players=2,
    max_players=2,
    summary="Fantasy chess on a 10x10 board: take the enemy Castle. The adventure rules add a"
            " movement roll, piece cards and dice combat.",
    has_hidden_information=False,
    has_seat_secrets=False,
    uses_dice=True,
    options=(
        Param("mode", "choice", "Rules", choices=MODES, default="standard",
              labels=("Standard", "Tokens and Re-rolls (TAR)", "Adventure Variant II",
                      "Adventure Variant I", "Adventure")),
        Param("first", "choice", "Who moves first", choices=FIRST, default="coin",
              labels=("A coin toss", "Light", "Dark")),
        Param("dice_by", "choice", "Who rolls the dice (adventure rules)", choices=DICE,
              default="table", labels=("The companion", "The players, with real dice")),
        Param("card_rows", "choice", "Card rows (adventure rules)", choices=CARDS,
              default="shuffle", labels=("Shuffled by the companion",
                                         "Each player lays their own")),
        Param("layout", "choice", "Starting layout", choices=tuple(Book.default().layouts()),
              default="standard",
              labels=tuple(name.capitalize() for name in Book.default().layouts())),
        Param("pieces", "text", "Or start from a position (\"e1 light castle, e10 dark castle,"
              " d4 knight, ...\")", maximum=2000),
    ),
    house_readings=(
        house_reading(Book.default().data, "dice.compare", "Combat dice (adventure rules)", {
            "highest": "Each side's best die counts",
            "sum": "Each side adds its dice up"}),
        house_reading(Book.default().data, "effects.even_roll",
                      "An even roll's adventure effect where any piece may move"
                      " (adventure rules)", {
                    "mover": "The moving piece's own",
                    "card": "The card's piece's only"}),
    ),
)

_OPTIONS = ("mode", "first", "dice_by", "card_rows", "layout", "pieces", "tokens", "house")
# A die the companion rolls shows what nobody knew: a plain undo stops before it, or the table
# could see the companion's next dice (seeded by how many it has rolled) and play the turn again.
_REVEALING = ("companion_rolled",)


def _choice(options: Mapping[str, Any], name: str, allowed: Sequence[str], default: str) -> str:
    return check_one_of(f"option {name!r}", options.get(name, default), allowed)


def _position(book: Book, options: Mapping[str, Any]) -> Board:
    pieces = options.get("pieces")
    if isinstance(pieces, str) and not pieces.strip():
        raise SetupError("option \"pieces\" is empty: give a position (\"e1 light castle,"
                         " e10 dark castle, ...\"), or leave the option out to start from the"
                         " layout")
    if pieces is not None:
        return written(book, pieces)
    return starting(book, _choice(options, "layout", book.layouts(), "standard"))


def _card_row(book: Book, seat: int, given: Any) -> list[str]:
    """A card row a table sets: the 7 pieces in order (the Castle, 8th, may be written)."""
    side = SIDES[seat]
    if not isinstance(given, list) or not all(isinstance(n, str) for n in given):
        raise SetupError(f"option card_rows: the {side} row must be a list of piece names")
    row = []
    for name in given:
        kind = book.kind_of(seat, name)
        if kind is None:
            raise SetupError(f"option card_rows: {name!r} is not a piece of the {side} side")
        row.append(kind)
    if row and row[-1] == CASTLE:
        row = row[:-1]
    if sorted(row) != sorted(k for k in KINDS if k != CASTLE):
        raise SetupError(f"option card_rows: the {side} row must hold each piece but the Castle"
                         " once, the Castle 8th")
    return [*row, CASTLE]


def _cards(book: Book, options: Mapping[str, Any], seed: int | str | None) -> list[list[str]]:
    """Each seat's row: shuffled by the companion, chosen by the players (empty until they
    lay it out), or given by the table (a mapping side -> names)."""
    given = options.get("card_rows", "shuffle")
    if isinstance(given, Mapping):
        refuse_unknown(given, SIDES, "option card_rows: unknown side")
        if set(given) != set(SIDES):
            raise SetupError("option card_rows: give both rows, light and dark")
        return [_card_row(book, s, given[SIDES[s]]) for s in (0, 1)]
    choice = _choice(options, "card_rows", CARDS, "shuffle")
    if choice == "choose":
        return [[], []]
    others = [k for k in KINDS if k != CASTLE]
    return [[*shuffled(others, seed, "cards", side), CASTLE] for side in SIDES]


def _tokens(options: Mapping[str, Any], start: int, mode: str) -> list[int]:
    """Each side's re-roll tokens: the mode's number, or those left in a game resumed (never
    more than the mode gives)."""
    given = options.get("tokens")
    if given is None:
        return [start, start]
    if not isinstance(given, Mapping) or set(given) != set(SIDES) or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in given.values()):
        raise SetupError("option tokens must give each side's tokens left: {\"light\": 2,"
                         " \"dark\": 3}")
    if start == 0 and any(given.values()):
        raise SetupError(f"option tokens: there are no tokens in the {mode}")
    if any(n > start for n in given.values()):
        raise SetupError(f"option tokens: {mode} gives each side {start} re-roll"
                         f" token{'s' * (start != 1)}, so at most {start} can be left")
    return [int(given[side]) for side in SIDES]


class GambitOfKingsRules(GameRules):
    info = INFO
    rule_book = Book

    def setup(self, setup: GameSetup) -> State:
        if len(setup.seats) != 2:
            raise SetupError(f"Gambit of Kings is for 2 players, not {len(setup.seats)}")
        if setup.deal is not None:
            raise SetupError("Gambit of Kings has no hidden deal: give a position with the"
                             " option \"pieces\"")
        options = dict(setup.options)
        refuse_unknown(options, _OPTIONS, "unknown option")
        house = options.get("house")
        book = Book.load(house)
        mode = book.mode(_choice(options, "mode", MODES, "standard"))
        first = _choice(options, "first", FIRST, "coin")
        seat = shuffled([0, 1], setup.seed, "first")[0] if first == "coin" else \
            SIDES.index(first)
        dice = _choice(options, "dice_by", DICE, "table")
        state = State(house=dict(house) if house else None, mode=mode, seed=setup.seed,
                      names=list(setup.seats), companion_dice=dice == "companion",
                      board=_position(book, options),
                      cards=_cards(book, options, setup.seed) if mode.roll else [[], []],
                      tokens=_tokens(options, mode.tokens, mode.label), phase="laying",
                      turn=seat,
                      first=seat, coin=first == "coin")
        if not mode.roll or all(state.cards):
            begin_turn(state)
        return state

    def legal_actions(self, state: State, seat: int | None) -> Sequence[ActionSpec]:
        return moves.MOVE_SET.legal(state, seat, 2)

    def apply(self, state: State, action: Action) -> Transition:
        return moves.MOVE_SET.apply(state, moves.canonical(state, action), 2, _REVEALING,
                                    summary.notes)

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return screen.view(state)

    def table_view(self, state: State, seat: int | None) -> TableView:
        return screen.table_view(state, seat, INFO)

    def describe(self, state: State, action: Action) -> str:
        return moves.MOVE_SET.describe(state, moves.canonical(state, action))

    def components(self) -> Sequence[Component]:
        return components.components()

    def physical_boards(self) -> Sequence[BoardShape]:
        return (components.board_shape(),)

    def boards_in_play(self, state: State) -> Sequence[BoardInPlay]:
        """The board, each square with the side and kind on it ("light knight")."""
        size = state.book.size
        marks = {name: "" for name, _, _ in components.board_shape().cells
                 if coords(name)[1] <= size}
        marks.update({name: f"{SIDES[p.side]} {p.kind}" for name, p in state.board.items()})
        return (BoardInPlay(components.BOARD_SHAPE, moves.BOARD, None, marks),)

    def board_mark(self, component: Component) -> str | None:
        return components.piece_marks().get(component.id)

    def suggest(self, state: State, seen: Component | DieFace) -> Sequence[Action]:
        """A die the camera reads (a d6: "d6", 4): the movement roll, or a combat die of
        that size still to be rolled, of whoever rolls it."""
        if not isinstance(seen, DieFace) or state.companion_dice or \
                not isinstance(seen.value, int):
            return ()
        sides = str(seen.kind).lower().removeprefix("d")
        if state.phase == "roll" and sides == str(state.book.movement_die):
            return (Action("roll", state.turn, {"face": seen.value}),)
        if state.phase == "combat" and state.combat is not None:
            return tuple(Action("combat_roll", d.seat, {"die": d.id, "face": seen.value})
                         for d in state.combat.missing() if str(d.sides) == sides)
        return ()

    def announce(self, events: Sequence[Event]) -> str:
        """The end of a fight and of the game: what the whole table should hear."""
        return summary.announce(events)

    def rules_summary(self, options: Mapping[str, Any] | None = None) -> str:
        return summary.rules_text(Book.load((options or {}).get("house")))
