"""`companion narrate prologue|burkes` and `companion audio devices`."""

from __future__ import annotations

import argparse
import select
import sys
from pathlib import Path

from companion.devices.speaker import SpeakerUnavailable, audio_devices
from companion.narration.scripts import (
    NarrationError,
    Script,
    check_pool,
    head_down,
    needs_prologue,
    pool_from_setup,
    prologue,
)
from companion.narration.speech import SpeechError
from companion.narration.timeline import (
    Pacing,
    build,
    check_pauses,
    describe,
    estimate_speech,
    presets,
)
from companion.runtime.narrator import NarrationRun, Narrator
from companion.settings import Settings, SettingsError, data_dir, load_settings

EXIT_OK = 0
EXIT_FAILED = 2

CONTROLS = "controls: p + Enter pause/resume, r repeat the last line, s skip, q stop"


def _fail(message: str) -> int:
    print(f"companion narrate: {message}", file=sys.stderr)
    return EXIT_FAILED


def _pauses(items: list[str]) -> dict[str, float]:
    pauses = {}
    for item in items:
        name, _, seconds = item.partition("=")
        try:
            pauses[name.strip()] = float(seconds)
        except ValueError:
            raise NarrationError(f"--pause {item!r}: expected NAME=SECONDS, for example"
                                 " hamlet=12 or act=10") from None
    return pauses


def _script(args: argparse.Namespace) -> Script:
    if args.script == "burkes":
        return head_down(args.players)
    if args.captains:
        pool = check_pool(args.captains.split(","), args.players)
    elif args.players:
        groups = [g.strip() for g in (args.warp_in or "").split(",") if g.strip()]
        pool = pool_from_setup(args.players, groups)
    else:
        raise NarrationError("say which captains are in the pool: --captains hamlet,portia,..."
                             " or --players N [--warp-in GROUP,...]")
    if not needs_prologue(pool):
        raise NarrationError(f"no captain in this pool ({', '.join(pool)}) has a Prologue part:"
                             " there is nothing to read")
    return prologue(pool)


def _settings(args: argparse.Namespace) -> Settings:
    return load_settings().with_options(
        voice=args.voice, speech_rate=args.rate, voice_volume=args.voice_volume,
        ambience_volume=args.ambience_volume, pacing=args.pacing, audio_device=args.device)


def _narrate(args: argparse.Namespace) -> int:
    try:
        settings = _settings(args)
        script = _script(args)
        pacing = Pacing.preset(settings.pacing, _pauses(args.pause))
        check_pauses(script, pacing)
        if args.wav and Path(args.wav).is_dir():
            raise NarrationError(f"{args.wav} is a folder: give the WAV file's name")
        narrator = Narrator(settings, data_dir(args.data))
    except (NarrationError, SettingsError, ValueError) as exc:
        return _fail(str(exc))
    if args.text:
        return _print_text(narrator, script, pacing)
    speaker = None
    if not args.wav:
        try:  # before rendering: an unknown device fails before anything is spoken
            speaker = narrator.open_output()
        except SpeakerUnavailable as exc:
            if args.device or settings.audio_device:
                return _fail(f"{exc}; `companion audio devices` lists them")
            print(f"companion narrate: {exc}: mixing the narration into a WAV file instead",
                  file=sys.stderr)
    try:
        prepared = narrator.prepare(script, pacing, _progress)
    except (SpeechError, NarrationError) as exc:
        if speaker:
            speaker.close()
        return _fail(str(exc))
    except BaseException:
        if speaker:
            speaker.close()
        raise
    if speaker is None:
        out = Path(args.wav) if args.wav else narrator.data / "narration" / f"{script.name}.wav"
        try:
            narrator.to_wav(prepared, out)
        except OSError as exc:
            return _fail(f"cannot write {out}: {exc}")
        print(f"wrote {out} ({prepared.timeline.seconds:.1f} s, {len(prepared.timeline.spoken)}"
              " lines)")
        return EXIT_OK
    where = settings.audio_device or "the default device"
    print(f"{script.title}: {prepared.timeline.seconds:.0f} s on {where}")
    return _follow(narrator.play(prepared, speaker))


def _progress(done: int, total: int) -> None:
    if sys.stderr.isatty():  # a counter that rewrites itself; logs get no noise
        print(f"\rspeech {done}/{total}", end="\n" if done == total else "", file=sys.stderr,
              flush=True)


