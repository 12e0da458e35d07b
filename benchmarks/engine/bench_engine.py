"""Benchmark of the rules engine on random games of Captain's Gambit.

Run from the repository root, by hand (it is not a test and nothing runs it in CI)::

    .venv/bin/python benchmarks/engine/bench_engine.py [--games N] [--seed S] [--search M]

It plays ``--games`` random games (4 to 8 seats, random options: wildcards, mulligan and a
random subset of the Warp In groups) with ``random_step``, keeps their logs, and prints:

apply (validate + apply)
    Median and p95 of one ``session.rules.apply(state, action)`` call, over every logged
    action of every game, each re-applied to the state it was first applied to. Choosing
    the action (``legal_actions`` for every seat, the random draw) is not timed, nor is
    ``describe`` (the log line ``submit`` adds). Target: under 200 us.
legal_actions
    Median and p95 of ``session.legal_actions(seat)`` for the seat that acts next, on the
    same states: what a UI asks after each action.
replay
    ``TableSession.replay(setup, actions)`` of the longest game found (median of several
    repeats). ``--search`` more 8-seat games are played to look for a log of at least 500
    actions; random play rarely goes past about 300 (the game ends after 12 rounds), so when
    none is found the 500-action figure is the longest game's replay time per action x 500,
    and the table says so. Target: a 500-action replay under 100 ms.
random games/s
    Whole games played by ``random_step`` from setup to the end, per second (this includes
    ``legal_actions`` for every seat and the table before each action).
memory
    tracemalloc of replaying the longest game into one TableSession, which keeps every
    state (its undo stack): the memory it still holds afterwards, and the peak while building.

Standard library only. Timings include the garbage collector, as a table would see them.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import companion.games  # noqa: F401  (registers the games)
from companion.engine import Action, GameSetup, TableSession
from companion.engine.random_play import random_step

GAME = "captains-gambit"
WARP_IN_GROUPS = ("viola", "lear_othello", "tybalt_mercutio", "titus", "imogen")
APPLY_TARGET_US = 200.0
REPLAY_TARGET_MS = 100.0
REPLAY_LENGTH = 500
REPLAY_REPEATS = 7
MAX_ACTIONS = 5000  # a guard: a game that never ends is a bug, not a benchmark


@dataclass(frozen=True)
class PlayedGame:
    """A finished random game: how it was set up and what was done."""

    setup: GameSetup
    actions: tuple[Action, ...]
    seconds: float  # wall time to play it with random_step


def random_setup(rng: random.Random, seats: int | None = None) -> GameSetup:
    """A setup with 4 to 8 seats (or ``seats``) and random table options."""
    count = seats if seats is not None else rng.randint(4, 8)
    options: dict[str, Any] = {
        "wildcards": rng.random() < 0.5,
        "mulligan": rng.random() < 0.5,
        "warp_in": [group for group in WARP_IN_GROUPS if rng.random() < 0.5],
    }
    names = tuple(f"Seat {i}" for i in range(count))
    return GameSetup(GAME, seats=names, options=options, seed=rng.randrange(2**31))


def play_random_game(setup: GameSetup, rng: random.Random) -> PlayedGame:
    """Play ``setup`` to the end with random legal actions."""
    start = time.perf_counter()
    session = TableSession(setup)
    for _ in range(MAX_ACTIONS):
        if random_step(session, rng) is None:
            break
    else:
        raise RuntimeError(f"game {setup} did not end within {MAX_ACTIONS} actions")
    seconds = time.perf_counter() - start
    return PlayedGame(session.setup, tuple(r.action for r in session.history), seconds)


def play_games(count: int, seed: int, seats: int | None = None) -> list[PlayedGame]:
    """``count`` random games, each from its own generator so any one can be played again."""
    games = []
    for index in range(count):
        rng = random.Random(seed * 1_000_003 + index)
        games.append(play_random_game(random_setup(rng, seats), rng))
    return games


def time_steps(games: Sequence[PlayedGame]) -> tuple[list[float], list[float]]:
    """Seconds of each ``rules.apply`` and of ``legal_actions`` for the seat that acts next."""
    apply_times: list[float] = []
    legal_times: list[float] = []
    clock = time.perf_counter
    for game in games:
        session = TableSession(game.setup)
        rules = session.rules
        state = session.state
        for action in game.actions:
            start = clock()
            rules.legal_actions(state, action.seat)
            middle = clock()
            transition = rules.apply(state, action)
            end = clock()
            legal_times.append(middle - start)
            apply_times.append(end - middle)
            state = transition.state
    return apply_times, legal_times


def median_seconds(run: Callable[[], object], repeats: int) -> float:
    """Median wall time of ``run`` over ``repeats`` calls."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def session_memory(game: PlayedGame) -> tuple[int, int]:
    """Bytes a replayed session of ``game`` holds, and the peak while replaying it."""
    TableSession(game.setup)  # load the rule book once, outside the measure
    tracemalloc.start()
    try:
        session = TableSession.replay(game.setup, game.actions)
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del session
    return held, peak


