"""Captain Flip (Paolo Mori & Remo Conzadori, PlayPunk 2024) on the companion: setup, legal
actions, apply, views, camera suggestions and the rules summary.

The rulebook is ../shared/seeds/004_ecf66c668d879d99.txt; the boards cell by cell are
RULES.md §5.3 (data/rules.toml). Tiles come from a real bag (the table tells which tile and
side: a phone tap, or the camera reading the sticker on top) or, if the table chooses, from
the companion's own seeded draw. Seat 0 holds the board with the pirate flag and starts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
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
    PhotoScore,
    ScoreSheet,
    SetupError,
    TableView,
    Transition,
    check_one_of,
    house_reading,
    refuse_unknown,
    shuffled,
)
from companion.games.captain_flip import bag, components, preview, screen
from companion.games.captain_flip.book import BOARDS, CHARACTERS, Book
from companion.games.captain_flip.moves import MOVE_SET, monkey
from companion.games.captain_flip.moves.common import board_id, status
from companion.games.captain_flip.scoring import final_scores
from companion.games.captain_flip.state import DRAW, MONKEY, PLACE, Player, State, Tile

INFO = GameInfo(
    slug=components.SLUG,
    title="Captain Flip",
    code=components.CODE,
    min_players=2,
    max_players=5,
    summary="Draw a tile, keep it or flip it, and crew your ship column by column: the most"
            " coins wins.",
    uses_cards=False,
    has_seat_secrets=False,
    options=(
        Param("board", "choice", "Adventure board, the same for everyone: A, B, C or D",
              choices=BOARDS, default="A"),
        Param("companion_draws", "flag", "The companion draws the tiles (no real bag)",
              default=False),
    ),
    house_readings=(
        house_reading(Book.default().data, "end.bag_empty_finishes_round",
                      "An empty bag finishes the round (else the game ends at once)"),
        house_reading(Book.default().data, "coins.below_zero",
                      "The Parrots' penalty may take a score below 0"),
    ),
)
_OPTIONS = ("board", "companion_draws", "house")
# Events that show what nobody had seen: a tile's other side. Undo stops before them, or a
# player could look at the back and take the flip back.
_REVEALING = ("hand_flipped", "flipped", "companion_drew")


class CaptainFlipRules(GameRules):
    info = INFO
    rule_book = Book

    def setup(self, setup: GameSetup) -> State:
        count = len(setup.seats)
        if not INFO.min_players <= count <= INFO.max_players:
            raise SetupError(f"Captain Flip is for 2 to 5 players, not {count}")
        if setup.deal is not None:
            raise SetupError("Captain Flip has no deal: tiles are drawn one at a time")
        options = dict(setup.options)
        refuse_unknown(options, _OPTIONS, "unknown option")
        board = options.get("board") or "A"
        board = board.strip().upper() if isinstance(board, str) else board  # typed on a phone
        check_one_of("option \"board\"", board, BOARDS)
        companion = options.get("companion_draws", False)
        if not isinstance(companion, bool):
            raise SetupError("option \"companion_draws\" must be true or false")
        book = Book.load(options.get("house"))
        tiles: list[int | None] = list(components.tile_sides())
        if companion:
            tiles = list(shuffled(tiles, setup.seed, "bag"))
        players = [Player(seat, str(name)) for seat, name in enumerate(setup.seats)]
        return State(book, str(board), players, companion, setup.seed, tiles)

    def legal_actions(self, state: State, seat: int | None) -> Sequence[ActionSpec]:
        specs = MOVE_SET.legal(state, seat, len(state.players))
        if state.phase == PLACE and seat == state.turn:
            notes = _before_you_commit(state)
            specs = [replace(spec, note=notes.get(spec.name, spec.note)) for spec in specs]
        return specs

    def apply(self, state: State, action: Action) -> Transition:
        return MOVE_SET.apply(state, action, len(state.players), _REVEALING, _notes)

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    def describe(self, state: State, action: Action) -> str:
        return MOVE_SET.describe(state, action)

    def table_view(self, state: State, seat: int | None) -> TableView:
        return screen.table_view(state, seat, INFO)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The game's own data, compact: what goldens pin and `companion replay --json`
        prints. Boards are the faces up by cell; nothing the table may not know."""
        sheet = screen.score_sheet(state, final_scores(state))
        return {
            "game": INFO.slug,
            "board": state.board,
            "phase": state.phase,
            "status": status(state),
            "round": state.round,
            "turn": state.turn,
            "last_round_by": state.ended_by,
            "tiles_in_bag": len(state.bag),
            "drawn_tile": None if state.hand is None else {
                "character": state.hand.up, "flipped": state.flipped},
            "treasure_map": state.map_holder,
            "players": [{"seat": p.seat, "name": p.name, "coins": p.coins,
                         "columns_done": state.complete_columns(p.seat),
                         "crew": [f"{cell} {face}"
                                  for cell, face in sorted(state.faces(p.seat).items())]}
                        for p in state.players],
            "score": {"title": sheet.title, "rules": list(sheet.rules),
                      "by_seat": [c.to_dict() for c in sheet.columns]},
            "outcome": state.outcome.to_dict() if state.outcome else None,
        }

    def as_known_to(self, state: State, seat: int | None) -> State:
        """The same for every seat: no tile's number (the stickers' numbering would tell its
        back), no side that has not been seen, not the bag's order nor the seed."""
        known = state.copy()
        known.seed = None
        known.bag = [None] * len(state.bag)
        tiles = [t for p in known.players for t in p.spaces.values()]
        for tile in tiles + ([known.hand] if known.hand else []):
            tile.number = None
            if not tile.both_seen:
                tile.down = None
        return known

    def components(self) -> Sequence[Component]:
        return components.components()

    def physical_boards(self) -> Sequence[BoardShape]:
        book = Book.default()
        return components.board_shapes({letter: tuple(
            (s.cell, s.row, s.column) for s in book.layout(letter).spaces.values())
            for letter in BOARDS})

    def boards_in_play(self, state: State) -> Sequence[BoardInPlay]:
        """Each player's board (copy N is seat N-1's), each space with the Character face up."""
        spaces = list(state.layout.spaces)
        return tuple(BoardInPlay(components.shape_name(state.board, p.seat), board_id(p.seat),
                                 p.seat, {cell: p.spaces[cell].up if cell in p.spaces else ""
                                          for cell in spaces})
                     for p in state.players)

    def board_mark(self, component: Component) -> str | None:
        read = components.read_tile(component)
        return None if read is None else read[1]

    def score_photo(self, boards: Mapping[str, Mapping[str, str]],
                    unread: Mapping[str, Sequence[str]]) -> PhotoScore:
        """Each board's end-of-game score from its Characters (the coins a player holds are not
        in a photo: the sheet counts them 0). A board with a cell not read, or read as it
        cannot be (a gap under a tile: the column fills from the bottom), is not scored."""
        return _photo_score(boards, unread)

    def suggest(self, state: State, seen: Component | DieFace) -> Sequence[Action]:
        """A tile's sticker under the camera: the draw of that tile, the flip of the tile in
        hand (its other side now on top), or the Monkey's flip of a neighbour."""
        if not isinstance(seen, Component):
            return ()
        read = components.read_tile(seen)
        if read is None:
            return ()
        number, face = read
        seat = state.turn
        if state.phase == DRAW and not state.companion_draws:
            # only a tile that may still be in the bag: the camera sees the boards' tiles too
            return (Action("draw", seat, {"face": face, "tile": components.tile_name(number)}),
                    ) if bag.may_draw(state, number) else ()
        # a tile is known by its two sides: its twin may stand for it (bag.py); one whose
        # back nobody knows, by the side it showed
        sides = set(components.tile_sides()[number])

        def turned_over(tile: Tile) -> bool:
            if bag.unknown_back(tile):
                return tile.up in sides and face != tile.up
            return {tile.up, tile.down} == sides and face == tile.down

        if state.phase == PLACE and state.hand and not state.flipped \
                and turned_over(state.hand):
            shown = {"face": face} if bag.unknown_back(state.hand) else {}
            return (Action("flip", seat, shown),)
        if state.phase == MONKEY:
            spaces = state.players[seat].spaces
            shown = {"face": face} if monkey.asks_shown(state, seat) else {}
            return tuple(Action("monkey_flip", seat, {"cell": cell, **shown})
                         for cell in state.tiles_next_to(seat, monkey.monkey_cell(state))
                         if turned_over(spaces[cell]))
        return ()

    def announce(self, events: Sequence[Event]) -> str:
        """What the table hears at once: the last round beginning, and the winner."""
        out = []
        for event in events:
            if event["type"] == "last_round":
                out.append("This is the last round.")
            elif event["type"] == "game_over":
                out.append("The game is over: see the score sheet.")
        return " ".join(out)

    def rules_summary(self, options: Mapping[str, Any] | None = None) -> str:
        book = Book.load((options or {}).get("house"))
        lines = ["Captain Flip (2-5 players). [house] marks the project's choices where the"
                 " rulebook is silent; change them in data/rules.toml or the option \"house\".",
                 "",
                 "On your turn: draw a tile seeing one side only; keep it, or flip it once (then"
                 " keep the new side); place it on the lowest empty space of any column (a space"
                 " with a cost only if you can pay); apply the Character's immediate effect,"
                 " then the bonus of the space if it is the highest of its column.",
                 book.text("treasure_map"),
                 f"The game ends when someone has {book.columns_to_end} complete columns: the"
                 " round is finished (the last player sits to the right of the first, seat 0)."
                 " Endgame effects are scored, then the most coins wins; a tie is won by the"
                 " Treasure Map's holder, else shared.",
                 "", "Characters:"]
        lines += [f"  {book.label(c)}: {book.text(c)}" for c in CHARACTERS]
        lines += ["", "Boards (columns a to e from the left, rows 1 to 5 from the bottom):"]
        for letter in BOARDS:
            layout = book.layout(letter)
            spaces = ", ".join(f"{s.cell} {s.label}" for s in layout.spaces.values() if s.label)
            heights = "/".join(str(len(c)) for c in layout.columns)
            lines.append(f"  {letter} {layout.name}: columns {heights}; {spaces}")
        lines += ["", "[house] A Parrot's penalty " + (
            "may take a score below 0." if book.below_zero else "never takes a total below 0."),
            "[house] Three Gunners: " + ("the score is 0 and the player loses." if
                                         book.gunners_score_zero else
                                         "the player loses (never wins, placed last) and keeps"
                                         " their coins on the score sheet."),
            "[house] A Parrot with no tile to draw or no space to fill draws nothing; when the"
            " bag is empty " + ("the round is finished (each turn left passes, its Treasure"
                                " Map coin included) and the game is scored."
                                if book.bag_empty_finishes_round else
                                "at the end of a turn, the game ends and is scored.")]
        return "\n".join(lines)


