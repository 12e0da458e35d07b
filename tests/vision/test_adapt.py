"""A table's adaptation: its examples, the check before it is switched on, and rollback."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.settings import models_dir
from companion.vision import adapt as adapting
from companion.vision.adapt import (
    MIN_EXAMPLES,
    NOT_A_DIE,
    AdaptError,
    Example,
    ExampleStore,
    adapt,
    confirmed_values,
    example_crop,
    fit_head,
    head_path,
    load_head,
    rollback,
    save_head,
)
from companion.vision.dice import DiceReader, Head
from companion.vision.images import load_image
from companion.vision.tracker import DieReading
from tests.conftest import ROOT

DICE = ROOT / "fixtures" / "images" / "dice"


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader(models_dir() / "dice")


def labelled_folder(folder: Path) -> Path:
    """The rendered fixture photos as a labelled set (images/, labels/ in YOLO form)."""
    for sub in ("images", "labels"):
        (folder / sub).mkdir(parents=True)
    for image in sorted(DICE.glob("*.jpg")):
        (folder / "images" / image.name).symlink_to(image)
        height, width = load_image(image).shape[:2]
        lines = [f"{d['value'] - 1} {(d['box'][0] + d['box'][2] / 2) / width}"
                 f" {(d['box'][1] + d['box'][3] / 2) / height} {d['box'][2] / width}"
                 f" {d['box'][3] / height}"
                 for d in json.loads(image.with_suffix(".json").read_text())["dice"]]
        (folder / "labels" / f"{image.stem}.txt").write_text("\n".join(lines) + "\n")
    return folder


def real_examples(reader: DiceReader) -> list[Example]:
    """Every die the reader reports in the rendered photos, as the table would confirm it."""
    out = []
    for image_path in sorted(DICE.glob("*.jpg")):
        image = load_image(image_path)
        truth = [(d["value"], d["box"])
                 for d in json.loads(image_path.with_suffix(".json").read_text())["dice"]]
        found = reader.read(image, thorough=True)
        for die, value in zip(found, confirmed_values(found, truth), strict=True):
            out.append(Example(example_crop(reader, image, die.box), value, f"{len(out)}"))
    return out


def test_reported_dice_are_confirmed_by_where_they_lie() -> None:
    truth = [(3, [100, 100, 40, 40]), (5, [200, 100, 40, 40])]
    found = [DieReading("d6", 5, (102, 98, 40, 40), 0.9),  # really a three: a correction
             DieReading("unsure", None, (300, 300, 40, 40), 0.8),  # nothing there
             DieReading("d6", 5, (195, 105, 50, 30), 0.9)]
    assert confirmed_values(found, truth) == [3, NOT_A_DIE, 5]


def test_examples_are_kept_bounded_and_forgotten(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    store = ExampleStore(tmp_path)
    crop = np.full((48, 48, 3), 200, np.uint8)
    monkeypatch.setattr(adapting, "MAX_EXAMPLES", 3)
    for value in (1, 2, 3, 0, 6):
        store.add(crop, value)
    assert [e.label for e in store.examples()] == [3, 0, 6]  # the oldest went first
    assert store.counts() == {3: 1, 0: 1, 6: 1}
    with pytest.raises(AdaptError, match="1 to 6, or is no die"):
        store.add(crop, 7)
    assert store.forget() == 3 and store.examples() == []


def test_a_full_disk_keeps_no_example_and_no_half_file(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    store = ExampleStore(tmp_path)
    store.add(np.zeros((48, 48, 3), np.uint8), 4)

    def full(self: Path, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", full)
    with pytest.raises(AdaptError, match="No space left on device"):
        store.add(np.zeros((48, 48, 3), np.uint8), 5)
    assert [e.label for e in store.examples()] == [4]
    assert sorted(p.suffix for p in store.folder.iterdir()) == [".png"]


def test_too_few_or_contradictory_examples_are_refused(reader: DiceReader) -> None:
    examples = real_examples(reader)
    assert len(examples) >= 40
    with pytest.raises(AdaptError, match=f"too few to learn from: at least {MIN_EXAMPLES}"):
        adapt(reader, examples[:MIN_EXAMPLES - 1])
    clash = Example(examples[3].crop.copy(), examples[3].label % 6 + 1, "again")
    with pytest.raises(AdaptError, match="same die with different values"):
        adapt(reader, [*examples[:30], clash])


def test_a_reader_that_reads_the_tables_dice_right_already_stays_as_it_is(
        reader: DiceReader) -> None:
    examples = real_examples(reader)
    result = adapt(reader, examples)
    assert result.checked >= 10 and result.right_before == result.checked  # all read right
    assert result.head is None and "stays as it was" in result.message


def test_the_correction_learns_what_the_table_says(reader: DiceReader) -> None:
    """A table whose dice the shipped reader misreads: here, labelled as the opposite face
    (what a die with its pips mirrored on the other side would be). The fit reads the
    examples it learned from as the table says."""
    examples = [Example(e.crop, 7 - e.label if e.label else 0, e.name)
                for e in real_examples(reader)]
    before = adapting.reads_right(reader, examples, None).mean()
    head = fit_head(reader, examples)
    after = adapting.reads_right(reader, examples, head).mean()
    assert before < 0.2 and after > 0.8
    assert np.allclose(Head(head.weights * 0, head.bias * 0).apply(
        np.array([[0.1, 0.9, 0, 0, 0, 0, 0]], np.float32), np.ones((1, head.weights.shape[1]),
                                                                   np.float32)),
        [[0.1, 0.9, 0, 0, 0, 0, 0]], atol=1e-5)  # no correction: the shipped reader


def test_switching_on_and_rolling_back(tmp_path: Path, reader: DiceReader,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_head(tmp_path) is None
    assert "nothing to roll back" in rollback(tmp_path)
    first = fit_head(reader, real_examples(reader)[:30])
    second = Head(first.weights * 2, first.bias * 2)
    save_head(tmp_path, first)
    save_head(tmp_path, second)
    loaded = load_head(tmp_path)
    assert loaded is not None and np.allclose(loaded.weights, second.weights)
    assert rollback(tmp_path) == "rolled back to the reader adapted before"
    loaded = load_head(tmp_path)
    assert loaded is not None and np.allclose(loaded.weights, first.weights)
    assert rollback(tmp_path) == "rolled back to the shipped reader"
    assert load_head(tmp_path) is None
    # a full disk while switching on: the reader in use stays in use
    save_head(tmp_path, first)

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(np, "savez", full)
    with pytest.raises(AdaptError, match="stays as it was"):
        save_head(tmp_path, second)
    loaded = load_head(tmp_path)
    assert loaded is not None and np.allclose(loaded.weights, first.weights)
    head_path(tmp_path).write_bytes(b"not a model")
    with pytest.raises(AdaptError, match="cannot be read"):
        load_head(tmp_path)


def test_the_command_line_keeps_examples_and_adapts_only_when_it_helps(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = ["--data", str(tmp_path / "data")]
    assert main(["dice", "adapt", *data]) == 2
    assert "0 confirmed dice are too few" in capsys.readouterr().err
    assert main(["dice", "examples", "--from-labelled", str(tmp_path / "nothing"), *data]) == 2
    folder = labelled_folder(tmp_path / "labelled")
    assert main(["dice", "examples", "--from-labelled", str(folder), *data]) == 0
    out = capsys.readouterr().out
    assert "kept" in out and "example(s) in" in out
    assert main(["dice", "adapt", *data]) == 0
    assert "stays as it was" in capsys.readouterr().out  # it read them right already
    assert not head_path(tmp_path / "data").exists()
    assert main(["dice", "examples", "--forget", *data]) == 0
    assert main(["dice", "adapt", "--rollback", *data]) == 0
    assert "nothing to roll back" in capsys.readouterr().out


def test_an_example_crop_is_what_the_classifier_sees(reader: DiceReader) -> None:
    image = load_image(DICE / "red-white-pips-640.jpg")
    crop = example_crop(reader, image, [100, 100, 40, 40])
    assert crop.shape == (reader.cls_size, reader.cls_size, 3)
    assert cv2.imencode(".png", crop)[0]


def test_a_table_that_confirmed_few_values_corrects_only_those(reader: DiceReader) -> None:
    """Examples of two values (and no dice) cannot teach what the other values look like, or
    how often they come: the correction moves only those two and "not a die", and every
    other value keeps its probability exactly (a correction of all seven classes fitted on
    such examples read the other values as those two)."""
    examples = real_examples(reader)
    few = [e for e in examples if e.label in (3, 4)][:12]
    few += [Example(np.full_like(few[0].crop, 128), NOT_A_DIE, f"plain {i}")
            for i in range(adapting.MIN_NOT_A_DIE)]
    assert len({e.label for e in few}) == 3
    head = fit_head(reader, few)
    assert head.fitted == (True, False, False, True, True, False, False)
    assert np.any(head.weights[[0, 3, 4]])
    assert not np.any(head.weights[[1, 2, 5, 6]]) and not np.any(head.bias[[1, 2, 5, 6]])
    probs = np.array([[0.2, 0.05, 0.1, 0.3, 0.15, 0.1, 0.1]], np.float32)
    corrected = head.apply(probs, np.ones((1, head.weights.shape[1]), np.float32))[0]
    assert np.allclose(corrected[[1, 2, 5, 6]], probs[0, [1, 2, 5, 6]], atol=1e-6)
    assert np.isclose(corrected.sum(), 1, atol=1e-5)
    full = fit_head(reader, examples)  # every value confirmed often enough: all learned
    assert full.fitted is not None and full.fitted[1:] == (True,) * 6
    assert np.any(full.weights[1:])


def test_dice_confirmed_in_the_order_rolled_do_not_teach_their_values_everywhere(
        reader: DiceReader) -> None:
    """A table's first confirmed dice are the first rolls: threes and phantom dice, say. Even
    told to learn every class it can, the correction leaves the values it was never shown as
    they were: the other dice the shipped reader read right it still reads right."""
    examples = real_examples(reader)
    threes = [e for e in examples if e.label == 3][:12]
    threes += [Example(np.full_like(e.crop, v), NOT_A_DIE, f"grey {v}")
               for e, v in zip(threes, (40, 90, 128, 170, 220), strict=False)]
    others = [e for e in examples if e.label not in (3, NOT_A_DIE)]
    right = adapting.reads_right(reader, others, None)
    assert right.sum() >= 10
    head = fit_head(reader, threes, (True,) * 7)
    assert head.fitted == (True, False, False, True, False, False, False)
    kept = [e for e, ok in zip(others, right, strict=True) if ok]
    assert adapting.reads_right(reader, kept, head).all()


def test_every_example_checks_the_correction(reader: DiceReader) -> None:
    """The check is crossed: each example is read by a correction learned without it, so a
    table's every confirmed die counts, not a few held back."""
    examples = real_examples(reader)[:24]
    result = adapt(reader, examples)
    assert result.checked == len(examples)
    assert f"on {len(examples)} confirmed dice" in result.message


