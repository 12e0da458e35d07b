"""What a screen shows of a Gambit of Kings table: the engine's typed table view (the board,
turned round for the dark side's player), and the game's own view (what replays print)."""

from __future__ import annotations

from typing import Any

from companion.engine import (
    Board,
    Cell,
    Counter,
    Ending,
    Fact,
    GameInfo,
    Piece,
    PlayerView,
    TableView,
)
from companion.games.gambit_of_kings.board import coords, squares, written_out
from companion.games.gambit_of_kings.book import SIDES
from companion.games.gambit_of_kings.components import SLUG
from companion.games.gambit_of_kings.moves import BOARD, status
from companion.games.gambit_of_kings.state import State

OWN = "each piece that moves"  # the view's "unlocked" when every mover has its own effect
LAST_MOVE = "last-move"  # the terrain the phones highlight: the last move's squares
PHASES = {"laying": "Laying out the cards", "roll": "Movement roll", "move": "Move",
          "combat": "Combat", "second": "Second move", "over": "Game over"}


def _counted(names: list[str]) -> str:
    """["Orc", "Orc", "Lich"] -> "Orc ×2, Lich"."""
    seen: dict[str, int] = {}
    for name in names:
        seen[name] = seen.get(name, 0) + 1
    return ", ".join(f"{n} ×{c}" if c > 1 else n for n, c in seen.items())


def _player(state: State, seat: int) -> PlayerView:
    book = state.book
    pieces = sum(1 for p in state.board.values() if p.side == seat)
    counters = [Counter("pieces", "Pieces", pieces)]
    if state.mode.tokens:
        counters.append(Counter("tokens", "Tokens", state.tokens[seat], state.mode.tokens))
    facts = [Fact("plays", "Side", f"{SIDES[seat]} ({book.side_name(seat)})")]
    if state.cards[seat]:
        row = " · ".join(f"{n} {book.name(k, seat)}" for n, k in
                         enumerate(state.cards[seat], start=1))
        facts.append(Fact("card_row", "Cards", row))
    if state.lost[seat]:
        facts.append(Fact("lost", "Lost", _counted([book.name(k, seat)
                                                    for k in state.lost[seat]])))
    return PlayerView(seat, state.names[seat], tuple(counters), tuple(facts))


def _facts(state: State) -> tuple[Fact, ...]:
    book = state.book
    facts = []
    if state.roll is not None:
        kind = state.card(state.turn, state.roll)
        card = f"the {book.name(kind, state.turn)}'s card" if kind else "no card"
        facts.append(Fact("roll", "Movement roll", f"{state.roll} ({card})"))
    if state.unlocked is not None:
        facts.append(Fact("effect", "Adventure effect",
                          f"{book.name(state.unlocked, state.turn)}:"
                          f" {book.effect_text(state.unlocked)}",
                          "unlocked for this turn" + (" (the free re-roll is used)" if
                                                      book.effect(state.unlocked) == "reroll"
                                                      and not state.free_reroll else "")))
    if state.own_effects:
        facts.append(Fact("effect", "Adventure effect", "the moving piece's own",
                          "unlocked for this turn by an even roll"))
    combat = state.combat
    if combat is not None:
        dice = " · ".join(f"{state.die_name(d)}: {'?' if d.value is None else d.value}"
                          for d in combat.dice)
        facts.append(Fact("combat", "Combat", f"{state.whose(combat.piece)} from"
                          f" {combat.origin} attacks {state.whose(combat.defender)} on"
                          f" {combat.target}", dice))
    if state.last_move:
        facts.append(Fact("last_move", "Last move", ", ".join(
            f"{a} to {b}" if a != b else f"the attack from {a} failed"
            for a, b in state.last_move)))
    if state.turns == 0 and state.phase != "over":
        facts.append(Fact("first", "Moves first", state.names[state.first]
                          + (" (the companion's coin)" if state.coin else "")))
    limit = book.quiet_turns
    if limit and state.quiet * 2 >= limit and state.outcome is None:
        facts.append(Fact("quiet", "Turns without a piece destroyed",
                          f"{state.quiet} of {limit}", f"a draw after {limit}"))
    return tuple(facts)


def _board(state: State) -> Board:
    """The board as drawn; kept in the state's memo while the position stays the same."""
    key = (tuple(state.board.items()), tuple(state.last_move))
    return state.remember("board", key, lambda: _drawn(state))


