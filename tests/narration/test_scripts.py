"""The narrator's scripts: built from exactly what is in play, in the rulebook's order."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import GameSetup, RulesError, TableSession, get_game
from companion.games.captains_gambit import Book
from companion.narration.scripts import NarrationError, eyes_closed
from companion.narration.timeline import Pacing, build, describe, estimate_speech
from tests.narration.scripts import (
    BURKES,
    CAPTAINS,
    head_down,
    needs_prologue,
    pool_from_setup,
    prologue,
)

BOOK = Book.load()
GROUPS = BOOK.warp_in_groups()
# The seed's order of the Prologue's parts (rulebook p. 12); Tybalt takes Romeo's place.
SEED_ORDER = ("romeo", "tybalt", "hamlet", "cordelia", "brutus")
CAPTAIN_LABELS = {name: BOOK.label(name) for name in BOOK.data["captains"]}


def dealt_pool(players: int, warp_in: list[str], seed: int) -> list[str]:
    """The pool the engine's own setup deals from."""
    session = TableSession(GameSetup("captains-gambit", tuple(f"P{i}" for i in range(players)),
                                     {"warp_in": warp_in}, seed=seed))
    return list(session.state.pool)


def called(lines: list[str]) -> list[str]:
    """Captains told to open their eyes, in the order they are called."""
    out = []
    for line in lines:
        match = re.match(r"([A-Z][a-z]+(?: [A-Z][a-z]+)*), open your eyes", line)
        if match and match.group(1) != "Everyone":
            out.append(match.group(1))
    return out


@settings(max_examples=150, deadline=None)
@given(players=st.integers(4, 8), warp_in=st.sets(st.sampled_from(GROUPS)),
       seed=st.integers(0, 10**6))
def test_the_prologue_calls_exactly_the_pools_prologue_captains_in_the_seeds_order(
        players: int, warp_in: set[str], seed: int) -> None:
    pool = dealt_pool(players, sorted(warp_in), seed)
    if not needs_prologue(pool):  # nothing to read: nobody in the pool has a part
        assert not set(SEED_ORDER).intersection(pool)
        return
    script = prologue(pool)
    lines = script.lines
    text = " ".join(lines)

    # An absent captain is never named at all.
    for name, label in CAPTAIN_LABELS.items():
        if name not in pool:
            assert not re.search(rf"\b{re.escape(label)}\b", text), (name, pool)
    # Every captain with a part is called once, in the seed's order.
    expected = [CAPTAIN_LABELS[c] for c in SEED_ORDER if c in pool]
    assert called(lines) == expected
    # The opening is first, the closing last, and nobody is told to open their eyes between
    # the last call and the end but everyone.
    assert lines[0].startswith("Everyone, put your hand palm-up")
    assert lines[-1].startswith("Everyone, open your eyes")
    # The swapper's partner is the one in the pool's centre.
    if "tybalt" in pool:
        assert "Mercutio card" in text and "Juliet" not in text
    if "romeo" in pool:
        assert "Juliet card" in text
    # Hamlet's token is only mentioned when Hamlet is there.
    assert ("If you were given the token" in text) == ("hamlet" in pool)


def test_every_pool_setup_can_produce_is_covered() -> None:
    """The same check, exhaustively over player counts and Warp In choices."""
    for players in range(4, 9):
        for size in range(len(GROUPS) + 1):
            for groups in itertools.combinations(GROUPS, size):
                pool = pool_from_setup(players, groups)
                assert sorted(pool) == sorted(dealt_pool(players, list(groups), 1))
                if needs_prologue(pool):
                    assert called(prologue(pool).lines) == [
                        CAPTAIN_LABELS[c] for c in SEED_ORDER if c in pool]


def test_four_players_with_viola_need_no_prologue() -> None:
    pool = pool_from_setup(4, ["viola"])
    assert "hamlet" not in pool and not needs_prologue(pool)


