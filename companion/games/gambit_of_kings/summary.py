"""Gambit of Kings in words: the notes under a log line, what the table hears, and the rules
summary (`companion rules gambit-of-kings`), house defaults marked."""

from __future__ import annotations

from collections.abc import Sequence

from companion.engine import Event
from companion.games.gambit_of_kings.board import FILES
from companion.games.gambit_of_kings.book import KINDS, MODES, SIDES, Book
from companion.games.gambit_of_kings.movement import movement_text
from companion.games.gambit_of_kings.state import State
from companion.games.gambit_of_kings.turn import allowed


def _tokens(left: int) -> str:
    return f"{left} token{'s' * (left != 1)} left"


def _note(state: State, event: Event) -> str | None:
    book, kind = state.book, event["type"]
    name = state.name(event.get("seat", event.get("side")))
    if kind == "rolled":
        # the companion's roll is told here, not in the action's text (a preview shows that)
        shows = f"the die shows {event['value']}; " if state.companion_dice else ""
        if event["kind"] is None:
            return f"{shows}there is no card {event['value']}"
        piece = book.name(event["kind"], event["seat"])
        said = allowed(state).rule if state.mode.card_rules and state.phase == "move" else \
            f"card {event['value']}, the {piece}"
        if event["own"]:
            said += "; an even roll unlocks the adventure effect of each piece that moves"
        elif event["unlocked"]:
            said += ("; an even roll unlocks its adventure effect:"
                     f" {book.effect_text(event['kind'])}")
        return shows + said
    if kind in ("token_spent", "unlocked"):
        return f"{name} has {_tokens(event['left'])}"
    if kind == "die_rolled":
        return f"{event['text']}: {event['value']}"
    if kind == "free_reroll":
        return "the free re-roll of this turn's adventure effect is used"
    if kind == "fought":
        return (f"{event['attack']} against {event['defence']}:"
                f" {state.name(event['winner'])} wins the fight")
    if kind == "destroyed":
        return f"{name}'s {book.name(event['kind'], event['side'])} on {event['square']} is" \
               " destroyed"
    if kind == "promoted":
        return (f"{name}'s {book.name(event['kind'], event['side'])} {event['why']}: it"
                f" becomes a {book.name(event['to'], event['side'])}")
    if kind == "repelled":
        return f"the attack on the Castle fails: the attacker stays on {event['square']}"
    if kind == "castle_taken":
        return f"{name} wins: {book.side_name(1 - event['side'])} Castle is taken"
    if kind == "drawn":
        return f"a draw: {event['turns']} turns in a row with no piece destroyed"
    return None


def notes(state: State, events: Sequence[Event]) -> tuple[str, ...]:
    """Public notes for the log line of an action."""
    return tuple(note for note in (_note(state, e) for e in events) if note)


def announce(events: Sequence[Event]) -> str:
    """A fight's end and the game's, for the whole table to hear."""
    said = []
    for event in events:
        if event["type"] == "fought":
            who = "attacker" if event["winner"] == event["attacker"] else "defender"
            said.append(f"{event['attack']} against {event['defence']}: the {who} wins.")
        elif event["type"] == "castle_taken":
            said.append(f"The {SIDES[1 - event['side']]} Castle falls.")
    return " ".join(said)


