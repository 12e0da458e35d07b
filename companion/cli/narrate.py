"""`companion narrate GAME|PHASE` (any game's eyes-closed phases) and `companion audio devices`."""

from __future__ import annotations

import argparse
import select
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from companion.cli.json_value import json_object
from companion.engine import (
    EyesClosed,
    GameRules,
    GameSetup,
    Param,
    RulesError,
    SetupError,
    TableSession,
    all_games,
    get_game,
)
from companion.narration.scripts import NarrationError, Script, build_script
from companion.narration.timeline import (
    Pacing,
    build,
    check_pauses,
    describe,
    estimate_speech,
    presets,
)
from companion.settings import Settings, SettingsError, data_dir, load_settings

if TYPE_CHECKING:  # the narrator and the sound card load only when something is spoken
    from companion.runtime.narrator import NarrationRun, Narrator

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
                                 " act=10") from None
    return pauses


# Every game's table option of house edits (`companion rules GAME --house`): JSON, or a file.
HOUSE = "house"
_YES = ("1", "true", "yes", "on")
_NO = ("0", "false", "no", "off")


def _option(item: str, known: tuple[Param, ...], game: str) -> tuple[str, object]:
    """``NAME=VALUE`` as a table option of the game, read as its kind says; ``house=`` is the
    table's house edits, as JSON or a file of it (as `companion rules GAME --house`)."""
    name, _, text = item.partition("=")
    name, text = name.strip(), text.strip()
    if name == HOUSE:
        return HOUSE, json_object(text, f"--option {HOUSE}")
    param = next((p for p in known if p.name == name), None)
    if param is None:
        names = ", ".join([*(p.name for p in known), HOUSE])
        raise SetupError(f"--option {item!r}: {game} has no option {name!r} (known: {names})")
    if param.kind == "flag":
        if text.lower() not in _YES + _NO:
            raise SetupError(f"--option {item!r}: {param.name} is true or false")
        return param.name, text.lower() in _YES
    if param.kind in ("number", "seat"):
        try:
            return param.name, int(text)
        except ValueError:
            what = "a seat number" if param.kind == "seat" else "a number"
            raise SetupError(f"--option {item!r}: {param.name} is {what}") from None
    if param.kind == "choices":
        return param.name, [v.strip() for v in text.split(",") if v.strip()]
    return param.name, text


def _phases(rules: GameRules, args: argparse.Namespace) -> tuple[EyesClosed, ...]:
    """The eyes-closed phases of ``rules`` for what the command line says is in play: the
    names given with --in-play, or what a table set up for --players and --option has."""
    if args.in_play:
        in_play = rules.check_in_play(args.in_play.split(","), args.players)
        return tuple(rules.eyes_closed(in_play, args.players or rules.info.min_players))
    if args.players is None:
        raise NarrationError("say how many play: --players N (or name what is in play with"
                             " --in-play)")
    options = dict(_option(item, rules.info.options, rules.info.slug) for item in args.option)
    seats = tuple(f"Player {n}" for n in range(1, args.players + 1))
    session = TableSession(GameSetup(rules.info.slug, seats, options, seed=0))
    return tuple(rules.eyes_closed(rules.in_play(session.view(None)), args.players))


def phase_names(rules: GameRules) -> set[str]:
    """The names of the eyes-closed phases ``rules`` has at some table: those of a table of
    each player count with the default options (asked through the registry, as the
    narrator knows no game)."""
    names: set[str] = set()
    for players in range(rules.info.min_players, rules.info.max_players + 1):
        seats = tuple(f"Player {n}" for n in range(1, players + 1))
        try:
            session = TableSession(GameSetup(rules.info.slug, seats, {}, seed=0))
            in_play = rules.in_play(session.view(None))
            names |= {p.name for p in rules.eyes_closed(in_play, players)}
        except RulesError:
            continue
    return names