def _drawn(state: State) -> Board:
    book, size = state.book, state.book.size
    marked = {sq for pair in state.last_move for sq in pair}
    cells = []
    for name in squares(size):
        file, rank = coords(name)
        piece = state.board.get(name)
        shown = () if piece is None else (Piece(
            piece.id, book.label(piece.kind, piece.side), piece.kind, piece.side,
            f"{state.names[piece.side]}'s {book.name(piece.kind, piece.side)}"
            f" ({SIDES[piece.side]})"),)
        # An empty square shows its name, so that "b7 to b5" can be found at a glance.
        cells.append(Cell(name, size - rank, file, LAST_MOVE if name in marked else "",
                          "" if piece else name, shown))
    return Board(BOARD, "The board", size, size, tuple(cells), turned_for=(1,))


def _ending(state: State) -> Ending | None:
    outcome = state.outcome
    if outcome is None:
        return None
    if outcome.reason == "castle_taken":
        winner = outcome.winners[0]
        text = (f"{state.names[winner]} wins: {state.book.side_name(1 - winner)} Castle is"
                " taken")
    elif outcome.reason == "quiet_draw":
        text = f"A draw: {state.quiet} turns in a row with no piece destroyed"
    else:
        said = f"{state.names[outcome.winners[0]]} wins" if outcome.winners else "A draw"
        text = f"{said}, by the table's ruling ({outcome.details.get('why', '')})"
    return Ending(outcome.winners, text)


def waiting_for(state: State) -> tuple[int, ...]:
    if state.outcome is not None:
        return ()
    if state.phase == "laying":
        return tuple(s for s in (0, 1) if not state.cards[s])
    combat = state.combat
    if state.phase == "combat" and combat is not None:
        missing = combat.missing()
        if missing:
            return tuple(sorted({d.seat for d in missing}))
        return () if combat.loser is None else (combat.loser,)
    return (state.turn,)


def prompt(state: State, seat: int | None) -> str:
    """What the game asks of ``seat`` now, addressed to it, when that is not a plain turn (a
    phone's turn card says it instead of "Your turn"): laying the cards out, the combat dice,
    a combat being lost, the second move; "" otherwise."""
    if seat is None or seat not in waiting_for(state):
        return ""
    combat = state.combat
    if state.phase == "laying":
        return "Before play: lay out your row of cards, one card at a time"
    if state.phase == "second":
        return (f"You rolled {state.roll}: a second move with another piece (it can't attack),"
                " or end your turn")
    if state.phase != "combat" or combat is None:
        return ""
    dice = combat.missing(seat)
    if dice:
        named = " and ".join(d.text for d in dice)
        return f"Combat: roll your {named} and enter {'them' if len(dice) > 1 else 'it'}"
    return "You are losing the combat: re-roll one of your dice, or accept"


def table_view(state: State, seat: int | None, info: GameInfo) -> TableView:
    over = state.outcome is not None
    turn_word = (f"{state.turns} turn{'s' * (state.turns != 1)}" if over
                 else f"turn {state.turns + 1}")
    return TableView(
        game=info.slug, title=info.title, seat=seat, phase=state.phase,
        phase_label=PHASES[state.phase], status=status(state),
        headline=f"{state.mode.label} · {turn_word}",
        turn=None if over or state.phase == "laying" else state.turn,
        waiting_for=waiting_for(state), prompt=prompt(state, seat),
        players=(_player(state, 0), _player(state, 1)),
        facts=_facts(state), boards=(_board(state),), ending=_ending(state))


def view(state: State) -> dict[str, Any]:
    """The game's own data (what `companion replay --json` prints): the position, the card
    rows and the tokens as a table writes them (the options "pieces", "card_rows" and
    "tokens" take them back), and the turn's state. Pieces are named as on their side."""
    book, combat = state.book, state.combat

    def named(kinds: list[str], seat: int) -> list[str]:
        return [book.name(k, seat).lower() for k in kinds]

    unlocked = None if state.unlocked is None else book.name(state.unlocked, state.turn).lower()

    return {
        "game": SLUG,
        "mode": state.mode.name,
        "phase": state.phase,
        "turn": None if state.outcome else SIDES[state.turn],
        "turns": state.turns,
        "quiet": state.quiet,
        "pieces": written_out(book, state.board),
        "card_rows": {SIDES[s]: named(state.cards[s], s) for s in (0, 1)}
        if state.mode.roll else None,
        "tokens": {SIDES[s]: state.tokens[s] for s in (0, 1)},
        "roll": state.roll,
        "unlocked": OWN if state.own_effects else unlocked,
        "combat": None if combat is None else {
            "origin": combat.origin, "target": combat.target,
            "rolled": [{"die": d.id, "roller": SIDES[d.seat], "value": d.value}
                       for d in combat.dice],
            "loser": None if combat.loser is None else SIDES[combat.loser]},
        "last_move": [list(pair) for pair in state.last_move],
        "lost": {SIDES[s]: named(state.lost[s], s) for s in (0, 1)},
        "outcome": state.outcome.to_dict() if state.outcome else None,
    }
