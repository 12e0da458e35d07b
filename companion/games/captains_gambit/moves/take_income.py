"""``take_income``: a turn starts with the turn's energy or a loyalty token."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.captains_gambit.moves.common import fixed_label, not_in_phase
from companion.games.captains_gambit.state import State


def _refusal(state: State, seat: int | None) -> str | None:
    if not state.loyalty_income and state.phase != "over":
        # the pool is public: say why there is no choice, whoever asks
        return ("there is no income choice at this table: only while King Lear and Othello"
                " are both in the pool; the turn's energy is taken automatically")
    return not_in_phase(state, seat, "income", state.turn)


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (Param("kind", "choice", "Take", choices=("energy", "loyalty"),
                  labels=(f"{state.book.setup('income_energy')} energy", "1 loyalty")),)


def _run(state: State, seat: int | None, params: Params) -> None:
    assert seat is not None
    player = state.players[seat]
    if params["kind"] == "loyalty":
        player.loyalty += 1
    else:
        player.energy += int(state.book.setup("income_energy"))
    state.phase = "action"


def _text(state: State, seat: int | None, params: Params) -> str:
    amount = state.book.setup("income_energy") if params.get("kind") == "energy" else 1
    return f"{state.name(seat)} takes {amount} {params.get('kind')}"


MOVE = Move("take_income", "move", fixed_label("Take the free energy or a loyalty"), _refusal,
            _run, _text, _params)
