"""The player sheet's nine actions (Strike to Network), made from the book's data by one
factory, and ``resolve``: what the declared action does once reactions are over."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine import Move, Param, Params
from companion.games.captains_gambit import flow
from companion.games.captains_gambit.book import SHEET_ACTIONS
from companion.games.captains_gambit.moves.common import (
    claim_note,
    has_living_target,
    identity_theft_problem,
    not_in_phase,
    target_param,
    target_problem,
    who,
)
from companion.games.captains_gambit.state import Pending, Player, State

VIA_LABELS = ("Claim the permit", "Reveal Identity Theft")  # for the ways, in their order


def _sheet_move(name: str) -> Move:
    def data(state: State) -> Mapping[str, Any]:
        return state.book.action(name)

    def cost(state: State) -> int:
        return int(data(state)["cost"])

    def target_kind(state: State) -> str:
        return str(data(state)["target"])

    def refusal(state: State, seat: int | None) -> str | None:
        reason = not_in_phase(state, seat, "action", state.turn)
        if reason or seat is None:
            return reason
        player = state.players[seat]
        if player.energy < cost(state):
            return (f"{state.book.label(name)} costs {cost(state)} energy and "
                    f"{who(state, seat)} has {player.energy}")
        kind = target_kind(state)
        if kind != "none" and not has_living_target(state, seat, kind):
            return "there is no living target"
        if name == "donate" and player.energy - cost(state) < 1:
            return f"{who(state, seat)} has no energy to give"
        return None

    def params(state: State, seat: int | None) -> tuple[Param, ...]:
        out: list[Param] = []
        if target_kind(state) != "none":
            out.append(target_param(state, seat, target_kind(state)))
        if name == "donate" and seat is not None:
            spare = state.players[seat].energy - cost(state)
            out.append(Param("amount", "number", "Energy to give", minimum=1, maximum=spare))
        if data(state)["kind"] == "permit":
            # Identity Theft offered to every seat while the wildcards are in play, holder or
            # not (a neighbour sees the choice too); holding it is judged in ``check``.
            ways: tuple[str, ...] = ("claim",)
            if state.wildcards:
                ways += ("identity_theft",)
            out.append(Param("via", "choice", "How", choices=ways, default="claim",
                             labels=VIA_LABELS[:len(ways)]))
        return tuple(out)

    def check(state: State, seat: int | None, params: Params) -> str | None:
        if (params.get("via") == "identity_theft" and data(state)["kind"] == "permit"
                and seat is not None):
            problem = identity_theft_problem(state, seat)
            if problem:
                return problem
        if target_kind(state) != "none" and "target" in params:
            return target_problem(state, seat, params["target"], target_kind(state))
        return None

    def run(state: State, seat: int | None, params: Params) -> None:
        assert seat is not None
        player = state.players[seat]
        player.energy -= cost(state)
        stolen = params.get("via") == "identity_theft"
        pending = Pending(
            actor=seat,
            name=name,
            target=params.get("target"),
            amount=int(params.get("amount", 0)),
            stolen=stolen,
            claim_open=data(state)["kind"] == "permit" and not stolen,
        )
        state.pending = pending
        state.emit("declared", seat=seat, action=name, target=pending.target,
                   via="identity_theft" if stolen else "claim")
        if stolen:
            flow.shuffle_back(state, seat, "identity_theft")
        shieldable = name in ("strike", "barrage", "drain")
        if pending.claim_open or shieldable:
            state.phase = "reaction"
        else:
            resolve(state)

    def text(state: State, seat: int | None, params: Params) -> str:
        label = state.book.label(name)
        actor = state.name(seat)
        target = params.get("target")
        on = f" on {state.name(target)}" if isinstance(target, int) else ""
        if name == "donate":
            return f"{actor} gives {params.get('amount')} energy to {state.name(target)}"
        if params.get("via") == "identity_theft":
            return f"{actor} reveals Identity Theft to {label}{on}"
        if data(state)["kind"] == "permit":
            return f"{actor} declares {label}{on}"
        return f"{actor}: {label}{on}"

    def note(state: State, seat: int | None) -> str:
        entry = data(state)
        effect = state.book.action_text(name)
        return claim_note(state, seat, name, effect) if entry["kind"] == "permit" else effect

    return Move(name, "move", lambda s: s.book.label(name), refusal, run, text, params, check,
                cost, note=note)


def _gain(state: State, player: Player, counter: str, amount: int,
          source: int | None = None) -> None:
    """``player`` gains ``amount`` of a counter, said as an event (counters are public), so
    that the log says what an action did ("Ann gains 2 energy from Ben")."""
    setattr(player, counter, getattr(player, counter) + amount)
    if source is None:
        state.emit("gained", seat=player.seat, counter=counter, amount=amount)
    else:
        state.emit("gained", seat=player.seat, counter=counter, amount=amount, source=source)


def resolve(state: State) -> None:
    """The declared action takes effect (negated if a Shield stands)."""
    pending = state.pending
    assert pending is not None
    data = state.book.action(pending.name)
    actor = state.players[pending.actor]
    target = None if pending.target is None else state.players[pending.target]
    negated = pending.shield_by is not None
    state.emit("resolved", seat=actor.seat, action=pending.name, negated=negated,
               shield_by=pending.shield_by)
    name = pending.name
    if name in ("strike", "barrage"):
        if not negated and target is not None:
            amount = int(data["damage"]) + int(data.get("damage_per_blood", 0)) * actor.blood
            flow.damage(state, target.seat, amount, actor.seat, name)
        flow.after_harm(state, "attack_done")
        return
    if name == "drain" and target is not None and not negated and target.alive:
        taken = min(int(data["energy"]), target.energy)
        target.energy -= taken
        _gain(state, actor, "energy", taken, target.seat)
    elif name in ("charge", "overcharge"):
        _gain(state, actor, "energy", int(data["energy"]))
    elif name == "heal" and target is not None and target.alive:
        _gain(state, target, "health", int(data["health"]))
    elif name == "donate" and target is not None:
        amount = min(pending.amount, actor.energy)
        actor.energy -= amount
        _gain(state, target, "energy", amount, actor.seat)
    elif name == "fortify":
        for player in state.living():
            _gain(state, player, "health", int(data["health"]))
    elif name == "network":
        _gain(state, actor, "energy", int(data["energy"]))
        if target is not None and target.alive:
            _gain(state, target, "energy", int(data["energy"]))
    flow.end_turn(state)


MOVES = tuple(_sheet_move(name) for name in SHEET_ACTIONS)
