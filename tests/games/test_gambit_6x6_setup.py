"""Gambit (6x6): the setup (boards, options, pieces on their home rows) and the secret
placing of powers before play. The other Gambit (6x6) test files use this file's helpers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from companion.engine import Action, GameSetup, IllegalActionError, SetupError, TableSession
from companion.games.gambit_6x6 import RULES
from companion.games.gambit_6x6.state import State

SLUG = "gambit-6x6"

# The usual test table: Ann (south, team A on rank 1) and Ben (north, team B on rank 6).
ANN_POWERS = {"A2": ("diagonal", "sitting"), "A3": ("ghost", None), "A4": (None, "moat")}
BEN_POWERS = {"B1": ("sidewinder", None), "B2": ("bulldozer", "kamikaze"),
              "B4": (None, "detective")}


def table(options: Mapping[str, Any] | None = None, seats: tuple[str, ...] = ("Ann", "Ben"),
          seed: int = 1) -> TableSession:
    return TableSession(GameSetup(SLUG, seats, dict(options or {}), seed=seed))


def do(session: TableSession, name: str, seat: int | None, **params: Any) -> str:
    """Submit an action; its log line with its notes."""
    record = session.submit(Action(name, seat, params))
    return " | ".join((record.text, *record.notes))


def refused(session: TableSession, name: str, seat: int | None, **params: Any) -> str:
    """The refusal's reason; checks the table did not change."""
    before = (session.state, len(session.history))
    with pytest.raises(IllegalActionError) as caught:
        session.submit(Action(name, seat, params))
    assert (session.state, len(session.history)) == before
    return caught.value.reason


def place(session: TableSession, seat: int,
          powers: Mapping[str, tuple[str | None, str | None]]) -> None:
    """Choose the powers and place them: piece -> (movement, action)."""
    movement = {m: piece for piece, (m, _) in powers.items() if m}
    action = {a: piece for piece, (_, a) in powers.items() if a}
    do(session, "choose_powers", seat, movement_powers=list(movement),
       action_powers=list(action))
    fields = {f"movement_{n}": piece for n, piece in enumerate(movement.values(), start=1)}
    fields |= {f"action_{n}": piece for n, piece in enumerate(action.values(), start=1)}
    do(session, "place_powers", seat, **fields)


def started(options: Mapping[str, Any] | None = None, seed: int = 1) -> TableSession:
    """A two-player table with the usual powers placed: Ann to move."""
    session = table(options, seed=seed)
    place(session, 0, ANN_POWERS)
    place(session, 1, BEN_POWERS)
    return session


def board(session: TableSession) -> dict[str, list[str]]:
    state: State = session.state
    return {cell: list(stack) for cell, stack in state.stacks.items()}


def powers(session: TableSession, piece: str) -> tuple[str | None, str | None]:
    found = session.state.pieces[piece]
    return found.movement, found.action


# --- setup -----------------------------------------------------------------------------------

def test_each_team_fills_its_home_row() -> None:
    state = table().state
    assert {c: s for c, s in state.stacks.items() if c.endswith("1")} == {
        f"{f}1": [f"A{n}"] for n, f in enumerate("abcdef", start=1)}
    assert {c: s for c, s in state.stacks.items() if c.endswith("6")} == {
        f"{f}6": [f"B{n}"] for n, f in enumerate("abcdef", start=1)}
    assert state.phase == "placing" and len(state.stacks) == 12


def test_the_longboard_starts_outside_the_six_by_six() -> None:
    state = table({"board": "longboard"}).state
    assert (state.layout.rows, state.layout.cols) == (8, 6)
    assert sorted(state.stacks) == sorted([f"{f}1" for f in "abcdef"] + [f"{f}8" for f in "abcdef"])


def test_bridges_blocks_the_middle_rows_but_two_crossings() -> None:
    layout = table({"board": "bridges"}).state.layout
    middle = [c for c in layout.cells() if c[1] in "34"]
    assert middle == ["b4", "e4", "b3", "e3"]


def test_three_and_four_players_sit_on_the_edges_of_the_corners_board() -> None:
    state = table(seats=("Ann", "Ben", "Cat", "Dan")).state
    assert state.layout.name == "corners" and state.sides == ("south", "west", "north", "east")
    where = {p: c for c, stack in state.stacks.items() for p in stack}
    assert [where[f"A{n}"] for n in range(1, 5)] == ["b1", "c1", "d1", "e1"]
    assert [where[f"B{n}"] for n in range(1, 5)] == ["a2", "a3", "a4", "a5"]
    assert [where[f"C{n}"] for n in range(1, 5)] == ["b6", "c6", "d6", "e6"]
    assert [where[f"D{n}"] for n in range(1, 5)] == ["f2", "f3", "f4", "f5"]
    assert "a1" not in list(state.layout.cells())
    assert state.layout.far("west") == ["f2", "f3", "f4", "f5"]
    assert table(seats=("Ann", "Ben", "Cat")).state.sides == ("south", "west", "north")


