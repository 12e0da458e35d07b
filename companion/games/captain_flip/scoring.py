"""End-of-game scoring, one small function per rule, in the seed's order: the Characters'
endgame effects (its example: Swabbies, Carpenters, Lookouts, the Parrot), then board C's
bonuses on covered spaces; within a rule, one column at a time from the left, each column from
the bottom up. The same sheet, at any time, is "if the game ended now".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.engine import Outcome
from companion.games.captain_flip.book import Book, Layout, Space
from companion.games.captain_flip.state import State

Faces = Mapping[str, str]  # cell -> the Character showing


@dataclass(frozen=True)
class Score:
    """One player's end of the game, rule by rule (None: the rule does not apply to them)."""

    seat: int
    held: int  # coins held when the game ends
    swabbies: int | None
    carpenters: tuple[int, ...]  # each Carpenter, in scoring order
    lookouts: tuple[int, ...]  # each Lookout
    parrots: int | None  # the Parrots' penalty (0 or less)
    board: tuple[int | None, ...]  # each end-of-game bonus space of the board (None: uncovered)
    gunners: int
    lost: bool  # three Gunners (or more): this player loses the game
    zeroed: int | None = None  # house option: a lost game scores 0 (what it takes away)

    def parts(self) -> list[int]:
        return [self.held, self.swabbies or 0, *self.carpenters, *self.lookouts,
                self.parrots or 0, *(b or 0 for b in self.board), self.zeroed or 0]

    @property
    def total(self) -> int:
        return sum(self.parts())


def in_order(layout: Layout, faces: Faces, character: str) -> list[str]:
    """The cells showing ``character``, column by column from the left, bottom up."""
    return [cell for column in layout.columns for cell in column if faces.get(cell) == character]


def swabbies(book: Book, layout: Layout, faces: Faces) -> int | None:
    """1/4/9/16/25 coins for a Swabby in 1/2/3/4/5 columns: one award per player."""
    columns = {layout.column_of(cell) for cell in in_order(layout, faces, "swabby")}
    return book.swabby_coins(len(columns)) if columns else None


def carpenters(book: Book, layout: Layout, faces: Faces) -> tuple[int, ...]:
    """3 coins each, unless a Gunner stands in the Carpenter's row (the board's) or column."""
    gunners = [layout.spaces[cell] for cell in in_order(layout, faces, "gunner")]
    out = []
    for cell in in_order(layout, faces, "carpenter"):
        here = layout.spaces[cell]
        blocked = any(g.row == here.row or g.column == here.column for g in gunners)
        out.append(0 if blocked else book.number("carpenter", "coins"))
    return tuple(out)


def lookouts(book: Book, layout: Layout, faces: Faces) -> tuple[int, ...]:
    """4 coins each, unless a Character stands above the Lookout in its column."""
    out = []
    for cell in in_order(layout, faces, "lookout"):
        column = layout.columns[layout.column_of(cell)]
        above = column[column.index(cell) + 1:]
        out.append(0 if any(c in faces for c in above) else book.number("lookout", "coins"))
    return tuple(out)


def parrots(book: Book, faces: Faces, everything_else: int) -> int | None:
    """1 coin lost per Parrot; the total never below 0 unless the table's house rule allows it
    (``everything_else``: the total without the Parrots, so the limit bites only on a total
    that would go below 0, whatever order the sheet is added up in)."""
    count = list(faces.values()).count("parrot")
    if not count:
        return None
    loss = count * book.number("parrot", "penalty")
    if not book.below_zero:
        loss = min(loss, max(everything_else, 0))
    return -loss


def board_bonuses(layout: Layout, faces: Faces) -> tuple[int | None, ...]:
    """Board C: a covered end-of-game space pays if its column's Characters are all
    identical, or all different (None: the space is not covered)."""
    out: list[int | None] = []
    for space in end_spaces(layout):
        if space.cell not in faces:
            out.append(None)
            continue
        column = [faces[c] for c in layout.columns[space.column]]
        assert space.bonus is not None
        wanted = 1 if space.bonus.kind == "same" else len(column)
        out.append(space.bonus.amount if len(set(column)) == wanted else 0)
    return tuple(out)


def end_spaces(layout: Layout) -> list[Space]:
    """The board's end-of-game bonus spaces, from the left (board C has two)."""
    return [s for s in sorted(layout.bonus_spaces(), key=lambda s: s.column)
            if s.bonus is not None and s.bonus.at_the_end]


def score(state: State, seat: int) -> Score:
    """``seat``'s end of the game, as if it ended now."""
    book, layout = state.book, state.layout
    faces = state.faces(seat)
    held = state.players[seat].coins
    swabby = swabbies(book, layout, faces)
    carpenter = carpenters(book, layout, faces)
    lookout = lookouts(book, layout, faces)
    bonuses = board_bonuses(layout, faces)
    parrot = parrots(book, faces, held + (swabby or 0) + sum(carpenter) + sum(lookout)
                     + sum(b or 0 for b in bonuses))
    gunners = list(faces.values()).count("gunner")
    lost = gunners >= book.number("gunner", "lose_at")
    result = Score(seat, held, swabby, carpenter, lookout, parrot, bonuses, gunners, lost)
    if lost and book.gunners_score_zero:
        return Score(**{**result.__dict__, "zeroed": -result.total})
    return result


def final_scores(state: State) -> list[Score]:
    return [score(state, p.seat) for p in state.players]


@dataclass(frozen=True)
class Ranking:
    places: tuple[tuple[int, int], ...]  # (seat, place), best first; equal places are shared
    winners: tuple[int, ...]
    reason: str  # most_coins, map_breaks_tie, shared, everyone_lost


def ranking(scores: list[Score], map_holder: int | None) -> Ranking:
    """Most coins wins; a tie is won by the Treasure Map's holder, else shared. A player with
    three Gunners loses: never a winner, placed after everyone who did not."""
    def key(s: Score) -> tuple[bool, int, bool]:
        return (s.lost, -s.total, s.seat != map_holder)

    ordered = sorted(scores, key=key)
    places: list[tuple[int, int]] = []
    for index, s in enumerate(ordered):
        same = index > 0 and key(ordered[index - 1]) == key(s)
        places.append((s.seat, places[-1][1] if same else index + 1))
    contenders = [s for s in scores if not s.lost]
    if not contenders:
        return Ranking(tuple(places), (), "everyone_lost")
    best = max(s.total for s in contenders)
    tied = [s.seat for s in contenders if s.total == best]
    if len(tied) == 1:
        return Ranking(tuple(places), tuple(tied), "most_coins")
    if map_holder in tied:
        return Ranking(tuple(places), (map_holder,), "map_breaks_tie")
    return Ranking(tuple(places), tuple(tied), "shared")


def outcome(result: Ranking, scores: list[Score], why: str) -> Outcome:
    return Outcome(result.winners, result.reason, {
        "game_end": why,
        "totals": [s.total for s in scores],
        "places": [place for _, place in sorted(result.places)],
        "lost": [s.seat for s in scores if s.lost],
    })
