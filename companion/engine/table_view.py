"""The table view: one typed contract for what a screen shows, made by a game and drawn by
shared code (the phones' page and the command line), for any game.

A game builds the parts only it knows (players and their public counters, the seat's own
secrets, the phase and whose turn, and optionally boards, a score sheet and a vote); the
session adds the legal actions and the log. ``to_dict`` is the JSON the phones receive;
docs/table-view.md describes every field.

Secrets have one home: ``secrets``, the viewing seat's own. Every other part is what the
whole table may know (the conformance suite checks that for every game).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, get_args

from companion.engine.actions import ActionSpec, ParamKind


@dataclass(frozen=True, slots=True)
class Counter:
    """A number a player shows the table: health 7, coins 3."""

    key: str  # stable name for tests and styles ("health")
    label: str  # what a player reads ("Health")
    value: int | None  # None: not known to the companion
    maximum: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "label": self.label, "value": self.value}
        if self.maximum is not None:
            out["max"] = self.maximum
        return out


@dataclass(frozen=True, slots=True)
class Fact:
    """A fact in words: "Role: Doctor", "Captains in play: ...", or a secret: "Your captain:
    Hamlet" with what it means in ``detail``."""

    key: str
    label: str
    value: str = ""  # empty: the label alone says it ("Quarantined")
    detail: str = ""  # what it means for the player (a win condition, a permit's effect)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "label": self.label, "value": self.value}
        if self.detail:
            out["detail"] = self.detail
        return out

    @property
    def text(self) -> str:
        return f"{self.label}: {self.value}" if self.value else self.label


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat as the whole table sees it."""

    seat: int
    name: str
    counters: tuple[Counter, ...] = ()
    facts: tuple[Fact, ...] = ()
    alive: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "alive": self.alive,
                "counters": [c.to_dict() for c in self.counters],
                "facts": [f.to_dict() for f in self.facts]}


@dataclass(frozen=True, slots=True)
class Piece:
    """Something standing on a cell: a piece, a tile, a marker. ``label`` is its short text on
    the board ("K", "Cook"); ``kind`` names it for styles; ``owner`` is a seat or None."""

    id: str
    label: str
    kind: str = ""
    owner: int | None = None
    title: str = ""  # its full name, for a tap or a screen reader ("Light Knight")
    mark: str = ""  # its label where ``label`` does not fit (another player's small board)

    def to_dict(self) -> dict[str, Any]:
        out = {"id": self.id, "label": self.label, "kind": self.kind, "owner": self.owner,
               "title": self.title or self.label}
        if self.mark:
            out["mark"] = self.mark
        return out


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of a board. ``id`` is what a cell parameter of an action names ("e4");
    ``terrain`` is its kind for styles ("", "river", "cost"), ``label`` a short printed text
    ("+2"); ``pieces`` stand on it, bottom first."""

    id: str
    row: int  # 0 is the top row as drawn
    col: int
    terrain: str = ""
    label: str = ""
    pieces: tuple[Piece, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "row": self.row, "col": self.col, "terrain": self.terrain,
                "label": self.label, "pieces": [p.to_dict() for p in self.pieces]}


@dataclass(frozen=True, slots=True)
class Board:
    """A grid of cells. A cell not listed does not exist (a board with holes)."""

    id: str  # what a cell parameter's ``board`` names
    title: str
    rows: int
    cols: int
    cells: tuple[Cell, ...]
    owner: int | None = None  # a player's own board, or None: the table's
    turned_for: tuple[int, ...] = ()  # seats on the far side: their screens turn it round

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "rows": self.rows, "cols": self.cols,
                "owner": self.owner, "turned_for": list(self.turned_for),
                "cells": [c.to_dict() for c in self.cells]}

    def cell(self, cell_id: str) -> Cell | None:
        return next((c for c in self.cells if c.id == cell_id), None)


@dataclass(frozen=True, slots=True)
class ScoreColumn:
    """One player's column of a score sheet: a score per rule (None: does not apply)."""

    seat: int
    scores: tuple[int | None, ...]
    total: int

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "scores": list(self.scores), "total": self.total}


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """Per player, per scoring rule, with totals: what a score pad shows."""

    title: str
    rules: tuple[str, ...]  # the rows, in scoring order
    columns: tuple[ScoreColumn, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "rules": list(self.rules),
                "columns": [c.to_dict() for c in self.columns]}


@dataclass(frozen=True, slots=True)
class Vote:
    """One voter's choice, once the votes are shown."""

    voter: int
    choice: int | None  # a seat, or None: no one

    def to_dict(self) -> dict[str, Any]:
        return {"voter": self.voter, "choice": self.choice}


@dataclass(frozen=True, slots=True)
class Votes:
    """A secret vote: who has voted while it lasts, then every vote at once."""

    title: str
    voted: tuple[int, ...] = ()
    shown: tuple[Vote, ...] | None = None  # None: still secret
    result: str = ""  # what the votes decided, in words

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "voted": list(self.voted),
                "shown": None if self.shown is None else [v.to_dict() for v in self.shown],
                "result": self.result}


@dataclass(frozen=True, slots=True)
class Ending:
    """How the game ended, in the game's own words."""

    winners: tuple[int, ...]
    text: str  # "Ann and Ben win at the end of round 12 (a comedy)"

    def to_dict(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "text": self.text}


