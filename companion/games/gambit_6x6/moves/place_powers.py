"""Place powers: each seat puts its chosen or rolled powers on its pieces, in secret (a
wild die's power is chosen here too). Play begins once every seat has placed; until then a
seat may place its powers again (a tap on the wrong piece is put right before it counts)."""

from __future__ import annotations

from typing import Any

from companion.engine import Move, Param
from companion.games.gambit_6x6 import flow
from companion.games.gambit_6x6.moves.common import Params, fixed, not_playing, own_pieces
from companion.games.gambit_6x6.state import State


def slots(state: State, seat: int) -> list[tuple[str, str, str]]:
    """The seat's powers to place: (field name, group, power or "wild")."""
    found = []
    counts: dict[str, int] = {}
    for power in state.hands[seat] or []:
        group = power.split(":")[1] if power.startswith("wild:") else state.book.group(power)
        counts[group] = counts.get(group, 0) + 1
        found.append((f"{group}_{counts[group]}", group,
                      "wild" if power.startswith("wild:") else power))
    return found


def _refusal(state: State, seat: int | None) -> str | None:
    reason = not_playing(state, seat)
    if reason or seat is None:
        return reason
    if state.phase != "placing":
        return "your powers are placed"
    if state.hands[seat] is None:
        return "choose your powers first"
    return None


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    if seat is None:
        return ()
    params = []
    for name, group, power in slots(state, seat):
        if power == "wild":
            params.append(Param(f"{name}_power", "choice", f"Wild {group} die: which power",
                                choices=state.book.powers(group), labels=tuple(
                                    state.book.label(p) for p in state.book.powers(group))))
            label = f"The wild {group} power goes on"
        else:
            label = f"{state.book.label(power)} goes on"
        params.append(Param(name, "choice", label, choices=own_pieces(state, seat)))
    return tuple(params)


def placed_powers(state: State, seat: int, params: Params) -> list[tuple[Any, str, Any]]:
    """(piece, group, power) for every slot, the wild ones as chosen (as given: checked by
    the spec and ``_check``)."""
    return [(params.get(name), group,
             params.get(f"{name}_power") if power == "wild" else power)
            for name, group, power in slots(state, seat)]


def _check(state: State, seat: int | None, params: Params) -> str | None:
    if seat is None:
        return None
    taken: set[tuple[str, str]] = set()
    for piece, group, power in placed_powers(state, seat, params):
        if (piece, group) in taken:
            return f"{piece} would hold two {group} powers: a piece holds at most one of each"
        taken.add((piece, group))
        if isinstance(power, str) and power in state.book.powers() \
                and state.book.group(power) != group:
            return f"{state.book.label(power)} is not a {group} power"
    most = int(state.book.rule("setup", "most_moats"))
    if [p for _, _, p in placed_powers(state, seat, params)].count("moat") > most:
        return f"a team holds at most {most} Moat (two Moats rolled means a re-roll)"
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    for piece in state.pieces.values():  # placed again: the first placing is replaced
        if piece.seat == seat:
            piece.movement = piece.action = None
    for piece, group, power in placed_powers(state, seat, params):
        setattr(state.pieces[piece], group, power)
    state.placed[seat] = True
    if all(state.placed):
        state.hands = [[] for _ in state.hands]  # placed for good: play begins
        state.emit("play_began", seat=state.first_seat)
        flow.next_turn(state, state.first_seat - 1)


def _text(state: State, seat: int | None, params: Params) -> str:
    if seat is None:
        return "powers placed"
    shown = ", ".join(f"{piece} {state.book.label(str(power))}"
                      for piece, _, power in placed_powers(state, seat, params))
    return f"{state.name(seat)} places the powers {shown}"


def _note(state: State, seat: int | None) -> str:
    placed = seat is not None and state.phase == "placing" and state.placed[seat]
    return "Placed. Tap to change them" if placed else ""  # until play begins


MOVE = Move("place_powers", "input", fixed("Place your powers on your pieces"), _refusal, _run,
            _text, _params, _check, private=True, note=_note)
