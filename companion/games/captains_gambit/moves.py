"""Every action, reaction and input of Captain's Gambit: when it is allowed, its parameters,
what it does and how the log describes it. One ``Move`` per action name."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from companion.engine import Event, Move, MoveSet, Param, shuffled
from companion.games.captains_gambit import captains, flow
from companion.games.captains_gambit.book import PERMITS, SHEET_ACTIONS, WILDCARDS
from companion.games.captains_gambit.state import Pending, State

Params = Mapping[str, Any]
COUNTERS = ("health", "energy", "blood", "loyalty")


def who(state: State, seat: int | None) -> str:
    if seat is None:
        return "the table"
    return f"seat {seat} ({state.players[seat].name})"


# --- what the game is waiting for ----------------------------------------------------------

def waiting_text(state: State) -> str:
    pending = state.pending
    if state.phase == "mulligan":
        return "the permit mulligan is under way"
    if state.phase == "prologue":
        return "the Prologue is under way"
    if state.phase == "income":
        return f"{who(state, state.turn)} first takes the turn's energy or a loyalty"
    if state.phase == "action":
        return f"it is {who(state, state.turn)}'s turn"
    if state.phase == "reaction" and pending:
        return f"{who(state, pending.actor)}'s {state.book.label(pending.name)} awaits reactions"
    if state.phase == "bluff" and pending and pending.challenge:
        return f"{who(state, pending.challenge[1])} must show the permit or concede"
    if state.phase == "immunity" and state.immunity:
        return f"{who(state, state.immunity[0])} must choose whether to use Diplomatic Immunity"
    if state.phase == "save":
        return f"the save window is open for {who(state, state.saving)}"
    return "the game is over"


def waiting_for(state: State) -> list[int]:
    """The seats whose answer the game needs before it can go on."""
    pending = state.pending
    if state.phase == "mulligan":
        return [p.seat for p in state.players if not p.mulliganed]
    if state.phase in ("action", "income"):
        return [state.turn]
    if state.phase == "reaction" and pending:
        return [pending.actor]
    if state.phase == "bluff" and pending and pending.challenge:
        return [pending.challenge[1]]
    if state.phase == "immunity" and state.immunity:
        return [state.immunity[0]]
    if state.phase == "save" and state.saving is not None:
        return [state.saving]
    return []


def event_notes(state: State, events: tuple[Event, ...]) -> tuple[str, ...]:
    """What followed an action, in public words, for the log."""
    notes = []
    for event in events:
        kind = event["type"]
        seat = event.get("seat")
        if kind == "damaged":
            notes.append(f"{state.name(seat)} takes {event['amount']} damage")
        elif kind == "died":
            captain = state.book.label(event["captain"]) if event["captain"] else "unknown"
            how = "loses and dies" if event["cause"] == "lost" else "dies"
            by = f", kill credit to {state.name(event['killer'])}" if event["killer"] is not None \
                else ""
            notes.append(f"{state.name(seat)} ({captain}) {how}{by}")
        elif kind == "card_shown":
            notes.append(f"{state.name(seat)} shuffles the {state.book.label(event['card'])} back"
                         " and draws a new permit")
        elif kind == "immune":
            notes.append(f"{state.name(seat)} is immune to bluff damage this turn")
        elif kind == "save_window":
            notes.append(f"The save window opens for {state.name(seat)}")
        elif kind == "round_started":
            notes.append(f"Round {event['round']} begins")
        elif kind == "game_over":
            names = ", ".join(state.name(s) for s in event["winners"]) or "nobody"
            verb = "win" if len(event["winners"]) > 1 else "wins"
            notes.append(f"Game over: {names} {verb}")
    return tuple(notes)


def _living_seat(state: State, seat: int | None) -> str | None:
    if state.phase == "over":
        return "the game is over"
    if seat is None:
        return "this needs a seat, not the table"
    if not state.players[seat].alive:
        return f"{who(state, seat)} is dead"
    return None


def _in_phase(state: State, seat: int | None, phase: str, expected: int | None) -> str | None:
    """Refusal unless the game is in ``phase`` waiting for ``expected`` (None: anyone)."""
    reason = _living_seat(state, seat)
    if reason:
        return reason
    if state.phase != phase:
        return f"not now: {waiting_text(state)}"
    if expected is not None and seat != expected:
        if phase in ("action", "income"):
            return f"not your turn: it is {who(state, expected)}'s turn"
        return f"not yours to answer: {waiting_text(state)}"
    return None


def may_hold(state: State, seat: int, card: str) -> bool:
    """Whether ``seat`` holds ``card`` or might (a card the companion was not told)."""
    permits = state.players[seat].permits
    if card in permits:
        return True
    if None not in permits:
        return False
    return state.wildcards or card not in WILDCARDS


def _target_problem(state: State, seat: int | None, target: Any, kind: str) -> str | None:
    if not isinstance(target, int) or isinstance(target, bool):
        return f"target must be a seat number, not {target!r}"
    if not 0 <= target < len(state.players):
        return f"there is no seat {target}"
    if not state.players[target].alive:
        return f"the target, {who(state, target)}, is dead"
    if kind in ("opponent", "other") and target == seat:
        return "you cannot target yourself"
    return None


def _targets(state: State, seat: int | None, kind: str) -> tuple[int, ...]:
    return tuple(p.seat for p in state.players
                 if _target_problem(state, seat, p.seat, kind) is None)


def _target_param(state: State, seat: int | None, kind: str, label: str = "Target") -> Param:
    return Param("target", "seat", label, choices=_targets(state, seat, kind))


def _check_target(kind: str) -> Callable[[State, int | None, Params], str | None]:
    def check(state: State, seat: int | None, params: Params) -> str | None:
        if "target" in params:
            return _target_problem(state, seat, params["target"], kind)
        return None
    return check


# --- the player sheet ------------------------------------------------------------------------

def _sheet_move(name: str) -> Move:
    def data(state: State) -> Mapping[str, Any]:
        return state.book.action(name)

    def cost(state: State) -> int:
        return int(data(state)["cost"])

    def target_kind(state: State) -> str:
        return str(data(state)["target"])

    def refusal(state: State, seat: int | None) -> str | None:
        reason = _in_phase(state, seat, "action", state.turn)
        if reason or seat is None:
            return reason
        player = state.players[seat]
        if player.energy < cost(state):
            return (f"{state.book.label(name)} costs {cost(state)} energy and "
                    f"{who(state, seat)} has {player.energy}")
        if target_kind(state) != "none" and not _targets(state, seat, target_kind(state)):
            return "there is no living target"
        if name == "donate" and player.energy - cost(state) < 1:
            return f"{who(state, seat)} has no energy to give"
        return None

    def params(state: State, seat: int | None) -> tuple[Param, ...]:
        out: list[Param] = []
        if target_kind(state) != "none":
            out.append(_target_param(state, seat, target_kind(state)))
        if name == "donate" and seat is not None:
            spare = state.players[seat].energy - cost(state)
            out.append(Param("amount", "number", "Energy to give", minimum=1, maximum=spare))
        if data(state)["kind"] == "permit":
            ways: tuple[str, ...] = ("claim",)
            if seat is not None and state.wildcards and may_hold(state, seat, "identity_theft"):
                ways += ("identity_theft",)
            out.append(Param("via", "choice", "How", choices=ways, default="claim"))
        return tuple(out)

    def check(state: State, seat: int | None, params: Params) -> str | None:
        if target_kind(state) != "none" and "target" in params:
            return _target_problem(state, seat, params["target"], target_kind(state))
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

    return Move(name, "move", lambda s: s.book.label(name), refusal, run, text, params, check,
                cost)


def resolve(state: State) -> None:
    """The declared action takes effect (negated if a Shield stands)."""
    pending = state.pending
    assert pending is not None
    data = state.book.action(pending.name)
    actor = state.players[pending.actor]
    target = None if pending.target is None else state.players[pending.target]
    negated = pending.shield_by is not None
    state.emit("resolved", seat=actor.seat, action=pending.name, negated=negated)
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
        actor.energy += taken
    elif name in ("charge", "overcharge"):
        actor.energy += int(data["energy"])
    elif name == "heal" and target is not None and target.alive:
        target.health += int(data["health"])
    elif name == "donate" and target is not None:
        amount = min(pending.amount, actor.energy)
        actor.energy -= amount
        target.energy += amount
    elif name == "fortify":
        for player in state.living():
            player.health += int(data["health"])
    elif name == "network":
        actor.energy += int(data["energy"])
        if target is not None and target.alive:
            target.energy += int(data["energy"])
    flow.end_turn(state)


# --- reactions: resolve, Shield, bluff calls -----------------------------------------------

def _actor(state: State) -> int | None:
    return state.pending.actor if state.pending else None


def _resolve_refusal(state: State, seat: int | None) -> str | None:
    return _in_phase(state, seat, "reaction", _actor(state))


def _resolve_run(state: State, seat: int | None, params: Params) -> None:
    resolve(state)


def _resolve_text(state: State, seat: int | None, params: Params) -> str:
    pending = state.pending
    label = state.book.label(pending.name) if pending else "action"
    return f"{state.name(seat)}'s {label} resolves"


def _shield_cost(state: State) -> int:
    return int(state.book.action("shield")["cost"])


def _shield_refusal(state: State, seat: int | None) -> str | None:
    reason = _in_phase(state, seat, "reaction", None)
    if reason or seat is None:
        return reason
    pending = state.pending
    assert pending is not None
    if pending.name not in ("strike", "barrage", "drain"):
        return "only a Strike, Barrage or Drain can be Shielded"
    if seat == pending.actor:
        return "you cannot Shield your own action"
    if pending.name == "drain" and seat != pending.target:
        return "only the target of a Drain can Shield it"
    if pending.shield_by is not None:
        return f"{who(state, pending.shield_by)} has already declared a Shield"
    if state.players[seat].energy < _shield_cost(state):
        return (f"Shield costs {_shield_cost(state)} energy and {who(state, seat)} has "
                f"{state.players[seat].energy}")
    return None


def _shield_run(state: State, seat: int | None, params: Params) -> None:
    pending = state.pending
    assert pending is not None and seat is not None
    state.players[seat].energy -= _shield_cost(state)
    pending.shield_by = seat
    pending.shield_open = True  # while a Shield stands, bluff calls go to the Shield
    state.emit("declared", seat=seat, action="shield", target=pending.actor, via="claim")


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


def _call_refusal(state: State, seat: int | None) -> str | None:
    reason = _in_phase(state, seat, "reaction", None)
    if reason:
        return reason
    if not _open_claims(state, seat):
        if _open_claims(state, None):
            return "you cannot call your own bluff"
        return "there is no permit claim open to a bluff call"
    return None


def _call_params(state: State, seat: int | None) -> tuple[Param, ...]:
    claims = tuple(_open_claims(state, seat))
    # The Shield, when one stands, is what a call most often means.
    default = "shield" if "shield" in claims else claims[0] if claims else None
    return (Param("on", "choice", "Which claim", choices=claims, default=default),)


def _call_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None and state.pending is not None
    on = params["on"]
    challenged = _open_claims(state, seat)[on]
    state.pending.challenge = (seat, challenged, on)
    state.phase = "bluff"
    state.emit("bluff_called", seat=seat, challenged=challenged, on=on)


def _call_text(state: State, seat: int | None, params: Params) -> str:
    claims = _open_claims(state, seat)
    on = params.get("on")
    if on not in claims:
        return f"{state.name(seat)} calls a bluff"
    what = "Shield" if on == "shield" else "bluff"
    return f"{state.name(seat)} calls {state.name(claims[on])}'s {what}"


def claimed_card(state: State) -> str:
    pending = state.pending
    assert pending is not None and pending.challenge is not None
    return "shield" if pending.challenge[2] == "shield" else pending.name


def challenged(state: State) -> int | None:
    pending = state.pending
    return pending.challenge[1] if pending and pending.challenge else None


def _show_refusal(state: State, seat: int | None) -> str | None:
    reason = _in_phase(state, seat, "bluff", challenged(state))
    if reason or seat is None:
        return reason
    card = claimed_card(state)
    if not may_hold(state, seat, card):
        return f"{who(state, seat)} holds no {state.book.label(card)} permit"
    return None


def bluff_damage(state: State, victim: int, credit: int | None, then: str) -> None:
    """3 damage for a lost bluff call, unless Diplomatic Immunity is (or may be) used."""
    state.resume = then
    if victim in state.immune:
        state.emit("immune", seat=victim)
        flow.carry_on(state)
        return
    if state.wildcards:
        # Asked of everyone, holder or not: asking only holders would tell the table.
        state.immunity = (victim, credit)
        state.phase = "immunity"
        return
    flow.damage(state, victim, int(state.book.setup("bluff_damage")), credit, "bluff")
    flow.after_harm(state, then)


def _show_run(state: State, seat: int | None, params: Params) -> None:
    pending = state.pending
    assert pending is not None and pending.challenge is not None and seat is not None
    caller, _, on = pending.challenge
    card = claimed_card(state)
    pending.challenge = None
    if on == "action":
        pending.claim_open = False
    else:
        pending.shield_open = False
    flow.shuffle_back(state, seat, card)
    bluff_damage(state, caller, seat, "reaction")


def _show_text(state: State, seat: int | None, params: Params) -> str:
    label = state.book.label(claimed_card(state))
    article = "an" if label[0] in "AEIOU" else "a"
    return f"{state.name(seat)} shows {article} {label} permit"


def _concede_refusal(state: State, seat: int | None) -> str | None:
    return _in_phase(state, seat, "bluff", challenged(state))


def _concede_run(state: State, seat: int | None, params: Params) -> None:
    pending = state.pending
    assert pending is not None and pending.challenge is not None and seat is not None
    caller, _, on = pending.challenge
    pending.challenge = None
    state.emit("conceded", seat=seat, on=on)
    if on == "action":
        # The action is cancelled: no refund and no blood.
        pending.claim_open = False
        bluff_damage(state, seat, caller, "end_turn")
    else:
        pending.shield_by = None
        pending.shield_open = False
        bluff_damage(state, seat, caller, "reaction")


def _concede_text(state: State, seat: int | None, params: Params) -> str:
    return f"{state.name(seat)} concedes the bluff"


def _victim(state: State) -> int | None:
    return state.immunity[0] if state.immunity else None


def _immunity_refusal(state: State, seat: int | None) -> str | None:
    reason = _in_phase(state, seat, "immunity", _victim(state))
    if reason or seat is None:
        return reason
    if not may_hold(state, seat, "diplomatic_immunity"):
        return f"{who(state, seat)} holds no Diplomatic Immunity"
    return None


def _immunity_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.immunity = None
    flow.shuffle_back(state, seat, "diplomatic_immunity")
    state.immune.add(seat)
    state.emit("immune", seat=seat)
    flow.carry_on(state)


def _take_damage_refusal(state: State, seat: int | None) -> str | None:
    return _in_phase(state, seat, "immunity", _victim(state))


def _take_damage_run(state: State, seat: int | None, params: Params) -> None:
    assert state.immunity is not None
    victim, credit = state.immunity
    state.immunity = None
    flow.damage(state, victim, int(state.book.setup("bluff_damage")), credit, "bluff")
    flow.after_harm(state, state.resume or "stay")


# --- turn parts: income, Reveal, the save window ----------------------------------------------

def _income_refusal(state: State, seat: int | None) -> str | None:
    return _in_phase(state, seat, "income", state.turn)


def _income_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    player = state.players[seat]
    if params["kind"] == "loyalty":
        player.loyalty += 1
    else:
        player.energy += int(state.book.setup("income_energy"))
    state.phase = "action"


def _income_params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (Param("kind", "choice", "Take", choices=("energy", "loyalty")),)


def _reveal_refusal(state: State, seat: int | None) -> str | None:
    reason = _in_phase(state, seat, "action", state.turn)
    if reason or seat is None:
        return reason
    player = state.players[seat]
    captain = player.captain
    if captain is None:
        return "the companion has not been told this seat's captain"
    if player.revealed:
        return f"{who(state, seat)} has already revealed"
    data = state.book.captain(captain)
    if captain == "prospero" and player.energy < int(data["reveal_energy"]):
        return (f"Prospero reveals with {data['reveal_energy']} energy; {who(state, seat)} has"
                f" {player.energy}")
    if captain == "lady_macbeth" and player.blood < int(data["reveal_blood"]):
        return (f"Lady Macbeth reveals with {data['reveal_blood']} blood; {who(state, seat)} has"
                f" {player.blood}")
    if captain not in ("prospero", "lady_macbeth", "richard_iii"):
        return f"{data['label']} has no Reveal on their turn"
    return None


def _reveal_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    player = state.players[seat]
    captain = player.captain
    assert captain is not None
    data = state.book.captain(captain)
    player.revealed = True
    state.emit("revealed", seat=seat, captain=captain)
    if captain == "prospero":
        if data["reveal_spends_energy"]:
            player.energy -= int(data["reveal_energy"])
        player.ascending = True
    elif captain == "lady_macbeth":
        player.ascending = True
    elif captain == "richard_iii":
        threshold = player.energy
        if data["reveal_spends_energy"]:
            player.energy = 0
        for other in state.living():
            if other.seat != seat and other.health < threshold:
                flow.damage(state, other.seat, int(data["reveal_damage"]), seat, "reveal")
        flow.after_harm(state, "action")


def _reveal_text(state: State, seat: int | None, params: Params) -> str:
    captain = state.players[seat].captain if seat is not None else None
    return f"{state.name(seat)} reveals {state.book.label(captain or 'captain')}"


def _save_refusal(state: State, seat: int | None) -> str | None:
    if state.phase != "save":
        return f"not now: {waiting_text(state)}"
    if seat != state.saving:
        return f"not yours to answer: {waiting_text(state)}"
    return None


def _last_stand_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    titus = state.players[seat]
    titus.revealed = True
    titus.last_stand_done = True
    state.saving = None
    state.emit("revealed", seat=seat, captain=titus.captain)
    per_blood = int(state.book.captain("titus")["last_stand_damage_per_blood"])
    for other in state.living():
        if other.seat != seat:
            flow.damage(state, other.seat, per_blood * titus.blood, seat, "last_stand")
    if not flow.settle(state):
        flow.carry_on(state)


def _decline_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.players[seat].last_stand_done = True
    state.saving = None
    if not flow.settle(state):
        flow.carry_on(state)


# --- before play: mulligan and Prologue ------------------------------------------------------

def _mulligan_refusal(state: State, seat: int | None) -> str | None:
    reason = _in_phase(state, seat, "mulligan", None)
    if reason or seat is None:
        return reason
    if state.players[seat].mulliganed:
        return f"{who(state, seat)} has already chosen their mulligan"
    return None


def _unknown_choices(state: State, seat: int) -> tuple[str, ...]:
    """The cards a hand may hold: the known ones, and any card for each unknown slot."""
    permits = state.players[seat].permits
    known = tuple(c for c in permits if c is not None)
    kinds = PERMITS + (WILDCARDS if state.wildcards else ())
    return known + kinds * permits.count(None)


def _mulligan_params(state: State, seat: int | None) -> tuple[Param, ...]:
    if seat is None:
        return ()
    size = len(state.players[seat].permits)
    return (Param("discard", "choices", "Permits to discard", choices=_unknown_choices(state, seat),
                  minimum=0, maximum=size),)


def after_deal(state: State) -> None:
    """After the deal (and mulligan): the Prologue if its captains are in the pool, else play."""
    if any(c in state.pool for c in state.book.prologue_captains()):
        state.phase = "prologue"
        state.emit("prologue_started")
    else:
        flow.begin_play(state)


def _mulligan_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    player = state.players[seat]
    for card in params["discard"]:
        player.permits.remove(card if card in player.permits else None)
        if state.deck is not None:
            state.deck.append(card)
    player.mulliganed = True
    state.emit("mulliganed", seat=seat, count=len(params["discard"]))
    if not all(p.mulliganed for p in state.players):
        return
    size = int(state.book.setup("hand_size"))
    if state.deck is not None:
        state.deck = shuffled(state.deck, state.seed, "mulligan")
    order = [(state.first_seat + i) % len(state.players) for i in range(len(state.players))]
    for s in order:
        hand = state.players[s].permits
        while len(hand) < size:
            hand.append(state.deck.pop() if state.deck is not None else None)
    if state.deck is not None:
        state.emit("permits_dealt")  # new cards seen by their holders: no undo past this
    after_deal(state)


def _mulligan_text(state: State, seat: int | None, params: Params) -> str:
    count = len(params.get("discard", []))
    return f"{state.name(seat)} discards {count} permit{'s' if count != 1 else ''}"


def _prologue_role_refusal(roles: tuple[str, ...], phases: tuple[str, ...]
                           ) -> Callable[[State, int | None], str | None]:
    def refusal(state: State, seat: int | None) -> str | None:
        reason = _living_seat(state, seat)
        if reason or seat is None:
            return reason
        if state.phase not in phases:
            return f"not now: {waiting_text(state)}"
        captain = state.players[seat].captain
        if captain not in roles:
            return "only " + " or ".join(state.book.label(r) for r in roles) + " does this"
        if captain in captains.SWAPPERS and state.swapped:
            return "the Prologue swap is done"
        if captain in captains.MARKERS and seat in state.marks:
            return f"{who(state, seat)} has already marked a player"
        return None
    return refusal


def _other_living(state: State, seat: int | None) -> tuple[Param, ...]:
    return (_target_param(state, seat, "other", "Player"),)


def _swap_run(state: State, seat: int | None, params: Params) -> None:
    target = state.players[params["target"]]
    target.original_captain = target.captain
    target.captain, state.centre = state.centre, target.captain
    state.swapped = True


def _swap_text(state: State, seat: int | None, params: Params) -> str:
    return f"{state.name(seat)} chose {state.name(params.get('target'))} to take the centre card"


def _mark_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    target = params["target"]
    state.marks[seat] = target
    if state.players[seat].captain == "hamlet":
        state.hamlet_token = target  # a token in the mark's hand: the mark knows of it
    if state.players[seat].captain in ("cordelia", "brutus"):
        state.players[target].loyalty += 1  # a loyalty token in front of the mark, for all to see


def _mark_text(state: State, seat: int | None, params: Params) -> str:
    return f"{state.name(seat)} marked {state.name(params.get('target'))}"


def _end_prologue_refusal(state: State, seat: int | None) -> str | None:
    if seat is not None:
        return "the table (its host) ends the Prologue"
    if state.phase != "prologue":
        return f"not now: {waiting_text(state)}"
    return None


def _end_prologue_run(state: State, seat: int | None, params: Params) -> None:
    # Never refused for a missing step: a refusal would tell the table who is in play.
    state.emit("prologue_ended")
    flow.begin_play(state)


# --- private inputs at a table dealt by hand ----------------------------------------------------

def _hand_dealt_refusal(state: State, seat: int | None) -> str | None:
    if state.phase == "over":
        return "the game is over"
    if seat is None:
        return "this needs a seat, not the table"
    if state.companion_dealt:
        return "the companion dealt this game and already knows every card"
    return None


def _captain_seen_refusal(state: State, seat: int | None) -> str | None:
    reason = _hand_dealt_refusal(state, seat)
    if reason or seat is None:
        return reason
    if state.players[seat].captain is not None:
        return "the companion already knows this seat's captain (undo that input to change it)"
    return None


def _captain_choices(state: State) -> tuple[str, ...]:
    """Every captain that can be dealt. Never narrowed by what other seats told the
    companion: the choices (and any refusal) would show them to this seat."""
    centre = state.book.centre_captains()  # public: Juliet or Mercutio lies in the centre
    return tuple(c for c in state.pool if c not in centre)


def _captain_seen_params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (Param("captain", "choice", "Your captain", choices=_captain_choices(state)),)


def _captain_seen_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.players[seat].captain = params["captain"]
    if state.phase not in ("mulligan", "prologue"):
        flow.check_end(state)


def _permits_seen_refusal(state: State, seat: int | None) -> str | None:
    reason = _hand_dealt_refusal(state, seat)
    if reason or seat is None:
        return reason
    if None not in state.players[seat].permits:
        return "the companion already knows this seat's permits"
    return None


def _permits_seen_params(state: State, seat: int | None) -> tuple[Param, ...]:
    if seat is None:
        return ()
    size = len(state.players[seat].permits)
    return (Param("permits", "choices", "Your permits", choices=_unknown_choices(state, seat),
                  minimum=size, maximum=size),)


def _copies(state: State, card: str) -> int:
    players = len(state.players)
    if card in WILDCARDS:
        return state.book.copies("wildcard_copies", players) if state.wildcards else 0
    return state.book.copies("permit_copies", players)


def _permits_seen_check(state: State, seat: int | None, params: Params) -> str | None:
    told = params.get("permits")
    if seat is None or not isinstance(told, list) or not all(isinstance(c, str) for c in told):
        return None
    # Checked against this hand alone: a check against other seats' hands would let a seat
    # probe them by trying hands until one is refused.
    for card, count in Counter(told).items():
        if card in PERMITS + WILDCARDS and count > _copies(state, card):
            return (f"this game has only {_copies(state, card)}"
                    f" {state.book.label(card)} card(s)")
    rest = list(told)
    for known in state.players[seat].permits:
        if known is not None:
            if known not in rest:
                return f"this seat is known to hold {state.book.label(known)}"
            rest.remove(known)
    return None


def _permits_seen_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.players[seat].permits = list(params["permits"])


def _told_text(what: str) -> Callable[[State, int | None, Params], str]:
    def text(state: State, seat: int | None, params: Params) -> str:
        value = params.get(what)
        shown = ", ".join(map(state.book.label, value)) if isinstance(value, list) else (
            state.book.label(value) if isinstance(value, str) else value)
        return f"{state.name(seat)} told the companion their {what}: {shown}"
    return text


def _corpse_refusal(state: State, seat: int | None) -> str | None:
    reason = _living_seat(state, seat)
    if reason or seat is None:
        return reason
    player = state.players[seat]
    if player.captain != "viola":
        return "only Viola chooses a dead captain to play as"
    if player.copies_seat is not None:
        return "Viola has already chosen"
    if not any(captains.can_copy(state, seat, p.seat) for p in state.players):
        return "no dead captain can be chosen yet"
    return None


def _corpse_params(state: State, seat: int | None) -> tuple[Param, ...]:
    choices = tuple(p.seat for p in state.players
                    if seat is not None and captains.can_copy(state, seat, p.seat))
    return (Param("target", "seat", "Dead captain", choices=choices),)


def _corpse_text(state: State, seat: int | None, params: Params) -> str:
    return f"{state.name(seat)} chose to play as {state.name(params.get('target'))}"


def _corpse_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    state.players[seat].copies_seat = params["target"]
    flow.check_end(state)


# --- the table's correction -------------------------------------------------------------------

def _correct_refusal(state: State, seat: int | None) -> str | None:
    if seat is not None:
        return "only the table (its host) corrects counters"
    if state.phase == "over":
        return "the game is over"
    if state.phase in ("mulligan", "prologue"):
        return "counters can be corrected once play has begun"
    if state.phase not in ("action", "income"):
        return f"finish what is open first: {waiting_text(state)}"
    return None


def _correct_params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (
        Param("target", "seat", "Player", choices=tuple(range(len(state.players)))),
        Param("counter", "choice", "Counter", choices=COUNTERS),
        Param("value", "number", "New value", minimum=0, maximum=999),
        Param("reason", "text", "Reason", maximum=200),
    )


def _correct_check(state: State, seat: int | None, params: Params) -> str | None:
    target = params.get("target")
    if (isinstance(target, int) and 0 <= target < len(state.players)
            and params.get("counter") == "health" and not state.players[target].alive):
        return f"{who(state, target)} is dead; the dead cannot be healed"
    if isinstance(params.get("reason"), str) and not params["reason"].strip():
        return "a correction needs a reason"
    return None


def _correct_run(state: State, seat: int | None, params: Params) -> None:
    player = state.players[params["target"]]
    counter = params["counter"]
    old = getattr(player, counter)
    setattr(player, counter, params["value"])
    state.emit("corrected", seat=player.seat, counter=counter, old=old, new=params["value"],
               reason=params["reason"])
    if counter == "health" and player.health <= 0:
        state.blows[player.seat] = None
    state.resume_phase = state.phase
    flow.after_harm(state, "stay")


def _correct_text(state: State, seat: int | None, params: Params) -> str:
    target = params.get("target")
    counter = params.get("counter")
    old = getattr(state.players[target], str(counter)) if isinstance(target, int) else "?"
    return (f"Table correction: {state.name(target)}'s {counter} {old} -> {params.get('value')} "
            f"({params.get('reason')})")


def _fixed(text: str) -> Callable[[State], str]:
    return lambda state: text


def _said(template: str) -> Callable[[State, int | None, Params], str]:
    return lambda state, seat, params: template.format(who=state.name(seat))


MOVES: dict[str, Move] = {name: _sheet_move(name) for name in SHEET_ACTIONS}
MOVES.update({m.name: m for m in (
    Move("resolve", "reaction", _fixed("Let it resolve"), _resolve_refusal, _resolve_run,
         _resolve_text),
    Move("shield", "reaction", _fixed("Shield"), _shield_refusal, _shield_run,
         _said("{who} declares Shield"), cost=_shield_cost),
    Move("call_bluff", "reaction", _fixed("Call the bluff"), _call_refusal, _call_run, _call_text,
         _call_params),
    Move("show_permit", "reaction", _fixed("Show the permit"), _show_refusal, _show_run,
         _show_text),
    Move("concede", "reaction", _fixed("Concede"), _concede_refusal, _concede_run, _concede_text),
    Move("use_immunity", "reaction", _fixed("Reveal Diplomatic Immunity"), _immunity_refusal,
         _immunity_run, _said("{who} reveals Diplomatic Immunity")),
    Move("take_damage", "reaction", _fixed("Take the bluff damage"), _take_damage_refusal,
         _take_damage_run, _said("{who} takes the bluff damage")),
    Move("take_income", "move", _fixed("Take the free energy or a loyalty"), _income_refusal,
         _income_run, lambda s, seat, p: f"{s.name(seat)} takes 1 {p.get('kind')}",
         _income_params),
    Move("reveal", "move", _fixed("Reveal your captain"), _reveal_refusal, _reveal_run,
         _reveal_text),
    Move("last_stand", "reaction", _fixed("Reveal: last stand"), _save_refusal, _last_stand_run,
         _said("{who} reveals Titus's last stand")),
    Move("decline_save", "reaction", _fixed("Let the death stand"), _save_refusal, _decline_run,
         _said("The save window closes for {who}")),
    Move("mulligan", "move", _fixed("Permit mulligan"), _mulligan_refusal, _mulligan_run,
         _mulligan_text, _mulligan_params, secret=("discard",)),
    Move("prologue_swap", "input", _fixed("Choose who takes the centre card"),
         _prologue_role_refusal(captains.SWAPPERS, ("prologue",)), _swap_run, _swap_text,
         _other_living, _check_target("other"), private=True),
    Move("prologue_mark", "input", _fixed("Mark a player"),
         _prologue_role_refusal(captains.MARKERS, ("prologue",)),
         _mark_run, _mark_text, _other_living, _check_target("other"), private=True),
    Move("end_prologue", "table", _fixed("Everyone opens their eyes"), _end_prologue_refusal,
         _end_prologue_run, _said("The Prologue ends")),
    Move("captain_seen", "input", _fixed("Tell the companion your captain"),
         _captain_seen_refusal, _captain_seen_run, _told_text("captain"), _captain_seen_params,
         private=True),
    Move("permits_seen", "input", _fixed("Tell the companion your permits"),
         _permits_seen_refusal, _permits_seen_run, _told_text("permits"), _permits_seen_params,
         _permits_seen_check, private=True),
    Move("choose_corpse", "input", _fixed("Choose a dead captain to play as"), _corpse_refusal,
         _corpse_run, _corpse_text,
         _corpse_params, private=True),
    Move("correct", "table", _fixed("Correct a counter"), _correct_refusal, _correct_run,
         _correct_text, _correct_params, _correct_check, ruling=True),
)})

MOVE_SET = MoveSet("Captain's Gambit", MOVES.values(), who)
