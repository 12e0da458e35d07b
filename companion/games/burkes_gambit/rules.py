"""Burke's Gambit: setup, legal actions, apply, views, suggestions and the rules summary.

The companion never rolls a die: a roll is an observation (from the camera's taught dice or
a phone). Parasite cards are never shown to their holder, not even in that seat's own view.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from companion.engine import (
    Action,
    ActionSpec,
    Component,
    DieFace,
    Event,
    EyesClosed,
    GameInfo,
    GameRules,
    GameSetup,
    Outcome,
    Param,
    SetupError,
    TableView,
    Transition,
    check_one_of,
    house_reading,
    refuse_unknown,
    seat_key,
    shuffled,
)
from companion.games.burkes_gambit import components, moves, screen
from companion.games.burkes_gambit.book import Book
from companion.games.burkes_gambit.state import (
    CLEAN,
    CREW,
    INFECTED,
    SPECIALIST,
    Pending,
    Player,
    State,
)

INFO = GameInfo(
    slug=components.SLUG,
    title="Burke's Gambit",
    code=components.CODE,
    min_players=4,
    max_players=8,
    summary="Dice from a bag, a hidden parasite, saboteurs among the crew: eject the infected"
            " before the ship reaches Earth.",
    uses_dice=True,
    deals_by_hand=True,
    options=(
        Param("engines_to_earth", "number", "Engine power-ups to reach Earth (empty: the"
              " rulebook's number)", minimum=1, maximum=12),
    ),
    house_readings=(
        house_reading(Book.default().data, "quarantine.blocks_voting",
                      "A player in quarantine does not vote"),
        house_reading(Book.default().data, "vote.for_yourself",
                      "A player may vote to eject themselves"),
        # The roles the rulebook does not name, by the names on the table's own cards
        *(house_reading(Book.default().data, f"roles.{role}.label",
                        f"{Book.default().role_label(role)}: the name on your card")
          for role in Book.default().roles() if role.startswith("role_")),
    ),
)

_OPTIONS = ("engines_to_earth", "house")


@cache
def _script_data() -> dict[str, Any]:
    """The heads-down phase's words (data/narration.toml)."""
    text = resources.files(__package__).joinpath("data/narration.toml").read_text("utf-8")
    return tomllib.loads(text)
# Events that show hidden information: a plain undo stops before them.
_REVEALING = ("looked", "cards_shown", "votes_shown", "game_over", "reinfected", "reshuffled")


def _seat_map(deal: Mapping[str, Any], key: str, players: int,
              allowed: Sequence[str]) -> dict[int, str]:
    given = deal.get(key, {})
    if not isinstance(given, Mapping):
        raise SetupError(f"deal: {key!r} must map seats to names")
    out: dict[int, str] = {}
    for seat_name, value in given.items():
        seat = seat_key(seat_name, players)
        out[seat] = check_one_of(f"deal: {key} of seat {seat}", value, allowed)
    return out


def _read_deal(deal: Mapping[str, Any], players: int,
               book: Book) -> tuple[dict[int, str], dict[int, str], dict[int, str]]:
    """What is known of a deal made at the table: roles (face up), and, for a game replayed
    from its record, ID and parasite cards."""
    refuse_unknown(deal, ("roles", "ids", "parasites"), "deal: unknown field")
    roles = _seat_map(deal, "roles", players, book.roles())
    for role in dict.fromkeys(roles.values()):
        seats = sorted(seat for seat, r in roles.items() if r == role)
        if len(seats) > 1:  # one card of each role: name the card and the seats
            raise SetupError(f"deal: a role is dealt twice: the {book.role_label(role)} card"
                             f" to seats {', '.join(map(str, seats))}")
    if len(roles) == players and "captain" not in roles.values():
        raise SetupError("deal: the Captain is always in play")
    ids = _seat_map(deal, "ids", players, (CREW, SPECIALIST))
    parasites = _seat_map(deal, "parasites", players, (INFECTED, CLEAN))
    # As many of each card as the player count has: a partial deal may not hold more, a
    # complete one must hold exactly that many.
    specialists = book.specialists(players)
    for team, cards in ((SPECIALIST, specialists), (CREW, players - specialists)):
        given = list(ids.values()).count(team)
        if given > cards:  # (a complete deal with too few of one has too many of the other)
            raise SetupError(f"deal: {players} players have {cards} {team} ID"
                             f" card{'s' * (cards != 1)}, not {given}")
    infected = list(parasites.values()).count(INFECTED)
    if infected > 1:
        raise SetupError(f"deal: exactly one parasite card is infected, not {infected}")
    if len(parasites) == players and infected != 1:
        raise SetupError("deal: exactly one parasite card is infected")
    return roles, ids, parasites


