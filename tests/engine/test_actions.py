"""Action specs: the generic parameter checks that every game's phone UI relies on."""

import pytest

from companion.engine import Action, ActionSpec, IllegalActionError, Param, RulesError


def spec() -> ActionSpec:
    return ActionSpec("give", "Give", params=(
        Param("target", "seat", "Target", choices=(1, 2)),
        Param("amount", "number", "Amount", minimum=1, maximum=3),
        Param("how", "choice", "How", choices=("claim", "steal"), default="claim"),
        Param("cards", "choices", "Cards", choices=("a", "a", "b"), minimum=0, maximum=2),
        Param("note", "text", "Note", maximum=5),
    ))


GOOD = {"target": 1, "amount": 2, "cards": ["a", "a"], "note": "hi"}


def test_good_params_pass_and_defaults_may_be_left_out() -> None:
    assert spec().problem(GOOD) is None
    assert spec().problem({**GOOD, "how": "steal"}) is None


@pytest.mark.parametrize("change, reason", [
    ({"target": 3}, "target must be one of seats 1, 2, not 3"),
    ({"target": True}, "target must be a whole number"),
    ({"amount": 0}, "amount must be at least 1"),
    ({"amount": 4}, "amount must be at most 3"),
    ({"amount": "2"}, "amount must be a whole number"),
    ({"how": "lie"}, "how must be one of claim, steal"),
    ({"cards": ["a", "a", "a"]}, "cards takes at most 2 items"),
    ({"cards": ["b", "b"]}, "cards: 'b' can be named only once, not twice"),
    ({"cards": ["c"]}, "cards: 'c' is not one of a, b"),  # each name once
    ({"cards": "a"}, "cards must be a list of names"),
    ({"note": "toolong"}, "note is longer than 5 characters"),
    ({"extra": 1}, "unknown field 'extra'"),
])
def test_bad_params_are_named(change: dict[str, object], reason: str) -> None:
    problem = spec().problem({**GOOD, **change})
    assert problem is not None and problem.startswith(reason)


def test_missing_field_without_default() -> None:
    params = dict(GOOD)
    del params["amount"]
    assert spec().problem(params) == "missing field 'amount'"
    assert ActionSpec("x", "X", params=(Param("how", "choice", "How", choices=("a", "b")),)
                      ).problem({}) == "missing field 'how' (one of: a, b)"  # what it may be


def test_action_round_trips_through_its_dict_form() -> None:
    action = Action("strike", 2, {"target": 1})
    assert action.to_dict() == {"action": "strike", "seat": 2, "target": 1}
    assert Action.from_dict(action.to_dict()) == action


@pytest.mark.parametrize("data", [{}, {"action": ""}, {"action": "x", "seat": "2"},
                                  {"action": "x", "seat": True}])
def test_malformed_action_dicts_are_refused(data: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        Action.from_dict(data)


def test_a_spec_survives_its_trip_through_the_api() -> None:
    from companion.engine import ActionSpec, Param

    spec = ActionSpec("vote", "Vote", "move", (
        Param("target", "seat", "Whom", choices=(1, 2)),
        Param("permits", "choices", "Which", choices=("a", "b"), minimum=0, maximum=2,
              default=[], labels=("A", "B"), notes=("does a", "does b")),
        Param("loud", "flag", "Loud", default=False),
        Param("value", "number", "New value", minimum=0, starts_on=("target", "permits"),
              starts_by=(((1, "a"), 4), ((2, "b"), 7))),
        Param("to", "choice", "To", choices=("x", "y"), depends_on="target",
              choices_by=((1, ("x",)), (2, ("x", "y"))), notes_by=((1, ("",)), (2, ("", "far"))))),
        cost=1, note="n", ruling=True)
    assert ActionSpec.from_dict(spec.to_dict()) == spec


def test_a_ruling_with_a_blank_reason_is_refused_by_the_engine_for_every_game() -> None:
    """One check for every game's rulings: the log must say why the table overruled."""
    from companion.engine import GameSetup, TableSession
    from tests.toy_game import RULES

    session = TableSession(GameSetup("counter-race", ("Ann", "Ben"), {}, seed=1), RULES)
    for blank in ("", "   "):
        with pytest.raises(IllegalActionError, match="a ruling needs a reason: say why"):
            session.submit(Action("correct", None, {"player": 0, "cell": 3, "reason": blank}))
    assert session.history == []
    session.submit(Action("correct", None, {"player": 0, "cell": 3, "reason": "a slip"}))
    assert session.state.at[0] == 3


def test_a_screen_cannot_draw_notes_that_do_not_follow_their_choices() -> None:
    from companion.engine import ActionSpec, Param, view_problems
    from companion.engine.table_view import TableView

    def view(notes_by: tuple[tuple[str, tuple[str, ...]], ...]) -> TableView:
        to = Param("to", "choice", "To", choices=("b", "c"), depends_on="piece",
                   choices_by=(("a", ("b", "c")),), notes_by=notes_by)
        piece = Param("piece", "choice", "Piece", choices=("a",))
        return TableView("g", "G", None, "turn", "Turn", "", (),
                         actions=(ActionSpec("move", "Move", "move", (piece, to)),))

    assert view_problems(view((("a", ("", "Claims Ghost")),))) == []
    assert view_problems(view((("a", ("Claims Ghost",)),))) == [
        "action 'move', field 'to': notes_by does not follow choices_by"]
    assert view_problems(view(())) == []  # no notes: none to follow


def test_a_screen_cannot_start_a_number_from_fields_it_does_not_have() -> None:
    from companion.engine import ActionSpec, Param, view_problems
    from companion.engine.table_view import TableView

    def view(on: tuple[str, ...], key: tuple[str, ...]) -> TableView:
        counter = Param("counter", "choice", "Counter", choices=("health",))
        value = Param("value", "number", "New value", starts_on=on, starts_by=((key, 3),))
        return TableView("g", "G", None, "turn", "Turn", "", (),
                         actions=(ActionSpec("fix", "Fix", "table", (counter, value)),))

    assert view_problems(view(("counter",), ("health",))) == []
    problem = ["action 'fix', field 'value': starts_by does not follow starts_on"]
    assert view_problems(view(("counter", "target"), ("health", "x"))) == problem  # no target
    assert view_problems(view(("counter",), ("health", "x"))) == problem  # a key too long
