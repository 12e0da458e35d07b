"""Deaths, chain deaths with kill credit, and the win and lose conditions of the captains."""

from typing import Any

import pytest

from companion.engine import Action, GameSetup, IllegalActionError, TableSession
from tests.conftest import act, cg_table

FIVE = ("Ann", "Ben", "Cat", "Dan", "Eve")
SEVEN = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")


def hurt(table: TableSession, seat: int, health: int) -> None:
    act(table, "correct", target=seat, counter="health", value=health, reason="test")


def strike(table: TableSession, actor: int, target: int) -> None:
    act(table, "strike", actor, target=target)
    act(table, "resolve", actor)


def outcome(table: TableSession) -> dict[str, Any] | None:
    return table.view(None)["outcome"]


def charge_until(table: TableSession, seat: int) -> None:
    """Everyone else charges until it is ``seat``'s turn."""
    while table.view(None)["turn"] != seat:
        act(table, "charge", table.view(None)["turn"])


def test_death_reveals_captain_and_permits_and_credits_the_killer(four: TableSession) -> None:
    hurt(four, 1, 1)
    strike(four, 0, 1)
    ben = four.view(None)["players"][1]
    assert not ben["alive"] and ben["captain"] == "iago"
    assert ben["permits"] == ["drain", "overcharge"]
    assert four.view(None)["deaths"] == [{"seat": 1, "killer": 0, "cause": "damage"}]
    assert four.history[-1].reveals


def test_an_attack_that_ends_the_game_gives_no_blood() -> None:
    table = cg_table({0: "hamlet", 1: "puck", 2: "portia", 3: "iago"}, end_prologue=False)
    act(table, "prologue_mark", 0, target=1)
    act(table, "end_prologue")
    hurt(table, 1, 1)
    strike(table, 0, 1)
    result = outcome(table)
    assert result is not None and result["winners"] == [0] and result["reason"] == "win"
    assert table.view(None)["players"][0]["blood"] == 0


def test_hamlet_loses_when_someone_else_kills_his_mark() -> None:
    table = cg_table({0: "puck", 1: "hamlet", 2: "portia", 3: "iago"}, end_prologue=False)
    act(table, "prologue_mark", 1, target=2)
    act(table, "end_prologue")
    hurt(table, 2, 1)
    strike(table, 0, 2)
    players = table.view(None)["players"]
    assert not players[2]["alive"] and not players[1]["alive"]
    assert table.view(None)["deaths"][1] == {"seat": 1, "killer": 0, "cause": "lost"}


@pytest.mark.parametrize("loses_without_killer", [None, True])
def test_hamlet_keeps_playing_when_his_mark_dies_by_no_hand(
        loses_without_killer: bool | None) -> None:
    """house-rulings.md: Hamlet loses when his mark dies "with someone else's credit"; a
    death nobody holds credit for (here the host marks a player who left) costs him nothing,
    unless the table's book says it does."""
    house = {} if loses_without_killer is None else {"house": {"captains": {"hamlet": {
        "loses_without_killer": loses_without_killer}}}}
    table = cg_table({0: "puck", 1: "hamlet", 2: "portia", 3: "iago"}, options=house,
                     end_prologue=False)
    act(table, "prologue_mark", 1, target=2)
    act(table, "end_prologue")
    act(table, "correct", target=2, counter="health", value=0, reason="left the table")
    players = table.view(None)["players"]
    assert not players[2]["alive"]
    assert players[1]["alive"] is not bool(loses_without_killer)


def test_tybalt_keeps_playing_when_mercutio_dies_by_no_hand() -> None:
    """house-rulings.md: the duellists lose "if a third player kills either of them"."""
    captains = {0: "tybalt", 1: "puck", 2: "portia", 3: "iago", 4: "hamlet", 5: "prospero"}
    table = cg_table(captains, seats=FIVE + ("Fay",), options={"warp_in": ["tybalt_mercutio"]},
                     end_prologue=False)
    act(table, "prologue_swap", 0, target=5)  # Prospero's seat takes Mercutio
    act(table, "end_prologue")
    assert table.view(5)["you"]["captain"] == "mercutio"
    act(table, "correct", target=5, counter="health", value=0, reason="left the table")
    players = table.view(None)["players"]
    assert not players[5]["alive"] and players[0]["alive"]


