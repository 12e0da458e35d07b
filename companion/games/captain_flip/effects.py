"""What happens on the board: a tile placed, its Character's immediate effect, then the space's
bonus (seed, step 4), the Monkey's flips and the Parrot's extra tiles, and the end of a turn.

Work that waits for a player (a Monkey's choice, a Parrot's draw) is a Step on the state's
stack; ``settle`` carries on with the stack until it waits or the turn is over. A space bonus
is pushed before its Character's effect runs, so it applies after the whole effect: after a
Parrot's extra tile has been played, after a Monkey's chain of flips.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.games.captain_flip import bag, scoring
from companion.games.captain_flip.book import COLUMNS, Bonus
from companion.games.captain_flip.state import DRAW, MONKEY, OVER, State, Step, Tile

# --- coins and the Treasure Map -------------------------------------------------------------


def gain(state: State, seat: int, amount: int, why: str, cell: str | None = None) -> None:
    """``seat`` takes ``amount`` coins (pays, when negative): every coin that moves is an
    event, which the phones turn into "Ann takes 5 coins (Gunner)"."""
    if amount == 0:
        return
    state.players[seat].coins += amount
    state.emit("coins", seat=seat, amount=amount, why=why, cell=cell)


def take_map(state: State, seat: int, why: str) -> None:
    state.emit("treasure_map", seat=seat, previous=state.map_holder, why=why)
    state.map_holder = seat


# --- the Characters' immediate effects ------------------------------------------------------


def _gunner(state: State, seat: int, cell: str) -> None:
    gain(state, seat, state.book.number("gunner", "coins"), "gunner", cell)


def _cook(state: State, seat: int, cell: str) -> None:
    """1 coin per Character in the Cook's row (the board's row), the Cook included."""
    row = state.layout.spaces[cell].row
    in_row = sum(1 for c in state.players[seat].spaces if state.layout.spaces[c].row == row)
    gain(state, seat, in_row * state.book.number("cook", "per_tile_in_row"), "cook", cell)


def _navigator(state: State, seat: int, cell: str) -> None:
    cartographers = list(state.faces(seat).values()).count("cartographer")
    gain(state, seat, cartographers * state.book.number("navigator", "per_cartographer"),
         "navigator", cell)


def _cartographer(state: State, seat: int, cell: str) -> None:
    take_map(state, seat, "cartographer")


def _monkey(state: State, seat: int, cell: str) -> None:
    """A coin, then a flip of one neighbour (if there is one: FAQ), chosen by the player."""
    gain(state, seat, state.book.number("monkey", "coins"), "monkey", cell)
    if state.tiles_next_to(seat, cell):
        state.steps.append(Step("monkey", cell))
    else:  # said, or the table wonders why nothing is flipped
        state.emit("monkey_idle", seat=seat, cell=cell)


def _parrot(state: State, seat: int, cell: str) -> None:
    """Another tile, unless none can be drawn or placed (then the Parrot draws nothing)."""
    if not state.bag:
        state.emit("parrot_idle", seat=seat, reason="the bag is empty")
    elif not state.open_cells(seat):
        state.emit("parrot_idle", seat=seat, reason="no space can take another tile")
    else:
        state.steps.append(Step("parrot", cell))


EFFECTS: dict[str, Callable[[State, int, str], None]] = {
    "gunner": _gunner, "cook": _cook, "navigator": _navigator, "cartographer": _cartographer,
    "monkey": _monkey, "parrot": _parrot,
}


def character_effect(state: State, seat: int, cell: str) -> None:
    effect = EFFECTS.get(state.players[seat].spaces[cell].up)
    if effect is not None:
        effect(state, seat, cell)


# --- the spaces' immediate bonuses ----------------------------------------------------------


def _race(state: State, seat: int, cell: str, bonus: Bonus) -> int:
    """The Kraken: the first player at the table to cover this space takes ``amount``,
    everyone after ``then`` (every board has the same spaces)."""
    covered = sum(1 for p in state.players if cell in p.spaces)
    return bonus.amount if covered == 1 else bonus.then


def _per_column(state: State, seat: int, cell: str, bonus: Bonus) -> int:
    return bonus.amount * state.complete_columns(seat)


def _per_kind(state: State, seat: int, cell: str, bonus: Bonus) -> int:
    column = state.layout.columns[state.layout.column_of(cell)]
    faces = state.faces(seat)
    return bonus.amount * len({faces[c] for c in column if c in faces})


BONUS_COINS: dict[str, Callable[[State, int, str, Bonus], int]] = {
    "coins": lambda state, seat, cell, bonus: bonus.amount,
    "race": _race, "per_column": _per_column, "per_kind": _per_kind,
}


def space_bonus(state: State, seat: int, cell: str) -> None:
    """The bonus printed on the space (only highest spaces carry one); end-of-game bonuses
    wait for the end."""
    bonus = state.layout.spaces[cell].bonus
    if bonus is None or bonus.at_the_end:
        return
    if bonus.kind == "map":
        take_map(state, seat, f"column {COLUMNS[state.layout.column_of(cell)]}")
        return
    gain(state, seat, BONUS_COINS[bonus.kind](state, seat, cell, bonus), "bonus", cell)


# --- placing and flipping -------------------------------------------------------------------


def place(state: State, seat: int, cell: str, tile: Tile, previewing: bool = False) -> None:
    """Step 3 and 4 of a turn: pay a space's cost, place, the effect, then the bonus."""
    player = state.players[seat]
    gain(state, seat, -state.layout.spaces[cell].cost, "cost", cell)
    player.spaces[cell] = tile
    state.emit("placed", seat=seat, cell=cell, character=tile.up)
    state.steps.append(Step("bonus", cell))
    character_effect(state, seat, cell)
    settle(state, previewing)