@dataclass(frozen=True, slots=True)
class LogLine:
    """One line of the log as this seat may read it."""

    text: str
    notes: tuple[str, ...] = ()
    undo: bool = False  # the host's undo (or what it meant for this seat)
    private: bool = False  # this seat's own secret move: a phone keeps it covered

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "notes": list(self.notes), "undo": self.undo,
                "private": self.private}


@dataclass(frozen=True, slots=True)
class TableView:
    """What one seat's screen shows (``seat`` None: the table's, public information only)."""

    game: str
    title: str
    seat: int | None
    phase: str  # the game's name for it ("action")
    phase_label: str  # in words ("Ann's turn")
    status: str  # what the game waits for, in words
    players: tuple[PlayerView, ...]
    headline: str = ""  # "Round 3 of 12", "Engines 2 of 5"
    turn: int | None = None
    waiting_for: tuple[int, ...] = ()
    # Seats that may answer now though the game does not wait for them (a Shield, a bluff
    # call, a Cancel): who the player waiting on answers may still hear from. Added by the
    # session from every seat's legal actions; public (the conformance suite checks it).
    may_answer: tuple[int, ...] = ()
    # What the game asks of this seat now, addressed to it, when that is not a plain turn
    # ("You lost a challenge: give up one of your pieces"): the phone's turn card says it
    # instead of "Your turn". Empty: nothing is asked of the seat, or its turn is a plain one.
    prompt: str = ""
    facts: tuple[Fact, ...] = ()  # about the table: "Captains in play", "Dice in the bag"
    secrets: tuple[Fact, ...] = ()  # the seat's own, and no one else's
    boards: tuple[Board, ...] = ()
    score_sheet: ScoreSheet | None = None
    votes: Votes | None = None
    your_vote: int | None = None  # the seat's own vote while the votes are secret
    ending: Ending | None = None
    actions: tuple[ActionSpec, ...] = ()  # added by the session
    log: tuple[LogLine, ...] = ()  # added by the session (or the service, with its undos)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game, "title": self.title, "seat": self.seat, "phase": self.phase,
            "phase_label": self.phase_label, "status": self.status, "headline": self.headline,
            "turn": self.turn, "waiting_for": list(self.waiting_for),
            "may_answer": list(self.may_answer), "prompt": self.prompt,
            "players": [p.to_dict() for p in self.players],
            "facts": [f.to_dict() for f in self.facts],
            "secrets": [f.to_dict() for f in self.secrets],
            "boards": [b.to_dict() for b in self.boards],
            "score_sheet": self.score_sheet.to_dict() if self.score_sheet else None,
            "votes": self.votes.to_dict() if self.votes else None,
            "your_vote": self.your_vote,
            "ending": self.ending.to_dict() if self.ending else None,
            "actions": [a.to_dict() for a in self.actions],
            "log": [line.to_dict() for line in self.log],
        }

    def public(self) -> dict[str, Any]:
        """What must be the same on every screen: the view without the seat's own parts."""
        out = self.to_dict()
        for own in ("seat", "prompt", "secrets", "your_vote", "actions", "log"):
            out.pop(own)
        return out


def listed(names: Sequence[str]) -> str:
    """ "Ann", "Ann and Ben", "Ann, Ben and Cat", or "nobody"."""
    if not names:
        return "nobody"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


# Every kind of field has a control on the phone; a game that builds another is caught here.
RENDERED_KINDS = get_args(ParamKind)


def view_problems(view: TableView) -> list[str]:
    """What a generic screen could not draw in ``view``: an action whose parameters it has no
    control for, a cell parameter naming a board or cell that is not shown, a choice with
    nothing to choose. Empty when every part can be drawn."""
    problems = []
    boards = {b.id: b for b in view.boards}
    seats = {p.seat for p in view.players}
    for spec in view.actions:
        names = {p.name for p in spec.params}
        for param in spec.params:
            where = f"action {spec.name!r}, field {param.name!r}"
            if param.kind not in RENDERED_KINDS:
                problems.append(f"{where}: no control draws kind {param.kind!r}")
            if param.kind in ("seat", "choice", "cell") and not param.choices:
                problems.append(f"{where}: nothing to choose")
            if param.kind == "seat" and not set(param.choices) <= seats:
                problems.append(f"{where}: a seat that is not at the table")
            if param.depends_on is not None and param.depends_on not in names:
                problems.append(f"{where}: depends on an unknown field {param.depends_on!r}")
            if param.notes_by and [(k, len(n)) for k, n in param.notes_by] != \
                    [(k, len(v)) for k, v in param.choices_by]:
                problems.append(f"{where}: notes_by does not follow choices_by")
            if not set(param.starts_on) <= names or any(
                    len(key) != len(param.starts_on) for key, _ in param.starts_by):
                problems.append(f"{where}: starts_by does not follow starts_on")
            if param.kind == "cell":
                board = boards.get(param.board or "")
                if board is None:
                    problems.append(f"{where}: board {param.board!r} is not shown")
                    continue
                cells = {c.id for c in board.cells}
                wanted = set(param.choices).union(*(set(v) for _, v in param.choices_by))
                if not wanted <= cells:
                    problems.append(f"{where}: cells not on board {board.id!r}:"
                                    f" {sorted(wanted - cells)[:3]}")
    return problems