def test_a_mark_entered_before_the_swap_leaves_with_its_captain() -> None:
    """The seed's Prologue calls Romeo before Hamlet. The phones do not wait for the swap
    (that would show Romeo was dealt): a mark already entered by a captain the swap sends
    to the centre is dropped, and its token is laid only when the Prologue ends."""
    captains = {0: "romeo", 1: "puck", 2: "portia", 3: "iago", 4: "cordelia", 5: "prospero"}
    table = cg_table(captains, seats=FIVE + ("Fay",), end_prologue=False)
    act(table, "prologue_mark", 4, target=1)
    assert table.view(None)["players"][1]["loyalty"] == 0  # not yet: it would tell whose
    act(table, "prologue_swap", 0, target=4)  # Cordelia to the centre, Juliet to seat 4
    act(table, "end_prologue")
    assert table.view(4)["you"]["captain"] == "juliet" and table.view(4)["you"]["my_mark"] is None
    assert table.view(None)["players"][1]["loyalty"] == 0


def test_a_marks_token_is_laid_when_the_prologue_ends() -> None:
    table = cg_table({0: "brutus", 1: "puck", 2: "portia", 3: "iago", 4: "prospero"},
                     seats=FIVE, end_prologue=False)
    act(table, "prologue_mark", 0, target=3)
    assert table.view(None)["players"][3]["loyalty"] == 0
    act(table, "end_prologue")
    assert table.view(None)["players"][3]["loyalty"] == 1


def test_hamlets_token_is_not_blood(four: TableSession) -> None:
    table = cg_table({0: "hamlet", 1: "iago", 2: "portia", 3: "puck"}, end_prologue=False)
    act(table, "prologue_mark", 0, target=1)
    act(table, "end_prologue")
    assert table.view(None)["players"][1]["blood"] == 0
    assert table.view(1)["you"]["holds_hamlet_token"]
    assert not table.view(2)["you"]["holds_hamlet_token"]
    assert table.view(0)["you"]["my_mark"] == 1


def test_cordelia_wins_with_her_mark_even_when_dead() -> None:
    table = cg_table({0: "cordelia", 1: "hamlet", 2: "puck", 3: "iago", 4: "portia"},
                     seats=FIVE, end_prologue=False)
    act(table, "prologue_mark", 0, target=1)
    act(table, "prologue_mark", 1, target=2)
    act(table, "end_prologue")
    assert table.view(None)["players"][1]["loyalty"] == 1  # Cordelia's token is public
    hurt(table, 0, 0)  # Cordelia dies
    charge_until(table, 1)
    hurt(table, 2, 1)
    strike(table, 1, 2)
    result = outcome(table)
    assert result is not None and result["winners"] == [0, 1]


def test_brutus_marks_with_loyalty_and_wins_by_killing_the_mark() -> None:
    table = cg_table({0: "brutus", 1: "puck", 2: "portia", 3: "iago", 4: "prospero"},
                     seats=FIVE, end_prologue=False)
    act(table, "prologue_mark", 0, target=3)
    act(table, "end_prologue")
    hurt(table, 3, 1)
    strike(table, 0, 3)
    result = outcome(table)
    assert result is not None and 0 in result["winners"]


def test_iago_needs_strictly_the_most_blood() -> None:
    table = cg_table({0: "iago", 1: "puck", 2: "portia", 3: "prospero"})
    act(table, "correct", target=0, counter="blood", value=2, reason="t")
    act(table, "correct", target=2, counter="blood", value=2, reason="t")
    act(table, "correct", target=3, counter="health", value=0, reason="t")
    act(table, "correct", target=1, counter="health", value=0, reason="t")
    act(table, "correct", target=2, counter="health", value=0, reason="t")  # all but Iago dead
    # Nobody's instant win: Iago is alone, the game runs to the end of round 12.
    while outcome(table) is None:
        act(table, "charge", 0)
    result = outcome(table)
    assert result is not None and result["reason"] == "round_limit"
    assert result["winners"] == [] and result["tragedy"]


