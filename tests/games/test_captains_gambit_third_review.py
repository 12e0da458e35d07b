"""Captain's Gambit: what a third blind review found, each pinned by a test."""

from __future__ import annotations

import pytest

from companion.engine import IllegalActionError, TableSession
from tests.conftest import act, cg_table

SEVEN = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")


def offered(table: TableSession, seat: int) -> list[tuple[str, str]]:
    """What a seat's phone shows as its moves: each button with its note."""
    return [(spec.name, spec.note) for spec in table.legal_actions(seat)]


def test_the_reveal_button_does_not_tell_a_neighbour_who_is_richard() -> None:
    """Richard III may keep his Reveal for later, turn after turn; a Reveal button that only
    his phone showed would name him to anyone glancing at it. Every seat is offered the same
    buttons with the same words on its turn, whatever its captain."""
    captains = {0: "richard_iii", 1: "iago", 2: "portia", 3: "puck", 4: "brutus",
                5: "hamlet", 6: "rosalind"}
    table = cg_table(captains, seats=SEVEN)
    richard = offered(table, 0)
    assert "reveal" in [name for name, _ in richard]
    act(table, "charge", 0)
    assert offered(table, 1) == richard  # Iago, on his turn
    with pytest.raises(IllegalActionError,
                       match=r"by seat 1 \(Ben\): your captain cannot Reveal now\. Only"
                             r" Prospero \(with 8 energy\), Lady Macbeth"):
        act(table, "reveal", 1)
    act(table, "charge", 1)


def refusal(table: TableSession, seat: int) -> str:
    with pytest.raises(IllegalActionError) as refused:
        act(table, "reveal", seat)
    return refused.value.reason


def test_prospero_below_his_energy_is_offered_the_reveal_but_refused() -> None:
    table = cg_table({0: "prospero", 1: "puck", 2: "portia", 3: "iago"})
    assert "reveal" in [spec.name for spec in table.legal_actions(0)]
    # The words Puck would get: none names the captain (a blind review found "reveals
    # with 8 energy", Prospero's alone, on a phone a neighbour may see).
    puck = cg_table({0: "puck", 1: "prospero", 2: "portia", 3: "iago"})
    assert refusal(table, 0) == refusal(puck, 0) == (
        "your captain cannot Reveal now. Only Prospero (with 8 energy) and Lady Macbeth (with 3"
        " blood) reveal on their turn, before their action; a Reveal does not use up the"
        " action.")
    act(table, "correct", target=0, counter="energy", value=8, reason="t")
    act(table, "reveal", 0)
    assert "reveal" not in [spec.name for spec in table.legal_actions(0)]  # revealed: public


def test_a_call_on_a_simple_action_says_there_was_no_permit_to_call(four: TableSession) -> None:
    act(four, "strike", 0, target=1)
    with pytest.raises(IllegalActionError,
                       match="no permit claim open to a bluff call: a Strike is a simple action,"
                             " with no permit to call$"):
        act(four, "call_bluff", 2)


def test_a_call_on_an_identity_theft_says_it_cannot_be_called() -> None:
    table = cg_table({0: "puck"}, {0: ["identity_theft", "drain"]},
                     options={"wildcards": True})
    act(table, "barrage", 0, target=1, via="identity_theft")
    with pytest.raises(IllegalActionError,
                       match="bluff call: the Barrage was done with Identity Theft, which cannot"
                             " be called$"):
        act(table, "call_bluff", 2)


def test_a_wildcard_or_a_permit_held_shows_nowhere_on_the_buttons() -> None:
    """A neighbour glancing at a phone sees its buttons. Whether a seat holds Identity Theft,
    Diplomatic Immunity or the permit it is called on, its phone offers the same buttons with
    the same fields and words at every step (holding is judged when a button is tapped), so
    a seat that concedes or takes the damage has told nobody what it holds."""
    def offers(hand: list[str]) -> list[list[dict[str, object]]]:
        table = cg_table({0: "puck", 1: "iago", 2: "portia", 3: "prospero"},
                         {0: hand, 1: ["drain", "overcharge"], 2: ["fortify", "network"],
                          3: ["barrage", "shield"]}, options={"wildcards": True})
        seen = [[spec.to_dict() for spec in table.legal_actions(0)]]  # its turn
        act(table, "overcharge", 0)
        act(table, "call_bluff", 3)
        seen.append([spec.to_dict() for spec in table.legal_actions(0)])  # called
        act(table, "concede", 0)
        assert table.view(None)["phase"] == "immunity"
        seen.append([spec.to_dict() for spec in table.legal_actions(0)])  # lost the call
        return seen

    holder = offers(["identity_theft", "overcharge"])
    assert offers(["diplomatic_immunity", "shield"]) == holder
    assert offers(["barrage", "shield"]) == holder
    turn, called, lost = ([spec["name"] for spec in step] for step in holder)
    assert "overcharge" in turn and "show_permit" in called and "use_immunity" in lost


def test_a_button_tapped_without_the_card_is_refused_and_changes_nothing() -> None:
    table = cg_table({0: "puck", 1: "iago", 2: "portia", 3: "prospero"},
                     {0: ["barrage", "shield"], 1: ["drain", "overcharge"],
                      2: ["fortify", "network"], 3: ["barrage", "shield"]},
                     options={"wildcards": True})
    with pytest.raises(IllegalActionError, match=r"seat 0 \(Ann\) holds no Identity Theft"):
        act(table, "overcharge", 0, via="identity_theft")
    act(table, "overcharge", 0)
    act(table, "call_bluff", 3)
    before = table.view(None)
    with pytest.raises(IllegalActionError, match=r"seat 0 \(Ann\) holds no Overcharge permit"):
        act(table, "show_permit", 0)
    assert table.view(None) == before
    act(table, "concede", 0)
    with pytest.raises(IllegalActionError, match=r"seat 0 \(Ann\) holds no Diplomatic Immunity"):
        act(table, "use_immunity", 0)
    act(table, "take_damage", 0)


def test_a_call_after_a_shield_names_whose_claim_it_calls(four: TableSession) -> None:
    """Once Cat Shields Ann's Strike, every phone says so, and the call's choices are "Cat's
    Shield" and "Ann's Barrage", not "the Shield" and "the action's permit"."""
    act(four, "barrage", 0, target=2)
    act(four, "shield", 2)
    assert four.view(3)["status"] == "Cat Shields Ann's Barrage; it awaits reactions"
    call = next(spec for spec in four.legal_actions(3) if spec.name == "call_bluff")
    assert call.params[0].labels == ("Ann's Barrage", "Cat's Shield")