def _script(args: argparse.Namespace) -> Script:
    """WHAT is a game (its first eyes-closed phase, or --phase) or a phase's name."""
    try:
        games = [get_game(args.what)]
    except RulesError:
        games = all_games()
    wanted = args.phase or (None if len(games) == 1 else args.what)
    if wanted is not None:  # only the games that have such a phase, and their reasons
        having = [g for g in games if wanted in phase_names(g)]
        if not having:
            known = sorted(set().union(*(phase_names(g) for g in games)))
            who = f"{games[0].info.title} has no" if len(games) == 1 else "No game has an"
            raise NarrationError(f"{who} eyes-closed phase {wanted!r} (known:"
                                 f" {', '.join(known) or 'none'})")
        games = having
    found: list[EyesClosed] = []
    problems = []
    for rules in games:
        try:
            phases = _phases(rules, args)
        except RulesError as exc:  # this setup does not fit the game
            problems.append(str(exc) if len(games) == 1 else f"{rules.info.slug}: {exc}")
            continue
        found += [p for p in phases if wanted is None or p.name == wanted]
    if found:
        return build_script(found[0])
    if len(games) == 1 and problems:
        raise NarrationError(problems[0])
    what = f"eyes-closed phase {wanted!r}" if wanted else "eyes-closed phase"
    who = (f"{games[0].info.title} has no" if len(games) == 1
           else f"{', '.join(g.info.title for g in games)}: none has an")
    why = f" ({'; '.join(problems)})" if problems else ""
    raise NarrationError(f"{who} {what} with this setup: there is nothing to read{why}")


def _settings(args: argparse.Namespace) -> Settings:
    return load_settings().with_options(
        voice=args.voice, speech_rate=args.rate, voice_volume=args.voice_volume,
        ambience_volume=args.ambience_volume, pacing=args.pacing, audio_device=args.device)


def _narrate(args: argparse.Namespace) -> int:
    from companion.devices.speaker import SpeakerUnavailable
    from companion.narration.speech import SpeechError
    from companion.runtime.narrator import Narrator

    try:
        settings = _settings(args)
        script = _script(args)
        pacing = Pacing.preset(settings.pacing, _pauses(args.pause))
        check_pauses(script, pacing)
        if args.wav and Path(args.wav).is_dir():
            raise NarrationError(f"{args.wav} is a folder: give the WAV file's name")
        narrator = Narrator(settings, data_dir(args.data))
    except (NarrationError, SettingsError, RulesError, ValueError) as exc:
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
    from companion.narration.speech import SpeechError

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
    from companion.devices.speaker import SpeakerUnavailable, audio_devices

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
    parser = sub.add_parser(
        "narrate", help="speak an eyes-closed phase (the Prologue, heads down, ...)",
        description="Speak a game's eyes-closed phase through the speaker, with masking sound"
                    " under it; with no speaker it is mixed into a WAV file instead. Only what"
                    " is in play is read: the phase of a table set up for --players and"
                    " --option, or for what --in-play names. Settings (voice, rate, volumes,"
                    " pacing, device) also come from the settings file and COMPANION_*"
                    " variables; see docs/narration.md.")
    parser.add_argument("what", metavar="GAME|PHASE",
                        help="a game (its first eyes-closed phase), or a phase's name, for"
                             " example prologue or heads-down (`companion games` lists games)")
    parser.add_argument("--phase", metavar="NAME", help="which of the game's phases")
    parser.add_argument("--players", type=int, metavar="N", help="the number of players")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a table option, as `companion rules GAME` lists them (lists are"
                             " comma-separated), or house=JSON|FILE, the table's house edits;"
                             " repeatable")
    parser.add_argument("--in-play", metavar="LIST",
                        help="what is in play, comma-separated, instead of a setup (the"
                             " names the game's scripts depend on)")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--text", action="store_true",
                     help="print the timeline with its timings, say nothing")
    out.add_argument("--wav", metavar="OUT", help="mix the narration into this WAV file")
    out.add_argument("--play", action="store_true", help="play it (the default)")
    parser.add_argument("--pacing", choices=presets(), help="pause lengths (default normal)")
    parser.add_argument("--pause", action="append", default=[], metavar="NAME=SECONDS",
                        help="one pause length: a script section's name or a kind (act,"
                             " settle, look); repeatable")
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
