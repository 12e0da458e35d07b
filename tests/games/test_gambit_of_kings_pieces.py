"""Every piece's legal squares, from the centre of the board and from a crowded corner, for
both sides (the dark side's are the light side's turned round), worked out by hand from the
cards; fliers, the Giant that can't be flown over, no jumping, no ending on your own piece;
and refusals that name the piece, the squares and the rule."""

from __future__ import annotations

import random

import pytest

from companion.engine import GameSetup
from companion.games.gambit_of_kings.board import FILES, coords, square
from companion.games.gambit_of_kings.movement import Mover, Powers
from companion.games.gambit_of_kings.rules import GambitOfKingsRules
from tests.games.test_gambit_of_kings_tables import (
    act,
    reach,
    refused_move,
    second,
    table,
)

DARK_NAMES = {"paladin": "lich", "giant": "ogre", "knight": "death knight", "griffin": "dragon",
              "lion": "dire wolf", "elf": "orc", "soldier": "skeleton"}


def turned(where: str) -> str:
    """The square the board turned round puts ``where`` on (a1 <-> j10)."""
    file, rank = coords(where)
    return square(9 - file, 11 - rank)


def squares(text: str) -> set[str]:
    return set(text.split())


# From e5 on an empty board (light), by the cards' movements.
CENTRE = {
    "paladin": "e6 e7 e8 e9 e10 e4 e3 e2 e1 d5 c5 b5 a5 f5 g5 h5 i5 j5 f6 g7 h8 i9 j10"
               " d6 c7 b8 a9 f4 g3 h2 i1 d4 c3 b2 a1",
    # up to 3 in any direction but backward: forward, forward diagonals, sideways
    "giant": "e6 e7 e8 d6 c7 b8 f6 g7 h8 d5 c5 b5 f5 g5 h5",
    "knight": "e6 e7 e8 e4 e3 e2 d5 c5 b5 f5 g5 h5",
    "griffin": "e6 e7 e8 e4 e3 e2 d5 c5 b5 f5 g5 h5",
    # one square straight, then 1 or 2 diagonally onward
    "lion": "d7 c8 f7 g8 d3 c2 f3 g2 c6 b7 c4 b3 g6 h7 g4 h3",
    "elf": "d6 c7 f6 g7 d4 c3 f4 g3",
    "soldier": "e6 e7 d5 f5",
}

# From a1 with the side's Soldier on b1 and Elf on a3, an enemy Orc on b2 and Skeleton on c3
# (written by kind, "dark elf" is an Orc, so that the other side's corner is the same words).
CORNER = "b1 light soldier, a3 light elf, b2 dark elf, c3 dark soldier"
FROM_THE_CORNER = {
    "paladin": "a2 b2",  # a3 and b1 are its own; it takes the Orc and stops there
    "giant": "a2 b2",
    "knight": "a2",
    "griffin": "a2 a4 c1 d1",  # flies over its own Elf and Soldier, never ends on them
    "lion": "b3 c4",  # a2, then on diagonally; its way over b1 is blocked
    "elf": "b2",
    "soldier": "a2",  # 2 forward is blocked by its own Elf
}


def mirrored(position: str) -> str:
    """The same position for the other side: squares turned round, light and dark swapped."""
    out = []
    for entry in position.split(","):
        where, side, name = entry.split(maxsplit=2)
        other = "dark" if side == "light" else "light"
        out.append(f"{turned(where)} {other} {name}")
    return ", ".join(out)


@pytest.mark.parametrize("kind", sorted(CENTRE))
def test_each_piece_from_the_centre(kind: str) -> None:
    session = table(f"c1 light castle, h10 dark castle, e5 light {kind}")
    assert reach(session, "e5") == squares(CENTRE[kind])


@pytest.mark.parametrize("kind", sorted(CENTRE))
def test_each_dark_piece_from_the_centre_is_the_light_one_turned_round(kind: str) -> None:
    session = table(f"c1 light castle, h10 dark castle, f6 dark {kind}", first="dark")
    assert reach(session, "f6") == {turned(s) for s in squares(CENTRE[kind])}
    assert session.state.board["f6"].kind == kind


@pytest.mark.parametrize("kind", sorted(FROM_THE_CORNER))
def test_each_piece_from_a_crowded_corner(kind: str) -> None:
    session = table(f"j1 light castle, a10 dark castle, a1 light {kind}, {CORNER}")
    assert reach(session, "a1") == squares(FROM_THE_CORNER[kind])


@pytest.mark.parametrize("kind", sorted(FROM_THE_CORNER))
def test_each_dark_piece_from_a_crowded_corner(kind: str) -> None:
    position = mirrored(f"j1 light castle, a10 dark castle, a1 light {kind}, {CORNER}")
    session = table(position, first="dark")
    assert reach(session, "j10") == {turned(s) for s in squares(FROM_THE_CORNER[kind])}
    assert DARK_NAMES[kind] in " ".join(session.view(None)["pieces"])