def test_iago_shares_a_win_with_the_most_blood() -> None:
    table = cg_table({0: "iago", 1: "puck", 2: "portia", 3: "prospero"})
    act(table, "correct", target=0, counter="blood", value=3, reason="t")
    act(table, "correct", target=3, counter="health", value=0, reason="t")
    while outcome(table) is None:
        act(table, "charge", table.view(None)["turn"])
    result = outcome(table)
    assert result is not None and result["winners"] == [0, 1]  # Iago and Puck


def test_lady_macbeth_reveals_with_three_blood_and_wins_next_turn() -> None:
    table = cg_table({0: "lady_macbeth", 1: "puck", 2: "portia", 3: "iago"})
    with pytest.raises(IllegalActionError, match="your captain cannot Reveal now"):
        act(table, "reveal", 0)  # offered to every seat, refused when asked
    act(table, "correct", target=0, counter="blood", value=3, reason="t")
    act(table, "reveal", 0)
    assert table.view(None)["players"][0]["captain"] == "lady_macbeth"
    assert table.view(None)["players"][0]["blood"] == 3  # not spent
    act(table, "charge", 0)
    charge_until(table, 0)
    result = outcome(table)
    assert result is not None and result["winners"] == [0]


def test_prospero_who_never_reveals_dies_after_his_round_11_turn() -> None:
    table = cg_table({0: "prospero", 1: "puck", 2: "portia", 3: "iago"})
    while table.view(None)["round"] < 11:
        act(table, "charge", table.view(None)["turn"])
    act(table, "charge", 0)
    prospero = table.view(None)["players"][0]
    assert not prospero["alive"]
    assert table.view(None)["deaths"] == [{"seat": 0, "killer": None, "cause": "lost"}]


def six_with_lovers(**options: Any) -> TableSession:
    captains = {0: "romeo", 1: "puck", 2: "portia", 3: "iago", 4: "hamlet", 5: "prospero"}
    table = cg_table(captains, seats=FIVE + ("Fay",), options=options, end_prologue=False)
    act(table, "prologue_swap", 0, target=3)
    act(table, "end_prologue")
    return table


def test_the_prologue_swap_gives_juliet_and_keeps_the_old_captain_known() -> None:
    table = six_with_lovers()
    you = table.view(3)["you"]
    assert you["captain"] == "juliet" and you["original_captain"] == "iago"
    assert table.view(None)["players"][3]["captain"] is None
    assert table.history_for(None)[0].action.name == "end_prologue"  # the swap is private


def test_romeo_loses_when_juliet_dies() -> None:
    table = six_with_lovers()
    hurt(table, 3, 1)
    act(table, "charge", 0)
    charge_until(table, 2)
    strike(table, 2, 3)
    players = table.view(None)["players"]
    assert not players[3]["alive"] and not players[0]["alive"]


def test_romeo_and_juliet_win_as_the_last_two() -> None:
    table = six_with_lovers()
    for seat in (1, 2, 4, 5):
        act(table, "correct", target=seat, counter="health", value=0, reason="t")
    result = outcome(table)
    assert result is not None and result["winners"] == [0, 3]


def test_richard_reveal_hits_everyone_below_his_energy() -> None:
    captains = {0: "richard_iii", 1: "puck", 2: "portia", 3: "iago", 4: "hamlet",
                5: "prospero", 6: "rosalind"}
    table = cg_table(captains, seats=SEVEN)
    act(table, "correct", target=0, counter="energy", value=6, reason="t")
    for seat in (1, 2, 3, 4, 5):
        act(table, "correct", target=seat, counter="health", value=5, reason="t")
    act(table, "reveal", 0)
    result = outcome(table)
    assert result is not None and result["winners"] == [0]
    assert all(d["killer"] == 0 for d in table.view(None)["deaths"][:5])


