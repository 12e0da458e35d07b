"""Combat (the adventure rules and AV I): landing on an enemy piece attacks it. The attacker
rolls its own piece's die and the defender's, the defender its own; a Giant/Ogre adds an
extra d8 against a lesser piece. The highest roll wins, the attacker winning ties; the loser's
piece is destroyed, except that a failed attack on a Castle leaves the attacker on the square
of its path closest to the Castle (the nearest free one, for a flier).

Once every die is in, the side losing may re-roll one of its dice (a re-roll effect
unlocked this turn, or a token) or accept, when a re-roll could turn the fight; otherwise it
accepts by itself.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.gambit_of_kings.board import Piece
from companion.games.gambit_of_kings.book import CASTLE
from companion.games.gambit_of_kings.state import Combat, Die, State
from companion.games.gambit_of_kings.turn import destroy, draw, move_done, place


def die_id(name: str, sides: int) -> str:
    """"Death Knight", 8 -> "death_knight_d8"."""
    return f"{name.lower().replace(' ', '_')}_d{sides}"


def foe_die_id(name: str, sides: int) -> str:
    """The attacker's die of the defender's kind: "Orc", 6 -> "d6_for_the_orc"."""
    return f"d{sides}_for_the_{name.lower().replace(' ', '_')}"


def dice_for(state: State, piece: Piece, defender: Piece) -> list[Die]:
    """The dice of a fight, each with who rolls it: "Knight's d8", "d6 for the Orc" (never
    "Knight d8": it reads as a piece on square d8)."""
    book = state.book
    attacker_name, defender_name = state.piece_name(piece), state.piece_name(defender)
    ours, theirs, extra = book.die(piece.kind), book.die(defender.kind), book.extra_die
    dice = [Die(die_id(attacker_name, ours), piece.side, ours, f"{attacker_name}'s d{ours}"),
            Die(foe_die_id(defender_name, theirs), piece.side, theirs,
                f"d{theirs} for the {defender_name}")]
    if book.has_extra_die(piece.kind) and not book.greater(defender.kind):
        dice.append(Die(f"extra_d{extra}", piece.side, extra, f"extra d{extra} ({attacker_name})"))
    dice.append(Die(die_id(defender_name, theirs), defender.side, theirs,
                    f"{defender_name}'s d{theirs}"))
    if book.has_extra_die(defender.kind) and not book.greater(piece.kind):
        dice.append(Die(f"extra_d{extra}", defender.side, extra,
                        f"extra d{extra} ({defender_name})"))
    return dice


def start(state: State, origin: str, target: str, path: tuple[str, ...]) -> None:
    """The piece on ``origin`` attacks the one on ``target``."""
    piece, defender = state.board[origin], state.board[target]
    state.combat = Combat(origin, target, path, piece, defender, dice_for(state, piece, defender))
    state.phase = "combat"
    state.emit("attacked", origin=origin, target=target)
    if state.companion_dice:
        for index, die in enumerate(state.combat.dice):
            state.combat.dice[index] = _rolled(state, die)
    settle(state)


def _rolled(state: State, die: Die) -> Die:
    value = draw(state, die.sides)
    state.emit("die_rolled", die=die.id, seat=die.seat, text=state.die_name(die), value=value)
    return Die(die.id, die.seat, die.sides, die.text, value)


def enter(state: State, seat: int, die_name: str, value: int) -> None:
    """A die rolled at the table, entered by its roller (a first roll or a re-roll)."""
    combat = state.combat
    assert combat is not None
    index = next(i for i, d in enumerate(combat.dice) if d.id == die_name and d.seat == seat)
    old = combat.dice[index]
    combat.dice[index] = Die(old.id, old.seat, old.sides, old.text, value)
    settle(state)


def reroll(state: State, seat: int, die_name: str, value: int | None) -> None:
    """The loser re-rolls one of its dice (``value`` None: the companion rolls it)."""
    combat = state.combat
    assert combat is not None
    if state.free_reroll and seat == state.turn:
        state.free_reroll = False
        state.emit("free_reroll", seat=seat)
    else:
        state.tokens[seat] -= 1
        state.emit("token_spent", seat=seat, left=state.tokens[seat])
    index = next(i for i, d in enumerate(combat.dice) if d.id == die_name and d.seat == seat)
    old = combat.dice[index]
    if value is None:
        combat.dice[index] = _rolled(state, Die(old.id, old.seat, old.sides, old.text))
    else:
        combat.dice[index] = Die(old.id, old.seat, old.sides, old.text, value)
    combat.loser = None
    settle(state)


def can_reroll(state: State, seat: int) -> bool:
    """Whether ``seat`` has a re-roll for its combat dice: the effect, or a token."""
    free = state.free_reroll and seat == state.turn
    return free or (state.mode.token_use == "reroll" and state.tokens[seat] > 0)


def winner(state: State) -> int:
    """The seat winning the fight as the dice stand: the attacker wins ties."""
    assert state.combat is not None
    return _winner(state.combat, state.book.compare)


def _winner(combat: Combat, compare: str) -> int:
    attack, defence = combat.scores(compare)
    return combat.piece.side if attack >= defence else combat.defender.side


def turning_dice(state: State, seat: int) -> list[Die]:
    """``seat``'s dice whose re-roll could win it the fight: the die's highest face would (a
    lower face helps no more, counting the best die or the sum)."""
    combat = state.combat
    assert combat is not None
    turning = []
    for index, die in enumerate(combat.dice):
        if die.seat == seat:
            best = combat.copy()
            best.dice[index] = replace(die, value=die.sides)
            if _winner(best, state.book.compare) == seat:
                turning.append(die)
    return turning


def could_turn(state: State, seat: int) -> bool:
    """Whether re-rolling one of ``seat``'s dice could win it the fight."""
    return bool(turning_dice(state, seat))


def settle(state: State) -> None:
    """With every die in: wait for a loser whose re-roll could turn the fight, or resolve it."""
    combat = state.combat
    assert combat is not None
    if combat.missing():
        return
    loser = 1 - winner(state)
    if can_reroll(state, loser) and could_turn(state, loser):
        combat.loser = loser
        return
    resolve(state)


def resolve(state: State) -> None:
    """The fight ends as the dice stand."""
    combat = state.combat
    assert combat is not None
    attack, defence = combat.scores(state.book.compare)
    won = winner(state) == combat.piece.side
    state.emit("fought", attack=attack, defence=defence, winner=winner(state),
               attacker=combat.piece.side, target=combat.target)
    state.combat = None
    if won:
        destroy(state, combat.target, combat.piece)
        place(state, combat.origin, combat.target)
        state.last_move[-1] = (combat.origin, combat.target)
    elif combat.defender.kind == CASTLE:
        stay = _beside_the_castle(state, combat)
        if stay != combat.origin:
            place(state, combat.origin, stay)
        state.last_move[-1] = (combat.origin, stay)
        state.emit("repelled", origin=combat.origin, square=stay)
    else:
        destroy(state, combat.origin, combat.defender)
        state.last_move[-1] = (combat.origin, combat.origin)
    move_done(state)


def _beside_the_castle(state: State, combat: Combat) -> str:
    """The square of the attacker's path closest to the Castle that is free (a flier may
    have passed over pieces); its own square when there is none."""
    for where in reversed(combat.path):
        if where not in state.board:
            return where
    return combat.origin
