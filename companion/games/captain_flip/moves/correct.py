"""The host's correction of a player's coins: the companion's totals are the truth, and a
miscount at the table is fixed here, logged with its reason for everyone."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.captain_flip import effects
from companion.games.captain_flip.state import OVER, State

MOST = 999


def _refusal(state: State, seat: int | None) -> str | None:
    if seat is not None:
        return "only the table (its host) corrects coins"
    if state.phase == OVER:
        return "the game is over: undo back into it to correct coins"
    return None


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (Param("player", "seat", "Whose coins", choices=tuple(range(len(state.players)))),
            Param("coins", "number", "Coins they hold", minimum=0, maximum=MOST,
                  starts_on=("player",),
                  starts_by=tuple(((p,), player.coins) for p, player in enumerate(state.players))),
            Param("reason", "text", "Why", maximum=120))


def _run(state: State, seat: int | None, params: Params) -> None:
    player = int(params["player"])
    effects.gain(state, player, int(params["coins"]) - state.players[player].coins,
                 "correction")


def _text(state: State, seat: int | None, params: Params) -> str:
    player = params.get("player")
    name = state.name(player) if isinstance(player, int) and 0 <= player < len(
        state.players) else f"seat {player}"
    return f"Table correction: {name} holds {params.get('coins')} coins ({params.get('reason')})"


MOVE = Move("correct_coins", "table", lambda state: "Correct a player's coins", _refusal, _run,
            _text, _params, ruling=True)
