"""``grant_look``: the table's ruling that lets a player look at someone's ID or parasite card
(a role's ability), shown on the looker's phone only."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.burkes_gambit.moves import flow
from companion.games.burkes_gambit.moves.common import fixed_label, table_only
from companion.games.burkes_gambit.state import State


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    seats = tuple(p.seat for p in state.living())
    return (Param("looker", "seat", "Who looks", choices=seats),
            Param("card", "choice", "At which card", choices=("parasite", "id")),
            Param("target", "seat", "Whose card", choices=tuple(p.seat for p in state.players)),
            Param("reason", "text", "Why (the role used)", maximum=200))


def _check(state: State, seat: int | None, params: Params) -> str | None:
    if params.get("looker") == params.get("target") and params.get("card") == "parasite":
        return "nobody may look at their own parasite card"
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    flow.look(state, int(params["looker"]), int(params["target"]), str(params["card"]))


def _text(state: State, seat: int | None, params: Params) -> str:
    card = "ID" if params.get("card") == "id" else "parasite"
    return (f"The table lets {state.name(params.get('looker'))} look at"
            f" {state.name(params.get('target'))}'s {card} card ({params.get('reason')})")


MOVE = Move("grant_look", "table", fixed_label("Let a player look at a card (a role)"),
            table_only("turn", "cancel", "vote"), _run, _text, _params, _check, ruling=True)