def test_a_table_that_showed_no_phantom_die_corrects_only_the_values(
        reader: DiceReader, tmp_path: Path) -> None:
    """Examples that are all dice cannot teach what is not a die: a correction fitted on them
    alone learned to take everything for a die (a table's test photos read 0.80 -> 0.61,
    its check passing). The correction keeps how likely "not a die" is, exactly."""
    examples = [Example(e.crop, 7 - e.label, e.name) for e in real_examples(reader)
                if e.label != NOT_A_DIE]
    assert len({e.label for e in examples}) == 6
    head = fit_head(reader, examples)
    assert head.fitted == (False,) + (True,) * 6
    features = np.random.default_rng(1).normal(size=(5, head.weights.shape[1]))
    probs = np.random.default_rng(2).dirichlet(np.ones(7), size=5).astype(np.float32)
    corrected = head.apply(probs, features.astype(np.float32))
    assert np.allclose(corrected[:, 0], probs[:, 0]) and np.allclose(corrected.sum(1), 1)
    assert adapting.reads_right(reader, examples, head).mean() > 0.8  # the values are learned
    grey = [Example(np.full_like(examples[0].crop, v), NOT_A_DIE, f"grey {v}")
            for v in (40, 128, 220)]
    assert adapting.reads_right(reader, grey, head).all()  # still no dice
    save_head(tmp_path, head)  # kept as it is
    loaded = load_head(tmp_path)
    assert loaded is not None and loaded.fitted == head.fitted
    # a head saved before "fitted" was kept: "keeps_not_a_die" said the same
    np.savez(head_path(tmp_path), weights=head.weights, bias=head.bias,
             keeps_not_a_die=np.array(True))
    loaded = load_head(tmp_path)
    assert loaded is not None and loaded.fitted == (False,) + (True,) * 6


