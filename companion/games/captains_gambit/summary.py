"""The readable rules summary (`companion rules captains-gambit`), built from the rule book."""

from __future__ import annotations

from companion.games.captains_gambit.book import CAPTAIN_TEXTS, PERMITS, WILDCARDS, Book

HOUSE = "[house]"
PROVISIONAL = "[provisional]"


def _mark(entry: object) -> str:
    if not isinstance(entry, dict):
        return ""
    if entry.get("provisional"):
        return f" {PROVISIONAL}"
    if entry.get("house"):
        return f" {HOUSE}"
    return ""


def rules_summary(book: Book) -> str:
    data = book.data
    setup = data["setup"]
    lines = [
        "Captain's Gambit: Kings of Infinite Space (4 to 8 players)",
        "",
        f"{HOUSE} marks the project's default where the rulebook is silent;",
        f"{PROVISIONAL} marks an advanced captain known only in outline.",
        "Correct any of them in data/rules.toml or with the table option \"house\".",
        "",
        "Setup",
        f"  Everyone starts with {setup['starting_health']} health (healing may go above it)"
        f" and {setup['starting_energy']} energy, and is dealt 1 captain and"
        f" {setup['hand_size']} permits, all hidden.",
        "  Permit deck: " + ", ".join(
            f"{n} players: {c} of each" for n, c in setup["permit_copies"].items()) + ".",
        "  Captain pool: " + "; ".join(
            f"{n}+ players: " + ", ".join(book.label(c) for c in names)
            for n, names in data["pool"].items() if n.isdigit()) + ".",
        "  Juliet (or Mercutio) lies face-down in the centre; Romeo (or Tybalt) swaps it in"
        " during the Prologue.",
        "  Warp In groups (option warp_in): " + "; ".join(
            f"{group}: " + " + ".join(book.label(c) for c in swap["replaces"]) + " -> "
            + " + ".join(book.label(c) for c in swap["with"])
            for group, swap in data["warp_in"].items()) + ".",
        "  Options: wildcards (of each wildcard: " + ", ".join(
            f"{n} at {count}" for count, n in setup["wildcard_copies"].items())
        + " players), mulligan (discard 0-2 permits and redraw before the Prologue),"
        " first_seat.",
        "",
        "Turn",
        f"  Take {setup['income_energy']} free energy (a loyalty instead, if you like, while"
        " King Lear and Othello are in the pool), then do one action and pay its cost.",
        "  Others may react before it resolves: Shield, or call the bluff on a permit action.",
        f"  The game ends when someone wins, when everyone is dead, or when round"
        f" {setup['rounds']} ends. Everyone wins: a comedy. Nobody wins: a tragedy.",
        "",
        "Actions",
    ]
    for name, action in data["actions"].items():
        kind = action["kind"]
        cost = action["cost"]
        lines.append(f"  {action['label']} ({kind}, cost {cost}){_mark(action)}:"
                     f" {book.action_text(name)}")
    lines += [
        "",
        "Bluffs",
        f"  A bluff call on a permit action (or a Shield): the actor shows the permit and the"
        f" caller takes {setup['bluff_damage']} damage (the card is shuffled back and replaced"
        " before the action finishes), or concedes: the actor takes"
        f" {setup['bluff_damage']} damage, gets no refund and no blood.",
        "  Bluff damage is a killing blow with kill credit. Shield does not stop it.",
        "",
        "Wildcards (option)",
    ]
    for name in WILDCARDS:
        card = data["wildcards"][name]
        reach = ""
        if "shield" in card:
            reach = (" A Shield too: it cannot be called." if card["shield"]
                     else " Not a Shield: only your own turn's permit action.")
        lines.append(f"  {card['label']}: {card['text']}{reach}{_mark(card)}")
    lines += [
        "",
        "Deaths",
        "  At 0 health, or on meeting your lose condition, you die: first the save window,"
        " then your captain and permits are shown. Lose conditions set off by a death are"
        " checked next, and kill credit passes along the chain. Then the win check." + f" {HOUSE}",
        "  A dead captain wins nothing, except: " + ", ".join(
            book.label(c) for c in setup["dead_can_win"]) + ".",
        "",
        "Captains",
    ]
    for name, captain in data["captains"].items():
        lines.append(f"  {captain['label']} ({captain['category']}){_mark(captain)}")
        for key in CAPTAIN_TEXTS:
            if key in captain:
                lines.append(f"    {key.title()}: {book.captain_text(name, key)}")
    lines += ["", "Permit types: " + ", ".join(book.label(p) for p in PERMITS) + "."]
    return "\n".join(lines)
