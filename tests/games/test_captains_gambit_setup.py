"""Captain's Gambit setup: pools, decks, deals, options, mulligan, house overrides."""

from collections import Counter
from typing import Any

import pytest

from companion.engine import Action, GameSetup, IllegalActionError, SetupError, TableSession
from tests.conftest import act, cg_table

BASE4 = {"hamlet", "portia", "prospero", "lady_macbeth", "iago", "puck"}


def seeded(players: int, seed: int = 7, **options: Any) -> TableSession:
    names = tuple(f"P{i}" for i in range(players))
    return TableSession(GameSetup("captains-gambit", names, options, seed=seed))


@pytest.mark.parametrize("players, pool, deck", [
    (4, BASE4, 12),
    (5, BASE4 | {"cordelia", "brutus"}, 18),
    (6, BASE4 | {"cordelia", "brutus", "romeo", "juliet"}, 18),
    (7, BASE4 | {"cordelia", "brutus", "romeo", "juliet", "richard_iii", "rosalind"}, 24),
    (8, BASE4 | {"cordelia", "brutus", "romeo", "juliet", "richard_iii", "rosalind"}, 24),
])
def test_pool_and_permit_deck_by_player_count(players: int, pool: set[str], deck: int) -> None:
    state = seeded(players).state
    assert set(state.pool) == pool
    cards = [c for p in state.players for c in p.permits] + list(state.deck)
    assert len(cards) == deck
    assert set(Counter(cards).values()) == {deck // 6}
    dealt = [p.captain for p in state.players]
    assert len(set(dealt)) == players and set(dealt) <= pool
    assert "juliet" not in dealt  # Juliet lies face-down in the centre
    assert all(p.health == 10 and p.energy == 2 and len(p.permits) == 2 for p in state.players)


def test_juliet_lies_in_the_centre_from_six_players() -> None:
    assert seeded(6).state.centre == "juliet"
    assert seeded(5).state.centre is None


@pytest.mark.parametrize("players, each", [(4, 1), (6, 1), (7, 2), (8, 2)])
def test_wildcards_shuffled_in(players: int, each: int) -> None:
    state = seeded(players, wildcards=True).state
    cards = Counter([c for p in state.players for c in p.permits] + list(state.deck))
    assert cards["identity_theft"] == cards["diplomatic_immunity"] == each


def test_warp_in_swaps_whole_groups() -> None:
    state = seeded(7, warp_in=["viola", "lear_othello", "tybalt_mercutio", "titus",
                               "imogen"]).state
    assert set(state.pool) == {"viola", "portia", "prospero", "lady_macbeth", "iago", "puck",
                               "king_lear", "othello", "tybalt", "mercutio", "titus", "imogen"}
    assert state.centre == "mercutio"
    assert state.loyalty_income


def test_the_same_seed_deals_the_same_cards_and_another_seed_differs() -> None:
    first = [(p.captain, p.permits) for p in seeded(6, seed=11).state.players]
    assert first == [(p.captain, p.permits) for p in seeded(6, seed=11).state.players]
    others = {str([(p.captain, p.permits) for p in seeded(6, seed=s).state.players])
              for s in range(12, 20)}
    assert str(first) not in others and len(others) > 1


def test_prologue_only_when_its_captains_are_in_the_pool() -> None:
    assert seeded(4).state.phase == "prologue"  # Hamlet is always in a base pool
    without = seeded(4, warp_in=["viola"]).state
    assert without.phase == "action" and without.round == 1


def test_first_seat_starts_and_takes_the_first_free_energy() -> None:
    state = seeded(4, warp_in=["viola"], first_seat=2).state
    assert state.turn == 2 and state.players[2].energy == 3 and state.players[0].energy == 2


@pytest.mark.parametrize("players, options, deal, reason", [
    (3, {}, None, "needs 4 to 8 players, not 3"),
    (9, {}, None, "needs 4 to 8 players, not 9"),
    (4, {"colour": "red"}, None, "unknown option 'colour'"),
    (4, {"warp_in": ["hamlet"]}, None, "unknown Warp In group 'hamlet'"),
    (4, {"first_seat": 4}, None, "first_seat"),
    (4, {"wildcards": "yes"}, None, "'wildcards' must be true or false"),
    (4, {"house": {"actions": {"strike": {"cost": "one"}}}}, None,
     "must be a whole number, not \"one\""),
    (4, {"house": {"actions": {"laser": {"cost": 1}}}}, None, "'actions.laser' is not a rule"),
    (4, {}, {"captains": {"0": "romeo"}}, "'romeo' is not a captain that can be dealt"),
    (4, {}, {"captains": {"0": "puck", "1": "puck"}}, "'puck' is dealt twice"),
    (4, {}, {"captains": {"7": "puck"}}, "there is no seat 7"),
    (4, {}, {"permits": {"0": ["laser"]}}, "no 'laser' permit is left"),
    (4, {}, {"hands": {}}, "unknown field 'hands'"),
])
def test_bad_setups_are_refused(players: int, options: dict[str, Any],
                                deal: dict[str, Any] | None, reason: str) -> None:
    names = tuple(f"P{i}" for i in range(players))
    with pytest.raises(SetupError, match=reason):
        TableSession(GameSetup("captains-gambit", names, options, seed=1, deal=deal))


def test_duplicate_seat_names_are_refused() -> None:
    with pytest.raises(SetupError, match="same name"):
        TableSession(GameSetup("captains-gambit", ("A", "A", "B", "C"), seed=1))


def test_house_override_changes_a_number_without_code() -> None:
    table = cg_table({0: "puck"}, options={"house": {"actions": {"strike": {"cost": 4}}}})
    with pytest.raises(IllegalActionError, match="Strike costs 4 energy"):
        act(table, "strike", 0, target=1)


def test_mulligan_redraws_to_two_and_keeps_the_deck_whole() -> None:
    table = seeded(4, mulligan=True)
    state = table.state
    assert state.phase == "mulligan"
    before = Counter([c for p in state.players for c in p.permits] + list(state.deck))
    hand = list(state.players[0].permits)
    act(table, "mulligan", 0, discard=hand)
    for seat in (1, 2, 3):
        act(table, "mulligan", seat, discard=[])
    after = table.state
    assert after.phase == "prologue"
    assert all(len(p.permits) == 2 for p in after.players)
    assert before == Counter([c for p in after.players for c in p.permits] + list(after.deck))
    assert table.history[0].text == "P0 discards 2 permits"  # how many, never which


def test_mulligan_refuses_a_card_not_held_and_a_second_go() -> None:
    table = seeded(4, mulligan=True)
    held = table.state.players[0].permits
    missing = next(c for c in ("barrage", "shield", "drain") if c not in held)
    with pytest.raises(IllegalActionError, match="is not one of"):
        act(table, "mulligan", 0, discard=[missing])
    act(table, "mulligan", 0, discard=[])
    with pytest.raises(IllegalActionError, match="already chosen"):
        act(table, "mulligan", 0, discard=[])


def test_hand_dealt_table_learns_cards_from_private_inputs() -> None:
    table = TableSession(GameSetup("captains-gambit", ("A", "B", "C", "D"), seed=1, deal={}))
    assert all(p.captain is None for p in table.state.players)
    act(table, "captain_seen", 1, captain="hamlet")
    act(table, "permits_seen", 1, permits=["drain", "shield"])
    assert table.view(1)["you"]["captain"] == "hamlet"
    assert table.view(1)["you"]["permits"] == ["drain", "shield"]
    with pytest.raises(IllegalActionError, match="already knows this seat's captain"):
        act(table, "captain_seen", 1, captain="puck")
    assert table.history_for(None) == []
    seeded_table = seeded(4)
    with pytest.raises(IllegalActionError, match="companion dealt this game"):
        act(seeded_table, "captain_seen", 0, captain="puck")


def test_unknown_action_is_named() -> None:
    table = cg_table({0: "puck"})
    with pytest.raises(IllegalActionError, match="has no action 'fly'"):
        table.submit(Action("fly", 0))
