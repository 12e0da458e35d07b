"""Random legal games of Burke's Gambit (hypothesis) and the invariants they must keep,
among them: no seat ever sees a parasite card it did not look at, its own included.

COMPANION_PROPERTY_GAMES sets how many games (default 2000, shared with Captain's Gambit).
"""

from __future__ import annotations

import os
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import GameSetup, TableSession
from companion.engine.random_play import random_step
from companion.games.burkes_gambit.state import INFECTED, State

GAMES = int(os.environ.get("COMPANION_PROPERTY_GAMES", "2000")) // 4
MAX_ACTIONS = 3000  # far above a real game: a game that does not end fails the test

setups = st.builds(
    lambda players, seed, engines: GameSetup(
        "burkes-gambit", tuple(f"P{i}" for i in range(players)),
        {"engines_to_earth": engines} if engines else {}, seed=seed),
    st.integers(4, 8), st.integers(0, 2**31), st.sampled_from([None, None, 1, 2, 8]))


def check_state(state: State) -> None:
    health = state.book.health
    assert all(0 <= p.health <= health for p in state.players), "health out of 0..max"
    assert all(p.alive == (p.health > 0) for p in state.players), "alive and health disagree"
    living = state.living()
    if state.outcome is None:
        assert [p.parasite for p in living].count(INFECTED) == 1, "not one infected survivor"
        assert any(p.team == "crew" for p in living), "the crew are dead but play goes on"
        # at Earth only the vote goes on, or a Cancel's window opened in it (a reserved Cancel
        # played on a standing quarantine, say), which closes back to the vote
        at_vote = state.phase in ("vote", "tiebreak") or (
            state.phase == "cancel" and state.pending is not None
            and state.pending.resume in ("vote", "tiebreak"))
        assert state.engines < state.to_earth or at_vote
    assert 0 <= state.dice_out() <= state.book.data["setup"]["dice"]
    assert all(p.reserve != "engine" for p in state.players), "an engine die was reserved"
    assert all(state.players[s].alive for s in state.quarantine), "a dead player in quarantine"


def parasites_seen(document: Any, path: str = "") -> list[tuple[str, Any]]:
    """Every place a parasite card's face appears in a view."""
    found = []
    if isinstance(document, dict):
        for key, value in document.items():
            if key == "parasite" and value is not None:
                found.append((path, value))
            if key == "result" and document.get("card") == "parasite" and value is not None:
                found.append((f"{path}.look", value))
            found += parasites_seen(value, f"{path}.{key}")
    elif isinstance(document, list):
        for i, value in enumerate(document):
            found += parasites_seen(value, f"{path}[{i}]")
    return found


def check_secrets(session: TableSession, seat: int) -> None:
    state = session.state
    view = session.view(seat)
    looked_at = {look.seat for look in state.players[seat].looks if look.card == "parasite"}
    for path, _ in parasites_seen(view):
        if path.endswith(".look"):
            continue  # its own looks: checked below
        index = int(path.split("[")[1].split("]")[0])
        player = state.players[index]
        assert player.revealed or state.outcome is not None, \
            f"seat {seat} sees seat {index}'s parasite card unrevealed"
    for look in view["you"]["looks"]:
        if look["card"] == "parasite":
            assert look["seat"] != seat, "a seat looked at its own parasite card"
            assert look["seat"] in looked_at
    if state.outcome is None:
        assert view["players"][seat]["parasite"] is None or state.players[seat].revealed, \
            "a living seat sees its own parasite card"
    table = session.view(None)
    mine = dict(view)
    mine.pop("you")
    assert mine == table, "a seat's view differs from the table's outside its own secrets"
    assert view["you"]["team"] == state.players[seat].team


@settings(max_examples=GAMES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups, play_seed=st.integers(0, 2**31))
def test_random_games_keep_the_invariants(setup: GameSetup, play_seed: int) -> None:
    rng = random.Random(play_seed)
    session = TableSession(setup)
    for _ in range(MAX_ACTIONS):
        before = session.state
        action = random_step(session, rng)
        if action is None:
            break
        if action.seat is not None and action.name not in ("vote",):
            assert before.players[action.seat].alive, f"a dead seat acted: {action}"
        check_state(session.state)
        check_secrets(session, rng.randrange(len(setup.seats)))
    assert session.outcome is not None, "the game never ended"
    assert session.state.phase == "over"
    # The log replays to the same state.
    again = TableSession.replay(session.setup, [r.action for r in session.history])
    assert again.view(None) == session.view(None)