def test_rosalind_wins_alone_after_round_8_without_deaths() -> None:
    captains = {0: "rosalind", 1: "puck", 2: "portia", 3: "iago", 4: "hamlet",
                5: "prospero", 6: "cordelia"}
    table = cg_table(captains, seats=SEVEN)
    while outcome(table) is None:
        act(table, "charge", table.view(None)["turn"])
    result = outcome(table)
    assert result is not None and result["winners"] == [0]
    assert table.view(None)["round"] == 8


def test_rosalind_dies_at_the_second_death() -> None:
    captains = {0: "rosalind", 1: "puck", 2: "portia", 3: "iago", 4: "hamlet",
                5: "lady_macbeth", 6: "cordelia"}
    table = cg_table(captains, seats=SEVEN)
    hurt(table, 3, 0)
    assert table.view(None)["players"][0]["alive"]
    hurt(table, 4, 0)
    assert not table.view(None)["players"][0]["alive"]


def test_tybalt_wins_by_killing_mercutio() -> None:
    captains = {0: "tybalt", 1: "puck", 2: "portia", 3: "iago", 4: "hamlet", 5: "prospero"}
    table = cg_table(captains, seats=FIVE + ("Fay",), options={"warp_in": ["tybalt_mercutio"]},
                     end_prologue=False)
    act(table, "prologue_swap", 0, target=2)
    act(table, "end_prologue")
    assert table.view(2)["you"]["captain"] == "mercutio"
    hurt(table, 2, 1)
    strike(table, 0, 2)
    result = outcome(table)
    assert result is not None and result["winners"] == [0]


def test_a_third_party_killing_mercutio_ends_both() -> None:
    captains = {0: "tybalt", 1: "puck", 2: "portia", 3: "iago", 4: "hamlet", 5: "prospero"}
    table = cg_table(captains, seats=FIVE + ("Fay",), options={"warp_in": ["tybalt_mercutio"]},
                     end_prologue=False)
    act(table, "prologue_swap", 0, target=2)
    act(table, "end_prologue")
    act(table, "charge", 0)
    hurt(table, 2, 1)
    strike(table, 1, 2)
    players = table.view(None)["players"]
    assert not players[0]["alive"] and not players[2]["alive"]


def test_titus_last_stand_in_the_save_window() -> None:
    captains = {0: "puck", 1: "titus", 2: "portia", 3: "iago", 4: "hamlet", 5: "prospero",
                6: "rosalind"}
    table = cg_table(captains, seats=SEVEN, options={"warp_in": ["titus"]})
    act(table, "correct", target=1, counter="blood", value=4, reason="t")
    hurt(table, 1, 1)
    act(table, "strike", 0, target=1)
    act(table, "resolve", 0)
    assert table.view(None)["phase"] == "save" and table.view(None)["waiting_for"] == [1]
    act(table, "last_stand", 1)
    players = table.view(None)["players"]
    assert not players[1]["alive"] and players[1]["captain"] == "titus"
    assert [p["health"] for p in players if p["seat"] != 1] == [6, 6, 6, 6, 6, 6]
    assert table.view(None)["deaths"] == [{"seat": 1, "killer": 0, "cause": "damage"}]
    assert table.view(None)["players"][0]["blood"] == 1  # Puck's strike still gives blood


def test_viola_plays_as_a_dead_captain() -> None:
    captains = {0: "viola", 1: "brutus", 2: "puck", 3: "iago", 4: "portia"}
    table = cg_table(captains, seats=FIVE, options={"warp_in": ["viola"]}, end_prologue=False)
    act(table, "prologue_mark", 1, target=3)
    act(table, "end_prologue")
    hurt(table, 1, 0)  # Brutus dies; Viola may now play as Brutus, with his mark
    act(table, "choose_corpse", 0, target=1)
    hurt(table, 3, 1)
    strike(table, 0, 3)
    result = outcome(table)
    assert result is not None and result["winners"] == [0]


