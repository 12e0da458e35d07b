"""Challenge: call a claim a bluff. The companion settles it at once from the powers it
holds: a true claim costs the challenger a piece, and the piece loses that power (its owner
places a new one); a bluff costs the bluffer a piece, and an action it made possible is
undone. For a Moat or a Kamikaze the mover is the one who challenges."""

from __future__ import annotations

from companion.engine import Move, Param
from companion.games.gambit_6x6 import flow
from companion.games.gambit_6x6.moves.common import Params, fixed, in_window, unknown_power
from companion.games.gambit_6x6.state import Claim, State


def _refusal(state: State, seat: int | None) -> str | None:
    if state.outcome is None and (state.phase != "answering" or not flow.challengeable(state)):
        return "no claim is open to a challenge"
    return in_window(state, seat)


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    claims = tuple(dict.fromkeys(c.power for c in flow.challengeable(state)))
    return (Param("power", "choice", "Which claimed power", choices=claims,
                  default=claims[0] if len(claims) == 1 else None,
                  labels=tuple(state.book.label(c) for c in claims)),)


def _claim(state: State, power: object) -> Claim | None:
    return next((c for c in flow.challengeable(state) if c.power == power), None)


def _check(state: State, seat: int | None, params: Params) -> str | None:
    power = params.get("power")
    if not isinstance(power, str):
        return None
    if _claim(state, power) is None:
        claimed = ", ".join(c.power for c in flow.challengeable(state))
        return unknown_power(state, power) or (
            f"nobody claimed {state.book.label(power)} here (open claims: {claimed})")
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    pending = state.pending
    claim = _claim(state, params["power"])
    assert seat is not None and pending is not None and claim is not None
    true = flow.holds(state, claim)
    claim.status = "true" if true else "false"
    costs = not true or pending.stage != "moat" \
        or bool(state.book.rule("challenge", "moat_costs_piece"))
    state.emit("challenge_settled", seat=claim.seat, challenger=seat, piece=claim.piece,
               power=claim.power, true=true, costs=costs)
    if true:
        _honest(state, seat, claim, pending.stage)
    else:
        _bluff(state, seat, claim, pending.stage)
    flow.carry_on(state)


def _honest(state: State, challenger: int, claim: Claim, stage: str) -> None:
    before = state.pieces[claim.piece].powers()
    if stage == "kamikaze":
        flow.fire_kamikaze(state, claim)
    else:
        flow.strip(state, claim)
    # The seed's order: "their opponent loses a piece ... The player may then select a new
    # power".
    if stage != "moat" or state.book.rule("challenge", "moat_costs_piece"):
        flow.owe_loss(state, challenger, claim.seat)  # the event's "costs"
    flow.owe_reward(state, claim.seat, flow.reward_groups(state, before, claim.power))
    if stage == "moat":
        flow.send_back(state, claim.piece)
    elif stage == "open":
        state.then = "window"


def _bluff(state: State, challenger: int, claim: Claim, stage: str) -> None:
    flow.owe_loss(state, claim.seat, challenger)
    if stage == "open" and claim.needed:
        flow.undo_action(state)
        state.then = "remake" if state.book.rule("challenge", "bluff_turn") == "remake" \
            else "next"
    else:
        state.then = "window"


def _text(state: State, seat: int | None, params: Params) -> str:
    claim = _claim(state, params.get("power"))
    if claim is None:
        return f"{state.name(seat)} challenges"
    return (f"{state.name(seat)} challenges {state.name(claim.seat)}'s claim that"
            f" {claim.piece} holds {state.book.label(claim.power)}")


MOVE = Move("challenge", "reaction", fixed("Challenge: call the bluff"), _refusal, _run, _text,
            _params, _check)
