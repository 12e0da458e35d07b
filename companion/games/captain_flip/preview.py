"""Before you commit: what the drawn tile would pay on each space it may go to, kept or
flipped. Worked out by the rules' own code on a copy of the board, from what the table may
know: the back of the drawn tile is unseen (seed: "you can only see one side"), so the flip
shows the range over the Characters it could be.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from companion.games.captain_flip import effects, scoring
from companion.games.captain_flip.book import CHARACTERS
from companion.games.captain_flip.components import tile_sides
from companion.games.captain_flip.state import State, Tile


@dataclass(frozen=True)
class Payout:
    """What one placement pays: coins ``now`` (cost, effect, bonus, and the Treasure Map's
    coin at the end of this turn if it comes to you), the change of the ``end`` scoring if
    the game ended now, and what ``follows`` that nobody can know yet (a Monkey's flip, a
    Parrot's extra tile)."""

    now: int
    end: int
    follows: tuple[str, ...] = ()


def _end_part(state: State, seat: int) -> int:
    result = scoring.score(state, seat)
    return result.total - result.held


def _copy(state: State, seat: int) -> State:
    """A copy to play one placement out on: only ``seat``'s board changes (and coins, the map,
    the turn's steps), so the other boards are shared with ``state``, not copied."""
    players = list(state.players)
    players[seat] = replace(players[seat], spaces=dict(players[seat].spaces))
    return replace(state, players=players, hand=None, steps=[replace(s) for s in state.steps],
                   events=[])


@dataclass(frozen=True)
class Baseline:
    """This turn without a tile placed now: the bonuses still due from earlier placements
    applied, and its end-of-game part if the game ended then."""

    state: State
    end: int


def without_placing(state: State, seat: int) -> Baseline:
    rest = _copy(state, seat)
    effects.settle(rest, previewing=True)
    return Baseline(rest, _end_part(rest, seat))


def payout(state: State, seat: int, cell: str, character: str,
           without: Baseline | None = None) -> Payout:
    """``character`` placed on ``cell`` by ``seat``, played out on a copy of the board and
    compared with the same turn ``without`` it (bonuses still due from earlier placements this
    turn apply in both: a Parrot's space that pays per completed column may pay more)."""
    base = without or without_placing(state, seat)
    sim = _copy(state, seat)
    effects.place(sim, seat, cell, Tile(None, character, None), previewing=True)
    holds = (sim.map_holder == seat) - (base.state.map_holder == seat)
    follows = tuple(e["what"] for e in sim.events if e["type"] == "follows")
    return Payout(sim.players[seat].coins - base.state.players[seat].coins
                  + state.book.map_coins * holds, _end_part(sim, seat) - base.end, follows)


def possible_backs(state: State, face: str) -> list[str]:
    """The Characters the unseen side may be: any other one, unless every tile of that pair
    has been seen out of the bag already (turned over in front of the table)."""
    copies = Counter(frozenset(sides) for sides in tile_sides().values())
    seen = Counter(frozenset((tile.up, tile.down)) for p in state.players
                   for tile in p.spaces.values() if tile.both_seen)
    return [c for c in CHARACTERS if c != face
            and seen[frozenset((face, c))] < copies[frozenset((face, c))]]


@dataclass(frozen=True)
class Spread:
    """The lowest and highest of several payouts (the backs a flip may show)."""

    now: tuple[int, int]
    end: tuple[int, int]
    follows: bool


def spread(payouts: list[Payout]) -> Spread:
    return Spread((min(p.now for p in payouts), max(p.now for p in payouts)),
                  (min(p.end for p in payouts), max(p.end for p in payouts)),
                  any(p.follows for p in payouts))


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def span(low: int, high: int) -> str:
    return signed(low) if low == high else f"{signed(low)} to {signed(high)}"


FOLLOWS = {"monkey": "and a flip", "parrot": "and another tile"}


def describe(p: Payout, short: bool = False) -> str:
    """"+7 now, end +4" (``short``: "+7, end +4"): what a player reads before committing."""
    now = " ".join([signed(p.now) + ("" if short else " now"), *(FOLLOWS[f] for f in p.follows)])
    return f"{now}, end {signed(p.end)}" if p.end else now


def describe_spread(s: Spread) -> str:
    now = f"{span(*s.now)} now" + (" (and maybe more)" if s.follows else "")
    return f"{now}, end {span(*s.end)}" if s.end != (0, 0) else now


@dataclass(frozen=True)
class Option:
    """One space the drawn tile may go to: what it pays kept, and flipped (None: the tile was
    flipped already, or no other side is possible)."""

    cell: str
    kept: Payout
    flipped: Spread | None


def options(state: State) -> tuple[list[str], list[Option]]:
    """For the tile in hand: the Characters its unseen side may be (none once flipped), and
    what each open space pays, kept or flipped."""
    hand, seat = state.hand, state.turn
    assert hand is not None
    backs = [] if state.flipped else possible_backs(state, hand.up)
    base = without_placing(state, seat)
    out = []
    for cell in state.open_cells(seat):
        flips = spread([payout(state, seat, cell, c, base) for c in backs]) if backs else None
        out.append(Option(cell, payout(state, seat, cell, hand.up, base), flips))
    return backs, out
