"""The combat dice, rolled at the table and entered by their rollers: `combat_roll` {die,
face}; then the losing side may `reroll_combat` {die, face} one of its dice (a re-roll effect
unlocked this turn, else a token) or `accept` the result. With the companion rolling, the dice
are rolled at the attack and a re-roll is rolled by it (no face)."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.gambit_of_kings import combat
from companion.games.gambit_of_kings.moves.common import face_problem, faces, fixed
from companion.games.gambit_of_kings.state import Die, State


def _fighting(state: State, seat: int | None) -> str | None:
    if state.outcome is not None:
        return "the game is over"
    if state.phase != "combat" or state.combat is None:
        return "no combat dice are expected now"
    if seat is None:
        return "the players roll their own dice"
    return None


def _die_params(dice: list[Die], with_face: bool) -> tuple[Param, ...]:
    ids = tuple(d.id for d in dice)
    out = [Param("die", "choice", "Which die", choices=ids,
                 labels=tuple(d.text for d in dice))]  # "Knight's d8", not "knight d8"
    if with_face:
        every = tuple(sorted({f for d in dice for f in faces(d.sides)}))
        out.append(Param("face", "choice", "It shows", choices=every, depends_on="die",
                         choices_by=tuple((d.id, faces(d.sides)) for d in dice)))
    return tuple(out)


def _die_of(params: Params, dice: list[Die], doing: str = "roll") -> Die | str:
    """The die named by ``params``, or why not (``doing``: what the player would do with it)."""
    found = next((d for d in dice if d.id == params.get("die")), None)
    if found is None:
        listed = ", ".join(d.id for d in dice) or "none"
        return f"{params.get('die')!r} is not one of your dice to {doing} now ({listed})"
    return found


# --- entering a die -------------------------------------------------------------------------

def _enter_refusal(state: State, seat: int | None) -> str | None:
    reason = _fighting(state, seat)
    if reason:
        return reason
    assert state.combat is not None and seat is not None
    if state.companion_dice:
        return "the companion rolls the combat dice at this table"
    if not state.combat.missing(seat):
        return "none of your dice is waiting to be rolled"
    return None


def _enter_params(state: State, seat: int | None) -> tuple[Param, ...]:
    assert state.combat is not None
    return _die_params(state.combat.missing(seat), True)


def _enter_check(state: State, seat: int | None, params: Params) -> str | None:
    assert state.combat is not None
    die = _die_of(params, state.combat.missing(seat))
    if isinstance(die, str):
        return die
    return face_problem(params.get("face"), die.sides, f"the {die.text}")


def _enter_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    combat.enter(state, seat, str(params["die"]), int(params["face"]))


def _die_text(state: State, seat: int | None, params: Params) -> str:
    return f"{state.name(seat)}'s {_named(state, seat, params)}: {params.get('face')}"


def _named(state: State, seat: int | None, params: Params) -> str:
    dice = state.combat.dice if state.combat else []
    found = next((d for d in dice if d.id == params.get("die") and d.seat == seat), None)
    return found.text if found else str(params.get("die"))


# --- the loser's choice ---------------------------------------------------------------------

def _losing(state: State, seat: int | None) -> str | None:
    reason = _fighting(state, seat)
    if reason:
        return reason
    assert state.combat is not None
    if state.combat.loser != seat:
        return "only the side losing the fight may re-roll or accept, once every die is in"
    return None


def _own_dice(state: State, seat: int | None) -> list[Die]:
    assert state.combat is not None
    return [d for d in state.combat.dice if d.seat == seat]


def _reroll_label(state: State) -> str:
    combat_ = state.combat
    seat = combat_.loser if combat_ and combat_.loser is not None else state.turn
    if state.free_reroll and seat == state.turn:
        return "Re-roll one of your dice (free: this turn's adventure effect)"
    return f"Re-roll one of your dice (a token: {state.tokens[seat]} left)"


def _rerollable(state: State, seat: int | None) -> list[Die]:
    """The seat's dice it may re-roll: those a re-roll could turn the fight with (a re-roll
    of another would spend a token for nothing), or any of its own (`dice.reroll`)."""
    if not state.book.reroll_turning_only:
        return _own_dice(state, seat)
    return combat.turning_dice(state, seat) if seat is not None else []


def _reroll_params(state: State, seat: int | None) -> tuple[Param, ...]:
    return _die_params(_rerollable(state, seat), not state.companion_dice)


def _reroll_check(state: State, seat: int | None, params: Params) -> str | None:
    rerollable = _rerollable(state, seat)
    die = _die_of(params, _own_dice(state, seat), "re-roll")
    if isinstance(die, str):  # not one of its own: say so, listing only the dice that may be
        return str(_die_of(params, rerollable, "re-roll"))
    if die not in rerollable:
        others = " or ".join(f"the {d.text}" for d in rerollable)
        return f"the {die.text} cannot turn the fight, even at {die.sides}" + \
            (f": re-roll {others}" if others else "")
    if state.companion_dice:
        return None
    return face_problem(params.get("face"), die.sides, f"the {die.text}")


def _reroll_run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    face = None if state.companion_dice else int(params["face"])
    combat.reroll(state, seat, str(params["die"]), face)


def _reroll_text(state: State, seat: int | None, params: Params) -> str:
    how = "free" if state.free_reroll and seat == state.turn else "a token"
    face = "" if state.companion_dice else f": {params.get('face')}"
    return f"{state.name(seat)} re-rolls the {_named(state, seat, params)} ({how}){face}"


def _accept_run(state: State, seat: int | None, params: Params) -> None:
    combat.resolve(state)


DIE = Move("combat_roll", "reaction", fixed("Enter a combat die"), _enter_refusal, _enter_run,
           _die_text, _enter_params, _enter_check)
REROLL_COMBAT = Move("reroll_combat", "reaction", _reroll_label, _losing, _reroll_run,
                     _reroll_text, _reroll_params, _reroll_check)
ACCEPT = Move("accept", "reaction", fixed("Accept the fight's result"), _losing, _accept_run,
              lambda s, seat, p: f"{s.name(seat)} accepts the result")
