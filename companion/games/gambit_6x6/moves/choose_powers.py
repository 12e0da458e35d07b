"""Choose powers: before play, each seat picks its team's powers, all different, in secret."""

from __future__ import annotations

from companion.engine import Move, Param
from companion.games.gambit_6x6.book import GROUPS
from companion.games.gambit_6x6.moves.common import Params, fixed, not_playing, unknown_power
from companion.games.gambit_6x6.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = not_playing(state, seat)
    if reason or seat is None:
        return reason
    if state.phase != "placing":
        return "powers are chosen before play"
    if state.roll_powers:
        return "this table rolls for its powers: place the rolled ones"
    if state.hands[seat] is not None:
        return "your powers are chosen: place them on your pieces"
    return None


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    count = state.powers_per_group
    return tuple(Param(f"{group}_powers", "choices", f"{count} {group} powers",
                       choices=state.book.powers(group), minimum=count, maximum=count,
                       labels=tuple(state.book.label(p) for p in state.book.powers(group)),
                       notes=tuple(state.book.text(p) for p in state.book.powers(group)))
                 for group in GROUPS)


def _check(state: State, seat: int | None, params: Params) -> str | None:
    for group in GROUPS:
        picked = params.get(f"{group}_powers")
        if not isinstance(picked, list):
            continue
        for power in picked:
            if unknown_power(state, power):
                return unknown_power(state, power)
            if state.book.group(power) != group:
                return f"{state.book.label(power)} is not a {group} power"
        if len(set(picked)) != len(picked):
            return f"the {group} powers must all be different"
    most = int(state.book.rule("setup", "most_moats"))
    chosen = params.get("action_powers")
    if isinstance(chosen, list) and chosen.count("moat") > most:
        return f"a team holds at most {most} Moat"
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.hands[seat] = [*params["movement_powers"], *params["action_powers"]]


def _text(state: State, seat: int | None, params: Params) -> str:
    chosen = [state.book.label(p) for group in GROUPS for p in params.get(f"{group}_powers", [])
              if isinstance(p, str)]
    return f"{state.name(seat)} chose the powers {', '.join(chosen)}"


MOVE = Move("choose_powers", "input", fixed("Choose your powers"), _refusal, _run, _text,
            _params, _check, private=True)
