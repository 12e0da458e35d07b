"""How a turn goes on: the answers an action waits for, what a challenge leaves owed, the end
of an action (wins, Player Powers earned) and the next turn. Every move module calls these."""

from __future__ import annotations

from companion.engine import Outcome, shuffled
from companion.games.gambit_6x6 import reach
from companion.games.gambit_6x6.state import Claim, Owed, Pending, State


def seats_in_order(state: State, after: int) -> list[int]:
    """The seats in turn order after ``after`` (ending with ``after``)."""
    count = len(state.names)
    return [(after + n) % count for n in range(1, count + 1)]


# --- dice -----------------------------------------------------------------------------------

def roll(state: State, group: str | None) -> str | None:
    """One die for a power of ``group`` (None: a Player Power): the power, or None if wild.
    Seeded by the game's seed and the count of dice rolled, so a replay rolls the same."""
    faces = [1, 2, 3, 4, *state.book.rule("dice", "wild")]
    face = shuffled(faces, state.seed, "die", state.dice)[0]
    state.dice += 1
    state.emit("die_rolled")  # revealing: an undo past it would show the next die
    return state.book.face(group, face)


def moats_held(state: State, seat: int) -> int:
    return sum(1 for p in state.team(seat) if p.action == "moat")


def roll_reward(state: State, seat: int, group: str) -> str:
    """A new power rolled for an honest piece's owner ("wild": the owner chooses). A Moat the
    team may not hold (one is the most) is rolled again."""
    most = int(state.book.rule("setup", "most_moats"))
    while True:
        power = roll(state, group)
        if power != "moat" or moats_held(state, seat) < most:
            return power or f"wild:{group}"


# --- the window of answers ------------------------------------------------------------------

def standing(pending: Pending, power: str) -> bool:
    """The actor's claim of ``power`` stands (open, or shown true)."""
    return any(c.power == power and c.status != "false" for c in pending.claims)


def moat_guards(state: State, seat: int) -> list[str]:
    """``seat``'s pieces that may be declared a Moat against the pending action now."""
    pending = state.pending
    if pending is None or pending.kind not in ("move", "bulldoze") or "moat" in pending.used \
            or pending.end is None or standing(pending, "ghost") \
            or state.where(pending.piece) != pending.end:
        return []
    return [p for p in reach.guards(state, pending.end, pending.actor)
            if state.pieces[p].seat == seat]


def kamikaze_piece(state: State, seat: int) -> str | None:
    """``seat``'s piece the moved piece now sits on directly, if a Kamikaze may be declared."""
    pending = state.pending
    if pending is None or pending.kind != "move" or "kamikaze" in pending.used \
            or pending.end is None:
        return None
    stack = state.stacks.get(pending.end, [])
    if pending.piece not in stack or stack.index(pending.piece) == 0:
        return None
    below = state.pieces[stack[stack.index(pending.piece) - 1]]
    return below.id if below.seat == seat else None


def may_witch_doctor(state: State, seat: int) -> bool:
    pending = state.pending
    return (pending is not None and pending.kind in ("move", "bulldoze") and pending.stage == "open"
            and "witch_doctor" in state.held_powers[seat] and bool(challengeable(state))
            and state.where(pending.piece) is not None)


def may_answer(state: State, seat: int) -> bool:
    """Whether ``seat`` has something to answer to the pending action (public facts only)."""
    pending = state.pending
    if pending is None or not state.in_game(seat):
        return False
    if pending.stage != "open":
        return seat == pending.actor
    if seat == pending.actor or seat in pending.passed:
        return False
    return bool(challengeable(state) or moat_guards(state, seat)
                or kamikaze_piece(state, seat) or may_witch_doctor(state, seat))


def challengeable(state: State) -> list[Claim]:
    """The open claims a challenge may name now: the actor's, or the Moat or Kamikaze the
    actor answers; never the claims of a piece no longer on the board."""
    pending = state.pending
    if pending is None:
        return []
    if pending.stage != "open":
        return [pending.reaction] if pending.reaction is not None else []
    return [c for c in pending.open_claims() if state.where(c.piece) is not None]


def answering(state: State) -> list[int]:
    if state.pending is None:
        return []
    return [s for s in seats_in_order(state, state.pending.actor) if may_answer(state, s)]


def open_window(state: State, pending: Pending) -> None:
    """The action is done and claimed: the others may answer, or it stands at once."""
    state.pending = pending
    pending.stage, pending.reaction, pending.passed = "open", None, []
    state.phase = "answering"
    if not answering(state):
        close_window(state)


def close_window(state: State) -> None:
    """Nobody answers any more: the action takes its effect and stands."""
    pending = state.pending
    assert pending is not None
    if pending.kind == "detect" and pending.target is not None:
        look(state, pending.actor, pending.target)
    elif pending.kind == "sensei" and pending.target is not None:
        transfer(state, pending)
    finish(state)


