"""Gambit, "a strategy game about bluffing" (6x6), 2 players (3 or 4 on the corners board).

Rulebook: ../shared/seeds/003_9ef545ff09cb55f8.txt (the powers are defined there alone);
../shared/rules/RULES.md §4. Choices where it is silent: data/rules.toml and
docs/gambit-6x6.md#decisions.
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
    GameInfo,
    GameRules,
    GameSetup,
    Outcome,
    Param,
    SetupError,
    TableView,
    Transition,
    house_reading,
    refuse_unknown,
)
from companion.games.gambit_6x6 import components, flow, screen
from companion.games.gambit_6x6.board import Layout
from companion.games.gambit_6x6.book import GROUPS, Book
from companion.games.gambit_6x6.moves import MOVE_SET, REVEALING, event_notes
from companion.games.gambit_6x6.state import TEAMS, Piece, State
from companion.games.gambit_6x6.summary import rules_summary

# The boards as the setup page names them (a table's own board keeps its name).
BOARD_NAMES = {"standard": "Standard", "longboard": "Longboard", "bridges": "Bridges",
               "corners": "Corners"}


def board_label(book: Book, name: str) -> str:
    """A board as the setup page offers it, with the players it seats (from its data)."""
    counts = sorted(int(count) for count in book.board(name)["sides"])
    players = str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
    return f"{BOARD_NAMES.get(name, name.capitalize())} ({players} players)"


INFO = GameInfo(
    slug=components.SLUG,
    title="Gambit (6x6)",
    code=components.CODE,
    min_players=2,
    max_players=4,
    summary="Six pieces, secret powers, and any piece may claim any power: bluff, or call "
            "the bluff.",
    uses_cards=False,
    options=(
        Param("board", "choice", "Board", choices=Book.load().boards(),
              labels=tuple(board_label(Book.default(), b) for b in Book.default().boards())),
        Param("roll_powers", "flag", "Roll for powers (instead of choosing them)",
              default=False),
        Param("player_powers", "flag", "Player Powers (advanced)", default=False),
        Param("roll_player_powers", "flag", "Roll for Player Powers (instead of choosing)",
              default=False),
        Param("pieces", "number", "Pieces per team (default: the board's)", minimum=2,
              maximum=6),
        Param("powers", "number", "Powers of each group per team", minimum=1, maximum=4,
              default=2),
        Param("first_seat", "seat", "Who moves first", choices=tuple(range(4)), default=0),
    ),
    house_readings=(
        house_reading(Book.default().data, "moves.sidewinder", "The Sidewinder moves", {
            "edge": "Far left square to far right",
            "wrap": "Across the edge, 1 or 2 squares"}),
        house_reading(Book.default().data, "moves.straight",
                      "A 2-square move goes straight (else it may turn once)"),
        house_reading(Book.default().data, "moves.sit_on_own",
                      "A Sitter may sit on its own team's pieces"),
        house_reading(Book.default().data, "moves.push_stacks", "A Bulldozer may push a stack"),
        house_reading(Book.default().data, "challenge.loser_chooses",
                      "The player who loses a piece picks which (else the one who won)"),
        house_reading(Book.default().data, "challenge.bluff_turn", "After a caught bluff", {
            "lost": "The bluffer's turn is over", "remake": "The bluffer moves again"}),
    ),
)

_OPTIONS = ("board", "roll_powers", "player_powers", "roll_player_powers", "pieces", "powers",
            "first_seat", "house")


def _number(options: Mapping[str, Any], name: str, default: int, low: int, high: int) -> int:
    value = options.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise SetupError(f"option {name!r} must be a whole number from {low} to {high}")
    return value


def _flag(options: Mapping[str, Any], name: str) -> bool:
    value = options.get(name, False)
    if not isinstance(value, bool):
        raise SetupError(f"option {name!r} must be true or false")
    return value


def _layout(book: Book, options: Mapping[str, Any], players: int) -> tuple[str, Layout,
                                                                         tuple[str, ...]]:
    name = options.get("board", "standard" if players == 2 else "corners")
    if name not in book.boards():
        raise SetupError(f"unknown board {name!r} (known: {', '.join(book.boards())})")
    data = book.board(name)
    sides = data["sides"].get(str(players))
    if sides is None:
        counts = " or ".join(data["sides"])
        raise SetupError(f"the {name} board is for {counts} players, not {players}")
    return name, Layout.from_data(name, data), tuple(sides)


def _roll_hand(state: State) -> list[str]:
    """Two dice per group (or the table's number), 5 and 6 wild; too many Moats: all again."""
    most = int(state.book.rule("setup", "most_moats"))
    while True:
        hand = []
        for group in GROUPS:
            for _ in range(state.powers_per_group):
                hand.append(flow.roll(state, group) or f"wild:{group}")
        if hand.count("moat") <= most:
            return hand


class Gambit6x6Rules(GameRules):
    """The rules of Gambit (6x6), as the engine's GameRules."""

    info = INFO
    rule_book = Book

    def setup(self, setup: GameSetup) -> State:
        names = list(setup.seats)
        count = len(names)
        if not INFO.min_players <= count <= INFO.max_players:
            raise SetupError(f"Gambit (6x6) is for 2 to 4 players, not {count}")
        if setup.deal is not None:
            raise SetupError("Gambit (6x6) has no cards to deal by hand: leave out \"deal\"")
        options = setup.options
        refuse_unknown(options, _OPTIONS, "unknown option")
        book = Book.load(options.get("house"))
        _, layout, sides = _layout(book, options, count)
        home = min(len(layout.home(side)) for side in sides)
        pieces = _number(options, "pieces", min(home, int(book.board(layout.name)["pieces"])),
                         2, home)
        powers = _number(options, "powers", int(book.rule("setup", "powers")), 1,
                         min(4, pieces))
        if _flag(options, "roll_player_powers") and not _flag(options, "player_powers"):
            raise SetupError("option 'roll_player_powers' needs 'player_powers': without"
                             " Player Powers there is nothing to roll")
        state = State(
            book=book, seed=setup.seed, names=names, layout=layout, sides=sides,
            roll_powers=_flag(options, "roll_powers"),
            player_powers_on=_flag(options, "player_powers"),
            roll_player_powers=_flag(options, "roll_player_powers"),
            powers_per_group=powers,
            far_row=min(int(book.rule("win", "far_row")), pieces),
            losses=min(int(book.rule("win", "losses")), pieces),
            pieces={}, stacks={}, hands=[None] * count, placed=[False] * count,
            first_seat=_number(options, "first_seat", 0, 0, count - 1),
            held_powers=[[] for _ in names], skip=[None] * count,
            rolls=[[] for _ in names], notes=[[] for _ in names],
        )
        for seat, side in enumerate(sides):
            row = layout.home(side)
            start = (len(row) - pieces) // 2
            for number, cell in enumerate(row[start:start + pieces], start=1):
                piece = Piece(f"{TEAMS[seat]}{number}", seat)
                state.pieces[piece.id] = piece
                state.place(piece.id, cell)
        if state.roll_powers:
            state.hands = [_roll_hand(state) for _ in names]
        state.events = []
        return state

    def legal_actions(self, state: State, seat: int | None) -> Sequence[ActionSpec]:
        return MOVE_SET.legal(state, seat, len(state.names))

    def apply(self, state: State, action: Action) -> Transition:
        return MOVE_SET.apply(state, action, len(state.names), REVEALING, event_notes)

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return self.table_view(state, seat).to_dict()

    def table_view(self, state: State, seat: int | None) -> TableView:
        return screen.table_view(state, seat, INFO)

    def as_known_to(self, state: State, seat: int | None) -> State:
        """Hidden from ``seat``: other teams' powers (until the game ends), the powers they
        have still to place or have rolled, what they learned; and the seed (it rolls)."""
        known = state.copy()
        known.seed = None
        for other in range(len(known.names)):
            if other == seat:
                continue
            known.hands[other] = None
            known.rolls[other] = []
            known.notes[other] = []
        if known.outcome is None:
            for piece in known.pieces.values():
                if piece.seat != seat:
                    piece.movement = piece.action = None
        return known

    def components(self) -> Sequence[Component]:
        return components.components()

    def physical_boards(self) -> Sequence[BoardShape]:
        return components.board_shapes()

    def boards_in_play(self, state: State) -> Sequence[BoardInPlay]:
        """The board, each square with the piece on top of its stack ("A3"): the camera sees
        only the top of a stack."""
        layout = state.layout
        marks = {cell: (state.stacks.get(cell) or [""])[-1] for cell in layout.cells()}
        shape = components.shape_name(layout.cols, layout.rows)
        return (BoardInPlay(shape, components.BOARD_ID, None, marks),)

    def board_mark(self, component: Component) -> str | None:
        return component.name if component.game == INFO.slug and component.kind == "PIECE" \
            else None

    def describe(self, state: State, action: Action) -> str:
        return MOVE_SET.describe(state, action)

    def rules_summary(self, options: Mapping[str, Any] | None = None) -> str:
        return rules_summary(Book.load((options or {}).get("house")))