def rules_text(book: Book) -> str:
    """The rules as the companion plays them; [house] marks the project's defaults."""
    lines = [
        "Gambit of Kings (2 players). [house] marks the project's defaults where the seed is"
        " silent or garbled; change them in data/rules.toml or with the option \"house\".",
        "",
        f"The board: {book.size} x {book.size}, files a to {FILES[book.size - 1]}, ranks 1 to"
        f" {book.size}. Seat 0 plays light ({book.side_name(0)}), starting on"
        f" ranks 1 and 2; seat 1 plays dark ({book.side_name(1)}). The first player is chosen"
        " by the companion's coin (or by the option \"first\").",
        "A turn moves exactly one piece. No piece ends on its own side's piece, or passes"
        " over a piece unless it flies. Landing on an enemy piece destroys it (with combat"
        " dice: attacks it). Move onto the enemy Castle to win. A player who cannot move"
        " passes [house].",
        f"Draw: {book.quiet_turns} turns in a row with no piece destroyed [house]."
        if book.quiet_turns else "No draw rule.",
        "",
        "Pieces (light / dark): movement; adventure effect; combat die. \"Up to N squares\""
        " is the house reading of the cards' \"N spaces\" [house]; a piece's \"exact\" makes"
        " it exactly N.",
    ]
    for kind in KINDS:
        piece = book.piece(kind)
        names = f"{book.name(kind, 0)} / {book.name(kind, 1)}"
        notes = [piece["tier"]]
        if book.flies(kind):
            notes.append("flies over pieces")
        if book.blocks_flight(kind):
            notes.append("can't be flown over")
        if book.has_extra_die(kind):
            notes.append(f"an extra d{book.extra_die} against lesser pieces, attacking or"
                         " defending [house]")
        if book.promotes_to(kind):
            promoted = str(book.promotes_to(kind))
            notes.append(f"becomes a {book.name(promoted, 0)} / {book.name(promoted, 1)} on"
                         " destroying a greater piece (attacking or defending [house]) or"
                         " reaching the farthest row")
        house = [what for what, key in (("movement", "house_moves"), ("effect", "house_effect"),
                                        ("die", "house_die")) if piece.get(key)]
        mark = f" [house: {', '.join(house)}]" if house else ""
        lines.append(f"  {names} ({', '.join(notes)}): {movement_text(book, kind)};"
                     f" {book.effect_text(kind)}; d{book.die(kind)}{mark}")
    lines += ["",
              "Ways to play (the option \"mode\"):"]
    for name in MODES:
        mode = book.mode(name)
        parts = []
        if mode.roll:
            parts.append(f"a d{book.movement_die} movement roll picks a card of the row (the"
                         " Castle 8th)")
            if mode.card_rules:
                parts.append("the card's piece moves (boxed in, none of that type can move:"
                             " a piece moves after which one could, judged as if the move"
                             " lands, or any piece when none does [house]; none of that type"
                             " left: any piece); an even roll unlocks the card's adventure"
                             " effect (the Castle's: any piece moves)")
                parts.append("on the Castle's card or with none of the card's type left, "
                             + ("the piece that moves has its own instead [house]"
                                if book.mover_effects else "still only the card's [house]"))
            else:
                parts.append("any piece may move; an even roll unlocks "
                             + ("the adventure effect of each piece that moves [house]"
                                if book.mover_effects else
                                "the card's adventure effect, for a piece of that type only"
                                " [house]"))
        if mode.double_move:
            parts.append(f"a roll of {mode.double_move} moves two different pieces, the second"
                         " without attacking")
        if mode.combat:
            compare = "best single die" if book.compare == "highest" else "sum of the dice"
            parts.append("combat: the attacker rolls its die and the defender's, the defender"
                         f" its own; the {compare} wins [house], the attacker wins ties; a"
                         " failed attack on the Castle leaves the attacker on the free square"
                         " of its path nearest the Castle")
            if mode.token_use == "reroll":
                parts.append("once every die is in, only the side losing may re-roll one of"
                             " its dice, and only when that die's highest face would turn the"
                             " fight [house]")
        elif mode.roll or mode.tokens:
            parts.append("landing destroys, no combat dice")
        if mode.giant_safe:
            parts.append("a lesser piece can't destroy a Giant/Ogre")
        if mode.tokens:
            dice = "one of your dice (the movement roll or a combat die)" if mode.combat \
                else "the movement die"
            use = f"re-rolls {dice} [house]" if mode.token_use == "reroll" else \
                "unlocks one piece's adventure effect for a turn, before moving [house: one" \
                " piece's]"
            parts.append(f"{mode.tokens} token{'s' * (mode.tokens != 1)} each; a token {use}")
        lines.append(f"  {name}: {mode.label}: " + ("; ".join(parts) if parts else
                                                     "no dice, no cards") + ".")
    lines += ["",
              "Starting layouts (the option \"layout\"; or \"pieces\": a position written out):"]
    for name in book.layouts():
        back, front = book.layout(name)
        mark = " [house]" if book.data["layouts"][name].get("house") else ""
        lines.append(f"  {name}{mark}: rank 1 {', '.join(back)}; rank 2 {', '.join(front)};"
                     " dark mirrored on ranks 10 and 9")
    return "\n".join(lines)
