"""The camera over a Gambit (6x6) board, on phones in a real headless Chromium against a real
`companion serve` watching a folder of rendered frames: a piece Ann moves on the real board is
one tap away on her phone (and not on Ben's), and a piece moved against the rules is shown on
every phone with the rule it breaks, until the table puts it back."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import cv2
from playwright.sync_api import Browser, expect

from companion.engine import Action, GameSetup, TableSession
from companion.engine.random_play import random_step
from tests.web.server import Client, Server
from tests.web.test_e2e import LIVE, browser, new_phone, no_script_errors, tab

__all__ = ["browser", "no_script_errors"]  # the fixtures this module uses

SETUP = GameSetup("gambit-6x6", ("Ann", "Ben"), {}, seed=4)


def to_play() -> tuple[TableSession, list[Action]]:
    """The table of SETUP once both players placed their powers, and the actions to get there."""
    session = TableSession(SETUP)
    rng = random.Random(2)
    while session.state.phase == "placing":
        random_step(session, rng)
    return session, [r.action for r in session.history]


def frames(folder: Path, session: TableSession, placement: Any, count: int, start: int) -> int:
    """``count`` copies of the frame of ``placement`` (a still table) into the camera's folder."""
    from tools.board_scenes import LOOKS, Layout, table_scene
    from tools.synthetic_board import Light, View, render

    layout = Layout({"6X6": (10.0, -5.0, 4.0)}, seed=3)
    frame = render(table_scene(session.rules, placement, View(distance_mm=800, tilt_deg=15),
                               Light(noise=2.0), layout, seed=start))
    assert LOOKS
    for index in range(count):
        cv2.imwrite(str(folder / f"{start + index:05d}.jpg"), frame)
    return start + count


def test_a_move_on_the_board_is_one_tap_away_and_an_illegal_one_is_shown(
        browser: Browser, tmp_path: Path) -> None:
    from tools.board_scenes import Physical

    session, setup_actions = to_play()
    physical = Physical(session.rules)
    camera = tmp_path / "camera"
    camera.mkdir()
    server = Server(tmp_path / "data", env={"COMPANION_CAMERA": str(camera)})
    server.start()
    try:
        host = Client(server)
        _, table = host.call("POST", "/api/tables", {"game": "gambit-6x6", "seats": ["Ann", "Ben"],
                                                     "options": {}})
        base = f"/api/tables/{table['id']}"
        ben = Client(server)
        ben.call("POST", f"{base}/join", {"pin": table["pin"], "seat": 1})
        ann = new_phone(browser)
        ann.goto(f"{server.url}/t/{table['id']}")
        ann.fill("#pin", table["pin"])
        ann.click("#seat-buttons button[data-seat='0']")
        expect(ann.locator("#turn")).to_be_visible()
        for action in setup_actions:  # each player places their powers on their phone
            body = {"name": action.name, "seat": action.seat, "params": dict(action.params)}
            if action.seat == 1:
                _, now = ben.call("GET", base)
                status, answer = ben.call("POST", f"{base}/actions",
                                          {**body, "expect": now["version"]})
            else:
                answer = ann.evaluate("async (b) => { const now = await api('GET', BASE);"
                                      " return api('POST', BASE + '/actions',"
                                      " {...b, expect: now.version}); }", body)
                status = 201
            assert status == 201, answer
        host.call("POST", f"{base}/camera", {})
        turn = session.state.turn
        mover = next(s for s in session.legal_actions(turn) if s.name == "move")
        origin = mover.params[0].choices[0]
        target = mover.params[1].allowed({"piece": origin})[0]
        start = frames(camera, session, physical.placement(session.state), 14, 0)
        moved = session.rules.apply(session.state, Action(
            "move", turn, {"piece": origin, "to": target})).state
        start = frames(camera, session, physical.placement(moved), 10, start)
        phone = ann if turn == 0 else None
        assert phone is not None, "seat 0 moves first in this setup"
        tab(ann, "table")
        suggestion = ann.locator("#reaction-alert [data-suggestion=move]").first
        expect(suggestion).to_contain_text("a move on the 6x6 Gambit board", timeout=20000)
        expect(suggestion).to_contain_text(f"{origin}")
        _, ben_view = ben.call("GET", base)
        assert ben_view["camera"]["suggestions"] == []  # Ann's move, on Ann's phone only
        suggestion.click()
        ann.click("#sheet-go")
        expect(ann.locator("#sheet-preview")).to_contain_text(origin)
        ann.click("#sheet-go")
        expect(ann.locator("#recent")).to_contain_text(f"{origin}", timeout=LIVE)
        tab(ann, "more")
        expect(ann.locator("#camera")).to_contain_text("matches", timeout=LIVE)
        ann.screenshot(path=str(tmp_path / "camera-tab.png"), full_page=True)

        # Ann moves a piece again, out of turn and too far: every phone says why.
        _, now = ben.call("GET", base)
        after = now["view"]
        assert after["turn"] == 1 or after["phase"] != "turn"
        placement = physical.placement(moved)
        board = placement["6X6"]
        mine = next(c for c, comp in board.items() if comp.name.startswith("A") and c != target)
        empty = next(c for c in ("c4", "d4", "c5", "d5", "b5", "e5") if c not in board)
        cheat = {"6X6": {**{c: v for c, v in board.items() if c != mine}, empty: board[mine]}}
        frames(camera, session, cheat, 10, start)
        tab(ann, "table")
        expect(ann.locator("#reaction-alert .board-check")).to_contain_text(
            f"went from {mine} to {empty}: not your turn: it is Ben's", timeout=20000)
        _, seen = ben.call("GET", base)
        checks = seen["camera"]["boards"]["checks"]
        assert [c["verdict"] for c in checks] == ["illegal"] and seen["camera"]["suggestions"] == []
        ann.screenshot(path=str(tmp_path / "illegal.png"), full_page=True)
    finally:
        server.stop()