def _photo_score(boards: Mapping[str, Mapping[str, str]],
                 unread: Mapping[str, Sequence[str]]) -> PhotoScore:
    book = Book.default()
    notes: list[str] = []
    missing: dict[str, tuple[str, ...]] = {}
    read: dict[int, tuple[str, dict[str, str]]] = {}  # seat -> (letter, faces)
    for name in sorted(boards):
        letter, seat = name[0], int(name[1:]) - 1
        layout = book.layout(letter)
        faces = {cell: mark for cell, mark in boards[name].items() if mark}
        doubtful = set(unread.get(name, ()))
        for column in layout.columns:  # a column fills from the bottom: no gap under a tile
            filled = [cell in faces for cell in column]
            top = max((i for i, f in enumerate(filled) if f), default=-1)
            doubtful |= {cell for cell in column[:max(top, 0)] if cell not in faces}
        if doubtful:
            missing[name] = tuple(sorted(doubtful))
        else:
            read[seat] = (letter, faces)
    letters = sorted({letter for letter, _ in read.values()})
    if len(letters) > 1:
        notes.append(f"boards of different letters ({', '.join(letters)}): each is scored as"
                     " its own")
    if not read:
        return PhotoScore(None, missing, tuple(notes))
    sheets = []
    for letter in letters:
        seats = sorted(s for s, (lt, _) in read.items() if lt == letter)
        players = [Player(seat, f"board {letter}{seat + 1}") for seat in range(max(seats) + 1)]
        for seat in seats:
            players[seat].spaces = {cell: Tile(None, face, None)
                                    for cell, face in read[seat][1].items()}
        state = State(book, letter, players, False, None, [])
        scores = [s for s in final_scores(state) if s.seat in seats]
        sheets.append(screen.score_sheet(state, scores))
    sheet = sheets[0]
    if len(sheets) > 1:  # one sheet: the rows of the first, others' columns where they agree
        sheet = ScoreSheet(sheet.title, sheet.rules, tuple(
            c for s in sheets for c in s.columns if len(c.scores) == len(sheet.rules)))
    return PhotoScore(ScoreSheet("Score from the photo (coins held not counted)", sheet.rules,
                                 sheet.columns), missing, tuple(notes))


