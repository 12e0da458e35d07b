"""The readable rules summary (`companion rules gambit-6x6`), built from the rule book."""

from __future__ import annotations

from companion.games.gambit_6x6.book import GROUPS, Book

HOUSE = "[house]"
_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _count(n: int, noun: str) -> str:
    """``2, "Moat"``: "two Moats"."""
    return f"{_WORDS[n] if n < len(_WORDS) else n} {noun}{'' if n == 1 else 's'}"


def _wild(book: Book) -> str:
    faces = [str(f) for f in book.rule("dice", "wild")]
    return f"{' and '.join(faces)} wild" if faces else "no face wild"


def rules_summary(book: Book) -> str:
    win, moves, challenge = book.data["win"], book.data["moves"], book.data["challenge"]
    most = int(book.rule("setup", "most_moats"))
    skips = {p: challenge[f"{p}_skips_turn"] for p in ("juggernaut", "witch_doctor")}
    spent = {p: f" Using it {'spends' if skip else 'does not spend'} your next turn {HOUSE}."
             for p, skip in skips.items()}
    spent["witch_doctor"] = (
        " Your piece must hold a power of every group the move claimed" if
        challenge["witch_doctor_needs_powers"] else
        " A piece holding none of a claimed group takes the claimed power and gives nothing"
    ) + f" {HOUSE}." + spent["witch_doctor"]
    lines = [
        "Gambit: a strategy game about bluffing (2 players; 3-4 on the corners board)",
        "",
        f"{HOUSE} marks the project's choice where the rulebook is silent or garbled;",
        "correct any of them in data/rules.toml or with the table option \"house\".",
        "",
        "Setup",
        "  Each team fills its home row. Before play each player places powers on its pieces"
        " in secret:",
        f"  {book.rule('setup', 'powers')} Movement and {book.rule('setup', 'powers')} Action"
        " powers, at most one of each group per piece; chosen (all different) or rolled"
        f" (one die each, {_wild(book)}; {_count(most + 1, 'Moat')} rolled: roll all again).",
        f"  A team never holds more than {_count(most, 'Moat')}, rolled, chosen through a wild"
        f" die or won back {HOUSE}.",
        "",
        "A turn",
        "  Move one piece 1 or 2 squares forward, back, left or right, not through or onto"
        " another piece"
        + ("; a 2-square move goes straight " + HOUSE if moves["straight"] else "") + ".",
        "  Or claim a power: any piece may be said to hold any power (a bluff is allowed).",
        ("  A player who could only act by claiming a power may pass: nobody is made to bluff"
         if moves["pass_if_only_claims"] else
         "  A pass only when nothing at all, claims included, can be done") + f" {HOUSE}.",
        "  Any opponent may challenge a claim; the companion settles it from the secret it"
        " holds:",
        "    true: the challenger loses a piece"
        + (f" (the loser picks it {HOUSE})" if challenge["loser_chooses"] else
           f" (the winner picks it {HOUSE})")
        + ", the piece loses that power and its owner places a new power of the same group"
        + (f" (one {HOUSE})" if challenge["reward"] == "one" else f" (as many as the piece"
           f" held {HOUSE})") + ";",
        "    a bluff: the bluffer loses a piece, and a move the power made possible is undone"
        + (f" (the turn is lost {HOUSE})" if challenge["bluff_turn"] == "lost" else
           f" (the bluffer moves again {HOUSE})") + ".",
        ("    The piece lost may be a sat-on one; the pieces on it settle onto the square"
         if challenge["lose_sat_on"] else "    The piece lost may not be a sat-on one")
        + f" {HOUSE}.",
        "",
        "Powers",
    ]
    for group in GROUPS:
        lines.append(f"  {group.title()}:")
        lines += [f"    {book.label(p)}: {book.text(p)}" for p in book.powers(group)]
    lines += [
        f"  Sidewinder: {'crosses the left or right edge in a 1 or 2 square move' if moves['sidewinder'] == 'wrap' else 'jumps from one edge square of a row to the other'} {HOUSE}.",  # noqa: E501
        "  Bulldozer: " + ("may push a stack (the sat-on piece and its sitters move as one)"
                          if moves["push_stacks"] else "pushes a lone piece only, not a stack")
        + f" {HOUSE}.",
        "  Sitting: " + ("may sit on its own team's pieces too" if moves["sit_on_own"] else
                        "sits on opponents' pieces only") + f" {HOUSE}.",
        "  Moat: declared by its owner when a piece finishes next to it; the mover accepts"
        " and moves again elsewhere, or challenges"
        + (f" (a lost challenge costs a piece {HOUSE})" if challenge["moat_costs_piece"]
           else f" (a lost challenge costs no piece {HOUSE})") + ".",
        "  Kamikaze: declared when an opponent's piece sits on it; the sitter leaves the board"
        + (f" (counted as a lost piece {HOUSE})" if challenge["kamikaze_counts"] else
           f" (not counted as a lost piece {HOUSE})")
        + (f"; the Kamikaze keeps no power {HOUSE}." if challenge["kamikaze_keeps"] == "none"
           else f"; the Kamikaze keeps its Movement power {HOUSE}."),
        "",
        "Winning",
        f"  {win['far_row']} of your pieces on the far row (a sat-on piece does not count),"
        f" or every opponent has lost {win['losses']} pieces.",
        f"  {win['quiet_turns']} turns in a row with no piece lost: a draw {HOUSE}."
        if win["quiet_turns"] else "  No draw by quiet turns.",
        "",
        "Player Powers (option player_powers): one for each piece that reaches the far row,"
        f" chosen or rolled ({_wild(book)}), announced:",
    ]
    lines += [f"  {book.label(p)}: {book.text(p)}{spent.get(p, '')}" for p in book.player_powers()]
    lines += ["", "Boards (option board):"]
    for name in book.boards():
        board = book.board(name)
        players = " or ".join(board["sides"])
        lines.append(f"  {name}: {board['label']}, {board['cols']}x{board['rows']},"
                     f" {board['pieces']} pieces each, {players} players")
    return "\n".join(lines)
