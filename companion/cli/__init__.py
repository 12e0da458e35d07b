"""The `companion` command line: `companion --help` lists the subcommands."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from companion import __version__
from companion.cli import dice as dice_cli
from companion.cli import doctor, narrate, serve, tables
from companion.cli.json_value import json_object
from companion.cli.render import render, render_photo_score
from companion.engine import (
    GameRules,
    RulesError,
    TableSession,
    all_games,
    component_games,
    get_game,
    house_changes,
    replay_text,
)
from companion.games import load_plugins  # importing the package registers every game
from companion.settings import SettingsError, data_dir, load_settings, models_dir

EXIT_OK = 0
EXIT_USAGE = 2  # argparse's own status, also used for files that cannot be read
EXIT_REJECTED = 3


def _games(args: argparse.Namespace) -> int:
    for rules in all_games():
        info = rules.info
        players = (f"{info.min_players}" if info.min_players == info.max_players
                   else f"{info.min_players}-{info.max_players}")
        print(f"{info.slug:18} {info.title} ({players} players):"
              f" {info.summary}")
    return EXIT_OK


def _rules(args: argparse.Namespace) -> int:
    try:
        rules = get_game(args.game)
    except RulesError as exc:
        print(f"companion rules: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.data:
        text = _data_file(rules)
        if text is None:
            print(f"companion rules: {rules.info.title} has no data file", file=sys.stderr)
            return EXIT_USAGE
        print(text, end="")
        return EXIT_OK
    try:
        house = _house(args.house)
        summary = rules.rules_summary({"house": house} if house else None)
        changed = house_changes(house, rules.info.house_readings)
        if changed:
            summary = "\n".join(["Changed by --house:", *(f"  {line}" for line in changed),
                                  "", summary])
        print(summary)
    except (RulesError, ValueError) as exc:
        print(f"companion rules: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK


def _data_file(rules: Any) -> str | None:
    """The game's data file (its package's ``data/rules.toml``), comments and all: every
    rule the table option ``house`` may change, by the same keys."""
    package = type(rules).__module__.rpartition(".")[0]
    try:
        return resources.files(package).joinpath("data/rules.toml").read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, TypeError):
        return None


def _house(given: str | None) -> dict[str, Any] | None:
    """A table's house edits: a JSON object, or the path of a file holding one."""
    return None if given is None else json_object(given, "--house")


def _session_report(session: TableSession) -> dict[str, Any]:
    return {
        "game": session.setup.game,
        "seed": session.setup.seed,  # drawn at random when the transcript gives none
        "actions": len(session.history),
        "view": session.view(None),
        "log": [" / ".join((r.text, *r.notes)) for r in session.history_for(None)],
    }