def _before_you_commit(state: State) -> dict[str, str]:
    """What each choice pays now, under the buttons that make it: every open space for the
    tile kept, and for the tile flipped (from the least to the most its other side may pay)."""
    assert state.hand is not None
    backs, spaces = preview.options(state)
    notes = {"place": " · ".join(f"{o.cell} {preview.describe(o.kept, short=True)}"
                                 for o in spaces)}
    if backs:
        unseen = (f"not the {state.book.label(state.hand.up)}" if len(backs) == 8 else
                  " or ".join(state.book.label(c) for c in backs))
        # One range over every space: a button shows two lines, and the spaces' own
        # payouts are shown when the flipped side is placed.
        flipped = [o.flipped for o in spaces if o.flipped]
        low, high = (min(f.now[0] for f in flipped), max(f.now[1] for f in flipped)) \
            if flipped else (0, 0)
        # "or more": a Monkey's flip or a Parrot's tile pays what nobody can know yet
        more = " or more" if any(f.follows for f in flipped) else " now"
        ranges = f"; {preview.span(low, high)}{more}" if flipped else ""
        notes["flip"] = f"Back: {unseen}{ranges}"
    return notes


# --- the log's notes: who takes or pays what -------------------------------------------------

def _coins_note(state: State, event: Event) -> str:
    name, amount = state.name(event["seat"]), event["amount"]
    count = f"{abs(amount)} coin{'s' * (abs(amount) != 1)}"
    why, cell = event["why"], event.get("cell")
    if why == "correction":
        return f"{name}'s coins corrected by {'+' if amount > 0 else '−'}{abs(amount)}"
    if why == "cost":
        return f"{name} pays {count} to cover {cell}"
    reason = {"treasure_map": "the Treasure Map",
              "bonus": f"the bonus of {cell}"}.get(why, f"{state.book.label(why)} on {cell}"
                                                   if why in CHARACTERS else why)
    return f"{name} takes {count} ({reason})"


