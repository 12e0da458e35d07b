"""A table view as text, for any game: what `companion replay` prints (engine/table_view.py).

The same view the phones draw: the headline and status, one line per player with the
counters and public facts, the table's facts, boards as grids, the score sheet, the vote,
and for a seat its secrets and what it may do now.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.engine import Board, ScoreSheet, TableView, Votes


def _player_line(view: TableView, index: int) -> str:
    p = view.players[index]
    mark = ">" if view.turn == p.seat else "!" if p.seat in view.waiting_for else " "
    parts = [f"{c.label.lower()} {'?' if c.value is None else c.value}" for c in p.counters]
    parts += [f.text for f in p.facts]
    if not p.alive:
        parts.append("dead")
    you = " (you)" if view.seat == p.seat else ""
    return f" {mark} seat {p.seat} {p.name + you:<12} {'  '.join(parts)}".rstrip()


def _board(board: Board, view: TableView) -> list[str]:
    """The grid, a cell as its pieces' labels, bottom first ("B4+A4+B3": a stack), or its own
    label, or "."; holes blank; turned round for a seat on the far side; a player's own
    board named after its owner, as on the phones."""
    shown = {c.id: "+".join(p.label for p in c.pieces) or c.label or "." for c in board.cells}
    width = max([2, *(len(s) for s in shown.values())])
    grid = [[" " * width] * board.cols for _ in range(board.rows)]
    for cell in board.cells:
        grid[cell.row][cell.col] = f"{shown[cell.id]:<{width}}"
    if view.seat in board.turned_for:
        grid = [row[::-1] for row in grid[::-1]]
    owner = f" ({view.players[board.owner].name})" if board.owner is not None else ""
    return [f"{board.title}{owner}:"] + ["  " + " ".join(row).rstrip() for row in grid]


def _score_sheet(sheet: ScoreSheet, view: TableView) -> list[str]:
    return sheet_lines(sheet.to_dict(), [view.players[c.seat].name for c in sheet.columns])


def sheet_lines(sheet: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """A score sheet (its dict form) as a table: a column per player named ``names``."""
    columns = sheet["columns"]
    first = max(len(r) for r in (*sheet["rules"], "Total"))
    width = max(5, *(len(n) for n in names))
    lines = [f"{sheet['title']}:", " " * (first + 2) + " ".join(f"{n:>{width}}" for n in names)]
    for row, rule in enumerate(sheet["rules"]):
        scores = [c["scores"][row] for c in columns]
        lines.append(f"  {rule:<{first}} " + " ".join(
            f"{'-' if s is None else s:>{width}}" for s in scores))
    lines.append(f"  {'Total':<{first}} " + " ".join(f"{c['total']:>{width}}" for c in columns))
    return lines


def render_photo_score(result: Mapping[str, Any]) -> str:
    """`companion scan --score`: each board's grid of marks ("." empty, "?" not read), the
    score sheet of the boards read whole, and what kept the others from being scored."""
    lines: list[str] = []
    for board in result["boards"]:
        width = max([3, *(len(c["mark"] or "") for c in board["cells"])])
        grid = [[" " * width] * board["cols"] for _ in range(board["rows"])]
        for cell in board["cells"]:
            mark = cell["mark"]
            shown = "?" if mark is None else mark or "."
            grid[cell["row"]][cell["col"]] = f"{shown:<{width}}"
        lines.append(f"{board['title']}:")
        lines += ["  " + " ".join(row).rstrip() for row in grid]
        if board["unread"]:
            lines.append(f"  not scored: cannot read {', '.join(board['unread'])}")
    sheet = result.get("sheet")
    if sheet:
        titles = {b["seat"]: b["title"] for b in result["boards"]}
        lines += sheet_lines(sheet, [titles.get(c["seat"], f"seat {c['seat']}")
                                     for c in sheet["columns"]])
    lines += [f"note: {n}" for n in result.get("notes", [])]
    lines += [f"problem: {p}" for p in result.get("problems", [])]
    if not result["boards"]:
        lines.append("no board of the game in the photo")
    return "\n".join(lines)


def _votes(votes: Votes, view: TableView) -> list[str]:
    name = {p.seat: p.name for p in view.players}
    if votes.shown is None:
        voted = ", ".join(name[s] for s in votes.voted) or "nobody yet"
        return [f"{votes.title} Voted: {voted}"]
    shown = ", ".join(f"{name[v.voter]} -> {name.get(v.choice, 'nobody')}" if v.choice is not None
                      else f"{name[v.voter]} -> nobody" for v in votes.shown)
    return [f"{votes.title} {shown}. {votes.result}".rstrip()]


def render(view: TableView, log: bool = False) -> str:
    """``view`` as lines of text (``log``: the log first, numbered)."""
    lines = []
    if log:
        for number, line in enumerate(view.log, start=1):
            lines.append(f"{number:4}  {line.text}")
            lines += [f"        {note}" for note in line.notes]
    heading = " · ".join(part for part in (view.headline, view.phase_label) if part)
    lines += [f"{view.title}: {heading}", f"  {view.status}"]
    lines += [_player_line(view, i) for i in range(len(view.players))]
    lines += [f"  {fact.text}" for fact in view.facts]
    for board in view.boards:
        lines += _board(board, view)
    if view.score_sheet:
        lines += _score_sheet(view.score_sheet, view)
    if view.votes:
        lines += _votes(view.votes, view)
    if view.seat is not None:
        lines.append(f"Only seat {view.seat} ({view.players[view.seat].name}) sees:")
        if view.prompt:
            lines.append(f"  Asked of you now: {view.prompt}")
        for secret in view.secrets:
            lines.append(f"  {secret.text}" + (f" ({secret.detail})" if secret.detail else ""))
        if view.your_vote is not None:
            lines.append(f"  Your vote: {view.players[view.your_vote].name}")
        lines.append("  Can do now: " + (", ".join(a.label for a in view.actions) or "nothing"))
    if view.ending:
        lines.append(view.ending.text)
    return "\n".join(lines)
