"""What a screen shows of a Captain Flip table: the engine's typed table view. Everything is
public: faces up, coins, the Treasure Map; never a tile's unseen side nor the bag's order."""

from __future__ import annotations

from companion.engine import (
    Board,
    Cell,
    Counter,
    Ending,
    Fact,
    GameInfo,
    Piece,
    PlayerView,
    ScoreColumn,
    ScoreSheet,
    TableView,
    listed,
)
from companion.games.captain_flip import preview, scoring
from companion.games.captain_flip.book import COLUMNS
from companion.games.captain_flip.moves.common import board_id, status
from companion.games.captain_flip.state import DRAW, MONKEY, OVER, PLACE, State

PHASES = {DRAW: "Draw a tile", PLACE: "Keep or flip, then place", MONKEY: "The Monkey flips",
          OVER: "Game over"}
PLACES = {1: "1st", 2: "2nd", 3: "3rd"}
_END_NOTES = {"bag_empty": " (the bag ran out)", "no_space": " (no space could take a tile)"}
_SAME_OR_NOT = {"same": "identical", "different": "different", "": ""}


def place_name(place: int) -> str:
    return PLACES.get(place, f"{place}th")


# --- players and the table ------------------------------------------------------------------

def _player(state: State, seat: int, places: dict[int, int]) -> PlayerView:
    player = state.players[seat]
    counters = (Counter("coins", "Coins", player.coins),
                Counter("columns", "Columns", state.complete_columns(seat),
                        len(state.layout.columns)))
    facts = []
    if state.map_holder == seat:
        facts.append(Fact("treasure_map", "Holds the Treasure Map"))
    gunners = list(state.faces(seat).values()).count("gunner")
    if gunners >= state.book.number("gunner", "lose_at"):
        facts.append(Fact("gunners", f"{gunners} Gunners: loses the game"))
    if seat in places:
        facts.append(Fact("place", "Place", place_name(places[seat])))
    return PlayerView(seat, player.name, counters, tuple(facts))


def _table_facts(state: State) -> list[Fact]:
    book = state.book
    facts = [Fact("board", "Board", f"{state.board}: {state.layout.name}"),
             Fact("bag", "Tiles in the bag", str(len(state.bag))),
             Fact("treasure_map", "Treasure Map", "in the centre" if state.map_holder is None
                  else state.name(state.map_holder), book.text("treasure_map"))]
    held = sum(p.coins for p in state.players)
    left = book.supply - held
    facts.append(Fact("supply", "Coins in the supply", str(left) if left >= 0 else
                      f"short by {-left}", "" if left >= 0 else
                      "The supply has run out: note what you are owed; the companion's counts"
                      " stand."))
    if state.ended_by is not None and state.phase != OVER:
        last = state.name(state.last_seat())
        facts.append(Fact("last_round", "Last round", f"{state.name(state.ended_by)} has"
                          f" completed {book.columns_to_end} columns: the game ends after"
                          f" {last}'s turn"))
    return facts


# --- before you commit ----------------------------------------------------------------------

def _drawn_facts(state: State) -> list[Fact]:
    """The drawn tile, and what each space it may go to would pay, kept or flipped."""
    hand, book = state.hand, state.book
    assert hand is not None
    label = book.label(hand.up)
    backs, spaces = preview.options(state)
    text = book.text(hand.up)
    if state.flipped:
        drawn = Fact("drawn", "Drawn", f"{label} (flipped)",
                     f"Flipped once: it must be placed as it is. {text}")
    else:
        drawn = Fact("drawn", "Drawn", label, f"{text} Keep it, or flip it once: the other"
                     " side is one of " + listed([book.label(c) for c in backs]) + ".")
    return [drawn, *(Fact(f"payout:{o.cell}", f"On {o.cell}",
                          f"{label} {preview.describe(o.kept)}",
                          f"Flipped: {preview.describe_spread(o.flipped)}" if o.flipped else "")
                     for o in spaces)]


def _monkey_facts(state: State) -> list[Fact]:
    step = state.steps[-1]
    assert step.cell is not None
    near = state.tiles_next_to(state.turn, step.cell)
    faces = state.faces(state.turn)
    return [Fact("monkey", f"The Monkey on {step.cell} flips one of",
                 ", ".join(f"{c} ({state.book.label(faces[c])})" for c in near),
                 "The revealed Character's effect applies; its space's bonus does not.")]


# --- boards and the score sheet ------------------------------------------------------------

