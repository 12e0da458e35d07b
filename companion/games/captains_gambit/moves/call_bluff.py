"""``call_bluff``: a seat doubts the permit claimed for the action, or for its Shield."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.captains_gambit.moves.common import fixed_label, not_in_phase
from companion.games.captains_gambit.state import State


def _open_claims(state: State, caller: int | None) -> dict[str, int]:
    """The claims ``caller`` may bluff-call now: "action" and/or "shield", with who made them."""
    pending = state.pending
    claims: dict[str, int] = {}
    if pending is None:
        return claims
    alive = {p.seat for p in state.living()}
    if pending.claim_open and pending.actor != caller and pending.actor in alive:
        claims["action"] = pending.actor
    if (pending.shield_by is not None and pending.shield_open and pending.shield_by != caller
            and pending.shield_by in alive):
        claims["shield"] = pending.shield_by
    return claims


def _refusal(state: State, seat: int | None) -> str | None:
    reason = not_in_phase(state, seat, "reaction", None)
    if reason:
        return reason
    if not _open_claims(state, seat):
        if _open_claims(state, None):
            return "you cannot call your own bluff"
        return "there is no permit claim open to a bluff call" + _why_none(state)
    return None


def _why_none(state: State) -> str:
    """Why the action, and a Shield standing against it, were never claims, in players'
    words ("" otherwise: a claim shown, conceded or of a dead seat is already on the log)."""
    pending = state.pending
    if pending is None or (pending.shield_by is not None and not pending.shield_stolen):
        return ""
    label = state.book.label(pending.name)
    reasons = []
    if pending.stolen:
        reasons.append(f"the {label} was done with Identity Theft, which cannot be called")
    elif state.book.action(pending.name)["kind"] != "permit":
        reasons.append(f"a {label} is a simple action, with no permit to call")
    if pending.shield_stolen:
        reasons.append(f"{state.name(pending.shield_by)}'s Shield was done with Identity"
                       " Theft, which cannot be called")
    return ": " + ", and ".join(reasons) if reasons else ""


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    claims = tuple(_open_claims(state, seat))
    # The Shield, when one stands, is what a call most often means.
    default = "shield" if "shield" in claims else claims[0] if claims else None
    pending = state.pending
    action = state.book.label(pending.name) if pending is not None else ""
    mine = _open_claims(state, seat)
    labels = tuple(f"{state.name(mine[c])}'s {'Shield' if c == 'shield' else action}"
                   for c in claims)
    return (Param("on", "choice", "Which claim", choices=claims, default=default,
                  labels=labels),)


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None and state.pending is not None
    on = params["on"]
    challenged = _open_claims(state, seat)[on]
    state.pending.challenge = (seat, challenged, on)
    state.phase = "bluff"
    state.emit("bluff_called", seat=seat, challenged=challenged, on=on)


def _text(state: State, seat: int | None, params: Params) -> str:
    claims = _open_claims(state, seat)
    on = params.get("on")
    if on not in claims:
        return f"{state.name(seat)} calls a bluff"
    what = "Shield" if on == "shield" else "bluff"
    return f"{state.name(seat)} calls {state.name(claims[on])}'s {what}"


def _note(state: State, seat: int | None) -> str:
    damage = int(state.book.setup("bluff_damage"))
    return (f"If they hold the permit they claim, you take {damage} damage; if they do not,"
            " they do.")


MOVE = Move("call_bluff", "reaction", fixed_label("Call the bluff"), _refusal, _run, _text,
            _params, note=_note)
