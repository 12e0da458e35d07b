"""What every move module shares: whose answer the game waits for, and the refusals alike."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from companion.engine import Param, listed
from companion.games.gambit_6x6 import flow
from companion.games.gambit_6x6.state import Pending, State

Params = Mapping[str, Any]
Refusal = Callable[[State, int | None], str | None]


def waiting_for(state: State) -> list[int]:
    """The seats whose answer the game needs before it can go on."""
    if state.phase == "placing":
        return [s for s, done in enumerate(state.placed) if not done]
    if state.phase == "turn":
        return [state.turn]
    if state.phase == "answering":
        return flow.answering(state)
    if state.phase == "settling":
        return [state.owed[0].seat] if state.owed else []
    if state.phase == "earn" and state.earning:
        return [state.earning[0]]
    if state.phase == "juggernaut" and state.juggernaut:
        return [state.juggernaut[1]]
    return []


def waiting_text(state: State) -> str:
    names = [state.name(s) for s in waiting_for(state)]
    pending = state.pending
    if state.phase == "placing":
        return f"{listed(names)} to place their powers"
    if state.phase == "turn":
        again = "" if not state.remake else " (again: a Moat sent the last try back)" \
            if state.moated else " (again: the last try was a bluff, undone)"
        jugg = " (the Juggernaut's move)" if state.juggernaut else ""
        return f"{state.name(state.turn)} to move{again}{jugg}"
    if state.phase == "answering" and pending is not None:
        if pending.stage == "moat" and pending.reaction:
            return (f"{state.name(pending.actor)} to accept or challenge the Moat on"
                    f" {pending.reaction.piece}")
        if pending.stage == "kamikaze" and pending.reaction:
            return (f"{state.name(pending.actor)} to accept or challenge the Kamikaze of"
                    f" {pending.reaction.piece}")
        return f"{listed(names)} to answer {answered(state, pending)}: {_answers(state)}"
    if state.phase == "settling":
        parts = []
        for owed in state.owed:
            if owed.kind == "lose":
                whose = "" if owed.loser == owed.seat else f" of {state.name(owed.loser)}'s"
                parts.append(f"{state.name(owed.seat)} to give up a piece{whose}")
            else:
                parts.append(f"{state.name(owed.seat)} to place a new {owed.group} power")
        return ", then ".join(parts)
    if state.phase == "earn":
        return f"{listed(names)} to take a Player Power"
    if state.phase == "juggernaut" and state.juggernaut:
        winner, holder = state.juggernaut
        return (f"{state.name(holder)} to use the Juggernaut against"
                f" {state.name(winner)}'s win, or let it stand")
    return "the game is over"


KINDS = {"move": "move", "bulldoze": "push", "detect": "Detective", "sensei": "Sensei"}


def on_squares(state: State, pieces: tuple[str, ...]) -> tuple[str, ...]:
    """Pieces as a phone lists them, each with its square: "B2 (b6)" (a piece's name alone
    does not say which one on the board it is)."""
    return tuple(f"{p} ({state.where(p) or 'lost'})" for p in pieces)


def answered(state: State, pending: Pending) -> str:
    """The action waiting for answers, as whoever answers needs it (public facts only):
    "Ann's move A1 a1-c3, claiming Diagonal"."""
    words = f"{state.name(pending.actor)}'s {KINDS[pending.kind]}"
    if pending.start and pending.end:
        words += f" {pending.piece} {pending.start}-{pending.end}"
    claims = pending.open_claims()
    if claims:
        words += ", claiming " + " and ".join(state.book.label(c.power) for c in claims)
    return words


def prompt(state: State, seat: int | None) -> str:
    """What the game asks of ``seat`` now, addressed to it, when that is not a plain turn
    (a phone's turn card says it instead of "Your turn"); "" when nothing is asked of it or
    its turn is a plain one. Public words only, but for the seat's own powers to choose."""
    if seat is None or state.outcome is not None or seat not in waiting_for(state):
        return ""
    pending = state.pending
    if state.phase == "placing":
        if state.hands[seat] is None and not state.roll_powers:
            return "Before play: choose your team's powers, in secret"
        return "Before play: place your powers on your pieces, in secret"
    if state.phase == "turn":
        if state.juggernaut is not None:
            return (f"Your Juggernaut's move: one more move to undo"
                    f" {state.name(state.juggernaut[0])}'s win")
        if state.remake:
            return "Move again: " + ("a Moat sent your last try back" if state.moated
                                     else "your last try was a bluff and is undone")
        return ""
    if state.phase == "answering" and pending is not None:
        claim = pending.reaction
        if pending.stage in ("moat", "kamikaze") and claim is not None:
            what = "Moat" if pending.stage == "moat" else "Kamikaze"
            return (f"{state.name(claim.seat)} declares {claim.piece} a {what} against your"
                    f" {KINDS[pending.kind]}: accept it or challenge it")
        return f"Answer {answered(state, pending)}: {_answers(state)}"
    if state.phase == "settling" and state.owed:
        owed = state.owed[0]
        if owed.kind == "lose" and owed.loser == seat:
            return "You must give up a piece: you lost a challenge"
        if owed.kind == "lose" and owed.loser is not None:
            loser = state.name(owed.loser)
            return f"Take one of {loser}'s pieces: {loser} lost the challenge"
        return (f"Place a new {owed.group} power on one of your pieces, in secret: your piece"
                " was shown honest")
    if state.phase == "earn":
        return "A piece of yours reached the far row: take a Player Power"
    if state.phase == "juggernaut" and state.juggernaut is not None:
        return (f"{state.name(state.juggernaut[0])} wins on the far row unless you use your"
                " Juggernaut: use it (one more move) or let the win stand")
    return ""


def _answers(state: State) -> str:
    """What the seats still to answer may do (public: claims, squares, Player Powers)."""
    seats = flow.answering(state)
    found = ["let it stand"]
    if flow.challengeable(state):
        found.append("challenge it")
    if any(flow.moat_guards(state, s) for s in seats):
        found.append("declare a Moat")
    if any(flow.kamikaze_piece(state, s) for s in seats):
        found.append("declare a Kamikaze")
    if any(flow.may_witch_doctor(state, s) for s in seats):
        found.append("use the Witch Doctor")
    return ", ".join(found[:-1]) + " or " + found[-1] if len(found) > 1 else found[0]


def not_playing(state: State, seat: int | None) -> str | None:
    if state.outcome is not None:
        return "the game is over"
    if seat is None:
        return "this needs a seat, not the table"
    if not state.in_game(seat):
        return f"{state.name(seat)} is out of the game"
    return None


def on_turn(state: State, seat: int | None) -> str | None:
    """Refusal unless it is ``seat``'s turn to act."""
    reason = not_playing(state, seat)
    if reason:
        return reason
    if state.phase != "turn":
        return f"not now: waiting for {waiting_text(state)}"
    if seat != state.turn:
        return f"not your turn: it is {state.name(state.turn)}'s"
    return None


def in_window(state: State, seat: int | None) -> str | None:
    """Refusal unless ``seat`` may answer the pending action now."""
    reason = not_playing(state, seat)
    if reason or seat is None:
        return reason
    if state.phase != "answering" or state.pending is None:
        return f"no action is waiting for an answer: waiting for {waiting_text(state)}"
    if not flow.may_answer(state, seat):
        return f"not yours to answer: waiting for {waiting_text(state)}"
    return None


def fixed(text: str) -> Callable[[State], str]:
    return lambda state: text


def unknown_power(state: State, value: Any) -> str | None:
    """The refusal for a power this game does not have."""
    if value in state.book.powers():
        return None
    known = ", ".join(state.book.powers())
    return f"{value!r} is not a power of this game (powers: {known})"


def own_pieces(state: State, seat: int | None) -> tuple[str, ...]:
    return tuple(p.id for p in state.team(seat)) if seat is not None else ()


def not_on_top(state: State, seat: int | None, cell: str) -> str:
    """Why the seat cannot act with the top piece of ``cell``, which is not its own: no piece
    there, another's piece, or the seat's own piece with another team's Sitter on it."""
    top = state.top(cell) if cell in state.stacks else None
    if top is None:
        named = state.pieces.get(cell.upper())
        if named is not None and named.seat == seat and (where := state.where(named.id)):
            # a piece's name typed for its square
            return (f"there is no piece on {cell} (your {named.id} stands on {where}: name"
                    " the square a piece stands on, not the piece)")
        return f"there is no piece on {cell}"
    own = next((p for p in reversed(state.stacks[cell]) if state.pieces[p].seat == seat), None)
    if own is not None:
        return (f"your {own} on {cell} is sat on by {state.name(top.seat)}'s {top.id}: a"
                f" sat-on piece cannot move until the sitter moves off")
    return f"the piece on top of {cell} is not yours"


def tops(state: State, seat: int | None) -> list[str]:
    """The squares whose top piece is the seat's: the pieces it may move."""
    return [cell for cell in state.stacks
            if (top := state.top(cell)) is not None and top.seat == seat]


def tap_then_tap(state: State, first: tuple[str, str], second: tuple[str, str],
                 options: Mapping[str, Iterable[str]],
                 note: Callable[[str, str], str] | None = None) -> tuple[Param, Param]:
    """Two squares of the board, (name, label) each: a piece's, then one of those it may go
    to (``options``), which light up on a phone once the piece is tapped (``note``: a line
    for a square from a piece, "" for none: what going there claims). A sheet names each
    piece as the board does, with its square: "A4 (d1)"."""
    by_piece = tuple((cell, tuple(sorted(to))) for cell, to in sorted(options.items()))
    every = tuple(sorted({to for _, cells in by_piece for to in cells}))
    pieces = tuple(sorted(options))
    names = tuple(f"{top.id} ({cell})" if (top := state.top(cell)) is not None else cell
                  for cell in pieces)
    notes = () if note is None else tuple(
        (cell, tuple(note(cell, to) for to in cells)) for cell, cells in by_piece)
    return (Param(first[0], "cell", first[1], choices=pieces, board="board", labels=names),
            Param(second[0], "cell", second[1], choices=every, board="board",
                  depends_on=first[0], choices_by=by_piece, notes_by=notes))