def look(state: State, seat: int, target: str) -> None:
    piece = state.pieces[target]
    powers = ", ".join(state.book.label(p) for p in piece.powers()) or "no powers"
    state.notes[seat].append(f"{target} (Detective, turn {state.turns}): {powers}")
    state.emit("looked", seat=seat, piece=target)


def transfer(state: State, pending: Pending) -> None:
    """Sensei: the named powers the giver really holds (and still holds) go to the receiver.
    A claim settled in the window passes nothing: shown a bluff, or shown true and so lost
    (a new power then placed on the giver stays where its owner put it), or taken by a
    Witch Doctor."""
    giver, taker = state.pieces[pending.piece], state.pieces[pending.target or ""]
    for claim in pending.claims:
        power = claim.power
        if claim.status != "open" or power not in giver.powers():
            continue  # a bluff nobody caught moves nothing
        group = state.book.group(power)
        setattr(giver, group, None)
        setattr(taker, group, power)
    state.emit("taught", seat=pending.actor, piece=pending.piece, to=pending.target)


# --- what challenges leave owed ---------------------------------------------------------------

def owe_loss(state: State, loser: int, winner: int) -> None:
    chooser = loser if state.book.rule("challenge", "loser_chooses") else winner
    if state.in_game(loser):
        state.owed.append(Owed("lose", chooser, loser=loser))


def owe_reward(state: State, seat: int, groups: list[str]) -> None:
    """The honest piece's owner places new powers, chosen or rolled as at the start."""
    for group in groups:
        state.owed.append(Owed("reassign", seat, group=group))
        if state.roll_powers:
            state.rolls[seat].append(roll_reward(state, seat, group))


def reward_groups(state: State, powers_before: list[str], power: str) -> list[str]:
    """The groups of the new powers for a piece shown to hold ``power``."""
    group = state.book.group(power)
    if state.book.rule("challenge", "reward") == "held":
        others = [state.book.group(p) for p in powers_before if p != power]
        return [group, *others]
    return [group]


def strip(state: State, claim: Claim) -> list[str]:
    """A claim shown true: the piece loses that power. Returns what it held before."""
    piece = state.pieces[claim.piece]
    before = piece.powers()
    setattr(piece, state.book.group(claim.power), None)
    return before


def holds(state: State, claim: Claim) -> bool:
    return claim.power in state.pieces[claim.piece].powers()


def undo_action(state: State) -> None:
    """Put the board back as it was before the pending action."""
    pending = state.pending
    assert pending is not None
    state.stacks = {c: list(s) for c, s in pending.before.items()
                    if any(not state.pieces[p].lost for p in s)}
    for cell in list(state.stacks):
        state.stacks[cell] = [p for p in state.stacks[cell] if not state.pieces[p].lost]
    pending.undone = True
    state.emit("action_undone", seat=pending.actor, piece=pending.piece)


def carry_on(state: State) -> None:
    """After a challenge, or after each owed thing: settle what is owed, then go on."""
    if state.outcome is not None:
        return
    if state.owed:
        state.phase = "settling"
        return
    then, state.then = state.then, "next"
    if state.pending is not None and not state.in_game(state.pending.actor):
        then = "next"  # the actor is out: nothing of its action is left to answer
    if then == "window" and state.pending is not None:
        state.pending.stage, state.pending.reaction, state.pending.passed = "open", None, []
        state.phase = "answering"
        if not answering(state):
            close_window(state)
    elif then == "remake":
        state.pending = None
        state.remake = True
        state.phase = "turn"
    elif then == "finish" and state.pending is not None:
        finish(state)
    else:
        state.pending = None
        end_turn(state, [])


def send_back(state: State, moat: str) -> None:
    """A Moat stands: the move is undone and the mover moves again, not around that Moat."""
    undo_action(state)
    state.moated.append(moat)
    state.then = "remake"


def fire_kamikaze(state: State, claim: Claim) -> None:
    """The sitter on the Kamikaze leaves the board; the Kamikaze becomes a normal piece."""
    pending = state.pending
    assert pending is not None
    piece = state.pieces[claim.piece]
    # said first: the loss it costs may end the game, and the log says why before who wins
    state.emit("kamikaze", seat=claim.seat, piece=claim.piece, removed=pending.piece)
    lose(state, pending.piece, bool(state.book.rule("challenge", "kamikaze_counts")))
    piece.action = None
    if state.book.rule("challenge", "kamikaze_keeps") == "none":
        piece.movement = None
    state.then = "finish"


# --- the end of an action and of a turn ------------------------------------------------------

def entered(state: State, seat: int, before: dict[str, list[str]]) -> list[str]:
    """The seat's pieces that came onto its far row and count there now."""
    far = set(state.layout.far(state.sides[seat]))
    was_there = {p for cell, stack in before.items() if cell in far for p in stack}
    return [p for p in state.scoring(seat) if p not in was_there]