def test_fewer_pieces_stand_in_the_middle_of_the_row_and_lower_the_win_numbers() -> None:
    state = table({"pieces": 4}).state
    assert sorted(c for c in state.stacks if c.endswith("1")) == ["b1", "c1", "d1", "e1"]
    assert (state.far_row, state.losses) == (3, 4)
    state = table({"pieces": 2, "powers": 1}).state
    assert (state.far_row, state.losses) == (2, 2)


@pytest.mark.parametrize(("seats", "options", "message"), [
    (("Ann",), {}, "Gambit (6x6) is for 2 to 4 players, not 1"),
    (("Ann", "Ann"), {}, "two seats have the same name"),
    (("Ann", "Ben"), {"colour": "red"}, "unknown option 'colour'"),
    (("Ann", "Ben", "Cat"), {"board": "standard"}, "the standard board is for 2 players, not 3"),
    (("Ann", "Ben"), {"board": "hexagon"}, "unknown board 'hexagon'"),
    (("Ann", "Ben"), {"pieces": 7}, "option 'pieces' must be a whole number from 2 to 6"),
    (("Ann", "Ben"), {"pieces": 3, "powers": 4}, "option 'powers' must be a whole number from 1"
                                                  " to 3"),
    (("Ann", "Ben"), {"roll_powers": "yes"}, "option 'roll_powers' must be true or false"),
    (("Ann", "Ben"), {"house": {"win": {"far_row": 0}}}, "rule 'win.far_row' must be at least 1"),
    (("Ann", "Ben"), {"house": {"moves": {"sidewinder": "teleport"}}},
     "rule 'moves.sidewinder' must be one of wrap, edge, not \"teleport\""),
    (("Ann", "Ben"), {"house": {"boards": {"standard": {"cols": 27}}}},
     "rule 'boards.standard.cols' must be from 2 to 10"),
    (("Ann", "Ben"), {"house": {"boards": {"standard": {"rows": 2000}}}},
     "rule 'boards.standard.rows' must be from 2 to 10"),
    (("Ann", "Ben"), {"house": {"boards": {"standard": {"pieces": 500}}}},
     "rule 'boards.standard.pieces' must be from 2 to the board's side (6)"),
])
def test_a_bad_setup_is_refused_with_its_reason(seats: tuple[str, ...],
                                                options: dict[str, Any], message: str) -> None:
    with pytest.raises(SetupError, match=message.replace("(", r"\(").replace(")", r"\)")):
        table(options, seats=seats)


def test_there_is_no_deal_by_hand() -> None:
    with pytest.raises(SetupError, match="no cards to deal"):
        RULES.setup(GameSetup(SLUG, ("Ann", "Ben"), {}, seed=1, deal={}))


# --- placing powers --------------------------------------------------------------------------

def test_powers_are_chosen_then_placed_and_play_begins_when_all_have_placed() -> None:
    session = table()
    assert [a.name for a in session.legal_actions(0)] == ["choose_powers"]
    assert refused(session, "place_powers", 0, movement_1="A1") == "choose your powers first"
    assert refused(session, "move", 0, piece="a1", to="a2").startswith("not now")
    place(session, 0, ANN_POWERS)
    assert session.state.phase == "placing" and session.state.placed == [True, False]
    assert powers(session, "A2") == ("diagonal", "sitting")
    assert powers(session, "A4") == (None, "moat")
    place(session, 1, BEN_POWERS)
    assert session.state.phase == "turn" and session.state.turn == 0
    assert [a.name for a in session.legal_actions(0)] == ["move"]


def test_chosen_powers_are_two_different_of_each_group() -> None:
    session = table()
    reason = refused(session, "choose_powers", 0, movement_powers=["ghost", "ghost"],
                     action_powers=["moat", "sitting"])
    assert reason == "the movement powers must all be different"
    reason = refused(session, "choose_powers", 0, movement_powers=["ghost"],
                     action_powers=["moat", "sitting"])
    assert reason == "movement_powers needs at least 2 items"
    reason = refused(session, "choose_powers", 0, movement_powers=["ghost", "teleport"],
                     action_powers=["moat", "sitting"])
    assert reason.startswith("'teleport' is not a power of this game (powers: diagonal, ghost,")
    reason = refused(session, "choose_powers", 0, movement_powers=["ghost", "moat"],
                     action_powers=["moat", "sitting"])
    assert reason == "Moat is not a movement power"


def test_a_piece_holds_at_most_one_power_of_each_group() -> None:
    session = table()
    do(session, "choose_powers", 0, movement_powers=["ghost", "diagonal"],
       action_powers=["moat", "sitting"])
    reason = refused(session, "place_powers", 0, movement_1="A1", movement_2="A1",
                     action_1="A2", action_2="A3")
    assert reason == "A1 would hold two movement powers: a piece holds at most one of each"
    reason = refused(session, "place_powers", 0, movement_1="A1", movement_2="A2",
                     action_1="B2", action_2="A3")
    assert "action_1 must be one of A1, A2, A3, A4, A5, A6, not 'B2'" in reason
    do(session, "place_powers", 0, movement_1="A1", movement_2="A2", action_1="A1",
       action_2="A3")
    assert powers(session, "A1") == ("ghost", "moat")