def test_a_named_pool_is_checked_against_what_setup_deals() -> None:
    five = pool_from_setup(5)
    assert sorted(CAPTAINS.check_in_play(five, None)) == sorted(five)
    assert sorted(CAPTAINS.check_in_play(",".join(five).upper().split(","), 5)) == sorted(five)
    lear = pool_from_setup(5, ["lear_othello"])
    assert sorted(CAPTAINS.check_in_play(lear, None)) == sorted(lear)


@pytest.mark.parametrize(("captains", "players", "message"), [
    (["hamlet", "yorick"], None, "unknown captain 'yorick'"),
    (["hamlet", "cordelia", "brutus"], None, "setup cannot deal that pool"),
    (pool_from_setup(5), 6, "setup cannot deal that pool to 6 players"),
    (pool_from_setup(5), 9, "4 to 8 players"),
    (pool_from_setup(4) + ["romeo"], None, "setup cannot deal that pool"),
])
def test_a_pool_setup_cannot_produce_is_refused(captains: list[str], players: int | None,
                                                message: str) -> None:
    with pytest.raises(RulesError, match=message):
        CAPTAINS.check_in_play(captains, players)


def test_unknown_warp_in_group_is_refused() -> None:
    with pytest.raises(RulesError, match="unknown Warp In group 'macbeth'"):
        pool_from_setup(6, ["macbeth"])


@pytest.mark.parametrize("players", range(4, 9))
def test_heads_down_for_every_player_count(players: int) -> None:
    session = TableSession(GameSetup("burkes-gambit", tuple(f"P{i}" for i in range(players))))
    phases = eyes_closed(BURKES, session.view(None), players)
    assert list(phases) == ["heads-down"]
    lines = head_down().lines
    assert lines[0].startswith("Everyone, look at your ID card")
    assert any(line.startswith("Acquisition Support Specialists, and only you") for line in lines)
    assert lines[-1].startswith("Everyone, lift your head")
    # The specialists are sent back down before everyone looks up.
    assert lines.index(next(x for x in lines if x.startswith("Specialists, put your head"))) \
        < len(lines) - 1


def test_pacing_presets_and_overrides_set_the_pauses() -> None:
    script = prologue(pool_from_setup(5))
    quick = build(script, Pacing.preset("quick"), estimate_speech)
    relaxed = build(script, Pacing.preset("relaxed"), estimate_speech)
    assert quick.seconds < build(script, Pacing.preset("normal"), estimate_speech).seconds \
        < relaxed.seconds
    longer = build(script, Pacing.preset("normal", {"hamlet": 20.0}), estimate_speech)
    hamlet_acts = [c for c in longer.cues if c.section == "hamlet" and c.reason == "enter"]
    other_acts = [c for c in longer.cues if c.section != "hamlet" and c.reason == "enter"]
    assert [c.length for c in hamlet_acts] == [20 * longer.rate]
    assert other_acts and all(c.length == 12 * longer.rate for c in other_acts)
    every_act = build(script, Pacing.preset("normal", {"act": 3.0}), estimate_speech)
    assert all(c.length == 3 * every_act.rate for c in every_act.cues if c.reason == "act")


def test_unknown_pacing_and_absurd_pauses_are_refused() -> None:
    with pytest.raises(NarrationError, match="unknown pacing 'slow'"):
        Pacing.preset("slow")
    with pytest.raises(NarrationError, match="not between 0 and 600"):
        Pacing.preset("normal", {"act": -1.0})


def test_the_timeline_is_contiguous_and_its_text_has_every_line() -> None:
    script = prologue(pool_from_setup(8))
    timeline = build(script, Pacing.preset("normal"), estimate_speech)
    position = 0
    for cue in timeline.cues:
        assert cue.start == position and cue.length > 0
        position += cue.length
    assert timeline.length == position
    assert [c.text for c in timeline.spoken] == script.lines
    text = describe(timeline)
    assert all(line in text for line in script.lines)
    assert text.splitlines()[0].endswith(f"{len(script.lines)} spoken lines")
    # Countdown numbers are one per second at normal pacing, whatever the speech length.
    counts = [c for c in timeline.spoken if c.text in ("3", "2", "1")]
    starts = [c.start for c in counts[:3]]
    assert [b - a for a, b in itertools.pairwise(starts)] == [timeline.rate, timeline.rate]