def _score_note(state: State, seat: int) -> str:
    score = next(s for s in final_scores(state) if s.seat == seat)
    parts = [f"{score.held} held"]
    named = [("Swabbies", score.swabbies), ("Carpenters", sum(score.carpenters) or None),
             ("Lookouts", sum(score.lookouts) or None), ("Parrots", score.parrots),
             ("board", sum(b or 0 for b in score.board) or None)]
    parts += [f"{label} {'+' if value >= 0 else '−'}{abs(value)}" for label, value in named
              if value is not None]
    lost = ", loses (three Gunners)" if score.lost else ""
    return f"{state.name(seat)}: {score.total} ({', '.join(parts)}){lost}"


def _notes(state: State, events: Sequence[Event]) -> tuple[str, ...]:
    book, out = state.book, []
    for event in events:
        kind = event["type"]
        if kind == "coins":
            out.append(_coins_note(state, event))
        elif kind == "treasure_map":
            previous = event["previous"]
            source = "the centre" if previous is None else state.name(previous)
            if previous != event["seat"]:
                out.append(f"{state.name(event['seat'])} takes the Treasure Map from {source}")
        elif kind == "drawn" and state.companion_draws:
            out.append(f"It shows a {book.label(event['character'])}")
        elif kind == "hand_flipped":
            out.append(f"The other side is a {book.label(event['after'])}: it must be kept")
        elif kind == "flipped":
            out.append(f"{event['cell']} turns from {book.label(event['before'])} to"
                       f" {book.label(event['after'])}")
        elif kind == "parrot_idle":
            out.append(f"The Parrot draws nothing: {event['reason']}")
        elif kind == "monkey_idle":
            out.append(f"The Monkey on {event['cell']} flips nothing: no tile is next to it")
        elif kind == "last_round":
            count = book.columns_to_end
            ends = "the game ends now" if event["seat"] == event["last"] else \
                f"the round ends with {state.name(event['last'])}'s turn"
            out.append(f"{state.name(event['seat'])} has completed {count}"
                       f" column{'s' * (count != 1)}: {ends}")
        elif kind == "game_over":
            out += [_score_note(state, p.seat) for p in state.players]
            ending = screen.ending(state, final_scores(state))
            if ending is not None:
                out.append(ending.text)
        elif kind == "no_space":
            out.append(f"{state.name(event['seat'])} has no space that can take a tile:"
                       " the turn passes")
        elif kind == "no_tile":
            out.append(f"The bag is empty: {state.name(event['seat'])}'s turn passes")
        elif kind == "turn":
            out.append(f"{state.name(event['seat'])}'s turn")
    return tuple(out)

