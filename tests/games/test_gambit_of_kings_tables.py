"""Helpers for the Gambit of Kings tests (no tests here): tables set up from a written
position, moves submitted by name, the squares a piece may reach as the phones offer them."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine import Action, GameSetup, RulesError, TableSession

SEATS = ("Ann", "Ben")
CASTLES = "a1 light castle, j10 dark castle"  # out of the way of the pieces tested
# A fixed card row for each side (cards 1 to 7, the Castle 8th), so rolls are predictable.
ROWS = {"light": ["knight", "griffin", "paladin", "lion", "giant", "elf", "soldier"],
        "dark": ["orc", "dragon", "lich", "dire wolf", "ogre", "death knight", "skeleton"]}
def second(kind: str) -> dict[str, list[str]]:
    """The card rows with the light side's ``kind`` second: a roll of 2 (even) unlocks its
    adventure effect."""
    light = [k for k in ROWS["light"] if k != kind]
    return {"light": [light[0], kind, *light[1:]], "dark": ROWS["dark"]}


CARD = {"knight": 1, "griffin": 2, "paladin": 3, "lion": 4, "giant": 5, "elf": 6, "soldier": 7,
        "castle": 8}


def table(pieces: str | None = None, seed: int | str = 1, **options: Any) -> TableSession:
    """A table from a written position (None: the standard layout); light moves first unless
    ``first`` says otherwise; adventure modes get the fixed card rows (CARD) unless given."""
    options.setdefault("first", "light")
    if options.get("mode", "standard") in ("adventure", "av1", "av2"):
        options.setdefault("card_rows", ROWS)
    if pieces is not None:
        options["pieces"] = pieces
    return TableSession(GameSetup("gambit-of-kings", SEATS, options, seed=seed))


def act(session: TableSession, seat: int | None, name: str, **params: Any) -> None:
    session.submit(Action(name, seat, params))


def move(session: TableSession, seat: int, origin: str, target: str) -> None:
    act(session, seat, "move", **{"from": origin, "to": target})


def refused(session: TableSession, seat: int | None, name: str, **params: Any) -> str:
    """The reason ``name`` is refused; the table must not change."""
    before = (session.state, len(session.history))
    with pytest.raises(RulesError) as caught:
        act(session, seat, name, **params)
    assert (session.state, len(session.history)) == before
    return str(caught.value)


def refused_move(session: TableSession, seat: int, origin: str, target: str) -> str:
    return refused(session, seat, "move", **{"from": origin, "to": target})


def reach(session: TableSession, origin: str) -> set[str]:
    """The squares the phone lights after a tap on ``origin`` (empty: it cannot move now)."""
    for spec in session.legal_actions(session.state.turn):
        if spec.name == "move":
            return set(dict(spec.params[1].choices_by).get(origin, ()))
    return set()


def names(session: TableSession, seat: int | None = None) -> list[str]:
    return [spec.name for spec in session.legal_actions(
        session.state.turn if seat is None else seat)]


def pieces(session: TableSession) -> list[str]:
    """The position as the game's view writes it: ["a1 light castle", ...]."""
    found: list[str] = session.view(None)["pieces"]
    return found


def notes(session: TableSession) -> list[str]:
    return list(session.history[-1].notes)
