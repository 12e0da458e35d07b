"""The shared rules engine: game-agnostic, standard library only, no I/O."""

from companion.engine.actions import Action, ActionSpec, Param
from companion.engine.components import (
    Component,
    InvalidPayloadError,
    UnknownComponentError,
    all_components,
    components_of,
    parse_payload,
)
from companion.engine.errors import (
    IllegalActionError,
    RulesError,
    SetupError,
    UndoError,
    UnknownActionError,
    UnknownGameError,
)
from companion.engine.house import RuleBook, check_whole_numbers, merge_house, with_house
from companion.engine.moves import Move, MoveSet, Params, with_defaults
from companion.engine.randomness import shuffled
from companion.engine.registry import all_games, get_game, register_game
from companion.engine.rules import (
    DieFace,
    Event,
    GameInfo,
    GameRules,
    GameSetup,
    Outcome,
    Transition,
    refuse_unknown,
    seat_key,
)
from companion.engine.session import ActionRecord, TableSession
from companion.engine.transcript import (
    ReplayResult,
    TranscriptError,
    parse_setup,
    replay_transcript,
)

__all__ = [
    "DieFace",
    "check_whole_numbers",
    "merge_house",
    "refuse_unknown",
    "seat_key",
    "RuleBook",
    "with_house",
    "Move",
    "MoveSet",
    "Params",
    "with_defaults",
    "Action",
    "ActionRecord",
    "ActionSpec",
    "Component",
    "InvalidPayloadError",
    "UnknownComponentError",
    "all_components",
    "components_of",
    "parse_payload",
    "Event",
    "GameInfo",
    "GameRules",
    "GameSetup",
    "IllegalActionError",
    "Outcome",
    "Param",
    "ReplayResult",
    "RulesError",
    "SetupError",
    "TableSession",
    "Transition",
    "TranscriptError",
    "UndoError",
    "UnknownActionError",
    "UnknownGameError",
    "all_games",
    "get_game",
    "parse_setup",
    "register_game",
    "replay_transcript",
    "shuffled",
]
