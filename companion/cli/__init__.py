"""The `companion` command line: `companion --help` lists the subcommands."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import companion.games  # noqa: F401  (registers every game)
from companion import __version__
from companion.cli import dice as dice_cli
from companion.cli import doctor, narrate, serve
from companion.engine import RulesError, TableSession, all_games, get_game, replay_transcript
from companion.settings import data_dir, models_dir

EXIT_OK = 0
EXIT_USAGE = 2  # argparse's own status, also used for files that cannot be read
EXIT_REJECTED = 3


def _games(args: argparse.Namespace) -> int:
    for rules in all_games():
        info = rules.info
        print(f"{info.slug:18} {info.title} ({info.min_players}-{info.max_players} players):"
              f" {info.summary}")
    return EXIT_OK


def _rules(args: argparse.Namespace) -> int:
    try:
        rules = get_game(args.game)
    except RulesError as exc:
        print(f"companion rules: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(rules.rules_summary())
    return EXIT_OK


# How each ending reads ("Game over by ..."); a reason not listed reads as itself.
ENDINGS = {"win": "a win", "all_dead": "everyone dead", "round_limit": "the end of the last"
           " round", "infected_ejected": "the infected player's ejection", "clean_ejected":
           "a clean player's ejection", "tie_captain_dead": "a tied vote with the Captain dead",
           "crew_dead": "the death of the whole crew",
           "infected_reaches_earth": "the infected player reaching Earth"}
_NOT_SHOWN = ("seat", "name", "alive", "role_label")


def render_table(view: dict[str, Any]) -> str:
    """The table view as text, for any game: the status, one line per player with the
    counters and public facts the game shows, then how the game ended."""
    head = f"Round {view['round']} of {view['rounds']}, " if "round" in view else ""
    extra = "".join(f", {key} {view[key]}" for key in ("engines", "to_earth") if key in view)
    lines = [f"{head}phase {view['phase']}{extra}: {view['status']}"]
    for p in view["players"]:
        facts = []
        for key, value in p.items():
            if key in _NOT_SHOWN or value is None or value is False or isinstance(value, list):
                continue
            facts.append(key if value is True else f"{key} {value}")
        state = "alive" if p["alive"] else "dead"
        lines.append(f"  seat {p['seat']} {p['name']:<10} {'  '.join(facts)}  {state}")
    outcome = view.get("outcome")
    if outcome:
        names = [view["players"][s]["name"] for s in outcome["winners"]]
        ending = ENDINGS.get(outcome["reason"], outcome["reason"])
        if outcome["reason"] == "round_limit" and "rounds" in view:
            ending = f"the end of round {view['rounds']}"
        verdict = ""
        if outcome.get("comedy") or outcome.get("tragedy"):
            verdict = " (a comedy)" if outcome["comedy"] else " (a tragedy)"
        lines.append(f"Game over by {ending}. Winners: {', '.join(names) or 'nobody'}{verdict}")
    return "\n".join(lines)


def _session_report(session: TableSession) -> dict[str, Any]:
    return {
        "game": session.setup.game,
        "seed": session.setup.seed,  # drawn at random when the transcript gives none
        "actions": len(session.history),
        "view": session.view(None),
        "log": [" / ".join((r.text, *r.notes)) for r in session.history_for(None)],
    }


def _unseeded(text: str) -> bool:
    """Whether the setup line has no seed (so the companion's own deal differs each time)."""
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            try:
                setup = json.loads(line)
            except json.JSONDecodeError:
                return False
            return isinstance(setup, dict) and setup.get("seed") is None and "deal" not in setup
    return False


def _replay(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        print(f"companion replay: cannot read {path}: {reason}", file=sys.stderr)
        return EXIT_USAGE
    result = replay_transcript(text.splitlines())
    if args.json:
        out = _session_report(result.session) if result.session else {}
        if result.error:
            out["error"] = {"line": result.error.line, "message": result.error.reason}
        print(json.dumps(out, indent=None if args.compact else 2))
    else:
        if result.session:
            if _unseeded(text):
                print(f"note: the transcript gives no seed; this replay dealt with seed"
                      f" {result.session.setup.seed}", file=sys.stderr)
            if args.log:
                for number, line in enumerate(result.session.history_for(None), start=1):
                    print(f"{number:4}  {line.text}")
                    for note in line.notes:
                        print(f"        {note}")
            print(render_table(result.session.view(None)))
        if result.error:
            print(f"{path}:{result.error}", file=sys.stderr)
    return EXIT_REJECTED if result.error else EXIT_OK


def _pip_reader(args: argparse.Namespace) -> Any:
    """The pip-dice reader, or None with --no-pips; raises ModelMissingError."""
    from companion.vision.dice import DiceReader

    return None if args.no_pips else DiceReader(models_dir() / "dice")


def _watch_camera(args: argparse.Namespace) -> int:
    from companion.devices.camera import open_camera, parse_resolution
    from companion.errors import ConfigError
    from companion.runtime.camera_loop import watch
    from companion.vision.dice import ModelMissingError
    from companion.vision.scan import read_all_dice
    from companion.vision.taught import TeachError, load

    try:
        pips = _pip_reader(args)
        taught = [load(data_dir(args.data), name) for name in args.dice]
        camera = open_camera(args.camera, *parse_resolution(args.resolution, "--resolution"))
    except (ConfigError, ModelMissingError, TeachError) as exc:
        print(f"companion scan: {exc}", file=sys.stderr)
        return EXIT_USAGE
    read_dice = ((lambda frame, codes: read_all_dice(frame, pips, taught, codes=codes))
                 if pips or taught else None)
    try:
        for report in watch(camera, max_frames=args.frames, read_dice=read_dice):
            if args.json:
                print(json.dumps(report), flush=True)
            elif report["type"] == "camera":
                state = "ok" if report["ok"] else "not available"
                print(f"camera {report['source']}: {state}: {report['message']}", flush=True)
            elif report["type"] == "card":
                print(f"card: {report['card'] or 'unknown ' + repr(report['payload'])}",
                      flush=True)
            elif report["type"] == "card_gone":
                print(f"card gone: {report['payload']}", flush=True)
            else:
                values = ", ".join(str(d["value"]) for d in report["dice"])
                print(f"roll: {values}", flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        camera.close()
    return EXIT_OK


def _scan(args: argparse.Namespace) -> int:
    if args.camera is not None:
        return _watch_camera(args)
    if not args.images:
        print("companion scan: give IMAGE files, or --camera [SOURCE]", file=sys.stderr)
        return EXIT_USAGE
    from companion.vision.dice import ModelMissingError
    from companion.vision.scan import scan_path  # OpenCV loads only for commands that need it
    from companion.vision.taught import TeachError, load

    try:
        taught = [load(data_dir(args.data), name) for name in args.dice]
        pips = _pip_reader(args)
    except (TeachError, ModelMissingError) as exc:
        print(f"companion scan: {exc}", file=sys.stderr)
        return EXIT_USAGE
    failed = 0
    for name in args.images:
        result = scan_path(Path(name), pips, taught)
        failed += result["error"] is not None
        if args.json:
            print(json.dumps(result), flush=True)
        elif result["error"]:
            print(f"{name}: error: {result['error']}", file=sys.stderr)
        else:
            cards = ", ".join(c["card"] or f"unknown {c['payload']!r}" for c in result["cards"])
            dice = ", ".join(str(d["value"]) for d in result["dice"])
            print(f"{name}: {len(result['cards'])} card(s){': ' + cards if cards else ''};"
                  f" {len(result['dice'])} die/dice{': ' + dice if dice else ''}"
                  f" ({result['ms']} ms)")
    return 1 if failed else EXIT_OK


def _stickers(args: argparse.Namespace) -> int:
    from companion.engine import components_of
    from companion.stickers import STICKER_MM, write_sheets

    try:
        components = components_of(args.game)
    except RulesError as exc:
        print(f"companion stickers: {exc}", file=sys.stderr)
        return EXIT_USAGE
    out = Path(args.out or f"stickers-{components[0].game}-{args.paper}.pdf")
    try:
        pages = write_sheets(components, out, args.paper, title=f"{components[0].game} stickers")
    except OSError as exc:
        print(f"companion stickers: cannot write {out}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    print(f"{out}: {len(components)} stickers of {STICKER_MM:.1f} mm on {pages} page(s)."
          " Print at 100% (no 'fit to page').")
    return EXIT_OK


def _dice_teach(args: argparse.Namespace) -> int:
    from companion.vision.images import ImageError, load_image
    from companion.vision.taught import TaughtDice, TeachError, learn_example, load, save

    data = data_dir(args.data)
    try:
        try:
            model = load(data, args.name)
        except TeachError:
            model = TaughtDice(args.name)  # new dice
        face = args.face.strip().upper()
        if not face:
            raise TeachError("--face needs a name, for example QUARANTINE or 7")
        for index, name in enumerate(args.images, start=1):
            learn_example(model, face, load_image(Path(name)))
            print(f"  {index}/{len(args.images)} {name}: learned {face}"
                  f" (die {model.sides[-1]:.0f} px)", flush=True)
        path = save(model, data)
    except (TeachError, ImageError) as exc:
        print(f"companion dice teach: {exc}; nothing was saved", file=sys.stderr)
        return EXIT_USAGE
    counts = {f: model.labels.count(f) for f in model.faces}
    print(f"{path}: {len(counts)} face(s): " + ", ".join(f"{f} x{n}" for f, n in counts.items()))
    thin = [f for f, n in counts.items() if n < 3]
    if thin:
        print("tip: three pictures of each face, turned differently, read best: " + ", ".join(thin))
    return EXIT_OK


def _dice_list(args: argparse.Namespace) -> int:
    from companion.vision.taught import TeachError, load, taught_names

    data = data_dir(args.data)
    names = taught_names(data)
    if not names:
        print(f"no taught dice in {data}")
    for name in names:
        try:
            model = load(data, name)
            print(f"{name}: " + ", ".join(model.faces))
        except TeachError as exc:
            print(f"{name}: {exc}")
    return EXIT_OK


def _dice_forget(args: argparse.Namespace) -> int:
    from companion.vision.taught import TeachError, model_path

    try:
        path = model_path(data_dir(args.data), args.name)
    except TeachError as exc:
        print(f"companion dice forget: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if not path.exists():
        print(f"companion dice forget: no dice named {args.name!r}", file=sys.stderr)
        return EXIT_USAGE
    path.unlink()
    print(f"forgot {args.name}")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Gambit Table Companion: rules referee, camera, narrator and phone"
                    " dashboard for Captain's Gambit and its family.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    games = sub.add_parser("games", help="list the games the companion knows")
    games.set_defaults(run=_games)

    rules = sub.add_parser("rules", help="print a game's rules summary, house defaults marked")
    rules.add_argument("game", help="a game's name, for example captains-gambit")
    rules.set_defaults(run=_rules)

    replay = sub.add_parser(
        "replay",
        help="replay a transcript and print the final table",
        description="Replay a transcript (JSON Lines: a setup line, then one action per line)."
                    " Exit status 3 names the first refused line; 2 means the file cannot"
                    " be read. See docs/transcripts.md.",
    )
    replay.add_argument("file", help="the transcript, for example fixtures/transcripts/*.jsonl")
    replay.add_argument("--json", action="store_true", help="print the result as JSON")
    replay.add_argument("--compact", action="store_true", help="with --json: one line")
    replay.add_argument("--log", action="store_true", help="also print the public log")
    replay.set_defaults(run=_replay)

    scan = sub.add_parser(
        "scan",
        help="read QR-tagged cards and dice in photos",
        description="Read every QR sticker (and die) in each image. With --json, one JSON"
                    " object per image (see docs/vision.md). Exit status 1 if any image"
                    " could not be read; the others are still read.",
    )
    scan.add_argument("images", nargs="*", metavar="IMAGE", help="photos or frames (JPEG, PNG)")
    scan.add_argument("--json", action="store_true", help="JSON Lines, one object per image")
    scan.add_argument("--camera", nargs="?", const="0", metavar="SOURCE",
                      help="watch a camera and print readings as they become stable: a device"
                           " number (default 0), /dev/videoN, picamera, a folder of frames or a"
                           " video file")
    scan.add_argument("--frames", type=int, metavar="N", help="with --camera: stop after N frames")
    scan.add_argument("--resolution", default="1280x720", metavar="WxH",
                      help="with --camera: the webcam's resolution (default 1280x720)")
    scan.add_argument("--dice", action="append", default=[], metavar="NAME",
                      help="also read these taught dice (companion dice teach); repeatable")
    scan.add_argument("--data", metavar="DIR", help="the data directory (taught dice)")
    scan.add_argument("--no-pips", action="store_true", help="do not look for pip dice (d6)")
    scan.set_defaults(run=_scan)

    stickers = sub.add_parser(
        "stickers",
        help="write a PDF of QR stickers for a game's cards",
        description="Write print-ready sheets of true-size QR stickers, one per card, tile or"
                    " piece of the game, labelled.",
    )
    stickers.add_argument("game", help="a game: captains-gambit, burkes-gambit, gambit-of-kings,"
                                       " gambit, captain-flip")
    stickers.add_argument("--paper", choices=("a4", "letter"), default="a4")
    stickers.add_argument("--out", help="the PDF to write (default stickers-GAME-PAPER.pdf)")
    stickers.set_defaults(run=_stickers)

    dice = sub.add_parser("dice", help="teach the companion custom dice, list or forget them")
    dice_sub = dice.add_subparsers(dest="dice_command", metavar="ACTION")
    dice_sub.required = True
    teach = dice_sub.add_parser(
        "teach",
        help="learn one face of a kind of custom die from pictures",
        description="Learn one face of a kind of custom die (for example Burke's Gambit's"
                    " QUARANTINE) from pictures that each show one such die on the table, that"
                    " face up. Three pictures per face, the die turned differently, read best."
                    " Run again for every face.",
    )
    teach.add_argument("name", help="a name for this kind of die, for example burke")
    teach.add_argument("--face", required=True, help="the face shown, for example QUARANTINE")
    teach.add_argument("images", nargs="+", metavar="IMAGE")
    teach.add_argument("--data", metavar="DIR", help="the data directory")
    teach.set_defaults(run=_dice_teach)
    listing = dice_sub.add_parser("list", help="list the taught dice and their faces")
    listing.add_argument("--data", metavar="DIR", help="the data directory")
    listing.set_defaults(run=_dice_list)
    forget = dice_sub.add_parser("forget", help="forget a kind of taught dice")
    forget.add_argument("name")
    forget.add_argument("--data", metavar="DIR", help="the data directory")
    forget.set_defaults(run=_dice_forget)
    dice_cli.add_parsers(dice_sub)

    narrate.add_parsers(sub)
    serve.add_parsers(sub)
    doctor.add_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except BrokenPipeError:  # `companion ... | head`: the reader has gone, so has our output
        sys.stderr.close()
        return EXIT_OK
    return status
