"""`companion dice adapt | examples | zone`: the pip reader learns this table, and where its
dice are rolled."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from companion.settings import data_dir, models_dir

if TYPE_CHECKING:
    from companion.vision.dice import DiceReader

EXIT_OK = 0
EXIT_USAGE = 2


def _reader(data: Path) -> DiceReader:
    """The pip reader as this table uses it (with its adapted layer, if any)."""
    from companion.vision.adapt import load_head
    from companion.vision.dice import DiceReader

    reader = DiceReader(models_dir() / "dice")
    reader.use_head(load_head(data))
    return reader


def _adapt(args: argparse.Namespace) -> int:
    from companion.vision.adapt import AdaptError, ExampleStore, adapt, rollback, save_head
    from companion.vision.dice import ModelMissingError

    data = data_dir(args.data)
    try:
        if args.rollback:
            print(rollback(data))
            return EXIT_OK
        reader = _reader(data)
        examples = ExampleStore(data).examples()
        result = adapt(reader, examples)
        if result.head is not None:
            save_head(data, result.head)
    except (AdaptError, ModelMissingError, ValueError) as exc:
        print(f"companion dice adapt: {exc}; nothing changed", file=sys.stderr)
        return EXIT_USAGE
    print(f"{len(examples)} confirmed dice; {result.message}")
    if result.head is not None:
        print("`companion dice adapt --rollback` goes back to the reader used before")
    return EXIT_OK


def _examples(args: argparse.Namespace) -> int:
    from companion.vision.adapt import (
        AdaptError,
        ExampleStore,
        confirmed_values,
        example_crop,
        label,
    )
    from companion.vision.dice import ModelMissingError
    from companion.vision.images import ImageError, load_image

    data = data_dir(args.data)
    store = ExampleStore(data)
    if args.forget:
        print(f"forgot {store.forget()} example(s)")
        return EXIT_OK
    if args.from_labelled:
        folder = Path(args.from_labelled)
        images = sorted(p for p in (folder / "images").glob("*")
                        if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
        if not images:
            print(f"companion dice examples: no photos in {folder / 'images'}", file=sys.stderr)
            return EXIT_USAGE
        try:
            reader = _reader(data)
            added = 0
            for path in images:
                image = load_image(path)
                found = reader.read(image, thorough=True, reach=False)  # crops as classified
                truth = _labels(folder / "labels" / f"{path.stem}.txt", image.shape[1],
                                image.shape[0])
                for die, value in zip(found, confirmed_values(found, truth), strict=True):
                    store.add(example_crop(reader, image, die.box), value)
                    added += 1
        except (AdaptError, ImageError, ModelMissingError, ValueError) as exc:
            print(f"companion dice examples: {exc}", file=sys.stderr)
            return EXIT_USAGE
        print(f"kept {added} example(s) from {len(images)} photo(s)")
    counts = store.counts()
    total = sum(counts.values())
    print(f"{total} example(s) in {store.folder}" + (": " if total else "")
          + ", ".join(f"{label(k)} x{n}" for k, n in sorted(counts.items())))
    return EXIT_OK


def _labels(path: Path, width: int, height: int) -> list[tuple[int, list[float]]]:
    """A YOLO label file's dice: (value, [x, y, w, h] in pixels); none if there is no file."""
    out: list[tuple[int, list[float]]] = []
    if not path.is_file():
        return out
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) < 5:
            continue
        try:
            value = int(parts[0]) + 1
            xc, yc, w, h = (float(v) for v in parts[1:5])
        except ValueError:
            raise ValueError(f"{path}: {line!r} is not `class x y w h`") from None
        out.append((value, [(xc - w / 2) * width, (yc - h / 2) * height, w * width,
                            h * height]))
    return out