def verdict(value: float, target: float) -> str:
    return "ok" if value < target else "MISSED"


def describe_setup(setup: GameSetup) -> str:
    options = dict(setup.options)
    flags = [name for name in ("wildcards", "mulligan") if options.get(name)]
    warp = ",".join(options.get("warp_in", [])) or "none"
    return f"{len(setup.seats)} seats, {'+'.join(flags) or 'no wildcards/mulligan'}, warp_in {warp}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=300, help="random games to measure")
    parser.add_argument("--seed", type=int, default=1, help="base seed of the random games")
    parser.add_argument("--search", type=int, default=300,
                        help=f"extra 8-seat games played to look for a {REPLAY_LENGTH}-action log")
    args = parser.parse_args(argv)

    print(f"machine: {platform.processor() or platform.machine()} ({platform.machine()}), "
          f"{platform.system()} {platform.release()}")
    print(f"python:  {platform.python_implementation()} {sys.version.split()[0]}")

    games = play_games(args.games, args.seed)
    total_actions = sum(len(g.actions) for g in games)
    play_seconds = sum(g.seconds for g in games)
    lengths = [len(g.actions) for g in games]
    print(f"games:   {len(games)} random games, seed {args.seed}, {total_actions} actions "
          f"(per game: median {statistics.median(lengths):.0f}, max {max(lengths)})")

    apply_times, legal_times = time_steps(games)
    apply_median = statistics.median(apply_times) * 1e6
    apply_p95 = percentile(apply_times, 0.95) * 1e6

    searched = play_games(args.search, args.seed + 7919, seats=8) if args.search else []
    candidates = games + searched
    long_enough = [g for g in candidates if len(g.actions) >= REPLAY_LENGTH]
    longest = max(candidates, key=lambda g: len(g.actions))
    chosen = long_enough[0] if long_enough else longest
    actions = chosen.actions[:REPLAY_LENGTH] if long_enough else chosen.actions
    replay_seconds = median_seconds(lambda: TableSession.replay(chosen.setup, actions),
                                    REPLAY_REPEATS)
    replay_500_ms = replay_seconds / len(actions) * REPLAY_LENGTH * 1e3
    held, peak = session_memory(chosen)

    print(f"replay:  searched {len(candidates)} games for >= {REPLAY_LENGTH} actions: "
          + (f"found one ({describe_setup(chosen.setup)})" if long_enough else
             f"none found; longest is {len(actions)} actions ({describe_setup(chosen.setup)})"))
    print()
    rows = [
        ("apply one action, median", f"{apply_median:8.1f} us",
         f"< {APPLY_TARGET_US:.0f} us {verdict(apply_median, APPLY_TARGET_US)}"),
        ("apply one action, p95", f"{apply_p95:8.1f} us",
         f"< {APPLY_TARGET_US:.0f} us {verdict(apply_p95, APPLY_TARGET_US)}"),
        ("legal_actions(seat to act), median",
         f"{statistics.median(legal_times) * 1e6:8.1f} us", ""),
        ("legal_actions(seat to act), p95",
         f"{percentile(legal_times, 0.95) * 1e6:8.1f} us", ""),
        (f"replay of a {len(actions)}-action game, median of {REPLAY_REPEATS}",
         f"{replay_seconds * 1e3:8.2f} ms", ""),
        (f"replay of {REPLAY_LENGTH} actions"
         + ("" if long_enough else f" (scaled: {len(actions)}-action game x "
            f"{REPLAY_LENGTH / len(actions):.2f})"),
         f"{replay_500_ms:8.2f} ms",
         f"< {REPLAY_TARGET_MS:.0f} ms {verdict(replay_500_ms, REPLAY_TARGET_MS)}"),
        ("random full games per second", f"{len(games) / play_seconds:8.1f} /s",
         f"({total_actions / play_seconds:.0f} actions/s)"),
        (f"memory held by a {len(chosen.actions)}-action session (all states)",
         f"{held / 1024:8.0f} KiB", f"({held / (len(chosen.actions) + 1) / 1024:.1f} KiB/state)"),
        ("memory peak while replaying it", f"{peak / 1024:8.0f} KiB", ""),
    ]
    width = max(len(r[0]) for r in rows)
    for label, figure, target in rows:
        print(f"{label:<{width}}  {figure}  {target}".rstrip())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
