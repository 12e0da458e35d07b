"""What a screen shows of a Gambit (6x6) table: the board, each team's public counters, what
is claimed and owed, and, for one seat only, its own pieces' powers and what it has learned."""

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
    TableView,
)
from companion.games.gambit_6x6.components import BOARD_ID
from companion.games.gambit_6x6.moves import game_over_text
from companion.games.gambit_6x6.moves.common import prompt, waiting_for, waiting_text
from companion.games.gambit_6x6.moves.place_powers import slots
from companion.games.gambit_6x6.state import State

PHASES = {"placing": "Placing powers", "turn": "A move", "answering": "Answers",
          "settling": "Settling a challenge", "earn": "A Player Power",
          "juggernaut": "Juggernaut?", "over": "Game over"}


def _powers(state: State, powers: list[str]) -> str:
    return " + ".join(state.book.label(p) for p in powers) or "no powers"


def _player(state: State, seat: int) -> PlayerView:
    counters = (Counter("on_board", "Pieces", len(state.team(seat))),
                Counter("losses", "Lost", state.lost_count(seat), state.losses),
                Counter("far_row", "Far row", len(state.scoring(seat)), state.far_row))
    facts = [Fact("home_side", "Side", state.sides[seat])] if len(state.names) > 2 else []
    if state.phase == "placing":
        facts.append(Fact("placed", "Powers placed" if state.placed[seat] else
                          "Placing powers"))
    if state.held_powers[seat]:
        facts.append(Fact("player_powers", "Player Powers",
                          ", ".join(state.book.label(p) for p in state.held_powers[seat])))
    spent = state.skip[seat]
    if spent is not None and state.outcome is None:  # no turn is left after a failed Juggernaut
        facts.append(Fact("skips", f"Skips the next turn ({state.book.label(spent)})"))
    if state.outcome is not None:
        shown = ", ".join(f"{p.id} {_powers(state, p.powers())}" for p in
                          state.pieces.values() if p.seat == seat)
        facts.append(Fact("revealed", "Powers at the end", shown))
    return PlayerView(seat, state.names[seat], counters, tuple(facts), state.in_game(seat))


def _pending_facts(state: State) -> list[Fact]:
    pending = state.pending
    if pending is None:
        return []
    book = state.book
    what = {"move": f"moved {pending.piece} {pending.start}-{pending.end}",
            "bulldoze": f"pushed with {pending.piece} ({pending.start}-{pending.end})",
            "detect": f"looks at {pending.target} with {pending.piece}",
            "sensei": f"passes powers from {pending.piece} to {pending.target}"}[pending.kind]
    label = "Undone" if pending.undone else "Waiting on"
    facts = [Fact("action", label, f"{state.name(pending.actor)} {what}")]
    for claim in pending.claims:
        status = {"open": "claimed", "true": "shown true", "false": "shown a bluff"}
        facts.append(Fact(f"claim:{claim.power}", f"{claim.piece} {book.label(claim.power)}",
                          status[claim.status]))
    if pending.reaction is not None:
        claim = pending.reaction
        facts.append(Fact(f"declared:{claim.power}",
                          f"{state.name(claim.seat)} declares {claim.piece} a"
                          f" {book.label(claim.power)}"))
    return facts


def _table_facts(state: State) -> tuple[Fact, ...]:
    facts = [Fact("rules", "Powers", "rolled" if state.roll_powers else "chosen")]
    if state.player_powers_on:
        facts.append(Fact("advanced", "Player Powers",
                          "rolled" if state.roll_player_powers else "chosen"))
    facts += _pending_facts(state)
    if state.moated:
        facts.append(Fact("moated", "Moats that sent this turn's move back",
                          ", ".join(state.moated)))
    return tuple(facts)


def _secrets(state: State, seat: int) -> tuple[Fact, ...]:
    book = state.book
    out = []
    # placed: the hand is kept only so that the seat may place again before play begins
    for name, group, power in [] if state.placed[seat] else slots(state, seat):
        label = f"a wild {group} die (you choose)" if power == "wild" else book.label(power)
        out.append(Fact(f"to_place:{name}", "To place", label,
                        "" if power == "wild" else book.text(power)))
    for piece in state.team(seat):
        detail = " ".join(f"{book.label(p)}: {book.text(p)}" for p in piece.powers())
        out.append(Fact(f"powers:{piece.id}", piece.id, _powers(state, piece.powers()), detail))
    for rolled in state.rolls[seat]:
        shown = f"any {rolled[5:]} power (a wild die)" if rolled.startswith("wild:") \
            else book.label(rolled)
        out.append(Fact("rolled", "Your new power (rolled)", shown))
    for number, note in enumerate(state.notes[seat]):
        out.append(Fact(f"learned:{number}", "You learned", note))
    return tuple(out)


def _board(state: State) -> Board:
    layout = state.layout
    homes = {c for side in state.sides for c in layout.home(side)}
    cells = []
    for cell in layout.cells():
        x, y = layout.point(cell)
        pieces = tuple(Piece(p, p, "piece", state.pieces[p].seat,
                             f"{state.names[state.pieces[p].seat]}'s {p}")
                       for p in state.stacks.get(cell, []))
        cells.append(Cell(cell, layout.rows - 1 - y, x, "home" if cell in homes else "", cell,
                          pieces))
    turned = tuple(s for s, side in enumerate(state.sides) if side == "north")
    return Board(BOARD_ID, layout.label, layout.rows, layout.cols, tuple(cells),
                 turned_for=turned)


def _ending(state: State) -> Ending | None:
    outcome = state.outcome
    if outcome is None:
        return None
    return Ending(outcome.winners, game_over_text(state, list(outcome.winners), outcome.reason))


def table_view(state: State, seat: int | None, info: GameInfo) -> TableView:
    playing = state.phase not in ("placing", "over")
    return TableView(
        game=info.slug, title=info.title, seat=seat, phase=state.phase,
        phase_label=PHASES[state.phase],
        status=waiting_text(state) if state.outcome is None else "the game is over",
        headline=f"Turn {state.turns}" if state.turns else "Before play",
        turn=state.turn if playing else None,
        waiting_for=tuple(waiting_for(state)),
        prompt=prompt(state, seat),
        players=tuple(_player(state, s) for s in range(len(state.names))),
        facts=_table_facts(state),
        secrets=_secrets(state, seat) if seat is not None else (),
        boards=(_board(state),),
        ending=_ending(state),
    )

