"""Captain's Gambit: Kings of Infinite Space (Cloudfall Studios, 2020), 4 to 8 players.

Rulebook: ../shared/seeds/000_92b74fe926cc2ea2.txt; completed in ../shared/rules/RULES.md §1;
house defaults in data/rules.toml (../shared/rules/house-rulings.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.engine import (
    Action,
    ActionSpec,
    Component,
    DieFace,
    EyesClosed,
    GameInfo,
    GameRules,
    GameSetup,
    Outcome,
    Param,
    SetupError,
    TableView,
    Transition,
    house_reading,
    refuse_unknown,
    seat_key,
    shuffled,
)
from companion.games.captains_gambit import components, moves, narration, screen
from companion.games.captains_gambit.book import PERMITS, WILDCARDS, Book
from companion.games.captains_gambit.state import Player, State
from companion.games.captains_gambit.summary import rules_summary

INFO = GameInfo(
    slug=components.SLUG,
    title="Captain's Gambit",
    code=components.CODE,
    min_players=4,
    max_players=8,
    summary="Hidden captains, bluffed permits, 12 rounds: each captain has a secret way to win.",
    deals_by_hand=True,
    options=(
        Param("warp_in", "choices", "Warp In captains (advanced)",
              choices=Book.load().warp_in_groups(), minimum=0,
              maximum=len(Book.load().warp_in_groups()), default=[],
              labels=Book.load().warp_in_labels()),
        Param("wildcards", "flag", "Wildcards in the permit deck", default=False),
        Param("mulligan", "flag", "Permit mulligan before the Prologue", default=False),
        Param("first_seat", "seat", "Who plays first", choices=tuple(range(8)), default=0),
    ),
    house_readings=(
        house_reading(Book.load().data, "wildcards.identity_theft.shield",
                      "With the wildcards, Identity Theft may also do a Shield"),
    ),
)

_OPTIONS = ("warp_in", "wildcards", "mulligan", "first_seat", "house")
_DEAL_FIELDS = ("captains", "permits")
# Events that show hidden information: a plain undo stops before them. A save window opens
# only for Titus, so it shows who he is; the game's end turns every captain face-up.
_REVEALING = ("card_shown", "revealed", "died", "game_over", "permits_dealt", "save_window",
              "ending")


def _read_options(options: Mapping[str, Any], players: int) -> dict[str, Any]:
    refuse_unknown(options, _OPTIONS, "unknown option")
    warp_in = options.get("warp_in", [])
    if not isinstance(warp_in, list) or not all(isinstance(g, str) for g in warp_in):
        raise SetupError("option \"warp_in\" must be a list of Warp In group names")
    for flag in ("wildcards", "mulligan"):
        if not isinstance(options.get(flag, False), bool):
            raise SetupError(f"option {flag!r} must be true or false")
    first = options.get("first_seat", 0)
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < players:
        raise SetupError(f"option \"first_seat\" must be a seat from 0 to {players - 1}")
    return {"warp_in": warp_in, "wildcards": options.get("wildcards", False),
            "mulligan": options.get("mulligan", False), "first_seat": first}


def _read_deal(deal: Mapping[str, Any], players: int, dealable: list[str],
               deck: list[str], hand_size: int, wildcards: bool
               ) -> tuple[list[str | None], list[list[str | None]]]:
    """What is known of a deal made by hand: captains and permits by seat, the rest unknown."""
    refuse_unknown(deal, _DEAL_FIELDS, "deal: unknown field")
    for field in _DEAL_FIELDS:
        if not isinstance(deal.get(field, {}), Mapping):
            raise SetupError(f"deal: {field!r} must be an object of seat numbers")
    captains: list[str | None] = [None] * players
    for key, name in dict(deal.get("captains", {})).items():
        seat = seat_key(key, players)
        if name not in dealable:
            raise SetupError(f"deal: {name!r} is not a captain that can be dealt in this game")
        if name in captains:
            raise SetupError(f"deal: {name!r} is dealt twice")
        captains[seat] = name
    hands: list[list[str | None]] = [[None] * hand_size for _ in range(players)]
    left = list(deck)
    for key, cards in dict(deal.get("permits", {})).items():
        seat = seat_key(key, players)
        if (not isinstance(cards, list) or len(cards) > hand_size
                or not all(isinstance(card, str) for card in cards)):
            raise SetupError(f"deal: seat {seat}'s permits must be a list of at most {hand_size}")
        for card in cards:
            if card in WILDCARDS and not wildcards:
                raise SetupError(f"deal: {card!r} is a wildcard, and the wildcards are off"
                                 " (option wildcards)")
            if card not in left:
                raise SetupError(f"deal: no {card!r} permit is left to deal to seat {seat}")
            left.remove(card)
        hands[seat] = list(cards) + [None] * (hand_size - len(cards))
    return captains, hands


class CaptainsGambitRules(GameRules):
    """The rules of Captain's Gambit, as the engine's GameRules."""

    info = INFO
    rule_book = Book

    def setup(self, setup: GameSetup) -> State:
        names = list(setup.seats)
        count = len(names)
        if not INFO.min_players <= count <= INFO.max_players:
            raise SetupError(f"Captain's Gambit needs 4 to 8 players, not {count}")
        options = _read_options(setup.options, count)
        book = Book.load(setup.options.get("house"))
        pool = book.pool(count, options["warp_in"])
        centre = next((c for c in pool if c in book.centre_captains()), None)
        dealable = [c for c in pool if c != centre]
        if len(dealable) < count:
            raise SetupError(f"the captain pool has {len(dealable)} captains to deal to"
                             f" {count} players")
        cards = [p for p in PERMITS for _ in range(book.copies("permit_copies", count))]
        if options["wildcards"]:
            cards += [w for w in WILDCARDS for _ in range(book.copies("wildcard_copies", count))]
        hand_size = int(book.setup("hand_size"))
        if len(cards) < count * hand_size:
            raise SetupError(f"{len(cards)} permits cannot deal {hand_size} to each of {count}"
                             " players")
        deck: list[str] | None
        if setup.deal is None:
            dealt: list[str | None] = list(shuffled(dealable, setup.seed, "captains")[:count])
            deck = shuffled(cards, setup.seed, "permits")
            hands: list[list[str | None]] = [
                [deck.pop() for _ in range(hand_size)] for _ in range(count)]
        else:
            dealt, hands = _read_deal(setup.deal, count, dealable, cards, hand_size,
                                      options["wildcards"])
            deck = None
        players = [
            Player(seat=i, name=name, captain=dealt[i], permits=hands[i],
                   health=int(book.setup("starting_health")),
                   energy=int(book.setup("starting_energy")))
            for i, name in enumerate(names)
        ]
        state = State(
            book=book, seed=setup.seed, players=players, pool=tuple(pool),
            wildcards=options["wildcards"],
            loyalty_income="king_lear" in pool and "othello" in pool,
            companion_dealt=setup.deal is None, deck=deck, centre=centre,
            first_seat=options["first_seat"], phase="mulligan",
        )
        if not options["mulligan"]:
            for player in players:
                player.mulliganed = True
            moves.after_deal(state)
        state.events = []
        return state

    def legal_actions(self, state: State, seat: int | None) -> Sequence[ActionSpec]:
        return moves.MOVE_SET.legal(state, seat, len(state.players))

    def apply(self, state: State, action: Action) -> Transition:
        done = moves.MOVE_SET.apply(state, action, len(state.players), _REVEALING,
                                    moves.event_notes)
        # A private input the whole table sees the effect of is shown to all, with its notes:
        # a captain told late that has already lost dies at once (its card is turned over),
        # and from the end on (phase "ending" too) nothing is secret.
        if done.private and (done.state.phase == "ending"
                             or any(e["type"] == "died" for e in done.events)):
            return replace(done, private=False,
                           notes=tuple(moves.event_notes(done.state, done.events)))
        return done

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        book = state.book
        players = []
        for p in state.players:
            players.append({
                "seat": p.seat,
                "name": p.name,
                "health": p.health,
                "energy": p.energy,
                "blood": p.blood,
                "loyalty": p.loyalty,
                "alive": p.alive,
                "revealed": p.revealed,
                "captain": p.captain if p.revealed else None,
                # The dead show their permits; the living show only how many they hold.
                "permits": list(p.permits) if not p.alive else len(p.permits),
            })
        out: dict[str, Any] = {
            "game": INFO.slug,
            "phase": state.phase,
            "round": state.round,
            "rounds": int(book.setup("rounds")),
            "turn": state.turn if state.phase not in ("mulligan", "prologue") else None,
            "first_seat": state.first_seat,
            "waiting_for": moves.waiting_for(state),
            "status": moves.waiting_text(state),
            "players": players,
            "pending": state.pending.to_public() if state.pending else None,
            "pool": list(state.pool),
            "centre_card": state.centre is not None or state.swapped,
            "deck": len(state.deck) if state.deck is not None else None,
            "wildcards": state.wildcards,
            "deaths": [{"seat": d.seat, "killer": d.killer, "cause": d.cause}
                       for d in state.deaths],
            "outcome": state.outcome.to_dict() if state.outcome else None,
        }
        if seat is not None and 0 <= seat < len(state.players):
            me = state.players[seat]
            out["you"] = {
                "seat": seat,
                "captain": me.captain,
                "permits": list(me.permits),
                "original_captain": me.original_captain,
                "my_mark": state.marks.get(seat),
                "holds_hamlet_token": state.hamlet_token == seat,
                "plays_as": me.copies_seat,
                "immune": seat in state.immune,
            }
        return out

    def table_view(self, state: State, seat: int | None) -> TableView:
        return screen.table_view(state, seat, INFO)

    def as_known_to(self, state: State, seat: int | None) -> State:
        """Hidden from ``seat``: other seats' unrevealed captains (but its partner's, Romeo's
        Juliet or Tybalt's Mercutio and back: "both see each other during the Prologue"),
        their captains before a swap, the living's permits, their marks and Viola's choice;
        the centre card once swapped; the deck's order; the seed (it would show the deal)."""
        partner = state.partner_of(seat) if seat is not None else None
        known = state.copy()
        known.seed = None
        if known.deck is not None:
            known.deck = ["unknown"] * len(known.deck)
        if known.swapped:
            known.centre = None
        known.marks = {s: t for s, t in known.marks.items() if s == seat}
        if known.hamlet_token != seat:
            known.hamlet_token = None
        for player in known.players:
            if player.seat == seat:
                continue
            if not player.revealed and player.seat != partner:
                player.captain = None
            player.original_captain = None
            player.copies_seat = None
            if player.alive:
                player.permits = [None] * len(player.permits)
        return known

    def components(self) -> Sequence[Component]:
        return components.components()

    def in_play(self, view: Mapping[str, Any]) -> frozenset[str]:
        return narration.in_play(view)

    def check_in_play(self, names: Sequence[str], players: int | None) -> frozenset[str]:
        return narration.check_pool(names, players)

    def eyes_closed(self, in_play: frozenset[str], players: int) -> Sequence[EyesClosed]:
        return narration.eyes_closed(in_play)

    def suggest(self, state: State, seen: Component | DieFace) -> Sequence[Action]:
        """A permit held up after a bluff call on it: show it. A captain held up by the seat
        whose turn it is: reveal it."""
        if not isinstance(seen, Component) or seen.game != INFO.slug:
            return ()
        component = seen
        name = component.name.lower().replace("-", "_")
        if component.kind == "PERMIT" and state.phase == "bluff" and state.pending \
                and state.pending.challenge and moves.claimed_card(state) == name:
            return (Action("show_permit", moves.challenged(state)),)
        if component.kind == "CAPTAIN" and state.phase == "action":
            player = state.players[state.turn]
            if not player.revealed and player.captain in (None, name):
                return (Action("reveal", state.turn),)
        return ()

    def describe(self, state: State, action: Action) -> str:
        return moves.MOVE_SET.describe(state, action)

    def rules_summary(self, options: Mapping[str, Any] | None = None) -> str:
        house = (options or {}).get("house")
        return rules_summary(Book.load(house))