class BurkesGambitRules(GameRules):
    info = INFO
    rule_book = Book

    def setup(self, setup: GameSetup) -> State:
        count = len(setup.seats)
        if not INFO.min_players <= count <= INFO.max_players:
            raise SetupError(f"Burke's Gambit is for 4 to 8 players, not {count}")
        options = dict(setup.options)
        refuse_unknown(options, _OPTIONS, "unknown option")
        book = Book.load(options.get("house"))
        to_earth = options.get("engines_to_earth", book.engines_to_earth(count))
        source = ("option \"engines_to_earth\"" if "engines_to_earth" in options
                  else f"rule 'setup.engines_to_earth.{count}'")
        if not isinstance(to_earth, int) or isinstance(to_earth, bool) or not 1 <= to_earth <= 12:
            raise SetupError(f"{source} must be a number from 1 to 12")
        if to_earth > book.dice:  # the ship could never reach Earth
            raise SetupError(f"{source} ({to_earth}) is more than rule 'setup.dice'"
                             f" ({book.dice}): each power-up keeps its die in the centre")
        names = [str(n) for n in setup.seats]
        if setup.deal is None:
            specialists = book.specialists(count)
            teams = shuffled([SPECIALIST] * specialists + [CREW] * (count - specialists),
                             setup.seed, "ids")
            parasites = shuffled([INFECTED] + [CLEAN] * (count - 1), setup.seed, "parasites", 0)
            others = shuffled([r for r in book.roles() if r != "captain"], setup.seed, "roles")
            roles: list[str | None] = list(shuffled(["captain", *others[:count - 1]], setup.seed,
                                                    "role-seats"))
            players = [Player(i, names[i], teams[i], parasites[i], roles[i], book.health)
                       for i in range(count)]
        else:
            told, known_ids, known_parasites = _read_deal(setup.deal, count, book)
            players = [Player(i, names[i], known_ids.get(i), known_parasites.get(i), told.get(i),
                              book.health) for i in range(count)]
        # The companion knows the cards when it dealt them or was given the whole deal.
        dealt = all(p.team and p.parasite for p in players)
        state = State(book=book, seed=setup.seed, players=players, to_earth=to_earth,
                      dealt=dealt, phase="roles", by_hand=setup.deal is not None)
        if all(p.role for p in players):
            captain = state.captain()
            assert captain is not None
            state.turn = captain.seat
            state.phase = "heads_down"
        return state

    def legal_actions(self, state: State, seat: int | None) -> Sequence[ActionSpec]:
        return moves.MOVE_SET.legal(state, seat, len(state.players))

    def apply(self, state: State, action: Action) -> Transition:
        transition = moves.MOVE_SET.apply(state, action, len(state.players), _REVEALING, _notes)
        new = transition.state
        # Only the action right after a power-up is told why a Cancel cannot stop it (a
        # Cancel die rolled then, too, when it comes to be used).
        cancel_in_hand = new.die is not None and new.die.face == "cancel"
        if not any(e["type"] == "engine_powered" for e in transition.events) \
                and not (cancel_in_hand and action.name in ("roll", "reroll", "use_reserve")):
            new.powered_up = None
        return transition

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        over = state.outcome is not None
        players = []
        for p in state.players:
            shown = p.revealed or (over and state.dealt)
            players.append({
                "seat": p.seat,
                "name": p.name,
                "health": p.health,
                "alive": p.alive,
                "role": p.role,
                "role_label": state.book.role_label(p.role) if p.role else None,
                "role_used": p.role_used,
                "reserve": p.reserve,
                "quarantined": p.seat in state.quarantine,
                # Face up only when dead, ejected or at the end: never a secret before.
                "team": p.team if shown else None,
                "parasite": p.parasite if shown else None,
            })
        vote_over = state.phase in ("tiebreak", "over", "reveal_ejected")
        out: dict[str, Any] = {
            "game": INFO.slug,
            "phase": state.phase,
            "status": moves.status(state),
            "turn": moves.turn_shown(state),
            "waiting_for": moves.waiting_for(state),
            "players": players,
            "engines": state.engines,
            "to_earth": state.to_earth,
            "stalls": state.stalls,
            "bag": state.bag_left(),
            "die": {"face": state.die.face, "rerolled": state.die.rerolled} if state.die else None,
            "pending": ({**_pending(state.pending),
                         "held": [_pending(held) for held in state.held]}
                        if state.pending else None),
            "voted": sorted(state.votes) if not vote_over else None,
            "votes": ({str(k): v for k, v in sorted(state.votes.items())} if vote_over
                      else None),
            "tied": list(state.tied),
            "ejected": state.ejected,
            "winning_team": moves.winning_team(state),
            "outcome": state.outcome.to_dict() if state.outcome else None,
        }
        if seat is not None and 0 <= seat < len(state.players):
            me = state.players[seat]
            out["you"] = {
                "seat": seat,
                "team": me.team,  # your own ID card: you may look at it any time
                # Never your own parasite card: nobody may look at their own.
                "looks": moves.own_looks(state, seat),
                "vote": state.votes.get(seat),
            }
        return out

    def describe(self, state: State, action: Action) -> str:
        return moves.MOVE_SET.describe(state, action)

    def table_view(self, state: State, seat: int | None) -> TableView:
        return screen.table_view(state, seat, INFO)

    def as_known_to(self, state: State, seat: int | None) -> State:
        """Hidden from ``seat``: ID cards not face up (but its own), every parasite card not
        face up (its own too: nobody may look at their own), other seats' looks, their votes
        until the votes are shown, and the seed (it would show the deal)."""
        known = state.copy()
        known.seed = None
        if known.phase not in screen.VOTE_SHOWN:
            # Who has voted is public; what they voted is not (-1: a vote not known).
            known.votes = {s: t if s == seat else -1 for s, t in known.votes.items()}
        for player in known.players:
            shown = player.revealed or (known.outcome is not None and known.dealt)
            if not shown:
                player.parasite = None
                if player.seat != seat:
                    player.team = None
            if player.seat != seat:
                player.looks = []
                player.id_told = False
        return known

    def components(self) -> Sequence[Component]:
        return components.components()

    def eyes_closed(self, in_play: frozenset[str], players: int) -> Sequence[EyesClosed]:
        data = _script_data()["head_down"]
        return (EyesClosed("heads-down", "heads down", data, during="heads_down",
                           instructions=str(data["instructions"])),)

    def announce(self, events: Sequence[Event]) -> str:
        """The engines' count, after each power-up: everyone hears how close Earth is."""
        return " ".join(f"Engines at {e['engines']} of {e['to_earth']}." for e in events
                        if e["type"] == "engine_powered")

    def suggest(self, state: State, seen: Component | DieFace) -> Sequence[Action]:
        """A taught die showing a face: the roll (or reroll) of the seat whose turn it is."""
        if not isinstance(seen, DieFace):
            return ()
        face = state.book.face_named(str(seen.value))
        if face is None or state.phase != "turn":
            return ()
        if state.die is None:
            return (Action("roll", state.turn, {"face": face}),)
        if not state.die.rerolled:
            return (Action("reroll", state.turn, {"face": face}),)
        return ()

    def rules_summary(self, options: Mapping[str, Any] | None = None) -> str:
        options = options or {}
        book = Book.load(options.get("house"))
        by_count = ", ".join(f"{n}p {book.engines_to_earth(n)}" for n in range(4, 9))
        to_earth = options.get("engines_to_earth")
        if isinstance(to_earth, int) and not isinstance(to_earth, bool):
            engines = f"{to_earth} at this table (option engines_to_earth; by default {by_count})"
        else:
            engines = by_count
        lines = ["Burke's Gambit (4-8 players). [house] marks the project's defaults where the"
                 " rulebook is silent; change them in data/rules.toml or the option \"house\".",
                 "",
                 "Setup: ID cards (A.S.S. by player count: "
                 + ", ".join(f"{n}p {book.specialists(n)}" for n in range(4, 9))
                 + "), one parasite card each (one infected; nobody sees their own), roles face"
                 f" up (the Captain always). Health {book.health}, also the maximum.",
                 f"Engine power-ups to reach Earth: {engines}.",
                 "",
                 "Die faces:"]
        for name in book.data["faces"]:
            face = book.face(name)
            mark = " [house]" if face.get("house") else ""
            lines.append(f"  {face['label']}: {book.face_effect(name)}{mark}")
        lines += ["", "Roles:"]
        for name in book.roles():
            role = book.data["roles"][name]
            mark = " [house]" if role.get("house") else ""
            lines.append(f"  {role['label']}: {role['ability']}{mark}")
        silent = [book.role_label(r) for r in book.roles() if not book.role_votes(r)]
        but = f" but the {' and the '.join(silent)}" if silent else ""
        lines += ["", f"End: when the engines reach Earth, every living player{but}"
                  " votes; each vote stays secret until all are in, then all are shown"
                  " together (the seed's count of three) [house]. Most votes is ejected; a tie"
                  " (nobody able to vote: every living player at 0) is the Captain's to break,"
                  " or nobody is ejected if the Captain is dead."
                  + (" [house: a quarantined player still votes]" if book.quarantined_vote
                     else " [house: a quarantined player does not vote]")
                  + (" [house: a player may vote for themselves]" if book.vote_for_yourself
                     else " [house: a vote is for another player, not yourself]"),
                  "Crew win if the infected player is ejected; the specialists win if a clean"
                  " player is ejected, nobody is, or every crew member is dead."]
        return "\n".join(lines)


