"""``end_heads_down``: the table's host ends the heads-down phase (the specialists have seen
each other) and the Captain's turn begins."""

from __future__ import annotations

from companion.engine import Move, Params
from companion.games.burkes_gambit.moves.common import fixed_label, said, table_only
from companion.games.burkes_gambit.state import State


def _run(state: State, seat: int | None, params: Params) -> None:
    state.phase = "turn"
    state.emit("play_started", seat=state.turn)


MOVE = Move("end_heads_down", "table", fixed_label("Everyone lifts their head"),
            table_only("heads_down"), _run, said("Heads up: the game begins"))