def test_the_castle_never_moves() -> None:
    session = table("e1 light castle, e10 dark castle, e2 light soldier")
    assert reach(session, "e1") == set()
    assert refused_move(session, 0, "e1", "d1") == \
        "cannot move by Ann: the Castle on e1 never moves"


# --- flying, jumping, the Giant -------------------------------------------------------------

def test_a_griffin_flies_over_pieces_of_both_sides() -> None:
    session = table(f"{CASTLES_APART}, e5 light griffin, e6 dark orc, e7 light soldier")
    assert {"e6", "e8"} <= reach(session, "e5") and "e7" not in reach(session, "e5")


CASTLES_APART = "a1 light castle, j10 dark castle"


@pytest.mark.parametrize("side", ["light", "dark"])
def test_no_flier_passes_over_a_giant_of_either_side(side: str) -> None:
    session = table(f"{CASTLES_APART}, e5 light griffin, e6 {side} giant")
    assert "e7" not in reach(session, "e5") and "e8" not in reach(session, "e5")
    assert ("e6" in reach(session, "e5")) == (side == "dark")  # an enemy Giant can be taken
    assert refused_move(session, 0, "e5", "e8") == (
        "cannot move by Ann: the Griffin cannot fly over the "
        + ("Giant on e6: a Giant" if side == "light" else "Ogre on e6: an Ogre")
        + " can't be flown over")


def test_pieces_that_do_not_fly_cannot_jump() -> None:
    session = table(f"{CASTLES_APART}, e5 light knight, e6 dark orc")
    assert reach(session, "e5") >= {"e6"} and "e7" not in reach(session, "e5")
    assert refused_move(session, 0, "e5", "e7") == (
        "cannot move by Ann: the Knight cannot jump over pieces: Ben's Orc stands on e6, in"
        " the way")


def test_no_piece_ends_on_its_own_side() -> None:
    session = table(f"{CASTLES_APART}, e5 light paladin, e7 light elf")
    assert refused_move(session, 0, "e5", "e7") == (
        "cannot move by Ann: the Paladin cannot end on its own side's piece: Ann's Elf is on e7")


def test_the_lions_way_is_blocked_by_a_piece_on_its_first_square() -> None:
    session = table(f"{CASTLES_APART}, e5 light lion, e6 dark orc")
    assert not {"d7", "c8", "f7", "g8"} & reach(session, "e5")
    assert {"c6", "g6"} <= reach(session, "e5")


def test_the_lion_stopping_after_its_straight_square_is_told_it_must_go_on() -> None:
    """Its words say the diagonal part is not optional (they said "up to 2", which a player
    reads as 0 to 2, and then refused the one square straight ahead)."""
    session = table(f"{CASTLES_APART}, e5 light lion")
    assert refused_move(session, 0, "e5", "e6") == (
        "cannot move by Ann: the Lion moves 1 square orthogonally, then 1 or 2 squares"
        " diagonally, onward; e5 to e6 is 1 square forward")


def test_the_move_sheet_names_each_piece_with_its_square() -> None:
    session = table(f"{CASTLES_APART}, b1 light griffin, c3 light elf")
    move = next(spec for spec in session.legal_actions(0) if spec.name == "move")
    origin = move.params[0]
    assert dict(zip(origin.choices, origin.labels, strict=True)) == {
        "b1": "Griffin b1", "c3": "Elf c3"}


# --- the Soldier ----------------------------------------------------------------------------

def test_a_soldier_goes_two_forward_only_without_attacking() -> None:
    session = table(f"{CASTLES_APART}, e4 light soldier, e6 dark orc, d4 dark skeleton")
    assert reach(session, "e4") == {"e5", "d4", "f4"}
    assert refused_move(session, 0, "e4", "e6") == (
        "cannot move by Ann: the Soldier may not attack going 2 squares forward: e4 to"
        " e6 would attack Ben's Orc")
    assert refused_move(session, 0, "e4", "e3") == (
        "cannot move by Ann: the Soldier moves 1 square sideways or forward, or 2 squares"
        " forward without attacking; e4 to e3 is 1 square backward")


def test_a_soldier_cannot_pass_a_piece_going_two_forward() -> None:
    session = table(f"{CASTLES_APART}, e4 light soldier, e5 dark orc")
    assert reach(session, "e4") == {"e5", "d4", "f4"}


# --- refusals -------------------------------------------------------------------------------

