"""Narration: cold render of the longest Prologue, and time to first sound when cached.

Run from the repository root: .venv/bin/python benchmarks/narration/bench_narration.py

- Cold render: a new process with an empty speech cache prepares the 8-player Prologue
  (every part: 14 distinct lines) with espeak-ng: engine start, rendering, trimming, caching.
- First sound, cached: in a running process (as in the service), from "start the Prologue"
  (build the script, load every line from the cache, lay out the timeline, start playback)
  until the first block has been handed to the speaker. The speaker is a WAV writer here (the
  machine has no sound card); a real device adds PortAudio's stream start and its buffer.
- Mixing the whole Prologue into one WAV for a phone.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import companion.games  # noqa: E402, F401  (registers the games)
from companion.engine import GameSetup, TableSession  # noqa: E402
from companion.narration.scripts import Script, build_script, eyes_closed  # noqa: E402
from companion.narration.timeline import RATE, Pacing  # noqa: E402
from companion.narration.wav import WavWriter  # noqa: E402
from companion.runtime.narrator import Narrator  # noqa: E402
from companion.settings import Settings  # noqa: E402


def prologue_of_8() -> Script:
    """The longest Prologue: an 8-player Captain's Gambit table's, as the service builds it."""
    seats = tuple(f"P{n}" for n in range(8))
    session = TableSession(GameSetup("captains-gambit", seats, seed=1))
    return build_script(eyes_closed(session.rules, session.view(None), 8)["prologue"])


def cold_once(data: Path) -> float:
    start = time.perf_counter()
    prepared = Narrator(Settings(), data).prepare(prologue_of_8(),
                                                  Pacing.preset("normal"))
    elapsed = time.perf_counter() - start
    assert len(prepared.timeline.spoken) > 0
    return elapsed


def first_sound(narrator: Narrator, out: Path) -> float:
    start = time.perf_counter()
    prepared = narrator.prepare(prologue_of_8(), Pacing.preset("normal"))
    run = narrator.play(prepared, WavWriter(out, RATE))
    while run.first_sound is None and run.running:
        time.sleep(0.0005)
    assert run.first_sound is not None
    elapsed = run.first_sound - start
    run.playback.stop()
    run.wait()
    return elapsed


def summary(values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return f"median {statistics.median(ms):.0f} ms, p95 {p95:.0f} ms, n={len(ms)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="cold renders (one process each)")
    parser.add_argument("--cold-child", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cold_child:
        print(cold_once(Path(args.cold_child)))
        return

    with tempfile.TemporaryDirectory() as tmp:
        colds = []
        for i in range(args.runs):
            out = subprocess.run([sys.executable, __file__, "--cold-child", f"{tmp}/cold{i}"],
                                 check=True, capture_output=True, text=True).stdout
            colds.append(float(out))
        script = prologue_of_8()
        lines = len(set(script.lines))
        print(f"cold render, 8-player Prologue ({lines} distinct lines, new process, empty"
              f" cache): {summary(colds)}")

        narrator = Narrator(Settings(), Path(tmp) / "cold0")  # its cache is full now
        narrator.prepare(script, Pacing.preset("normal"))  # the TTS thread is not needed again
        firsts = [first_sound(narrator, Path(tmp) / "first.wav") for _ in range(30)]
        print(f"first sound, cached (script + cache + timeline + first block):"
              f" {summary(firsts)}")

        prepared = narrator.prepare(script, Pacing.preset("normal"))
        start = time.perf_counter()
        narrator.to_wav(prepared, Path(tmp) / "phone.wav")
        mixing = time.perf_counter() - start
        print(f"mixing the whole Prologue ({prepared.timeline.seconds:.0f} s of sound) into a"
              f" WAV: {mixing * 1000:.0f} ms")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(f"peak RSS of this process: {peak:.0f} MB")


if __name__ == "__main__":
    main()
