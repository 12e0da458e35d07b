"""From a board's reading to the move that was made (runtime/board_moves.py), with readings
written by hand: a legal move is found and offered, an illegal one is named with its rule,
and what cannot be a position (a sticker of another game, one sticker on two cells, a board
the table does not play, a reading older than the table's last move) offers nothing."""

from __future__ import annotations

from typing import Any

from companion.engine import Action, GameSetup, TableSession, components_of
from companion.runtime.board_moves import check_boards

KNIGHTS = "e1 light castle, j10 dark castle, e4 light knight, c3 light elf, g9 dark orc"


def kings(pieces: str = KNIGHTS, mode: str = "standard") -> TableSession:
    return TableSession(GameSetup("gambit-of-kings", ("Ann", "Ben"),
                                  {"pieces": pieces, "first": "light", "mode": mode}, seed=1))


def sticker(game: str, mark: str, copy: int = 1) -> str:
    """The id of a sticker of ``game`` whose mark is ``mark`` (its ``copy``-th)."""
    from companion.engine import get_game

    rules = get_game(game)
    found = [c.id for c in components_of(game) if rules.board_mark(c) == mark]
    return found[copy - 1]


def reading(session: TableSession, at: float = 1.0, **moved: str | None) -> dict[str, Any]:
    """The board as the companion has it, with cells changed: ``e4=None`` empties e4,
    ``e6="light knight"`` puts that piece's sticker there."""
    board = session.rules.boards_in_play(session.state)[0]
    cells = {}
    for cell, mark in board.marks.items():
        cells[cell] = sticker(session.rules.info.slug, mark) if mark else ""
    for cell, mark in moved.items():
        cells[cell] = sticker(session.rules.info.slug, mark) if mark else ""
    return {board.shape: {"board": board.shape, "cells": cells, "strays": [], "at": at}}


def test_the_board_as_the_companion_has_it_offers_nothing() -> None:
    session = kings()
    [check] = check_boards(session.rules, session.state, reading(session))
    assert check.verdict == "same" and not check.steps


def test_a_legal_move_is_the_one_move_offered() -> None:
    session = kings()
    [check] = check_boards(session.rules, session.state,
                           reading(session, e4=None, e6="light knight"))
    assert check.verdict == "move" and check.steps == (
        Action("move", 0, {"from": "e4", "to": "e6"}),)
    assert check.text == "Ann's Knight e4 to e6" and set(check.cells) == {"e4", "e6"}


def test_a_capture_is_a_move_too() -> None:
    session = kings("e1 light castle, j10 dark castle, e4 light knight, e6 dark orc")
    [check] = check_boards(session.rules, session.state,
                           reading(session, e4=None, e6="light knight"))
    assert check.steps == (Action("move", 0, {"from": "e4", "to": "e6"}),)


def test_an_illegal_move_names_the_rule_it_breaks() -> None:
    session = kings()
    [check] = check_boards(session.rules, session.state,
                           reading(session, e4=None, e8="light knight"))
    assert check.verdict == "illegal" and not check.steps
    assert "the Knight moves up to 3 squares orthogonally" in check.text
    assert check.text.startswith("Ann's Knight (light) went from e4 to e8")


def test_the_other_sides_piece_moved_out_of_turn_is_refused() -> None:
    session = kings()
    [check] = check_boards(session.rules, session.state,
                           reading(session, g9=None, f8="dark elf"))  # the Orc
    assert check.verdict == "illegal" and "it is Ann's turn" in check.text


def test_a_move_before_the_movement_roll_waits_for_the_roll() -> None:
    session = kings(mode="adventure")
    [check] = check_boards(session.rules, session.state,
                           reading(session, e4=None, e6="light knight"))
    assert check.verdict in ("illegal", "differs") and not check.steps


def test_an_attack_that_dice_decide_offers_the_move() -> None:
    session = kings("e1 light castle, j10 dark castle, e4 light knight, e6 dark orc",
                    mode="av1")
    session.submit(Action("roll", 0, {"face": 3}))
    [check] = check_boards(session.rules, session.state,
                           reading(session, e4=None, e6="light knight"))
    assert check.steps == (Action("move", 0, {"from": "e4", "to": "e6"}),)


def test_a_sticker_of_another_game_offers_nothing() -> None:
    session = kings()
    cells = reading(session)
    cells["board"]["cells"]["e6"] = next(c.id for c in components_of("G6") if c.marker is not None)
    [check] = check_boards(session.rules, session.state, cells)
    assert check.verdict == "problem" and "a sticker of Gambit (6x6) is on e6" in check.text


