"""Witch Doctor (a Player Power, instead of a challenge): one of your pieces takes the powers
the moved piece claimed, and gives it its own powers of those groups in exchange. What is
taken becomes real even if it was a bluff; the move stands, and your next turn is spent."""

from __future__ import annotations

from companion.engine import Move, Param
from companion.games.gambit_6x6 import flow
from companion.games.gambit_6x6.moves.common import Params, fixed, in_window, own_pieces
from companion.games.gambit_6x6.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    reason = in_window(state, seat)
    if reason is None and (seat is None or not flow.may_witch_doctor(state, seat)):
        return _why_not(state, seat)
    return reason


def _why_not(state: State, seat: int | None) -> str:
    """Why the seat may not use a Witch Doctor now: only what that seat knows (its own Player
    Powers, which are public, and the action waiting for answers), never another seat's
    powers."""
    pending = state.pending
    if seat is None or "witch_doctor" not in state.held_powers[seat]:
        return "you hold no Witch Doctor"
    if pending is not None and pending.kind not in ("move", "bulldoze"):
        what = {"detect": "a Detective's look", "sensei": "a Sensei's transfer"}
        return (f"a Witch Doctor answers a claimed move or push, not"
                f" {what.get(pending.kind, 'this action')}")
    if pending is not None and pending.stage != "open":
        return "a Witch Doctor answers the mover's claims, not a Moat or a Kamikaze"
    if pending is not None and state.where(pending.piece) is None:
        return f"{pending.piece} has left the board: there is nothing to swap with"
    return "a Witch Doctor answers a claimed move, and this one has no claim open"


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (Param("piece", "choice", "Your piece", choices=own_pieces(state, seat)),)


def _check(state: State, seat: int | None, params: Params) -> str | None:
    name = params.get("piece")
    piece = state.pieces.get(name) if isinstance(name, str) else None
    if piece is None or piece.seat != seat \
            or not state.book.rule("challenge", "witch_doctor_needs_powers"):
        return None  # another seat's piece: refused as not yours, never by what it holds
    for claim in flow.challengeable(state):
        group = state.book.group(claim.power)
        if getattr(piece, group) is None:
            return (f"{piece.id} holds no {group} power to swap for the"
                    f" {state.book.label(claim.power)}: the Witch Doctor swaps only powers"
                    " a piece holds")
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    pending = state.pending
    assert seat is not None and pending is not None
    moved, mine = state.pieces[pending.piece], state.pieces[params["piece"]]
    shown = [c.power for c in flow.challengeable(state)]
    for power in shown:
        group = state.book.group(power)
        given = getattr(mine, group)
        setattr(moved, group, given)
        setattr(mine, group, power)
        gave = state.book.label(given) if given else "nothing"
        state.notes[seat].append(f"{moved.id} took {gave} from your {mine.id} (Witch Doctor,"
                                 f" turn {state.turns})")
        state.notes[moved.seat].append(f"{moved.id} got {gave} for its"
                                       f" {state.book.label(power)} (Witch Doctor)")
    for claim in pending.claims:
        if claim.status == "open":
            claim.status = "true"  # settled by the swap: no challenge any more
    flow.use_out_of_turn(state, seat, "witch_doctor")
    state.emit("witch_doctor", seat=seat, piece=mine.id, moved=moved.id, powers=shown)
    flow.finish(state)


def _text(state: State, seat: int | None, params: Params) -> str:
    shown = " and ".join(state.book.label(c.power) for c in flow.challengeable(state))
    moved = state.pending.piece if state.pending else "the moved piece"
    return (f"{state.name(seat)} uses the Witch Doctor: {params.get('piece')} swaps its powers"
            f" for the {shown} claimed by {moved}")


MOVE = Move("witch_doctor", "reaction", fixed("Witch Doctor: swap powers"), _refusal, _run,
            _text, _params, _check)