def _replay(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else \
            "it is not text (a transcript is JSON Lines, a text file)"
        print(f"companion replay: cannot read {path}: {reason}", file=sys.stderr)
        return EXIT_USAGE
    result = replay_text(text)
    session = result.session
    seats = len(session.setup.seats) if session else 0
    if args.seat is not None and session and not 0 <= args.seat < seats:
        print(f"companion replay: --seat {args.seat}: the table has seats 0 to {seats - 1}",
              file=sys.stderr)
        return EXIT_USAGE
    if args.json:
        out = {}
        if session and args.seat is not None:
            out = {"game": session.setup.game, "seat": args.seat,
                   "view": session.table_view(args.seat).to_dict()}
        elif session:
            out = _session_report(session)
        if result.error:
            out["error"] = {"line": result.error.line, "message": result.error.reason}
        print(json.dumps(out, indent=None if args.compact else 2))
    else:
        if session:
            if result.seed_drawn:
                print(f"note: the transcript gives no seed; this replay dealt with seed"
                      f" {session.setup.seed}", file=sys.stderr)
            print(render(session.table_view(args.seat), log=args.log))
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
    delivered = False  # a frame ever came: without one, the run failed (exit 1)
    try:
        for report in watch(camera, max_frames=args.frames, read_dice=read_dice):
            delivered = delivered or (report["type"] == "camera" and report["ok"])
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
                print(f"roll: {_values(report['dice'])}", flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        camera.close()
    if not delivered:
        print(f"companion scan: the camera {args.camera} gave no picture", file=sys.stderr)
        return 1
    return EXIT_OK


def _values(dice: list[dict[str, Any]]) -> str:
    """The dice read, for a person: "5, 2, ?" (an unsure die is "?": the phone would ask)."""
    return ", ".join("?" if d["value"] is None else str(d["value"]) for d in dice)


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
        scored = _score_rules(args.score_game)
    except (TeachError, ModelMissingError, RulesError) as exc:
        print(f"companion scan: {exc}", file=sys.stderr)
        return EXIT_USAGE
    failed = 0
    for name in args.images:
        result = scan_path(Path(name), pips, taught, scored)
        failed += result["error"] is not None
        if args.json:
            print(json.dumps(result), flush=True)
        elif result["error"]:
            print(f"{name}: error: {result['error']}", file=sys.stderr)
        elif scored is not None:
            print(f"{name}: ({result['ms']} ms)")
            print(render_photo_score(result))
        else:
            cards = ", ".join(c["card"] or f"unknown {c['payload']!r}" for c in result["cards"])
            dice = _values(result["dice"])
            print(f"{name}: {len(result['cards'])} card(s){': ' + cards if cards else ''};"
                  f" {len(result['dice'])} die/dice{': ' + dice if dice else ''}"
                  f" ({result['ms']} ms)")
    return 1 if failed else EXIT_OK


def _score_rules(game: str | None) -> GameRules | None:
    """The game whose boards `--score` reads (RulesError: unknown, or it has no boards)."""
    if game is None:
        return None
    rules = get_game(game)
    if not rules.physical_boards():
        raise RulesError(f"{rules.info.title} has no boards to score from a photo")
    return rules


def _stickers(args: argparse.Namespace) -> int:
    from companion.engine import components_of
    from companion.stickers import sticker_mm, write_sheets

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
    sizes = sorted({sticker_mm(c) for c in components})
    print(f"{out}: {len(components)} stickers of {' / '.join(f'{s:.1f}' for s in sizes)} mm on"
          f" {pages} page(s). Print at 100% (no 'fit to page').")
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
                    " dashboard for a family of bluffing and hidden-role board games.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    games = sub.add_parser("games", help="list the games the companion knows")
    games.set_defaults(run=_games)

    rules = sub.add_parser("rules", help="print a game's rules summary, house defaults marked")
    rules.add_argument("game", help="a game's name (`companion games` lists them)")
    rules.add_argument("--house", metavar="JSON|FILE",
                       help="a table's house edits (the table option `house`), as JSON or a"
                            " file of it: the summary as that table plays")
    rules.add_argument("--data", action="store_true",
                       help="print the game's data file instead: every rule `house` may"
                            " change, by the same keys, with the sources of its numbers")
    rules.set_defaults(run=_rules)

    replay = sub.add_parser(
        "replay",
        help="replay a transcript and print the final table",
        description="Replay a transcript (JSON Lines: a setup line, then one action per line;"
                    " or an ended table's export, as its host downloads it). Exit status 3"
                    " names the first refused line; 2 means the file cannot be read. See"
                    " docs/transcripts.md.",
    )
    replay.add_argument("file", help="the transcript, for example fixtures/transcripts/*.jsonl")
    replay.add_argument("--json", action="store_true", help="print the result as JSON")
    replay.add_argument("--compact", action="store_true", help="with --json: one line")
    replay.add_argument("--log", action="store_true",
                        help="also print the log (the public one, or the seat's with --seat)")
    replay.add_argument("--seat", type=int, metavar="N",
                        help="what seat N's phone shows: its secrets and actions too")
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
    scan.add_argument("--score", metavar="GAME", dest="score_game",
                      help="also read each board of GAME in the photo, cell by cell, and score"
                           " them by the game's rules (a game whose boards score)")
    scan.set_defaults(run=_scan)

    stickers = sub.add_parser(
        "stickers",
        help="write a PDF of stickers for a game's cards, pieces, tiles and board corners",
        description="Write print-ready sheets of true-size stickers, labelled: a QR code per"
                    " card, a square marker per piece or tile face, and the QR codes of each"
                    " board's four corners.",
    )
    stickers.add_argument("game", help=f"a game: {', '.join(component_games())}")
    stickers.add_argument("--paper", choices=("a4", "letter"), default="a4")
    stickers.add_argument("--out", help="the PDF to write (default stickers-GAME-PAPER.pdf)")
    stickers.set_defaults(run=_stickers)

    dice = sub.add_parser("dice", help="teach the companion custom dice, list or forget them")
    dice_sub = dice.add_subparsers(dest="dice_command", metavar="ACTION")
    dice_sub.required = True
    teach = dice_sub.add_parser(
        "teach",
        help="learn one face of a kind of custom die from pictures",
        description="Learn one face of a kind of custom die (a game's own symbols) from"
                    " pictures that each show one such die on the table, that face up. Three"
                    " pictures per face, the die turned differently, read best. Run again for"
                    " every face.",
    )
    teach.add_argument("name", help="a name for this kind of die, for example symbols")
    teach.add_argument("--face", required=True, help="the face shown, for example STAR")
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
    tables.add_parsers(sub)
    doctor.add_parsers(sub)
    return parser


def _load_plugins() -> str | None:
    """Import the game plug-ins the settings name; what went wrong, or None."""
    try:
        names = load_settings().games.split(",")
    except SettingsError:
        return None  # the commands that read the settings say what is wrong with them
    try:
        load_plugins(names)
    except (ImportError, ValueError) as exc:
        return f"companion: cannot load the game plug-ins {', '.join(names)}: {exc}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    problem = _load_plugins()
    if problem:
        print(problem, file=sys.stderr)
        return EXIT_USAGE
    args = build_parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except BrokenPipeError:  # `companion ... | head`: the reader has gone, so has our output
        sys.stderr.close()
        return EXIT_OK
    except SettingsError as exc:  # a command that met the settings late (the data folder)
        print(f"companion: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return status