def test_the_scripts_call_exactly_the_captains_the_game_says_have_a_prologue_part() -> None:
    """One list in two files: the game's data (which captains have a part) and the script's
    sections (whom it calls) must agree."""
    from companion.games.captains_gambit.narration import _script_data

    sections = _script_data()["prologue"]["sections"]
    callers = {c for section in sections if section["name"] not in ("opening", "hands",
                                                                        "closing")
               for c in section.get("when_any", [])}
    assert callers == set(BOOK.prologue_captains())


def phases_of(game: str, players: int, options: dict[str, list[str]] | None = None) -> list[str]:
    """The eyes-closed phases a table set up this way has, as the service finds them."""
    session = TableSession(GameSetup(game, tuple(f"P{i}" for i in range(players)), options or {},
                                     seed=1))
    return list(eyes_closed(get_game(game), session.view(None), players))


def test_each_game_has_its_own_eyes_closed_phase_and_script() -> None:
    assert phases_of("captains-gambit", 5) == ["prologue"]
    # No captain of the 4-player pool with Viola acts in the Prologue.
    assert phases_of("captains-gambit", 4, {"warp_in": ["viola"]}) == []
    assert phases_of("burkes-gambit", 6) == ["heads-down"]


def test_only_engine_power_ups_are_announced() -> None:
    events = [{"type": "damaged", "seat": 1, "health": 1},
              {"type": "engine_powered", "engines": 3, "to_earth": 5}]
    assert BURKES.announce(events) == "Engines at 3 of 5."
    assert BURKES.announce(events[:1]) == ""
    assert CAPTAINS.announce(events) == ""


def test_the_voice_is_given_respelt_words_and_the_screen_keeps_the_scripts() -> None:
    """espeak-ng says "Then, close your eyes." with the adjective "klohs", and Tybalt as
    "TIE-bolt": the voice is given respellings (data say_as), every screen the rulebook's
    words."""
    script = prologue(["tybalt", "mercutio", "hamlet", "brutus", "viola", "lear"])
    assert "Then, close your eyes." in script.lines  # the rulebook's words, shown
    assert script.speech["Then, close your eyes."] == "Then, cloze your eyes."
    tybalt = next(line for line in script.lines if line.startswith("Tybalt, open"))
    assert "Mercutio" in tybalt  # Tybalt chooses who becomes Mercutio
    said = script.speech[tybalt]
    assert said.startswith("Tibbult, open") and "Merkewshio" in said
    assert "Hamlet, open your eyes." not in script.speech  # said as written
    assert all(not step.speak for step in script.steps if step.count)
    heads = head_down()
    assert heads.speech["Everyone, put your head down and close your eyes."] == \
        "Everyone, put your head down and cloze your eyes."


@pytest.mark.parametrize("preset", ["quick", "normal", "relaxed"])
def test_a_captain_who_also_taps_the_phone_is_given_longer_than_a_token_alone(preset: str
                                                                            ) -> None:
    """Romeo's choice, Hamlet's, Cordelia's and Brutus's marks are made at the table and on
    the phone, eyes open (the phones' instructions ask it): their pauses are `enter`, longer
    than the selected player's swap (`act`), in every preset."""
    script = prologue(["romeo", "juliet", "hamlet", "cordelia", "brutus", "viola"])
    timeline = build(script, Pacing.preset(preset), estimate_speech)
    waits = {(cue.section, cue.reason): cue.length for cue in timeline.cues
             if cue.reason in ("act", "enter")}
    assert {section for section, reason in waits if reason == "enter"} == \
        {"swap", "hamlet", "cordelia", "brutus"}
    assert waits[("swap", "enter")] > waits[("swap", "act")]
    assert min(waits.values()) == waits[("swap", "act")]
