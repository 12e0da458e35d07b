"""Sticker sheets: every component of a game on true-size stickers in a PDF."""

from pathlib import Path

import pytest

from companion.cli import main
from companion.stickers import CODE_MM, STICKER_MM, qr_matrix


def test_size_follows_the_module_rule() -> None:
    assert (CODE_MM, STICKER_MM) == (37.5, 43.5)
    assert len(qr_matrix("GC1/CG/WILDCARD/DIPLOMATIC-IMMUNITY/2")) == 25  # version 2 always
    assert len(qr_matrix("GC1/G6/PIECE/A/1")) == 25


@pytest.mark.parametrize("game, paper, pages", [("captains-gambit", "a4", 3),
                                                ("captain-flip", "letter", 19),
                                                ("BG", "a4", 2)])
def test_sheets_are_written(game: str, paper: str, pages: int, tmp_path: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sheet.pdf"
    assert main(["stickers", game, "--paper", paper, "--out", str(out)]) == 0
    data = out.read_bytes()
    assert data.startswith(b"%PDF") and f"/Count {pages}".encode() in data
    assert f"on {pages} page(s)" in capsys.readouterr().out


def test_unknown_game_and_unwritable_path(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stickers", "chess"]) == 2
    assert "no components for game 'chess' (games with stickers: burkes-gambit," \
        " captain-flip" in capsys.readouterr().err
    assert main(["stickers", "CG", "--out", str(tmp_path / "no" / "such" / "x.pdf")]) == 2
    assert "cannot write" in capsys.readouterr().err
