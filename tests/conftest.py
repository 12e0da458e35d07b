"""Shared fixtures: games registered, builders for Captain's Gambit tables, photo bytes."""

from __future__ import annotations

import struct
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

import companion.games  # noqa: F401  (registers the games)
from companion.engine import Action, GameSetup, TableSession

ROOT = Path(__file__).resolve().parent.parent
TRANSCRIPTS = ROOT / "fixtures" / "transcripts"

SEATS = ("Ann", "Ben", "Cat", "Dan")


def cg_table(captains: Mapping[int, str], permits: Mapping[int, list[str]] | None = None,
             seats: tuple[str, ...] = SEATS, options: Mapping[str, Any] | None = None,
             end_prologue: bool = True) -> TableSession:
    """A Captain's Gambit table dealt by hand, with the given captains and permits."""
    deal: dict[str, Any] = {"captains": {str(k): v for k, v in captains.items()}}
    if permits is not None:
        deal["permits"] = {str(k): v for k, v in permits.items()}
    session = TableSession(GameSetup("captains-gambit", seats, dict(options or {}), seed=1,
                                     deal=deal))
    if end_prologue and session.state.phase == "prologue":
        session.submit(Action("end_prologue"))
    return session


def act(session: TableSession, name: str, seat: int | None = None, **params: Any) -> None:
    session.submit(Action(name, seat, params))


@pytest.fixture
def four() -> TableSession:
    """Ann Puck, Ben Iago, Cat Portia, Dan Prospero; Ann to play, round 1."""
    return cg_table({0: "puck", 1: "iago", 2: "portia", 3: "prospero"},
                    {0: ["barrage", "shield"], 1: ["drain", "overcharge"],
                     2: ["fortify", "network"], 3: ["barrage", "shield"]})


def with_exif_orientation(jpeg: bytes, orientation: int) -> bytes:
    """The JPEG with an EXIF segment saying how to turn it upright, as a phone writes."""
    tiff = (b"MM\x00\x2a\x00\x00\x00\x08"  # big-endian, first directory at 8
            + struct.pack(">HHHIHH", 1, 0x0112, 3, 1, orientation, 0)  # Orientation, SHORT
            + b"\x00\x00\x00\x00")  # no next directory
    app1 = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + jpeg[2:]