def finish(state: State) -> None:
    """The pending action stands: the turn ends."""
    pending = state.pending
    assert pending is not None
    state.pending = None
    end_turn(state, entered(state, pending.actor, pending.before))


def far_row_winner(state: State) -> int | None:
    """A seat with enough pieces counting on its far row: the one whose turn it is first; after
    a Juggernaut's move, the win it answered first (it stands unless the move undid it)."""
    first = state.juggernaut[0] if state.juggernaut is not None else state.turn
    for seat in seats_in_order(state, first - 1):
        if state.in_game(seat) and len(state.scoring(seat)) >= state.far_row:
            return seat
    return None


def juggernaut_holder(state: State, winner: int) -> int | None:
    for seat in seats_in_order(state, winner):
        if seat != winner and state.in_game(seat) and seat not in state.asked \
                and "juggernaut" in state.held_powers[seat]:
            return seat
    return None


def end_turn(state: State, came_in: list[str]) -> None:
    """Player Powers earned, wins on the far row (a Juggernaut may answer one), the next turn."""
    mover = state.turn
    if state.player_powers_on:
        # Earned on coming in, kept even if a Juggernaut then undoes the win it made.
        state.earning += [mover] * len(came_in)
    winner = far_row_winner(state)
    if winner is not None:
        state.juggernaut = None
        holder = juggernaut_holder(state, winner)
        if holder is None:
            game_over(state, (winner,), "far_row")
        else:
            state.phase = "juggernaut"
            state.juggernaut = (winner, holder)
            state.emit("juggernaut_asked", seat=holder, winner=winner)
        return
    resume_after = mover
    if state.juggernaut is not None:
        resume_after = state.juggernaut[0]  # the win is undone: play goes on after the winner
        state.emit("win_undone", seat=mover, winner=state.juggernaut[0])
        state.juggernaut = None
    state.asked = []
    state.turn = resume_after
    next_earning(state)


def next_earning(state: State) -> None:
    """Player Powers earned: rolled ones come at once, chosen (or wild) ones are asked for."""
    while state.earning:
        seat = state.earning[0]
        if not state.roll_player_powers:
            state.phase = "earn"
            return
        power = roll(state, None)
        if power is None:
            state.phase = "earn"
            state.emit("player_power_wild", seat=seat)
            return
        state.earning.pop(0)
        gain_player_power(state, seat, power)
    next_turn(state, state.turn)


def gain_player_power(state: State, seat: int, power: str) -> None:
    state.held_powers[seat].append(power)
    state.emit("player_power", seat=seat, power=power)


def use_out_of_turn(state: State, seat: int, power: str) -> None:
    """A Player Power used outside its holder's turn (Witch Doctor, Juggernaut) is gone, and
    by the table's rule its holder's next turn is spent: "Using a Player Power takes up a
    full turn"."""
    state.held_powers[seat].remove(power)
    if state.book.rule("challenge", f"{power}_skips_turn"):
        state.skip[seat] = power


def next_turn(state: State, after: int) -> None:
    """The next seat in order that still plays takes its turn (a spent turn is skipped)."""
    state.pending, state.moated, state.remake, state.phase = None, [], False, "turn"
    quiet = int(state.book.rule("win", "quiet_turns"))
    for seat in seats_in_order(state, after):
        if not state.in_game(seat):
            continue
        spent = state.skip[seat]
        if spent is not None:
            state.skip[seat] = None
            state.emit("turn_skipped", seat=seat, power=spent)
            continue
        if quiet and state.quiet >= quiet:  # the turn that would start is not counted
            game_over(state, (), "quiet")
            return
        state.turn = seat
        state.turns += 1
        state.quiet += 1
        return
    game_over(state, (), "nobody")


def lose(state: State, piece: str, counts: bool = True, given: bool = False) -> None:
    """A piece leaves the game (``given``: given up, as the log line already says); a team
    that has lost enough is out (its pieces leave too)."""
    seat = state.pieces[piece].seat
    state.remove(piece)
    state.pieces[piece].counts = counts
    state.quiet = 0
    state.emit("lost", seat=seat, piece=piece, counts=counts, given=given)
    if state.lost_count(seat) >= state.losses or not state.team(seat):
        state.owed = [o for o in state.owed if seat not in (o.seat, o.loser)]
        state.emit("team_out", seat=seat)
        still = [s for s in range(len(state.names)) if state.in_game(s)]
        if len(still) <= 1:
            game_over(state, tuple(still), "losses")
            return
        for rest in state.team(seat):  # the game goes on without them
            state.remove(rest.id)
            state.pieces[rest.id].counts = False


def game_over(state: State, winners: tuple[int, ...], reason: str, why: str = "") -> None:
    """``why``: the table's reason, when its ruling ends the game."""
    state.outcome = Outcome(winners, reason, {"why": why} if why else {})
    state.phase = "over"
    state.pending = None
    state.emit("game_over", winners=list(winners), reason=reason)
