"""Every action of Gambit (6x6), one module each, gathered into the game's MoveSet."""

from __future__ import annotations

from companion.engine import Event, MoveSet, typed_square
from companion.games.gambit_6x6.moves import (
    accept,
    bulldoze,
    challenge,
    choose_powers,
    detect,
    give_up,
    juggernaut,
    kamikaze,
    magician,
    moat,
    move,
    pass_turn,
    place_powers,
    reassign,
    rulings,
    sensei,
    take_power,
    witch_doctor,
)
from companion.games.gambit_6x6.state import State

MOVE_SET = MoveSet("Gambit (6x6)", (
    choose_powers.MOVE, place_powers.MOVE, move.MOVE, bulldoze.MOVE, detect.MOVE, sensei.MOVE,
    magician.MOVE, pass_turn.MOVE, accept.MOVE, challenge.MOVE, moat.MOVE, kamikaze.MOVE,
    witch_doctor.MOVE, give_up.MOVE, reassign.MOVE, take_power.MOVE, juggernaut.USE,
    juggernaut.LET_STAND, rulings.SET_PIECE, rulings.DECLARE,
), lambda state, seat: state.name(seat), cells=typed_square)  # "C2 " is c2

# Events that show hidden information: a plain undo stops before them.
REVEALING = ("challenge_settled", "looked", "witch_doctor", "game_over", "die_rolled")


def event_notes(state: State, events: tuple[Event, ...]) -> tuple[str, ...]:
    """What followed an action, in public words, for the log."""
    book = state.book
    notes = []
    for event in events:
        kind, seat = event["type"], event.get("seat")
        if kind == "challenge_settled":
            power = book.label(event["power"])
            if event["true"]:
                loses = f" {state.name(event['challenger'])} loses a piece and" \
                    if event.get("costs", True) else ""
                notes.append(f"True: {event['piece']} holds {power} and loses it;{loses}"
                             f" {state.name(seat)} places a new power")
            else:
                notes.append(f"A bluff: {event['piece']} does not hold {power};"
                             f" {state.name(seat)} loses a piece")
        elif kind == "action_undone":
            notes.append(f"{state.name(seat)}'s action is undone")
        elif kind == "sent_back":
            notes.append(f"{state.name(seat)} moves again")
        elif kind == "kamikaze":
            if book.rule("challenge", "kamikaze_keeps") == "none":
                notes.append(f"{event['removed']} leaves the board; {event['piece']} becomes"
                             " a normal piece")
            else:
                notes.append(f"{event['removed']} leaves the board; {event['piece']} loses"
                             " its Action power and keeps any Movement power")
        elif kind == "lost" and not event["given"]:
            notes.append(f"{state.name(seat)} loses {event['piece']}"
                         + ("" if event["counts"] else " (not counted as a loss)"))
        elif kind == "team_out" and len(state.names) > 2:  # with two, the game is over
            notes.append(f"{state.name(seat)} is out of the game")
        elif kind == "looked":
            notes.append(f"{state.name(seat)} learns {event['piece']}'s powers")
        elif kind == "taught":
            notes.append(f"Those of the named powers that {event['piece']} holds pass to"
                         f" {event['to']}")
        elif kind == "player_power":
            notes.append(f"{state.name(seat)} gains the Player Power {book.label(event['power'])}")
        elif kind == "player_power_wild":
            notes.append(f"{state.name(seat)} rolls a wild die for a Player Power")
        elif kind == "turn_skipped":
            notes.append(f"{state.name(seat)}'s turn is spent ({book.label(event['power'])})")
        elif kind == "juggernaut_asked":
            notes.append(f"{state.name(event['winner'])} has {state.far_row} on the far row:"
                         f" {state.name(seat)} may answer with the Juggernaut")
        elif kind == "win_undone":
            notes.append(f"{state.name(event['winner'])}'s win is undone")
        elif kind == "play_began":
            notes.append("Every power is placed: play begins")
        elif kind == "game_over":
            notes.append(game_over_text(state, event["winners"], event["reason"]))
    return tuple(notes)


def pieces(count: int) -> str:
    return f"{count} piece" if count == 1 else f"{count} pieces"


def _turns(count: int) -> str:
    return f"{count} turn" if count == 1 else f"{count} turns"


def game_over_text(state: State, winners: list[int], reason: str) -> str:
    names = " and ".join(state.name(s) for s in winners)
    losers = [state.name(s) for s in range(len(state.names)) if s not in winners]
    beaten = (f"{losers[0]} has" if len(losers) == 1 else "every other team has")
    return {"far_row": f"{names} wins with {pieces(state.far_row)} on the far row",
            "losses": f"{names} wins: {beaten} lost {pieces(state.losses)}",
            "quiet": f"A draw: {_turns(int(state.book.rule('win', 'quiet_turns')))} with no"
                     " piece lost",
            "declared": f"The table's ruling: {names} wins" if names else
                        "The table's ruling: a draw",
            }.get(reason, "The game is over")