def _print_text(narrator: Narrator, script: Script, pacing: Pacing) -> int:
    try:
        timeline = narrator.prepare(script, pacing).timeline
        note = ""
    except SpeechError as exc:  # the text is still useful without a voice
        timeline = build(script, pacing, estimate_speech)
        note = f"\n(speech lengths estimated: {exc})"
    print(describe(timeline) + note)
    return EXIT_OK


def _follow(run: NarrationRun) -> int:
    """Show each line as it is spoken; take controls from the keyboard when there is one."""
    interactive = sys.stdin.isatty()
    if interactive:
        print(CONTROLS)
    shown = None
    try:
        while not run.wait(0.1):
            line = run.playback.status()["line"]
            if line and line != shown:
                print(f"  {line}")
            shown = line
            if interactive and select.select([sys.stdin], [], [], 0)[0]:
                _control(run, sys.stdin.readline().strip().lower())
    except KeyboardInterrupt:
        run.playback.stop()
        run.wait()
    if run.error:
        return _fail(run.error)
    return EXIT_OK


def _control(run: NarrationRun, key: str) -> None:
    playback = run.playback
    if key == "p":
        (playback.resume if playback.status()["state"] == "paused" else playback.pause)()
    elif key == "r":
        playback.repeat()
    elif key == "s":
        playback.skip()
    elif key == "q":
        playback.stop()
    elif key:
        print(CONTROLS)


def _devices(args: argparse.Namespace) -> int:
    try:
        devices = audio_devices()
    except SpeakerUnavailable as exc:
        print(f"companion audio: {exc}", file=sys.stderr)
        return EXIT_FAILED
    if not devices:
        print("no audio output devices (narration is then mixed into a WAV file for a phone)")
    for device in devices:
        mark = " (default)" if device.default else ""
        print(f"{device.index:3}  {device.name}{mark}")
    return EXIT_OK


def add_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    narrate = sub.add_parser(
        "narrate", help="speak an eyes-closed phase: the Prologue or Burke's heads-down",
        description="Speak an eyes-closed phase through the speaker, with masking sound under"
                    " it. With no speaker the narration is mixed into a WAV file instead."
                    " Settings (voice, rate, volumes, pacing, device) also come from the"
                    " settings file and COMPANION_* variables; see docs/narration.md.")
    scripts = narrate.add_subparsers(dest="script", metavar="PHASE")
    scripts.required = True
    pro = scripts.add_parser(
        "prologue", help="Captain's Gambit's Prologue, for the captains in the pool",
        description="Captain's Gambit's Prologue: only the parts of captains in the pool, in"
                    " the rulebook's order.")
    pro.add_argument("--captains", metavar="LIST",
                     help="every captain in the pool, comma-separated (hamlet,portia,...)")
    pro.add_argument("--players", type=int, metavar="N", help="the number of players")
    pro.add_argument("--warp-in", metavar="GROUPS",
                     help="with --players: Warp In groups (viola, lear_othello,"
                          " tybalt_mercutio, titus, imogen)")
    burkes = scripts.add_parser("burkes", help="Burke's Gambit's heads-down phase",
                                description="Burke's Gambit's heads-down phase.")
    burkes.add_argument("--players", type=int, required=True, metavar="N",
                        help="the number of players (4-8)")
    for parser in (pro, burkes):
        out = parser.add_mutually_exclusive_group()
        out.add_argument("--text", action="store_true",
                         help="print the timeline with its timings, say nothing")
        out.add_argument("--wav", metavar="OUT", help="mix the narration into this WAV file")
        out.add_argument("--play", action="store_true", help="play it (the default)")
        parser.add_argument("--pacing", choices=presets(), help="pause lengths (default normal)")
        parser.add_argument("--pause", action="append", default=[], metavar="NAME=SECONDS",
                            help="one pause length: a section (hamlet) or a kind (act, settle,"
                                 " look); repeatable")
        parser.add_argument("--voice", help="espeak-ng voice, for example en-gb or en-us")
        parser.add_argument("--rate", type=int, metavar="WPM", help="words per minute")
        parser.add_argument("--voice-volume", type=float, metavar="0-1")
        parser.add_argument("--ambience-volume", type=float, metavar="0-1",
                            help="the masking sound's volume (0 for none)")
        parser.add_argument("--device", help="audio device: a name (part of it) or an index")
        parser.add_argument("--data", metavar="DIR", help="the data directory (speech cache)")
        parser.set_defaults(run=_narrate)

    audio = sub.add_parser("audio", help="list audio output devices")
    audio_sub = audio.add_subparsers(dest="audio_command", metavar="ACTION")
    audio_sub.required = True
    devices = audio_sub.add_parser("devices", help="list the audio output devices")
    devices.set_defaults(run=_devices)