def test_othello_wins_by_killing_the_least_loyal() -> None:
    captains = {0: "othello", 1: "puck", 2: "portia", 3: "iago", 4: "king_lear"}
    table = cg_table(captains, seats=FIVE, options={"warp_in": ["lear_othello"]})
    act(table, "take_income", 0, kind="energy")
    for seat in (1, 2, 4):
        act(table, "correct", target=seat, counter="loyalty", value=2, reason="t")
    hurt(table, 3, 1)
    strike(table, 0, 3)
    result = outcome(table)
    assert result is not None and 0 in result["winners"]


def test_imogen_shares_a_win_unless_the_winner_wants_her_dead() -> None:
    captains = {0: "imogen", 1: "hamlet", 2: "puck", 3: "iago", 4: "portia", 5: "prospero",
                6: "richard_iii"}
    table = cg_table(captains, seats=SEVEN, options={"warp_in": ["imogen"]}, end_prologue=False)
    act(table, "prologue_mark", 1, target=2)
    act(table, "end_prologue")
    charge_until(table, 1)
    hurt(table, 2, 1)
    strike(table, 1, 2)
    result = outcome(table)
    assert result is not None and result["winners"] == [0, 1]


def test_everyone_dead_is_a_tragedy(four: TableSession) -> None:
    for seat in range(4):
        act(four, "correct", target=seat, counter="health", value=0, reason="t")
    result = outcome(four)
    assert result is not None and result["reason"] == "all_dead" and result["tragedy"]


def test_views_hold_only_your_own_secrets(four: TableSession) -> None:
    table_view = four.view(None)
    assert "you" not in table_view
    assert all(p["captain"] is None and p["permits"] == 2 for p in table_view["players"])
    for seat in range(4):
        view = four.view(seat)
        assert view["you"]["captain"] == four.state.players[seat].captain
        assert view["you"]["permits"] == four.state.players[seat].permits
        assert view["players"] == table_view["players"]


def test_game_over_reveals_every_captain_but_not_living_permits() -> None:
    table = cg_table({0: "lady_macbeth", 1: "puck", 2: "portia", 3: "iago"},
                     {0: ["barrage", "shield"]})
    act(table, "correct", target=0, counter="blood", value=3, reason="t")
    act(table, "reveal", 0)
    act(table, "charge", 0)
    charge_until(table, 0)
    players = table.view(None)["players"]
    assert [p["captain"] for p in players] == ["lady_macbeth", "puck", "portia", "iago"]
    assert players[0]["permits"] == 2


def test_a_correction_is_logged_for_all_and_needs_a_reason(four: TableSession) -> None:
    act(four, "correct", target=1, counter="energy", value=5, reason="forgot income")
    assert four.history_for(2)[-1].text == (
        "Table correction: Ben's energy 2 -> 5 (forgot income)")
    with pytest.raises(IllegalActionError, match="needs a reason"):
        act(four, "correct", target=1, counter="energy", value=5, reason=" ")
    with pytest.raises(IllegalActionError, match="only the table"):
        act(four, "correct", 0, target=1, counter="energy", value=5, reason="x")


def test_romeo_and_juliet_see_each_other_and_nobody_else_learns_it() -> None:
    """"Romeo+Juliet ... should both see each other during the Prologue": each one's phone
    keeps the other's seat (a blind tester's Juliet had only the nod to go by)."""
    session = TableSession(GameSetup("captains-gambit", tuple("ABCDEFGH"), {}, seed=11))
    assert session.state.players[7].captain == "romeo"
    session.submit(Action("prologue_swap", 7, {"target": 4}))

    def partner(seat: int) -> str | None:
        return next((f.value for f in session.table_view(seat).secrets if f.key == "partner"),
                    None)

    assert (partner(7), partner(4)) == ("E (Juliet)", "H (Romeo)")
    assert [partner(s) for s in range(7) if s != 4] == [None] * 6
