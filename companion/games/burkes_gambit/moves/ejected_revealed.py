"""``ejected_revealed``: at a table dealt by hand, the table tells the companion the ejected
player's parasite card, which decides the game."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.burkes_gambit.moves import flow
from companion.games.burkes_gambit.moves.common import PARASITES, fixed_label, table_only
from companion.games.burkes_gambit.state import CREW, INFECTED, SPECIALIST, State


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (Param("parasite", "choice", "Parasite card", choices=PARASITES),)


def _run(state: State, seat: int | None, params: Params) -> None:
    assert state.ejected is not None
    player = state.players[state.ejected]
    player.parasite, player.revealed = str(params["parasite"]), True
    infected = player.parasite == INFECTED
    flow.finish(state, CREW if infected else SPECIALIST,
                "infected_ejected" if infected else "clean_ejected")


def _text(state: State, seat: int | None, params: Params) -> str:
    return f"The ejected player's parasite card: {params.get('parasite')}"


MOVE = Move("ejected_revealed", "table", fixed_label("Turn the ejected player's parasite card"),
            table_only("reveal_ejected"), _run, _text, _params)
