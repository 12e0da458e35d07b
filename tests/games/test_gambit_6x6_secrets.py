"""Gambit (6x6): the opponent never learns an assignment. Two tables that differ only in
Ann's secret powers (her placing and her new powers) must look the same to Ben, and to the
table, at every step: his screen, his legal actions, his log, every refusal he gets, until
something reveals a power of hers (his challenge, his Detective). Through the service too: his
phone's snapshot, history and export never hold her inputs."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.engine import Action, ActionSpec, RulesError, TableSession
from companion.engine.random_play import random_action
from companion.runtime.service import Services
from companion.settings import Settings
from companion.web import create_app
from tests.games.test_gambit_6x6_setup import do, place, table
from tests.web.conftest import Phone

ANN, BEN = 0, 1
# What Ben may not do in the twin game: each shows him one of Ann's powers (that is their
# point, and they are shown with `reveals`, which stops undo).
REVEALS_TO_BEN = ("challenge", "detect")
PROBES = [Action("challenge", BEN, {"power": p}) for p in ("diagonal", "moat", "teleport")] + [
    Action("declare_moat", BEN, {"piece": "B1"}), Action("declare_kamikaze", BEN),
    Action("move", BEN, {"piece": "a6", "to": "a4"}), Action("accept", BEN),
    Action("give_up", BEN, {"piece": "B1"}), Action("detect", BEN, {"piece": "B1",
                                                                    "target": "A1"})] + [
    # Ann's pieces named where Ben's are wanted: refused alike, whatever they hold
    Action(name, BEN, {"piece": piece, **more}) for piece in ("A1", "A2", "A3", "A4")
    for name, more in (("witch_doctor", {}), ("place_new_power", {"power": "ghost"}),
                       ("sensei", {"to": "B1", "powers": ["ghost"]}))]


def ben_sees(session: TableSession) -> Any:
    """Everything Ben's phone and the table's screen get, as JSON."""
    return json.dumps({
        "ben": session.table_view(BEN).to_dict(),
        "table": session.table_view(None).to_dict(),
        "view": session.view(BEN),
        "history": [r.to_dict(BEN) for r in session.history_for(BEN)],
        "refusals": [refusal(session, probe) for probe in PROBES],
    }, sort_keys=True)


def refusal(session: TableSession, action: Action) -> str | None:
    try:
        session.rules.apply(session.state, action)
    except RulesError as exc:
        return str(exc)
    return None


def ann_private(session: TableSession, rng: random.Random) -> Action | None:
    """A random private input Ann may make now (choosing, placing, a new power)."""
    for spec in session.legal_actions(ANN):
        if spec.kind == "input":
            for _ in range(50):
                action = random_action(spec, ANN, rng)
                if refusal(session, action) is None:
                    return action
    return None


def play_twins(seed: int, options: dict[str, Any], steps: int = 150) -> int:
    """Two tables, Ann's secrets drawn apart; the same public play. Returns steps compared."""
    rng, twin_rng, pick = random.Random(seed), random.Random(seed + 1000), random.Random(seed)
    first, second = table(options, seed=seed), table(options, seed=seed)
    compared = 0
    for _ in range(steps):
        if first.outcome is not None:
            break  # the end shows every power to everyone
        assert ben_sees(first) == ben_sees(second), f"seed {seed}: Ben can tell them apart"
        compared += 1
        mine = ann_private(first, rng)
        if mine is not None:
            first.submit(mine)
            other = ann_private(second, twin_rng)
            assert other is not None
            second.submit(other)
            continue
        choices = [(seat, spec) for seat in (ANN, BEN) for spec in first.legal_actions(seat)
                   if not (seat == BEN and spec.name in REVEALS_TO_BEN)]
        if not choices:
            break
        seat, spec = pick.choice(choices)
        action = random_action(spec, seat, pick)
        if refusal(first, action) is not None:
            continue
        first.submit(action)
        second.submit(action)  # a public action: it must fit the twin table as well
    return compared


@pytest.mark.parametrize("options", [
    {}, {"roll_powers": True}, {"player_powers": True, "board": "bridges"},
    {"board": "longboard", "pieces": 4},
])
def test_ben_cannot_tell_two_assignments_of_anns_apart(options: dict[str, Any]) -> None:
    assert sum(play_twins(seed, options) for seed in range(6)) > 100


