"""The component registry: every physical piece of the five games, and payload parsing."""

from collections import Counter

import pytest

from companion.engine import (
    InvalidPayloadError,
    UnknownComponentError,
    all_components,
    components_of,
    parse_payload,
)
from companion.games.captains_gambit.book import PERMITS, WILDCARDS, Book


def test_counts_per_game() -> None:
    counts = Counter(c.game for c in all_components())
    # Gambit of Kings: 16 cards, 20 pieces a side and 5 spare Knight markers, 4 corners;
    # Gambit (6x6): 6 + 6 + 4 + 4 pieces, the corners of two boards; Captain Flip: 144 tile
    # faces, the corners of 20 board faces.
    assert counts == {"captains-gambit": 19 + 24 + 4, "burkes-gambit": 29,
                      "gambit-of-kings": 16 + 50 + 4, "gambit-6x6": 20 + 8,
                      "captain-flip": 144 + 80}


def test_payloads_are_unique_and_fit_qr_alphanumeric() -> None:
    payloads = [c.payload for c in all_components()]
    assert len(set(payloads)) == len(payloads)
    alphanumeric = set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
    assert all(set(p) <= alphanumeric and len(p) <= 38 for p in payloads)  # version 2, M


def test_every_payload_parses_back_to_its_component() -> None:
    for component in all_components():
        assert parse_payload(component.payload) == component


def test_examples_from_the_architecture() -> None:
    assert parse_payload("GC1/CG/CAPTAIN/LADY-MACBETH").label == "Lady Macbeth"
    assert parse_payload("GC1/CG/PERMIT/BARRAGE/3").copy == 3
    assert parse_payload("GC1/BG/PARASITE/INFECTED").kind == "PARASITE"
    tile = parse_payload("GC1/CF/TILE/07/COOK")
    # Tile 07 is Swabby/Cook; the sticker on the Cook side never names what is on its back.
    assert tile.face == "COOK" and tile.label == "Tile 07: Cook"


def test_captain_flip_tiles_pair_every_two_characters_twice() -> None:
    faces: dict[str, set[str]] = {}
    for c in components_of("CF"):
        if c.kind != "TILE":
            continue
        faces.setdefault(c.id.split("/")[2], set()).add(c.face or "")
    assert len(faces) == 72 and all(len(f) == 2 for f in faces.values())
    pairs = Counter(frozenset(f) for f in faces.values())
    assert len(pairs) == 36 and set(pairs.values()) == {2}


def test_registry_agrees_with_the_captains_gambit_rule_book() -> None:
    book = Book.load()
    ids = {c.name.lower().replace("-", "_") for c in components_of("captains-gambit")}
    assert set(book.data["captains"]) | set(PERMITS) | set(WILDCARDS) == ids


@pytest.mark.parametrize("text, error, reason", [
    ("HELLO", InvalidPayloadError, "must start GC1/"),
    ("GC1/CG/PERMIT", InvalidPayloadError, "2 segments"),
    ("GC1/CG/A/B/C/D/E", InvalidPayloadError, "6 segments"),
    ("GC1/CG/permit/BARRAGE", InvalidPayloadError, "'permit' is not"),
    ("GC1/XX/PERMIT/BARRAGE", InvalidPayloadError, "unknown game code 'XX'"),
    ("GC1/CG/PERMIT/BARRAGE/9", UnknownComponentError, "names no component"),
    ("GC1/CG/CAPTAIN/FALSTAFF", UnknownComponentError, "names no component"),
])
def test_bad_payloads_get_clear_errors(text: str, error: type[Exception], reason: str) -> None:
    with pytest.raises(error, match=reason):
        parse_payload(text)
