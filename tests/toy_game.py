"""Counter race: a throwaway game written the way docs/adding-a-game.md says, to show that a
game needs nothing outside its own module (importing it registers it).

2 to 4 players race their pieces along a track of 10 cells. On your turn you move 1 to 3 cells
forward; each player holds a secret lucky number (1 to 3): moving exactly that far moves one
cell more. The first to reach the last cell wins. The table may correct a position (a ruling).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.engine import (
    Action,
    ActionSpec,
    Board,
    Cell,
    Counter,
    Ending,
    Event,
    Fact,
    GameInfo,
    GameRules,
    GameSetup,
    Move,
    MoveSet,
    Outcome,
    Param,
    Piece,
    PlayerView,
    SetupError,
    TableView,
    Transition,
    register_game,
    shuffled,
)

TRACK = 10  # the last cell wins
INFO = GameInfo(slug="counter-race", title="Counter race", code="TOY", min_players=2,
                max_players=4, summary="Race along a track; a secret lucky step goes further.")


@dataclass
class State:
    names: list[str]
    lucky: list[int | None]  # each seat's secret (None: not known to the one asking)
    at: list[int]  # cell of each seat's piece
    turn: int = 0
    outcome: Outcome | None = None
    events: list[Event] = field(default_factory=list)

    def copy(self) -> State:
        return replace(self, lucky=list(self.lucky), at=list(self.at), events=[])


def cell(n: int) -> str:
    return f"c{n}"


def _step_refusal(state: State, seat: int | None) -> str | None:
    if state.outcome:
        return "the race is over"
    return None if seat == state.turn else f"it is {state.names[state.turn]}'s turn"


def _step_params(state: State, seat: int | None) -> tuple[Param, ...]:
    """Tap your piece, then one of the cells it may reach."""
    here = cell(state.at[state.turn])
    ahead = tuple(cell(n) for n in range(state.at[state.turn] + 1,
                                         min(state.at[state.turn] + 3, TRACK) + 1))
    return (Param("from", "cell", "Your piece", choices=(here,), board="track"),
            Param("to", "cell", "Move to", choices=ahead, board="track", depends_on="from",
                  choices_by=((here, ahead),)))


def _step_run(state: State, seat: int | None, params: Mapping[str, Any]) -> None:
    assert seat is not None
    target = int(params["to"][1:])
    if target - state.at[seat] == state.lucky[seat]:
        target = min(target + 1, TRACK)  # the lucky step
    state.at[seat] = target
    state.events.append({"type": "moved", "seat": seat, "to": target})
    if target == TRACK:
        state.outcome = Outcome((seat,), "finish")
    state.turn = (seat + 1) % len(state.names)


def _correct_run(state: State, seat: int | None, params: Mapping[str, Any]) -> None:
    state.at[params["player"]] = params["cell"]


MOVES = MoveSet("Counter race", (
    Move("step", "move", lambda s: "Move your piece", _step_refusal, _step_run,
         lambda s, seat, p: f"{s.names[seat or 0]} moves to {p.get('to')}", _step_params),
    Move("correct", "table", lambda s: "Correct a position",
         lambda s, seat: None if seat is None and not s.outcome else "the table corrects",
         _correct_run, lambda s, seat, p: f"Table correction: {p.get('player')} to {p.get('cell')}",
         lambda s, seat: (Param("player", "seat", "Player", choices=tuple(range(len(s.names)))),
                          Param("cell", "number", "Cell", minimum=0, maximum=TRACK - 1),
                          Param("reason", "text", "Why", maximum=200)),
         ruling=True),
), lambda state, seat: "the table" if seat is None else state.names[seat])


class CounterRace(GameRules):
    info = INFO

    def setup(self, setup: GameSetup) -> State:
        if not INFO.min_players <= len(setup.seats) <= INFO.max_players:
            raise SetupError("Counter race is for 2 to 4 players")
        if setup.options or setup.deal is not None:
            raise SetupError("Counter race has no options and no deal")
        lucky: list[int | None] = [shuffled([1, 2, 3], setup.seed, "lucky", seat)[0]
                                   for seat in range(len(setup.seats))]
        return State(list(setup.seats), lucky, [0] * len(setup.seats))

    def legal_actions(self, state: State, seat: int | None) -> Sequence[ActionSpec]:
        return MOVES.legal(state, seat, len(state.names))

    def apply(self, state: State, action: Action) -> Transition:
        return MOVES.apply(state, action, len(state.names), (), lambda s, e: ())

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return self.table_view(state, seat).to_dict()

    def table_view(self, state: State, seat: int | None) -> TableView:
        pieces = {n: tuple(Piece(f"p{s}", state.names[s][0], "runner", s, state.names[s])
                           for s in range(len(state.names)) if state.at[s] == n)
                  for n in range(TRACK + 1)}
        track = Board("track", "The track", 1, TRACK + 1,
                      tuple(Cell(cell(n), 0, n, "goal" if n == TRACK else "", str(n), pieces[n])
                            for n in range(TRACK + 1)))
        winner = state.outcome.winners if state.outcome else ()
        return TableView(
            INFO.slug, INFO.title, seat, "over" if winner else "race",
            "Finished" if winner else "Racing", f"{state.names[state.turn]} to move",
            tuple(PlayerView(s, state.names[s], (Counter("cell", "Cell", state.at[s]),))
                  for s in range(len(state.names))),
            turn=None if winner else state.turn, boards=(track,),
            secrets=(Fact("lucky", "Your lucky step", str(state.lucky[seat])),)
            if seat is not None else (),
            ending=Ending(winner, f"{state.names[winner[0]]} wins") if winner else None)

    def as_known_to(self, state: State, seat: int | None) -> State:
        known = state.copy()
        known.lucky = [n if s == seat else None for s, n in enumerate(state.lucky)]
        return known

    def describe(self, state: State, action: Action) -> str:
        return MOVES.describe(state, action)

    def rules_summary(self, options: Mapping[str, Any] | None = None) -> str:
        return __doc__ or ""


RULES = register_game(CounterRace())