def test_the_check_can_fail_a_challenge_by_ben_tells_them_apart() -> None:
    first, second = table(), table()
    place(first, ANN, {"A3": ("diagonal", "moat"), "A4": ("ghost", "sitting")})
    place(second, ANN, {"A4": ("diagonal", "moat"), "A3": ("ghost", "sitting")})
    for session in (first, second):
        place(session, BEN, {"B1": ("diagonal", "moat"), "B2": ("ghost", "sitting")})
        do(session, "move", ANN, piece="c1", to="e3")  # A3 claims Diagonal
    assert ben_sees(first) == ben_sees(second)
    for session in (first, second):
        do(session, "challenge", BEN, power="diagonal")
    assert ben_sees(first) != ben_sees(second)


def test_the_squares_lit_for_a_move_never_depend_on_the_powers_held() -> None:
    first, second = table(), table()
    place(first, ANN, {"A1": ("sidewinder", "moat"), "A2": ("ghost", "sitting")})
    place(second, ANN, {"A5": ("diagonal", "detective"), "A6": ("bulldozer", "kamikaze")})
    for session in (first, second):
        place(session, BEN, {"B1": ("diagonal", "moat"), "B2": ("ghost", "sitting")})
    moves = [[a.to_dict() for a in s.legal_actions(ANN)] for s in (first, second)]
    assert moves[0] == moves[1]
    squares = dict(ActionSpec.from_dict(moves[0][0]).params[1].choices_by)
    assert {"b2", "a2"} <= set(squares["a1"])  # a Diagonal's squares lit for a piece with none


def test_a_private_input_never_reaches_the_other_phone(tmp_path: Path) -> None:
    services = Services.build(Settings(), tmp_path)
    try:
        app = create_app(services, testing=True)
        ann, ben = Phone(app), Phone(app)
        created = ann.post("/api/tables", {"game": "gambit-6x6", "seats": ["Ann", "Ben"],
                                           "options": {}}).json
        base = f"/api/tables/{created['id']}"
        for seat, phone in enumerate((ann, ben)):
            assert phone.post(f"{base}/join", {"pin": created["pin"], "seat": seat}
                              ).status_code == 200
        before = ben.get(base).json
        for name, params in (("choose_powers", {"movement_powers": ["ghost", "sidewinder"],
                                                "action_powers": ["kamikaze", "detective"]}),
                             ("place_powers", {"movement_1": "A3", "movement_2": "A5",
                                               "action_1": "A3", "action_2": "A6"})):
            version = ann.get(base).json["version"]
            sent = ann.post(f"{base}/actions", {"name": name, "seat": 0, "params": params,
                                                "expect": version})
            assert sent.status_code == 201, sent.json
        seen = json.dumps([ben.get(base).json, ben.get(f"{base}/history").json,
                           ben.get(f"{base}/export").json])
        for word in ("Ghost + Kamikaze", "A3 Ghost", "movement_1", "\"place_powers\"",
                     "\"choose_powers\", \"seat\": 0"):
            assert word not in seen, word
        assert ben.get(f"{base}/history").json == []
        assert ben.get(f"{base}/export").json["history"] == []
        mine = json.dumps(ann.get(base).json["view"]["secrets"])
        assert "Ghost + Kamikaze" in mine and "Sidewinder" in mine
        # Ben sees only that Ann has placed hers (and his phone's version does not move).
        after = ben.get(base).json
        facts = {f["key"]: f["label"] for f in after["view"]["players"][0]["facts"]}
        assert facts["placed"] == "Powers placed"
        assert before["version"] == after["version"] == 0
    finally:
        services.close()


def test_a_witch_doctor_naming_the_opponents_piece_is_refused_alike() -> None:
    """Ben holds a Witch Doctor while Ann's claim is open, and names her pieces: refused as
    not his, whatever they hold (it had said which of them held no movement power)."""
    first, second = table({"player_powers": True}), table({"player_powers": True})
    place(first, ANN, {"A1": ("ghost", "moat"), "A3": ("diagonal", "sitting")})
    place(second, ANN, {"A2": ("ghost", "moat"), "A3": ("diagonal", "sitting")})
    for session in (first, second):
        place(session, BEN, {"B1": ("diagonal", "moat"), "B2": ("ghost", "sitting")})
        session.state.held_powers[BEN].append("witch_doctor")
        do(session, "move", ANN, piece="c1", to="e3")  # A3 claims Diagonal
    for piece in ("A1", "A2", "A4"):
        probe = Action("witch_doctor", BEN, {"piece": piece})
        assert refusal(first, probe) == refusal(second, probe) is not None
    assert refusal(first, Action("witch_doctor", BEN, {"piece": "B1"})) is None