def flip_on_board(state: State, seat: int, cell: str, shown: str | None = None) -> None:
    """A Monkey's flip: the tile shows its other side (``shown``, when the table tells it),
    whose immediate effect applies (its space's bonus does not: the tile was not placed)."""
    player = state.players[seat]
    old = player.spaces[cell]
    player.spaces[cell] = new = bag.turned(state, old, shown)
    state.emit("flipped", seat=seat, cell=cell, before=old.up, after=new.up)
    character_effect(state, seat, cell)
    settle(state)


def settle(state: State, previewing: bool = False) -> None:
    """Carry on with the turn's work until a player must act, or end the turn.
    ``previewing``: what a placement pays now, leaving out what waits for a choice or a draw
    (which nobody can know yet) and the end of the turn."""
    while state.steps:
        step = state.steps[-1]
        if step.kind == "bonus":
            state.steps.pop()
            assert step.cell is not None
            space_bonus(state, state.turn, step.cell)
        elif previewing:
            state.steps.pop()
            state.emit("follows", what=step.kind)
        else:
            state.phase = MONKEY if step.kind == "monkey" else DRAW
            return
    if not previewing:
        end_turn(state)


# --- the end of a turn, and of the game -----------------------------------------------------


def end_turn(state: State) -> None:
    """The Treasure Map's coin, then: the last turn of the game, or the next player's."""
    seat = state.turn
    if state.map_holder == seat:
        gain(state, seat, state.book.map_coins, "treasure_map")
    if state.ended_by is None and state.complete_columns(seat) >= state.book.columns_to_end:
        state.ended_by = seat
        state.emit("last_round", seat=seat, last=state.last_seat())
    if state.ended_by is not None and seat == state.last_seat():
        finish(state, "columns")
    elif not state.bag and (seat == state.last_seat() or not state.book.bag_empty_finishes_round):
        finish(state, "bag_empty")
    elif not any(state.open_cells(p.seat) for p in state.players):
        finish(state, "no_space")  # only with a house rule: no one can place a tile
    else:
        state.turn = (seat + 1) % len(state.players)
        if state.turn == 0:
            state.round += 1
        state.phase = DRAW
        state.emit("turn", seat=state.turn)
        if not state.open_cells(state.turn):
            # No space can take a tile (a house rule's end, or only a cost space and no
            # coin): the turn passes, its Treasure Map coin included.
            state.emit("no_space", seat=state.turn)
            end_turn(state)
        elif not state.bag:
            # An empty bag: the round is finished as after four columns, each turn passing
            # with nothing to draw (a turn all the same: its Treasure Map coin included).
            state.emit("no_tile", seat=state.turn)
            end_turn(state)


def finish(state: State, why: str) -> None:
    """End-of-game scoring in the seed's order; the winners by coins, the map breaks ties."""
    scores = scoring.final_scores(state)
    result = scoring.ranking(scores, state.map_holder)
    state.phase = OVER
    state.outcome = scoring.outcome(result, scores, why)
    state.emit("game_over", why=why, winners=list(result.winners),
               totals={str(s.seat): s.total for s in scores})