def test_rolled_powers_are_two_dice_per_group_with_wild_fives_and_sixes() -> None:
    for seed in range(40):
        session = table({"roll_powers": True}, seed=seed)
        state = session.state
        for hand in state.hands:
            assert hand is not None and len(hand) == 4
            movement, action = hand[:2], hand[2:]
            assert all(p in ("diagonal", "ghost", "sidewinder", "bulldozer", "wild:movement")
                       for p in movement)
            assert all(p in ("moat", "sitting", "kamikaze", "detective", "wild:action")
                       for p in action)
            assert action.count("moat") <= 1, "two Moats rolled: a whole new roll"
        assert [a.name for a in session.legal_actions(0)] == ["place_powers"]


def test_a_wild_die_is_chosen_when_placed_and_never_a_second_moat() -> None:
    def rolled(seed: int) -> list[str]:
        return table({"roll_powers": True}, seed=seed).state.hands[0] or []

    seed = next(s for s in range(200) if {"wild:action", "moat"} <= set(rolled(s)))
    session = table({"roll_powers": True}, seed=seed)
    spec = next(a for a in session.legal_actions(0) if a.name == "place_powers")
    names = [p.name for p in spec.params]
    wild = next(n for n in names if n.startswith("action") and n.endswith("_power"))
    assert next(p for p in spec.params if p.name == wild).choices == (
        "moat", "sitting", "kamikaze", "detective")
    fields = {n: f"A{i}" for i, n in enumerate(
        [n for n in names if not n.endswith("_power") and n.startswith("movement")], start=1)}
    fields |= {n: f"A{i}" for i, n in enumerate(
        [n for n in names if not n.endswith("_power") and n.startswith("action")], start=3)}
    fields |= {n: "ghost" for n in names if n.startswith("movement") and n.endswith("_power")}
    reason = refused(session, "place_powers", 0, **fields, **{wild: "moat"})
    assert reason == "a team holds at most 1 Moat (two Moats rolled means a re-roll)"
    do(session, "place_powers", 0, **fields, **{wild: "detective"})
    placed = [p for piece in session.state.team(0) for p in piece.powers()]
    assert "detective" in placed and placed.count("moat") == 1


def test_the_opponent_sees_that_powers_are_placed_never_which() -> None:
    session = table()
    place(session, 0, ANN_POWERS)
    ben = session.table_view(1)
    assert [line.text for line in ben.log] == []
    assert not any("Diagonal" in f.value or "Moat" in f.value for f in ben.secrets)
    assert [f.label for f in ben.players[0].facts if f.key == "placed"] == ["Powers placed"]
    assert RULES.as_known_to(session.state, 1).pieces["A2"].movement is None


def test_rolled_player_powers_need_player_powers() -> None:
    with pytest.raises(SetupError, match="option 'roll_player_powers' needs 'player_powers':"
                                         " without Player Powers there is nothing to roll"):
        table({"roll_player_powers": True})
    table({"roll_player_powers": True, "player_powers": True})


def test_each_board_offered_seats_the_players_its_label_says() -> None:
    """The setup page's "Bridges (2 players)": each board's label is its data's seats."""
    offered = next(p for p in RULES.info.options if p.name == "board")
    for name, label in zip(offered.choices, offered.labels, strict=True):
        low, _, high = label.rpartition("(")[2].removesuffix(" players)").partition("-")
        for players in range(2, 5):
            seats = ("Ann", "Ben", "Cat", "Dan")[:players]
            fits = int(low) <= players <= int(high or low)
            try:
                TableSession(GameSetup("gambit-6x6", seats, {"board": name}, seed=1))
            except SetupError:
                assert not fits, (label, players)
            else:
                assert fits, (label, players)


def test_a_seat_places_its_powers_again_until_play_begins() -> None:
    """A tap on the wrong piece is put right before it counts: until every seat has placed,
    a seat that placed may place again (its first placing replaced, in secret); not after."""
    session = table()
    place(session, 0, ANN_POWERS)
    pieces = session.state.pieces
    assert (pieces["A2"].movement, pieces["A5"].movement) == ("diagonal", None)
    assert not [f for f in session.table_view(0).secrets if f.label == "To place"]
    note = next(a.note for a in session.legal_actions(0) if a.name == "place_powers")
    assert note == "Placed. Tap to change them"
    do(session, "place_powers", 0, movement_1="A5", movement_2="A3", action_1="A2",
       action_2="A4")
    pieces = session.state.pieces
    assert (pieces["A2"].movement, pieces["A5"].movement) == (None, "diagonal")
    assert (pieces["A2"].action, pieces["A3"].movement) == ("sitting", "ghost")
    assert not session.history[-1].is_visible_to(1)  # Ben's phone learns nothing of it
    place(session, 1, BEN_POWERS)
    assert session.state.phase == "turn"
    assert refused(session, "place_powers", 0, movement_1="A2", movement_2="A3",
                   action_1="A2", action_2="A4") == "your powers are placed"