def _board(state: State, seat: int) -> Board:
    player, book = state.players[seat], state.book
    cells = []
    for space in state.layout.spaces.values():
        tile = player.spaces.get(space.cell)
        pieces = () if tile is None else (Piece(f"{seat}:{space.cell}", book.short(tile.up),
                                                tile.up, seat, book.label(tile.up),
                                                book.mark(tile.up)),)
        terrain = "cost" if space.cost else "bonus" if space.bonus else ""
        cells.append(Cell(space.cell, space.row, space.column, terrain, space.label, pieces))
    # The phones name the owner after the title: "The pirate ship (Ann)".
    return Board(board_id(seat), state.layout.name, 5, len(COLUMNS), tuple(cells), owner=seat)


def _board_order(state: State) -> list[int]:
    """The board of the player whose turn it is first (where the play is, on every screen),
    then the others clockwise."""
    count = len(state.players)
    first = 0 if state.phase == OVER else state.turn
    return [(first + n) % count for n in range(count)]


def score_sheet(state: State, scores: list[scoring.Score]) -> ScoreSheet:
    """Per player, per rule, in scoring order: each Carpenter and Lookout a row of its own
    (counted from the left), the board's end-of-game bonuses, the Gunners' loss."""
    carpenters = max(len(s.carpenters) for s in scores)
    lookouts = max(len(s.lookouts) for s in scores)
    ends = scoring.end_spaces(state.layout)
    rules = ["Coins held", "Swabbies", *(f"Carpenter {n + 1}" for n in range(carpenters)),
             *(f"Lookout {n + 1}" for n in range(lookouts)), "Parrots",
             *(f"Column {COLUMNS[s.column]}: all {_SAME_OR_NOT[s.bonus.kind if s.bonus else '']}"
               for s in ends)]
    zero = state.book.gunners_score_zero
    if zero:
        rules.append("Three Gunners")
    columns = []
    for s in scores:
        row: list[int | None] = [s.held, s.swabbies]
        row += [s.carpenters[n] if n < len(s.carpenters) else None for n in range(carpenters)]
        row += [s.lookouts[n] if n < len(s.lookouts) else None for n in range(lookouts)]
        row += [s.parrots, *s.board]
        if zero:
            row.append(s.zeroed)
        columns.append(ScoreColumn(s.seat, tuple(row), s.total))
    title = "Final score" if state.phase == OVER else "If the game ended now"
    return ScoreSheet(title, tuple(rules), tuple(columns))


def ending(state: State, scores: list[scoring.Score]) -> Ending | None:
    outcome = state.outcome
    if outcome is None:
        return None
    total = {s.seat: s.total for s in scores}
    names = [state.name(s) for s in outcome.winners]
    if outcome.reason == "everyone_lost":
        text = "Game over: everyone has three Gunners or more, nobody wins"
    elif outcome.reason == "map_breaks_tie":
        text = (f"Game over: {names[0]} wins the tie with the Treasure Map, with"
                f" {total[outcome.winners[0]]} coins")
    elif outcome.reason == "shared":
        text = f"Game over: {listed(names)} share the win with {total[outcome.winners[0]]} coins"
    else:
        text = f"Game over: {names[0]} wins with {total[outcome.winners[0]]} coins"
    lost = [state.name(s.seat) for s in scores if s.lost]
    if lost and outcome.reason != "everyone_lost":
        text += f"; {listed(lost)} {'loses' if len(lost) == 1 else 'lose'} with three Gunners"
    text += _END_NOTES.get(str(outcome.details.get("game_end")), "")
    return Ending(outcome.winners, text)


def table_view(state: State, seat: int | None, info: GameInfo) -> TableView:
    scores = scoring.final_scores(state)
    over = state.phase == OVER
    places = dict(scoring.ranking(scores, state.map_holder).places) if over else {}
    facts = _table_facts(state)
    if state.phase == PLACE:
        facts += _drawn_facts(state)
    elif state.phase == MONKEY:
        facts += _monkey_facts(state)
    headline = f"Board {state.board} · Round {state.round}" + (
        " · last round" if state.ended_by is not None and not over else "")
    return TableView(
        game=info.slug, title=info.title, seat=seat, phase=state.phase,
        phase_label=PHASES[state.phase], status=status(state), headline=headline,
        players=tuple(_player(state, p.seat, places) for p in state.players),
        turn=None if over else state.turn,
        waiting_for=() if over else (state.turn,),
        facts=tuple(facts),
        boards=tuple(_board(state, seat) for seat in _board_order(state)),
        score_sheet=score_sheet(state, scores),
        ending=ending(state, scores),
    )
