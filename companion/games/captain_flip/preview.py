"""Before you commit: what the drawn tile would pay on each space it may go to, kept or
flipped. Worked out by the rules' own code on a copy of the board, from what the table may
know: the back of the drawn tile is unseen (seed: "you can only see one side"), so the flip
shows the range over the Characters it could be.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

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


def payout(state: State, seat: int, cell: str, character: str) -> Payout:
    """``character`` placed on ``cell`` by ``seat``, played out on a copy of the board and
    compared with the same turn without it (bonuses still due from earlier placements this
    turn apply in both: a Parrot's space that pays per completed column may pay more)."""
    without = state.copy()
    without.hand = None
    effects.settle(without, previewing=True)
    sim = state.copy()
    sim.hand = None
    effects.place(sim, seat, cell, Tile(None, character, None), previewing=True)
    map_coin = state.book.map_coins * ((sim.map_holder == seat) - (without.map_holder == seat))
    follows = tuple(e["what"] for e in sim.events if e["type"] == "follows")
    return Payout(sim.players[seat].coins - without.players[seat].coins + map_coin,
                  _end_part(sim, seat) - _end_part(without, seat), follows)


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


def describe(p: Payout) -> str:
    """"+7 now, end +4": what a player reads before committing."""
    now = " ".join([f"{signed(p.now)} now", *(FOLLOWS[f] for f in p.follows)])
    return f"{now}, end {signed(p.end)}" if p.end else now


def describe_spread(s: Spread) -> str:
    now = f"{span(*s.now)} now" + (" (and maybe more)" if s.follows else "")
    return f"{now}, end {span(*s.end)}" if s.end != (0, 0) else now