def _zone(args: argparse.Namespace) -> int:
    from companion.vision.images import ImageError, load_image
    from companion.vision.qr import read_codes
    from companion.vision.zone import (
        RollZone,
        ZoneError,
        load_zone,
        reference_path,
        save_reference,
        save_zone,
        zone_from_codes,
        zone_path,
    )

    data = data_dir(args.data)
    try:
        if args.stickers:
            return _zone_stickers(Path(args.stickers))
        if args.clear:
            for path in (zone_path(data), reference_path(data)):
                path.unlink(missing_ok=True)
            print("the roll zone is cleared: dice are read anywhere in the picture")
            return EXIT_OK
        if args.corners:
            save_zone(data, RollZone.from_points([_point(c) for c in args.corners]))
        elif args.from_photo:
            image = load_image(Path(args.from_photo))
            zone = zone_from_codes(read_codes(image, thorough=True), image.shape[1],
                                   image.shape[0])
            if zone is None:
                raise ZoneError(f"{args.from_photo}: no two opposite or four corner stickers"
                                " read (print them with --stickers)")
            save_zone(data, zone)
        if args.empty:
            save_reference(data, load_image(Path(args.empty)))
            print(f"kept the empty zone's picture in {reference_path(data)}")
        zone = load_zone(data)
    except (ZoneError, ImageError, OSError) as exc:
        print(f"companion dice zone: {exc}; nothing changed", file=sys.stderr)
        return EXIT_USAGE
    if zone is None:
        print("no roll zone: dice are read anywhere in the picture")
    else:
        corners = " ".join(f"{x:.3f},{y:.3f}" for x, y in zone.corners)
        print(f"roll zone (fractions of the picture): {corners}")
    return EXIT_OK


def _point(text: str) -> tuple[float, float]:
    from companion.vision.zone import ZoneError

    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise ZoneError(f"{text!r} is not a corner X,Y (fractions of the picture, 0 to 1)")\
            from None
    return x, y


def _zone_stickers(out: Path) -> int:
    from companion.engine import Component
    from companion.stickers import STICKER_MM, write_sheets

    corners = [Component(f"ZONE/MARK/{n}", "table", "ZONE", f"MARK-{n}",
                         f"Roll zone corner {n}") for n in range(1, 5)]
    try:
        write_sheets(corners, out, title="Roll zone corners")
    except OSError as exc:
        print(f"companion dice zone: cannot write {out}: {exc.strerror or exc}",
              file=sys.stderr)
        return EXIT_USAGE
    print(f"{out}: 4 corner stickers of {STICKER_MM:.1f} mm; put two at opposite corners of"
          " the roll zone, or all four. Print at 100%.")
    return EXIT_OK


def add_parsers(dice_sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    adapt = dice_sub.add_parser(
        "adapt", help="improve the pip reader for this table from its confirmed dice",
        description="Fit the pip reader to this table's dice, light and camera from the dice"
                    " players confirmed or corrected (see `companion dice examples`). The"
                    " adapted reader is switched on only if it reads more of them right, each"
                    " checked by a correction learned without it, and none it read right wrong."
                    " Kept on this companion only.")
    adapt.add_argument("--rollback", action="store_true",
                       help="go back to the reader used before the last adaptation")
    adapt.add_argument("--data", metavar="DIR", help="the data directory")
    adapt.set_defaults(run=_adapt)

    examples = dice_sub.add_parser(
        "examples", help="the confirmed dice this table's reader learns from",
        description="List (or forget) the confirmed and corrected dice kept for `companion"
                    " dice adapt`. --from-labelled adds those of labelled photos (images/"
                    " and labels/ in YOLO form, as ../shared/tools/dice_score.py reads).")
    examples.add_argument("--forget", action="store_true", help="delete every example")
    examples.add_argument("--from-labelled", metavar="FOLDER",
                          help="read labelled photos and keep what the reader saw as examples")
    examples.add_argument("--data", metavar="DIR", help="the data directory")
    examples.set_defaults(run=_examples)

    zone = dice_sub.add_parser(
        "zone", help="mark where dice are rolled: nothing outside is read as a die",
        description="Mark the roll zone: corners as fractions of the camera's picture, or"
                    " from a photo with two opposite or four corner stickers (--stickers"
                    " prints them). --empty keeps a picture of the empty zone. Without"
                    " options: show the zone.")
    zone.add_argument("--corners", nargs="+", metavar="X,Y",
                      help="2 opposite corners, or 3 or more, as fractions (0,0 is top left)")
    zone.add_argument("--from-photo", metavar="PHOTO", help="a photo showing corner stickers")
    zone.add_argument("--empty", metavar="PHOTO", help="a picture of the zone with no dice")
    zone.add_argument("--clear", action="store_true", help="read dice anywhere again")
    zone.add_argument("--stickers", metavar="PDF", help="print the corner stickers")
    zone.add_argument("--data", metavar="DIR", help="the data directory")
    zone.set_defaults(run=_zone)