def test_refusals_name_the_piece_the_squares_and_the_rule() -> None:
    session = table(f"{CASTLES_APART}, e4 light knight, e6 dark orc")
    said = {
        ("e4", "e8"): "the Knight moves up to 3 squares orthogonally, in one direction; e4 to e8"
                      " is 4 squares forward",
        ("e4", "f6"): "the Knight moves up to 3 squares orthogonally, in one direction; e4 to f6"
                      " is not a straight line (1 file across, 2 ranks forward)",
        ("e4", "e4"): "the Knight moves up to 3 squares orthogonally, in one direction; e4 to e4"
                      " is no move at all",
        ("d4", "d5"): "there is no piece on d4",
        ("e6", "e5"): "the Orc on e6 is Ben's",
        ("e4", "k4"): "'k4' is not a square of the board (a1 to j10)",
        ("e11", "e4"): "'e11' is not a square of the board (a1 to j10)",
    }
    for (origin, target), reason in said.items():
        assert refused_move(session, 0, origin, target) == f"cannot move by Ann: {reason}"
    assert refused_move(session, 1, "e6", "d5") == "cannot move by Ben: it is Ann's turn"


def test_a_table_can_make_the_knight_go_exactly_three() -> None:
    """The issue's own example, with the house option for "exactly"."""
    session = table(f"{CASTLES_APART}, e4 light knight", house={"pieces": {"knight": {
        "exact": True}}})
    assert reach(session, "e4") == {"e7", "e1", "b4", "h4"}
    assert refused_move(session, 0, "e4", "e6") == (
        "cannot move by Ann: the Knight moves exactly 3 squares orthogonally, in one direction;"
        " e4 to e6 is 2 squares forward")


def test_a_table_can_give_the_knight_its_light_card_effect() -> None:
    """An even roll of the Knight's card: by default (the dark card) it flies; with the light
    card's text as the table's house rule, it gets a free re-roll instead and cannot fly."""
    rows = second("knight")
    position = f"{CASTLES_APART}, e4 light knight, e5 light elf"
    walking = {"e3", "e2", "e1", "d4", "c4", "b4", "f4", "g4", "h4"}
    session = table(position, mode="adventure", card_rows=rows)
    act(session, 0, "roll", face=2)
    assert reach(session, "e4") == walking | {"e6", "e7"} and not session.state.free_reroll
    house = {"pieces": {"knight": {"effect": {"kind": "reroll", "text": "1 free re-roll"}}}}
    session = table(position, mode="adventure", card_rows=rows, house=house)
    act(session, 0, "roll", face=2)
    assert reach(session, "e4") == walking and session.state.free_reroll


def test_an_effects_words_follow_its_kind() -> None:
    """A table that changes only the Knight's effect `kind` reads the words of that kind: the
    phones never say it flies when it re-rolls."""
    house = {"pieces": {"knight": {"effect": {"kind": "reroll"}}}}
    session = table(f"{CASTLES_APART}, e4 light knight", mode="adventure",
                    card_rows=second("knight"), house=house)
    act(session, 0, "roll", face=2)
    fact = next(f for f in session.table_view(0).facts if f.key == "effect")
    assert fact.value == "Knight: 1 free re-roll during combat this turn"
    assert session.history[-1].notes[0].endswith(
        "an even roll unlocks its adventure effect: 1 free re-roll during combat this turn")
    summary = GambitOfKingsRules().rules_summary({"house": house})
    assert "Knight / Death Knight (greater): up to 3 squares orthogonally, in one direction; 1" \
        " free re-roll during combat this turn" in summary


# --- the explanation and the moves agree ----------------------------------------------------

def test_a_square_is_refused_exactly_when_it_is_not_offered() -> None:
    """Over crowded random positions and every power: each square of the board is either a
    destination or has a reason, never both."""
    rules = GambitOfKingsRules()
    rng = random.Random(5)
    kinds = ["paladin", "giant", "knight", "griffin", "lion", "elf", "soldier"]
    book = rules.setup(GameSetup("gambit-of-kings", ("A", "B"), {}, seed=1)).book
    every = [f"{f}{r}" for f in FILES[:10] for r in range(1, 11)]
    for _ in range(60):
        chosen = rng.sample(every, 24)
        entries = [f"{chosen[0]} light castle", f"{chosen[1]} dark castle"]
        for where in chosen[2:]:
            side = rng.choice(["light", "dark"])
            kind = rng.choice(kinds)
            if kind == "soldier" and where[1:] in ("1", "10"):
                kind = "elf"  # a Soldier never stands on a far row
            entries.append(f"{where} {side} {kind}")
        board = rules.setup(GameSetup("gambit-of-kings", ("A", "B"), {
            "pieces": ", ".join(entries)}, seed=1)).board
        hunted = frozenset(rng.sample(sorted(board), 3))
        for origin in chosen[2:]:
            powers = rng.choice([Powers(), Powers(fly=True), Powers(unstoppable=True),
                                 Powers(hunt=hunted), Powers(attack=False),
                                 Powers(giant_safe=True),
                                 Powers(extra=book.effect_moves(board[origin].kind))])
            mover = Mover(book, board, origin, powers, lambda side: "AB"[side])
            found = mover.destinations()
            for target in every:
                assert (mover.refusal(target) is None) == (target in found), (origin, target)
