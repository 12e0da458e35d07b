"""The table session: log, undo that stops at revealed information, replay."""

import re

import pytest

from companion.engine import (
    Action,
    GameSetup,
    IllegalActionError,
    SetupError,
    TableSession,
    UndoError,
    UnknownGameError,
    all_games,
    get_game,
)
from tests.conftest import act, cg_table


def test_registry_knows_captains_gambit_by_either_spelling() -> None:
    assert get_game("captains-gambit") is get_game("Captains_Gambit")
    slugs = [g.info.slug for g in all_games()]  # and any plug-in the tests loaded
    assert {"burkes-gambit", "captains-gambit"} <= set(slugs) and slugs == sorted(slugs)


def test_unknown_game_names_the_known_ones() -> None:
    # Every registered game, in order (more games, and plug-ins other tests loaded, may join).
    known = ", ".join(g.info.slug for g in all_games())
    assert "burkes-gambit" in known and "captains-gambit" in known
    with pytest.raises(UnknownGameError, match=re.escape(f"(known games: {known})")):
        get_game("chess")


@pytest.mark.parametrize("game", [g.info.slug for g in all_games()])
def test_two_seats_with_one_name_are_refused_in_every_game(game: str) -> None:
    rules = get_game(game)
    seats = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")[:rules.info.min_players]
    TableSession(GameSetup(game, seats, seed=1))
    with pytest.raises(SetupError, match="two seats have the same name"):
        TableSession(GameSetup(game, (*seats[:-1], f" {seats[0].lower()}"), seed=1))
    for hidden in ("\n", "\x00", "\u200b", "\u202e"):  # shown nowhere, or not as typed
        with pytest.raises(SetupError, match="cannot be shown"):
            TableSession(GameSetup(game, (*seats[:-1], f"Zed{hidden}"), seed=1))


def test_a_seed_is_always_recorded_so_the_log_replays() -> None:
    session = TableSession(GameSetup("captains-gambit", ("A", "B", "C", "D")))
    assert isinstance(session.setup.seed, int)
    again = TableSession(session.setup)
    assert again.view(0) == session.view(0)


def test_undo_restores_the_previous_state(four: TableSession) -> None:
    before = four.view(None)
    act(four, "charge", 0)
    assert four.view(None) != before
    undone = four.undo()
    assert undone.action.name == "charge"
    assert four.view(None) == before
    assert [r.action.name for r in four.history] == ["end_prologue"]


def test_undo_stops_at_revealed_information(four: TableSession) -> None:
    act(four, "barrage", 0, target=1)
    act(four, "call_bluff", 2)
    act(four, "show_permit", 0)  # the card was shown: undo cannot hide it again
    with pytest.raises(UndoError, match="revealed hidden information"):
        four.undo()
    assert len(four.history) == 4
    act(four, "resolve", 0)
    four.undo()  # resolving revealed nothing, so it can be taken back
    assert len(four.history) == 4


def test_nothing_to_undo() -> None:
    session = cg_table({0: "puck"})
    session.undo()  # the Prologue's end
    with pytest.raises(UndoError, match="nothing to undo"):
        session.undo()


def test_refused_action_changes_nothing(four: TableSession) -> None:
    before = four.view(None)
    with pytest.raises(IllegalActionError):
        four.submit(Action("strike", 1, {"target": 0}))
    assert four.view(None) == before
    assert len(four.history) == 1


def test_replay_rebuilds_the_same_state(four: TableSession) -> None:
    act(four, "strike", 0, target=1)
    act(four, "shield", 2)
    act(four, "resolve", 0)
    act(four, "overcharge", 1)
    act(four, "resolve", 1)
    rebuilt = TableSession.replay(four.setup, [r.action for r in four.history])
    for seat in (None, 0, 1, 2, 3):
        assert rebuilt.view(seat) == four.view(seat)


def test_private_inputs_stay_out_of_other_seats_history() -> None:
    session = cg_table({0: "hamlet", 1: "puck"}, end_prologue=False)
    act(session, "prologue_mark", 0, target=1)
    act(session, "end_prologue")
    assert [r.action.name for r in session.history_for(0)] == ["prologue_mark", "end_prologue"]
    for seat in (None, 1, 2):
        assert [r.action.name for r in session.history_for(seat)] == ["end_prologue"]


def hand_dealt() -> TableSession:
    session = TableSession(GameSetup("captains-gambit", ("A", "B", "C", "D"), seed=3, deal={}))
    session.submit(Action("end_prologue"))
    return session


def test_undo_public_takes_back_the_last_public_action_and_keeps_later_private_inputs() -> None:
    session = hand_dealt()
    session.submit(Action("charge", 0))
    session.submit(Action("captain_seen", 2, {"captain": "puck"}))  # private to seat 2
    assert session.last_public() is session.history[-2]
    undone, kept, dropped = session.undo_public()
    assert undone.action == Action("charge", 0)
    assert [r.action.name for r in kept] == ["captain_seen"] and dropped == []
    assert [r.action.name for r in session.history] == ["end_prologue", "captain_seen"]
    assert session.view(2)["you"]["captain"] == "puck"
    assert session.view(None)["turn"] == 0  # Ann's charge is gone, her turn again


def test_undo_public_keeps_inputs_that_still_fit_and_drops_those_that_do_not(
        monkeypatch: pytest.MonkeyPatch) -> None:
    session = hand_dealt()
    session.submit(Action("captain_seen", 1, {"captain": "iago"}))
    session.submit(Action("charge", 0))
    session.submit(Action("permits_seen", 3, {"permits": ["drain", "shield"]}))
    rules = session.rules
    apply = rules.apply

    def permits_need_a_charge_first(state: object, action: Action) -> object:
        # A stand-in rule, for this test only: permits may be told only after a charge.
        if action.name == "permits_seen" and not any(
                r.action.name == "charge" for r in session.history):
            raise IllegalActionError("tell permits", "seat 3", "only after a charge")
        return apply(state, action)

    monkeypatch.setattr(rules, "apply", permits_need_a_charge_first)
    undone, kept, dropped = session.undo_public()
    assert undone.action == Action("charge", 0)
    assert kept == [] and [r.action.seat for r in dropped] == [3]
    assert [r.action.name for r in session.history] == ["end_prologue", "captain_seen"]
    monkeypatch.undo()
    session.undo_public()  # the end of the Prologue; Ben's input still fits before it
    assert [r.action.name for r in session.history] == ["captain_seen"]
    with pytest.raises(UndoError, match="nothing to undo"):
        session.undo_public()


def test_undo_far_back_rebuilds_from_the_few_states_kept() -> None:
    """Only a few past states are kept (memory stays flat over a long game); undo rebuilds the
    state before any action by replaying the log, exactly as a replay would."""
    from companion.engine.session import KEEP_EVERY, KEPT
    from tests.conftest import cg_table

    session = cg_table({0: "puck", 1: "iago", 2: "portia", 3: "prospero"})
    while len(session.history) < KEEP_EVERY * (KEPT + 2):  # a long evening of corrections
        n = len(session.history)
        session.submit(Action("correct", None, {"target": n % 4, "counter": "energy",
                                                "value": n, "reason": "counted again"}))
    assert len(session._kept) <= KEPT  # noqa: SLF001  (what the session holds on to)
    while session.history:
        session.undo()
        again = TableSession.replay(session.setup, [r.action for r in session.history])
        assert session.state == again.state
        if len(session.history) == KEEP_EVERY * 2:  # and it goes on correctly from there
            session.submit(Action("charge", session.state.turn))
            session.undo()
            assert session.state == again.state