def _pending(pending: Pending) -> dict[str, Any]:
    return {"actor": pending.actor, "face": pending.face, "target": pending.target,
            "choice": pending.choice, "cancels": list(pending.cancels),
            "cancelled": pending.cancelled}


def _action(state: State, event: Mapping[str, Any]) -> str:
    return moves.action_name(state, event["seat"], event["face"], event["target"],
                             event["choice"])


def _notes(state: State, events: Sequence[dict[str, Any]]) -> tuple[str, ...]:
    """Public notes for the log line of an action."""
    out: list[str] = []
    book = state.book
    for event in events:
        kind = event["type"]
        if kind == "engine_powered":
            out.append(f"Engines at {event['engines']} of {event['to_earth']}")
        elif kind == "engine_stalled":
            out.append("The Stall cancels that power-up; both dice go back to the bag")
        elif kind == "damaged":
            out.append(f"{state.name(event['seat'])} is at {event['health']} health")
        elif kind == "healed":
            out.append(f"{state.name(event['seat'])} heals to {event['health']}"
                       if event["health"] > event["before"] else
                       f"{state.name(event['seat'])} is at full health ({event['health']}):"
                       " the heal changes nothing")
        elif kind == "died":
            out.append(f"{state.name(event['seat'])} dies")
        elif kind == "vote_restarted":
            out.append("A death during the vote: everyone living votes again")
        elif kind == "cards_shown":
            out.append(f"{state.name(event['seat'])} was {moves.NAMES[event['team']]},"
                       f" {event['parasite']}")
        elif kind == "reinfected":
            out.append("The parasite finds a new host: the survivors' parasite cards are dealt"
                       " again")
        elif kind == "ids_contradicted":
            out.append(f"{state.name(event['seat'])}'s ID card does not fit the ID cards the"
                       " companion was given: it forgets them (each player may tell theirs"
                       " again)")
        elif kind == "deal_contradicted":
            out.append(f"{state.name(event['seat'])}'s parasite card is not the one the deal"
                       " gave: the companion forgets the parasite cards it was given")
        elif kind == "reshuffled":
            out.append("The living players' parasite cards are shuffled and dealt again")
        elif kind == "quarantined":
            out.append(f"{state.name(event['seat'])} is in quarantine until"
                       f" {state.name(event['by'])}'s next turn")
        elif kind == "quarantine_over":
            out.append(f"{state.name(event['seat'])} leaves quarantine")
        elif kind == "skipped":
            out.append(f"{state.name(event['seat'])} is in quarantine: skipped")
        elif kind == "cancel_done":
            name = moves.cancelled_name(state, str(event["what"]))
            out.append(f"{name[0].upper()}{name[1:]} is cancelled")
        elif kind == "held":
            out.append(f"{_action(state, event)} waits until this Cancel is settled")
        elif kind == "resumed":
            out.append(f"Back to {_action(state, event)}")
        elif kind == "fizzled":
            out.append(f"{state.name(event['seat'])}'s {book.face_label(event['face'])} comes to"
                       " nothing")
        elif kind == "passed":
            out.append("The bag is empty")
        elif kind == "action_cancelled":
            out.append(f"{state.name(event['seat'])}'s {book.face_label(event['face'])} is"
                       " cancelled; the dice go back to the bag")
        elif kind == "stall_placed":
            out.append("A Stall waits in the centre")
        elif kind == "earth_reached":
            out.append("The ship reaches Earth: time to vote")
        elif kind == "votes_shown":
            out.append("Votes: " + (", ".join(f"{state.name(s)} -> {state.name(t)}"
                                              for s, t in sorted(event["votes"].items()))
                                    or "none (nobody may vote): every living player is tied"
                                       " at 0"))
        elif kind == "vote_called_off":
            out.append("The ship is not at Earth: the vote is called off (the votes cast are"
                       " set aside unseen)")
        elif kind == "corrected" and event.get("moved"):
            moved = event["moved"]
            dice = f"{abs(moved)} {'die goes' if abs(moved) == 1 else 'dice go'}"
            out.append(f"{dice} back to the bag" if moved < 0
                       else f"{dice} from the bag to the centre")
        elif kind == "no_one_ejected":
            out.append("Nobody is ejected" + (": a tie with the Captain dead"
                                              if state.outcome and state.outcome.reason
                                              == "tie_captain_dead" else ""))
        elif kind == "ejected":
            out.append(f"{state.name(event['seat'])} is ejected from the airlock")
        elif kind == "game_over":
            winners = moves.WINNERS[event["team"]]
            out.append(f"{winners[0].upper()}{winners[1:]} win")
        elif kind == "turn":
            out.append(f"{state.name(event['seat'])}'s turn")
    return tuple(out)