def test_one_sticker_on_two_cells_offers_nothing() -> None:
    session = kings()
    cells = reading(session)
    cells["board"]["cells"]["e6"] = cells["board"]["cells"]["e4"]
    [check] = check_boards(session.rules, session.state, cells)
    assert check.verdict == "problem" and "two places at once" in check.text


def test_a_reading_older_than_the_last_move_is_never_a_move() -> None:
    session = kings()
    old = reading(session, at=1.0)
    session.submit(Action("move", 0, {"from": "e4", "to": "e6"}))
    [check] = check_boards(session.rules, session.state, old, {"board": 2.0})
    assert check.verdict == "differs" and not check.steps
    assert "set the pieces as the companion has them" in check.text
    [fresh] = check_boards(session.rules, session.state, reading(session, at=3.0),
                           {"board": 2.0})
    assert fresh.verdict == "same"


def test_a_board_turned_round_is_said_so() -> None:
    session = kings("e1 light castle, j10 dark castle, a1 light knight")
    turned = reading(session, e1=None, j10=None, a1=None)
    turned["board"]["cells"].update({"f10": sticker("gambit-of-kings", "light castle"),
                                     "a1": sticker("gambit-of-kings", "dark castle"),
                                     "j10": sticker("gambit-of-kings", "light knight")})
    [check] = check_boards(session.rules, session.state, turned)
    assert check.verdict == "problem" and "turned round" in check.text


def test_captain_flip_a_tile_laid_is_the_draw_then_the_place() -> None:
    session = TableSession(GameSetup("captain-flip", ("Ann", "Ben"), {"board": "A"}, seed=1))
    seen = {"A1": {"board": "A1", "strays": [], "at": 1.0,
                   "cells": {c: "" for c in session.rules.boards_in_play(session.state)[0]
                             .marks}},
            "A2": {"board": "A2", "strays": [], "at": 1.0,
                   "cells": {c: "" for c in session.rules.boards_in_play(session.state)[1]
                             .marks}}}
    seen["A1"]["cells"]["c1"] = "CF/TILE/07/COOK"
    checks = {c.board: c for c in check_boards(session.rules, session.state, seen)}
    assert checks["A2"].verdict == "same"
    assert checks["A1"].steps == (Action("draw", 0, {"face": "cook", "tile": "07"}),
                                  Action("place", 0, {"cell": "c1"}))
    seen["A1"]["cells"]["c1"] = ""
    seen["A1"]["cells"]["c2"] = "CF/TILE/07/COOK"  # not the lowest space of its column
    session.submit(Action("draw", 0, {"face": "cook", "tile": "07"}))
    checks = {c.board: c for c in check_boards(session.rules, session.state, seen)}
    assert checks["A1"].verdict == "illegal"
    assert "c2 is not the lowest empty space of column c: c1 is" in checks["A1"].text
    assert "07" not in checks["A1"].text  # a tile's number tells its back: never on a screen


def test_two_boards_of_one_seat_and_a_board_not_played() -> None:
    session = TableSession(GameSetup("captain-flip", ("Ann", "Ben"), {"board": "A"}, seed=1))
    empty = {c: "" for c in session.rules.boards_in_play(session.state)[0].marks}
    seen = {"B1": {"board": "B1", "strays": [], "at": 1.0, "cells": {}},
            "A1": {"board": "A1", "strays": [], "at": 1.0, "cells": dict(empty)}}
    checks = {c.board: c for c in check_boards(session.rules, session.state, seen)}
    assert checks["B1"].verdict == "problem" and "not a board this table plays on" in \
        checks["B1"].text
    assert checks["A1"].verdict == "same"


def test_gambit_a_piece_given_up_is_found_by_its_id() -> None:
    import random

    from companion.engine.random_play import random_step

    session = TableSession(GameSetup("gambit-6x6", ("Ann", "Ben"), {}, seed=2))
    rng = random.Random(5)
    for _ in range(400):  # on to a challenge that costs a piece
        if any(s.name == "give_up" for seat in (0, 1) for s in session.legal_actions(seat)):
            break
        random_step(session, rng)
    seat, spec = next((seat, s) for seat in (0, 1) for s in session.legal_actions(seat)
                      if s.name == "give_up")
    piece = spec.params[0].choices[0]
    board = session.rules.boards_in_play(session.state)[0]
    cell = next(c for c, m in board.marks.items() if m == piece)
    seen = {board.shape: {"board": board.shape, "strays": [], "at": 1.0, "cells": {
        c: (f"G6/PIECE/{m[0]}/{m[1:]}" if m and c != cell else "") for c, m in
        board.marks.items()}}}
    [check] = check_boards(session.rules, session.state, seen)
    assert check.steps == (Action("give_up", seat, {"piece": piece}),)
