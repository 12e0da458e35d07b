"""Place a new power: the owner of a piece shown honest chooses (or rolls) a power of the
same group and puts it on any of its pieces, in secret; it replaces that piece's power of the
group, if it has one. Everyone's log says that it was placed (it ends the settling, and what
follows, a Detective's look say, must be logged for all), never which power or where."""

from __future__ import annotations

from companion.engine import Move, Param
from companion.games.gambit_6x6 import flow
from companion.games.gambit_6x6.moves.common import (
    Params,
    fixed,
    not_playing,
    on_squares,
    own_pieces,
    unknown_power,
)
from companion.games.gambit_6x6.state import Owed, State


def owed_power(state: State, seat: int | None) -> Owed | None:
    """The new power ``seat`` places now (what is owed is settled in order)."""
    first = state.owed[0] if state.owed else None
    return first if first is not None and first.kind == "reassign" and first.seat == seat \
        else None


def _refusal(state: State, seat: int | None) -> str | None:
    if state.outcome is None and seat is not None and owed_power(state, seat) is None:
        return "you have no new power to place now"
    return not_playing(state, seat)


def power_choices(state: State, seat: int) -> tuple[str, ...]:
    """Rolled: that power (any of the group for a wild die). Chosen: a power of the group the
    team does not hold, as at the start ("two unique" powers). Never a Moat too many."""
    owed = owed_power(state, seat)
    assert owed is not None and owed.group is not None
    group = owed.group
    held = {getattr(p, group) for p in state.team(seat)}
    if state.roll_powers:
        # Another seat's copy of the state holds no roll of this seat's: any of the group.
        rolled = state.rolls[seat][0] if state.rolls[seat] else f"wild:{group}"
        options = state.book.powers(group) if rolled.startswith("wild:") else (rolled,)
    else:
        options = tuple(p for p in state.book.powers(group) if p not in held)
    most = int(state.book.rule("setup", "most_moats"))
    if flow.moats_held(state, seat) >= most:
        options = tuple(p for p in options if p != "moat") or options
    return options


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    if seat is None or owed_power(state, seat) is None:
        return ()
    options = power_choices(state, seat)
    return (Param("power", "choice", "New power", choices=options,
                  default=options[0] if len(options) == 1 else None,
                  labels=tuple(state.book.label(p) for p in options)),
            Param("piece", "choice", "On which piece", choices=own_pieces(state, seat),
                  labels=on_squares(state, own_pieces(state, seat))))


def _check(state: State, seat: int | None, params: Params) -> str | None:
    power = params.get("power")
    if not isinstance(power, str) or seat is None:
        return None
    if unknown_power(state, power):
        return unknown_power(state, power)
    if power not in power_choices(state, seat):
        owed = owed_power(state, seat)
        return (f"{state.book.label(power)} cannot be your new {owed.group if owed else ''}"
                f" power (you may take: {', '.join(power_choices(state, seat))})")
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    owed = owed_power(state, seat)
    assert owed is not None and owed.group is not None
    state.owed.remove(owed)
    if state.roll_powers:
        state.rolls[seat].pop(0)
    setattr(state.pieces[params["piece"]], owed.group, params["power"])
    flow.carry_on(state)


def _text(state: State, seat: int | None, params: Params) -> str:
    owed = owed_power(state, seat)
    what = f"new {owed.group} power" if owed else "new power"
    return f"{state.name(seat)} places a {what}"


MOVE = Move("place_new_power", "input", fixed("Place your new power"), _refusal, _run, _text,
            _params, _check, secret=("power", "piece"))
