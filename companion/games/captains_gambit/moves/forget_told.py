"""``forget_told``: at a table dealt by hand, the table's ruling that the companion forget
what a seat told it of its captain or its permits, so the seat tells it again.

A seat that typed its cards wrong finds out late: called on a Barrage it holds, it is refused
"holds no Barrage permit" while the card is in its hand, and an undo reaches back one action
only. The cards on the table are the truth; the companion's record of them must yield to the
table, with a reason in the log. The log line names the seat and what is forgotten, never the
cards, and the ruling is the same whatever the seat told (or whether it told anything), so
it shows nobody what the record held."""

from __future__ import annotations

from companion.engine import Move, Param, Params
from companion.games.captains_gambit.moves.common import fixed_label
from companion.games.captains_gambit.state import State

WHAT = ("permits", "captain")


def _refusal(state: State, seat: int | None) -> str | None:
    if seat is not None:
        return "only the table (its host) makes this ruling"
    if state.companion_dealt:
        return "the companion dealt this game: it knows every card, nobody told it any"
    if state.phase == "over":
        return "the game is over"
    return None


def _params(state: State, seat: int | None) -> tuple[Param, ...]:
    return (
        Param("target", "seat", "Player", choices=tuple(range(len(state.players)))),
        Param("what", "choice", "Forget their", choices=WHAT,
              labels=("Permits", "Captain")),
        Param("reason", "text", "Reason", maximum=200),
    )


def _check(state: State, seat: int | None, params: Params) -> str | None:
    target = params.get("target")
    if (params.get("what") == "captain" and isinstance(target, int)
            and 0 <= target < len(state.players) and state.players[target].revealed):
        # its Reveal was judged on the captain told; what followed is corrected with counters
        return (f"{state.name(target)}'s captain is face up for everyone; correct what followed"
                " with Correct a counter")
    return None


def _run(state: State, seat: int | None, params: Params) -> None:
    player = state.players[params["target"]]
    if params["what"] == "permits":
        player.permits = [None] * len(player.permits)
    else:
        player.captain = None
        player.copies_seat = None  # Viola's choice stood on a captain the table now doubts


def _text(state: State, seat: int | None, params: Params) -> str:
    name = state.name(params.get("target"))
    what = "permits" if params.get("what") == "permits" else "captain"
    return (f"Table correction: the companion forgets what {name} told it of their {what}"
            f" ({params.get('reason')}); {name} tells it again on their phone")


MOVE = Move("forget_told", "table", fixed_label("Forget what a player told"), _refusal, _run,
            _text, _params, _check, ruling=True)
