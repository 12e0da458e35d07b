"""``declare_winner``: the table's ruling that ends the game with the winners it names, at
any time (the table can always overrule the companion); recorded as the table's ruling, with
its reason, never as an ending the game did not reach."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.burkes_gambit.moves import flow
from companion.games.burkes_gambit.moves.common import fixed_label, table_only
from companion.games.burkes_gambit.state import CREW, SPECIALIST, State


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (Param("winner", "choice", "Who won", choices=("crew", "specialists")),
            Param("reason", "text", "Why", maximum=200))


def _run(state: State, seat: int | None, params: Params) -> None:
    team = SPECIALIST if params["winner"] == "specialists" else CREW
    flow.finish(state, team, "declared", why=str(params["reason"]))


def _text(state: State, seat: int | None, params: Params) -> str:
    return f"The table declares the {params.get('winner')} the winners ({params.get('reason')})"


MOVE = Move("declare_winner", "table", fixed_label("Declare the winner (the table's ruling)"),
            table_only("turn", "cancel", "vote", "tiebreak", "reveal", "reveal_ejected"), _run,
            _text, _params, ruling=True)
