"""A game is a plug-in: the shared layers name no game. What each registered game declares
(its slug, title, sticker code and components, its actions, parameters, options, events, the
keys of its views) must not appear in the shared layers' code or in the phone page's script:
they learn about games only through the registry and the typed table view."""

from __future__ import annotations

import ast
import io
import random
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.engine import (
    ActionSpec,
    Counter,
    Fact,
    GameRules,
    Param,
    TableSession,
    TableView,
    all_games,
)
from companion.engine.components import REGISTRY
from companion.engine.random_play import random_step
from tests.conformance import setups
from tests.conftest import ROOT

SHARED = [path for path in (ROOT / "companion").rglob("*")
          if path.suffix in (".py", ".js", ".html")
          and "games" not in path.relative_to(ROOT / "companion").parts]

# The words of the shared contracts: keys every game's views and specs use alike.
CONTRACT = {*TableView("", "", None, "", "", "", ()).to_dict(), "key", "label", "value", "detail",
            "max", "min", "choices", "default", "board", "depends_on", "choices_by", "kind",
            "name", "params", "cost", "note", "ruling", "alive", "counters", "facts", "cells",
            "pieces", "row", "col", "terrain", "owner", "rows", "cols", "turned_for", "id", "rules",
            "columns", "scores", "total", "voter", "choice", "voted", "shown", "result",
            "winners", "text", "notes", "undo", "action", "type", "reason", "options", "seed",
            "deal", "seats", "round", "move", "reaction", "input", "table", "title", "code"}
# Words the shared layers use with a meaning of their own, which some game also uses as a key.
SHARED_WORDS = {
    "cell": "the parameter kind for boards",
    "you": "the service's snapshot: who the phone is",
    "actor": "the service's word for who sends a request",
    "stale": "the API's error code for an out-of-date request",
    "outcome": "the engine's session.outcome",
    "face": "a die face the camera reads (DieFace)",
    "card": "a QR-tagged card the camera reads",
    "roll": "a roll of dice the camera reads",
    "look": "the narrator's pause kind",
    "roles": "the narration scripts' role fields",
    "what": "the narrate command's GAME|PHASE argument",
    "resolve": "Path.resolve",
    "target": "a browser event's target",
    "on": "the CSS class of a live dot and a chosen tab",
    "role": "an HTML ARIA role",
}
_ = (ActionSpec, Counter, Fact, Param)  # the contracts CONTRACT names the fields of


def view_keys(value: Any) -> Iterator[str]:
    """The keys of a game's own view (nested), and the keys of its table view's facts."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            if key == "key" and isinstance(item, str):
                yield item.split(":")[0]
            yield from view_keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from view_keys(item)


def component_names(slug: str) -> set[str]:
    """A game's sticker names and kinds (upper case, as payloads spell them)."""
    found = [c for c in REGISTRY.all() if c.game == slug]
    # Two-letter names ("A4", a piece) are too short to tell from other words (a paper size).
    return {n for c in found for n in (c.name, c.kind) if len(n) > 2}


def declared(rules: GameRules) -> tuple[set[str], set[str]]:
    """What the game declares: names (its slug and title, anywhere, any case) and keys
    (action, parameter, option, event and view names, as code would use them)."""
    info = rules.info
    names = {info.slug, info.slug.replace("-", "_"), info.title}
    keys = {option.name for option in info.options}
    for setup in setups(rules):
        session = TableSession(setup, rules)
        rng = random.Random(3)
        for _ in range(300):
            for seat in [None, *range(len(setup.seats))]:
                keys |= set(view_keys(session.view(seat)))
                keys |= set(view_keys(session.table_view(seat).to_dict()))
                for spec in session.legal_actions(seat):
                    keys |= {spec.name, *(p.name for p in spec.params)}
            keys |= {e["type"] for r in session.history for e in r.events}
            keys.add(str(session.view(None).get("phase", "")))
            if session.outcome is not None or random_step(session, rng) is None:
                break
    return names, keys - CONTRACT - set(SHARED_WORDS) - {""}


def tokens(path: Path) -> tuple[str, set[str]]:
    """The file's whole text, and its single-word string literals and identifiers."""
    text = path.read_text()
    found: set[str] = set()
    if path.suffix == ".py":
        previous = ""
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.NAME and previous == ".":  # an attribute: state.pool
                found.add(token.string)
            elif token.type == tokenize.STRING:
                literal = ast.literal_eval(token.string) if not token.string.startswith(
                    ("f", "F", "rf", "fr")) else ""
                if isinstance(literal, str) and re.fullmatch(r"[A-Za-z_][\w-]*", literal):
                    found.add(literal)
            previous = token.string
    else:
        found |= set(re.findall(r"""["'`]([A-Za-z_][\w-]*)["'`]""", text))
        found |= set(re.findall(r"\.([A-Za-z_]\w*)", text))
        found |= set(re.findall(r"[{,]\s*([A-Za-z_]\w*)\s*:", text))
    return text, found


def problems(paths: list[Path]) -> list[str]:
    games = {rules.info.slug: declared(rules) for rules in all_games()}
    for slug in REGISTRY.codes().values():  # games with stickers and no rules yet
        games.setdefault(slug, ({slug, slug.replace("-", "_")}, set()))
    found = []
    for slug, (names, keys) in games.items():
        components = component_names(slug)
        for path in paths:
            text, words = tokens(path)
            where = path.name
            for name in names:
                if re.search(rf"\b{re.escape(name)}\b", text, re.I):
                    found.append(f"{where} names {slug}: {name!r}")
            for name in components:
                if re.search(rf"\b{re.escape(name)}\b", text):
                    found.append(f"{where} names {slug}'s component {name!r}")
            for key in sorted(words & keys):
                found.append(f"{where} uses {slug}'s key {key!r}")
    return found


def test_no_shared_layer_names_a_game() -> None:
    assert problems(SHARED) == []


def test_the_check_finds_a_game_named_in_a_shared_layer(tmp_path: Path) -> None:
    """The check can fail: a page script that draws one game's key, and a module that names a
    game, are both found."""
    script = tmp_path / "leaky.js"
    script.write_text('const pool = view.pool; if (e.type === "engine_powered") draw();\n')
    module = tmp_path / "leaky.py"
    module.write_text('"""Reads the Captain\'s Gambit pool."""\nPOOL = view["pool"]\n')
    found = problems([script, module])
    assert any("leaky.js uses captains-gambit's key 'pool'" in p for p in found), found
    assert any("leaky.js uses burkes-gambit's key 'engine_powered'" in p for p in found), found
    assert any("leaky.py names captains-gambit" in p for p in found), found
    assert any("leaky.py uses captains-gambit's key 'pool'" in p for p in found), found