def test_a_table_that_confirmed_one_value_alone_corrects_nothing(reader: DiceReader) -> None:
    examples = [e for e in real_examples(reader) if e.label == 3] * 2  # each confirmed twice
    assert len(examples) >= adapting.MIN_EXAMPLES
    head = fit_head(reader, examples)
    assert not np.any(head.weights) and not np.any(head.bias)
    result = adapt(reader, examples)
    assert result.head is None and "stays as it was" in result.message


def test_the_check_fits_what_is_switched_on(reader: DiceReader,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """With just enough "not a die" examples, a part of the check may hold fewer: it must
    still fit what all the examples switch on (here, whether a crop is a die too), not values
    only."""
    examples = [e for e in real_examples(reader) if e.label != NOT_A_DIE]
    greys = [Example(np.full_like(examples[0].crop, v), NOT_A_DIE, f"grey {v}")
             for v in range(30, 230, 20)][:adapting.MIN_NOT_A_DIE]
    assert adapting.what_it_learns(examples + greys[:-1])[0] is False  # one short: as shipped
    examples += greys
    assert adapting.what_it_learns(examples) == (True,) * 7
    learned = []
    fit = adapting.fit_head

    def recording(reader: DiceReader, examples: list[Example],
                  learns: tuple[bool, ...] | None = None) -> Head:
        head = fit(reader, examples, learns)
        learned.append(head.fitted is not None and head.fitted[NOT_A_DIE])
        return head

    monkeypatch.setattr(adapting, "fit_head", recording)
    adapt(reader, examples)
    assert len(learned) >= adapting.CHECK_FOLDS and all(learned)
