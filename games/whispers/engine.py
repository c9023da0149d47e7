"""«Шептуны» (The Hunger Games: Jabberjay card game): the pure rules engine.

The contract with the verbs, presenters and bots is docs/whispers-protocol.md; the rules come from
seed 002 as ../shared/rules/whispers.md decides ("§1.5" below refers to that file).

Layout (as in games/bids and games/coup): ``WhispersState`` is plain data (lists, ints, strings
and the game's ``random.Random``); ``Whispers`` holds no data and every method takes the state.
``apply`` checks the action completely before touching anything, then changes the state and
returns the events. Everything that needs no decision (the deal, automatic returns, the reveal,
the end of a round) runs inside ``apply`` right after the action that leads to it, so the game
always rests at a stage that awaits exactly one seat (or at ``over``).

A round: deal -> [pass -> swap]* -> place (two laps) -> reveal -> end of round -> deal ...
The placement's rules (1-3, with rule 3's revisions) are placement.py; how one player's cards
resolve their status at the reveal is status.py.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ..base import MASTER, Action, Audience, Awaiting, Event, Outcome, RuleError, int_option
from . import bot as _bots
from . import placement as _rules
from .placement import RULES_REV, RULES_REVISIONS, clockwise as _clockwise
# REVEAL_KEYS and RANKS stay importable from here: the contract and the tests name them so.
from .status import IGNORED, RANKS, REVEAL_KEYS, reveal_one as _reveal_one  # noqa: F401

# ------------------------------------------------------------------------------------ constants

DISTRICT, CAPITOL, NONE = "district", "capitol", "none"

# §1.4: District role cards by the number of players (the rest are Capitol).
DISTRICT_BY_PLAYERS = {5: 2, 6: 2, 7: 3, 8: 3, 9: 3, 10: 4, 11: 4, 12: 5}
MIN_NORMAL = 5  # fewer seats than this need the cooperative variant (§1.6)

DEFAULT_DECK = "10,9,8,7,5"
DECK_MIN_TOTAL, DECK_MAX_TOTAL = 36, 150  # 3 cards a player at 12 players; a sane upper bound
COUNT_MIN, COUNT_MAX = 1, 60  # every rank has at least one card
TURN_LIMITS = (10, 86400)
ROUND_LIMITS = (10, 1000)
PEACEKEEPER_LIMITS = (3, 4)
RETURN_RULES = ("all", "one")

EVERYONE = Audience.everyone()
_ONLY = [Audience.only(seat) for seat in range(12)]

DISCARD_PASS: Action = {"type": "discard_pass"}


# ------------------------------------------------------------------------------------ state


@dataclass
class WhispersState:
    """Everything about one game. Plain data, so ``copy.deepcopy`` makes an independent game.

    Cards are ranks (ints 1-5). Where every card of the deck is at any moment: ``deck``,
    ``discard``, ``hands``, ``placed`` (cards lying face down in front of a player), ``markers``
    (the status card on a role card; None while the status is the starting Ignored or after a
    defeat) and ``passed_card`` (a card on its way from a defeated Capitol citizen to a swap).
    """

    players: int
    deck_counts: list[int]  # cards of each rank, I..F
    total: int  # the whole deck
    return_one: bool  # return_rule=one
    turn_seconds: int
    max_rounds: int
    rng: random.Random
    sides: list[str]  # per seat: "district" | "capitol" (secret)
    coop: bool = False
    peacekeepers_from: int | None = None
    district_total: int = 0
    capitol_total: int = 0
    # the table
    status: list[int] = field(default_factory=list)  # per seat, public
    markers: list[int | None] = field(default_factory=list)  # per seat, the card under the status
    revealed: list[bool] = field(default_factory=list)  # role card face up (defeated or exposed twice)
    defeated: list[bool] = field(default_factory=list)
    deck: list[int] = field(default_factory=list)  # draws pop from the end (secret)
    discard: list[int] = field(default_factory=list)  # face down (secret)
    hands: list[list[int]] = field(default_factory=list)  # per seat (secret)
    face_up: list[int | None] = field(default_factory=list)  # dealt face up this round (public)
    placed: list[list[list[int]]] = field(default_factory=list)  # per target: [[placer, rank], ...] (secret)
    returned: list[bool] = field(default_factory=list)  # could not place this round
    voided: list[int] = field(default_factory=list)  # per seat: placed cards that lay there at its return
    rules_rev: int = RULES_REV  # the revision of rule 3 the table plays (placement.py)
    placements: list[list[int]] = field(default_factory=list)  # this round: [placer, target, rank] (secret)
    # the round
    round: int = 1
    dealer: int = 0
    stage: str = "place"  # pass | swap | place | over
    turn: int | None = None  # the awaited seat
    lap: int = 1
    order: list[int] = field(default_factory=list)  # placement order (active seats from the dealer)
    step: int = 0  # placement turns taken or skipped: lap = step // len(order) + 1
    pass_queue: list[int] = field(default_factory=list)  # defeated Capitol seats still to pass
    passer: int | None = None
    passed_card: int | None = None
    last_reveal: list[dict[str, Any]] = field(default_factory=list)
    # the end
    winner: str | None = None  # "district" | "capitol" | "none"
    reason: str | None = None
    win_params: dict[str, Any] = field(default_factory=dict)
    # waits, for unique window names
    wait_no: int = 0
    window: str = ""

    def count_cards(self) -> int:
        """Every card of the game wherever it lies (the conservation check of the contract)."""
        return (len(self.deck) + len(self.discard) + sum(map(len, self.hands))
                + sum(map(len, self.placed)) + sum(m is not None for m in self.markers)
                + (self.passed_card is not None))


# ------------------------------------------------------------------------------------ engine


class Whispers:
    name = "whispers"
    min_players = 2
    max_players = 12
    default_options: dict[str, Any] = {"deck": DEFAULT_DECK, "district": "auto", "return_rule": "all",
                                       "peacekeepers": 3, "turn": 90, "rounds": 200}
    internal_options = ("rules_rev",)  # kept by the table (start_options), never typed or shown

    # ----------------------------------------------------------------------------- setting up

    def validate_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Defaults filled in, words and numbers parsed from text; anything else is refused."""
        result = dict(self.default_options)
        for name, value in (options or {}).items():
            if name == "deck":
                result[name] = _deck_option(value)
            elif name == "district":
                if _word(value) == "auto":
                    result[name] = "auto"
                else:
                    result[name] = int_option(value, 1, self.max_players - 1, name, "whispers.error.bad_option")
            elif name == "return_rule":
                word = _word(value)
                result[name] = word if word in RETURN_RULES else _bad(name, value)
            elif name == "peacekeepers":
                result[name] = int_option(value, *PEACEKEEPER_LIMITS, name, "whispers.error.bad_option")
            elif name == "turn":
                result[name] = int_option(value, *TURN_LIMITS, name, "whispers.error.bad_option")
            elif name == "rounds":
                result[name] = int_option(value, *ROUND_LIMITS, name, "whispers.error.bad_option")
            elif name == "rules_rev":  # set at the start (start_options), not typed at `open`
                if value not in RULES_REVISIONS or isinstance(value, bool):
                    _bad(name, value)
                result[name] = value
            elif name == "peacekeepers_from":  # set by the server (start_plan), kept as it is
                if value is None:
                    continue
                result[name] = int_option(value, 1, self.max_players - 1, name, "whispers.error.bad_option")
            else:
                _bad(name, value)
        return result

    def start_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options a table starts with: today's revision of rule 3 is pinned (a rematch of an
        older game plays today's)."""
        return {**options, "rules_rev": RULES_REV}

    def restored_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """A stored table started before the revision was pinned played revision 1 of rule 3."""
        return options if "rules_rev" in options else {**options, "rules_rev": 1}

    def start_plan(self, options: dict[str, Any] | None, seats: int,
                   names: list[str] | None = None) -> tuple[int, dict[str, Any]]:
        """§1.6: a table of fewer than 5 seats gets Peacekeeper bots (Capitol), seated after it."""
        if seats >= MIN_NORMAL:
            return 0, {}
        opts = self.validate_options({k: v for k, v in (options or {}).items() if k != "peacekeepers_from"})
        return opts["peacekeepers"], {"peacekeepers_from": seats}

    def rematch_plan(self, options: dict[str, Any], seats: int) -> tuple[dict[str, Any], int]:
        """A rematch keeps the options and the seats of the players; the Peacekeepers that the
        start plan seated (from ``peacekeepers_from`` on) are seated again by it at the start."""
        first = options.get("peacekeepers_from")
        kept = first if isinstance(first, int) and 0 < first <= seats else seats
        return {k: v for k, v in options.items() if k != "peacekeepers_from"}, kept

    def new(self, seats: int, options: dict[str, Any] | None, seed: int) -> WhispersState:
        if not isinstance(seats, int) or isinstance(seats, bool) or not self.min_players <= seats <= self.max_players:
            raise RuleError("whispers.error.bad_option", name="players", value=seats)
        opts = self.validate_options(options)
        first = opts.get("peacekeepers_from")
        if first is None and seats < MIN_NORMAL:
            raise RuleError("whispers.error.too_few")
        if first is not None and not 1 <= first < seats:
            raise RuleError("whispers.error.bad_option", name="peacekeepers_from", value=first)
        if first is None:
            # An override is checked against the seats only now (the table fills after `open`):
            # one too big for the table is capped, so that a start never fails on it.
            district = DISTRICT_BY_PLAYERS[seats] if opts["district"] == "auto" else min(opts["district"], seats - 1)
        else:
            district = first
        counts = [int(c) for c in opts["deck"].split(",")]
        rng = random.Random(seed)
        if first is None:
            sides = [DISTRICT] * district + [CAPITOL] * (seats - district)
            rng.shuffle(sides)
        else:  # the cooperative variant: people are District, the Peacekeepers Capitol
            sides = [DISTRICT] * first + [CAPITOL] * (seats - first)
        s = WhispersState(players=seats, deck_counts=counts, total=sum(counts),
                          return_one=opts["return_rule"] == "one", turn_seconds=opts["turn"],
                          max_rounds=opts["rounds"], rng=rng, sides=sides)
        s.coop = first is not None
        s.rules_rev = opts.get("rules_rev", RULES_REV)
        s.peacekeepers_from = first
        s.district_total = district
        s.capitol_total = seats - district
        s.status = [IGNORED] * seats
        s.markers = [None] * seats
        s.revealed = [False] * seats
        s.defeated = [False] * seats
        s.deck = [rank for rank, count in zip(RANKS, counts) for _ in range(count)]
        s.dealer = rng.randrange(seats)  # "Один игрок назначается раздающим": drawn by lot
        _deal(s)
        _after_deal(s, [])  # round 1: nobody is defeated, so this only opens the placement
        return s

    def start_events(self, state: WhispersState) -> list[Event]:
        """What to announce when the game begins; reads the state without changing it."""
        s = state
        if s.coop:
            events = [Event(EVERYONE, "whispers.start_coop",
                            {"players": s.players, "peacekeepers": s.capitol_total})]
        else:
            events = [Event(EVERYONE, "whispers.start",
                            {"players": s.players, "district": s.district_total, "capitol": s.capitol_total})]
        for seat, side in enumerate(s.sides):
            events.append(Event(_ONLY[seat], "whispers.side", {"side": side}))
        team = _team(s)
        for seat in team:
            events.append(Event(_ONLY[seat], "whispers.team", {"seats": list(team)}))
        events.extend(_deal_events(s))
        return events

    # ----------------------------------------------------------------------------- questions

    def awaiting(self, state: WhispersState) -> list[Awaiting]:
        s = state
        if s.stage == "over" or s.turn is None:
            return []
        return [Awaiting(s.turn, "turn", s.turn_seconds, _default(s), s.window)]

    def legal(self, state: WhispersState, seat: int) -> list[Action]:
        s = state
        if s.stage == "over" or seat != s.turn or isinstance(seat, bool):
            return []
        if s.stage == "place":
            targets = _rules.targets(s, seat)
            return [{"type": "place", "card": rank, "target": t}
                    for rank in sorted(set(s.hands[seat])) for t in targets]
        if s.stage == "pass":
            return [{"type": "pass", "target": t} for t in _pass_targets(s, seat)] + [dict(DISCARD_PASS)]
        if s.stage == "swap":
            return [{"type": "swap", "card": rank} for rank in sorted(set(s.hands[seat]))]
        return []

    def outcome(self, state: WhispersState) -> Outcome | None:
        s = state
        if s.stage != "over":
            return None
        winners = tuple(seat for seat in range(s.players) if s.sides[seat] == s.winner)
        return Outcome(winners, f"whispers.outcome.{s.reason}", {"side": s.winner, **s.win_params})

    def view(self, state: WhispersState, viewer: int) -> dict[str, Any]:
        """What ``viewer`` may know. Every list is a fresh copy, so callers cannot reach the state."""
        s = state
        view: dict[str, Any] = {
            "players": s.players, "round": s.round, "dealer": s.dealer, "stage": s.stage, "turn": s.turn,
            "lap": s.lap, "status": list(s.status),
            "revealed": [side if up else None for side, up in zip(s.sides, s.revealed)],
            "defeated": list(s.defeated), "face_up": list(s.face_up), "placed": [len(p) for p in s.placed],
            "hand_sizes": [len(h) for h in s.hands], "returned": list(s.returned), "passer": s.passer,
            "deck": len(s.deck), "discard": len(s.discard), "district_total": s.district_total,
            "capitol_total": s.capitol_total, "coop": s.coop, "peacekeepers_from": s.peacekeepers_from,
            "last_reveal": [{**entry, "cards": list(entry["cards"])} for entry in s.last_reveal],
            "winner": s.winner, "rules_rev": s.rules_rev,
        }
        if isinstance(viewer, int) and not isinstance(viewer, bool) and 0 <= viewer < s.players:
            side = s.sides[viewer]
            view["me"] = viewer
            view["side"] = side
            view["hand"] = sorted(s.hands[viewer])
            if side == DISTRICT:
                view["team"] = _team(s)
            view["my_placements"] = [[target, rank] for placer, target, rank in s.placements if placer == viewer]
            if s.stage == "swap" and viewer == s.turn:
                view["passed_card"] = s.passed_card
        elif viewer == MASTER:
            view["sides"] = list(s.sides)
            view["hands"] = [sorted(h) for h in s.hands]
            view["placed_cards"] = [[list(pair) for pair in p] for p in s.placed]
            view["markers"] = list(s.markers)
            view["voided"] = list(s.voided)  # per seat: how many of placed_cards (the first) do not count
            view["passed_card"] = s.passed_card
        return view

    def bot_action(self, view: dict[str, Any], legal: list[Action], rng: Any, level: str) -> Action:
        return _bots.bot_action(view, legal, rng, level)

    def final_reveal(self, state: WhispersState) -> dict[str, Any] | None:
        """Everything the game hid, for the end-of-game block: None while the game goes on (a
        secret stays one). Each seat's role card (its side), status, hand and the cards lying
        face down in front of it, and the rounds played."""
        outcome = self.outcome(state)
        if outcome is None:
            return None
        s = state
        return {"game": self.name, "winners": list(outcome.winners), "reason": outcome.reason,
                "params": dict(outcome.params), "length": {"rounds": s.round}, "coop": s.coop,
                "seats": [{"seat": seat, "side": s.sides[seat], "status": s.status[seat],
                           "defeated": s.defeated[seat], "hand": sorted(s.hands[seat]),
                           "placed": sorted(rank for _, rank in s.placed[seat])} for seat in range(s.players)]}

    # ----------------------------------------------------------------------------- the one change

    def apply(self, state: WhispersState, seat: int, action: Action) -> list[Event]:
        s = state
        if s.stage == "over":
            raise RuleError("whispers.error.game_over")
        if not isinstance(seat, int) or isinstance(seat, bool) or seat != s.turn:
            raise RuleError("whispers.error.not_your_turn")
        kind = action.get("type") if isinstance(action, dict) else None
        events: list[Event] = []
        if s.stage == "place":
            if kind != "place":
                raise RuleError("whispers.error.bad_action")
            card = _check_card(s.hands[seat], action.get("card"))
            target = _rules.check_target(s, seat, action.get("target"))
            _rules.place(s, seat, card, target, events)
            _next_turn(s, events)
        elif s.stage == "pass":
            if kind == "discard_pass":
                card = s.hands[seat].pop()
                s.discard.append(card)
                events.append(Event(EVERYONE, "whispers.pass_discarded", {"seat": seat}))
                _next_passer(s, events)
            elif kind == "pass":
                target = _check_pass_target(s, seat, action.get("target"))
                card = s.hands[seat].pop()
                s.passed_card = card
                events.append(Event(EVERYONE, "whispers.passed", {"seat": seat, "target_seat": target}))
                events.append(Event(_ONLY[target], "whispers.passed_to_you", {"seat": seat, "card": card}))
                s.turn = target
                _wait(s, "swap")
            else:
                raise RuleError("whispers.error.bad_action")
        else:  # swap
            if kind != "swap":
                raise RuleError("whispers.error.bad_action")
            card = _check_card(s.hands[seat], action.get("card"))
            hand = s.hands[seat]
            hand.remove(card)
            s.discard.append(card)
            hand.append(s.passed_card)
            s.passed_card = None
            events.append(Event(EVERYONE, "whispers.swapped", {"seat": seat}))
            _next_passer(s, events)
        return events


# ------------------------------------------------------------------------------------ checks


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_card(hand: list[int], card: Any) -> int:
    if not _is_int(card) or card not in hand:
        raise RuleError("whispers.error.no_such_card")
    return card


def _check_pass_target(s: WhispersState, seat: int, target: Any) -> int:
    if not _is_int(target) or not 0 <= target < s.players:
        raise RuleError("whispers.error.bad_target")
    if target == seat:
        raise RuleError("whispers.error.self_target")
    if s.defeated[target]:
        raise RuleError("whispers.error.target_defeated")
    if not s.hands[target]:
        raise RuleError("whispers.error.bad_target")
    return target


# ------------------------------------------------------------------------------------ flow


def _wait(s: WhispersState, stage: str) -> None:
    s.stage = stage
    s.wait_no += 1
    s.window = f"r{s.round}-{stage}-{s.wait_no}"


def _from_dealer(s: WhispersState) -> list[int]:
    n = s.players
    return [x % n for x in range(s.dealer, s.dealer + n)]


def _team(s: WhispersState) -> list[int]:
    return [seat for seat, side in enumerate(s.sides) if side == DISTRICT]


def _pass_targets(s: WhispersState, seat: int) -> list[int]:
    return [t for t in _clockwise(s, seat) if not s.defeated[t] and s.hands[t]]


def _default(s: WhispersState) -> Action:
    seat = s.turn
    if s.stage == "place":
        return {"type": "place", "card": min(s.hands[seat]), "target": _rules.targets(s, seat)[0]}
    if s.stage == "pass":
        return dict(DISCARD_PASS)
    return {"type": "swap", "card": min(s.hands[seat])}


def _deal(s: WhispersState) -> None:
    """§1.5.1: discards back into the deck, shuffle, deal from the dealer (state only)."""
    s.deck.extend(s.discard)
    s.discard = []
    s.rng.shuffle(s.deck)
    n = s.players
    s.hands = [[] for _ in range(n)]
    s.face_up = [None] * n
    s.placed = [[] for _ in range(n)]
    s.returned = [False] * n
    s.voided = [0] * n
    s.placements = []
    s.lap, s.step, s.turn, s.passer, s.passed_card = 1, 0, None, None, None
    deck = s.deck
    for seat in _from_dealer(s):
        hand = s.hands[seat]
        if not s.defeated[seat]:
            if deck:
                card = deck.pop()
                s.face_up[seat] = card
                hand.append(card)
            if deck:
                hand.append(deck.pop())
        elif s.sides[seat] == CAPITOL and deck:  # a defeated Capitol citizen: one face down
            hand.append(deck.pop())


def _deal_events(s: WhispersState) -> list[Event]:
    """The events of the deal just made (read from the state, so start_events can repeat them)."""
    order = _from_dealer(s)
    events = [Event(EVERYONE, "whispers.round", {"round": s.round, "seat": s.dealer}),
              Event(EVERYONE, "whispers.face_up",
                    {"cards": [[seat, s.face_up[seat]] for seat in order if s.face_up[seat] is not None]})]
    for seat in order:
        hand = s.hands[seat]
        if not hand:
            continue
        if s.defeated[seat]:
            events.append(Event(_ONLY[seat], "whispers.dealt_defeated", {"card": hand[0]}))
        else:
            events.append(Event(_ONLY[seat], "whispers.hand", {"cards": sorted(hand)}))
    return events


def _after_deal(s: WhispersState, events: list[Event]) -> None:
    s.pass_queue = [seat for seat in _from_dealer(s) if s.defeated[seat] and s.hands[seat]]
    _next_passer(s, events)


def _next_passer(s: WhispersState, events: list[Event]) -> None:
    """The next defeated Capitol citizen passes (§1.5 open points: before the placement)."""
    s.passed_card = None
    if s.pass_queue:
        seat = s.pass_queue.pop(0)
        s.passer = s.turn = seat
        _wait(s, "pass")
        return
    s.passer = None
    s.order = [seat for seat in _from_dealer(s) if not s.defeated[seat]]
    s.step = 0
    _next_turn(s, events)


def _next_turn(s: WhispersState, events: list[Event]) -> None:
    """The next placement (placement.py: the laps and rule 3's automatic returns), or after the
    last card the reveal."""
    seat = _rules.next_placer(s, events)
    if seat is not None:
        s.turn = seat
        _wait(s, "place")
        return
    s.turn = None
    _reveal(s, events)


def _reveal(s: WhispersState, events: list[Event]) -> None:
    """§1.5.5: from the dealer clockwise, each player with placed cards reveals them (sorted)."""
    s.last_reveal = []
    order = _from_dealer(s)
    for i, seat in enumerate(order):
        _reveal_one(s, seat, events)
        if _all_district_revealed(s):
            for rest in order[i + 1:]:  # the round stops: what still lies there goes face down
                s.discard.extend(rank for _, rank in s.placed[rest])
                s.placed[rest] = []
            _win(s, CAPITOL, "all_district_revealed", {}, events)
            return
    _end_round(s, events)


def _all_district_revealed(s: WhispersState) -> bool:
    return all(up for side, up in zip(s.sides, s.revealed) if side == DISTRICT)


def _defeated_counts(s: WhispersState) -> tuple[int, int]:
    capitol = district = 0
    for side, down in zip(s.sides, s.defeated):
        if down:
            if side == CAPITOL:
                capitol += 1
            else:
                district += 1
    return capitol, district


def _end_round(s: WhispersState, events: list[Event]) -> None:
    """§1.5: the District condition at the end of the round; then the Justice card passes."""
    capitol, district = _defeated_counts(s)
    if capitol >= district + 2:
        _win(s, DISTRICT, "capitol_defeated", {"capitol_defeated": capitol, "district_defeated": district}, events)
        return
    if s.defeated.count(False) < 2:
        # A lone active player (always a hidden District citizen) can never be placed on: nothing
        # can change any more (reachable only with a district override or in the variant).
        _win(s, NONE, "stalemate", {}, events)
        return
    if s.round >= s.max_rounds:
        _win(s, NONE, "round_limit", {}, events)
        return
    s.dealer = (s.dealer + 1) % s.players  # to the left, defeated players included
    events.append(Event(EVERYONE, "whispers.justice", {"seat": s.dealer}))
    s.round += 1
    _deal(s)
    events.extend(_deal_events(s))
    _after_deal(s, events)


def _win(s: WhispersState, side: str, reason: str, extra: dict[str, Any], events: list[Event]) -> None:
    s.winner, s.reason, s.win_params = side, reason, dict(extra)
    s.turn = s.passer = None
    s.pass_queue = []
    _wait(s, "over")
    seats = [seat for seat in range(s.players) if s.sides[seat] == side]
    events.append(Event(EVERYONE, "whispers.winner", {"side": side, "seats": seats, "reason": reason, **extra}))


# ------------------------------------------------------------------------------------ options


def _word(value: Any) -> str:
    return value.strip().lower() if isinstance(value, str) else ""


def _bad(name: str, value: Any) -> Any:
    raise RuleError("whispers.error.bad_option", name=name, value=value)


def _deck_option(value: Any) -> str:
    """Five counts I,H,A,E,F (text "10,9,8,7,5" or a list of ints), as the canonical text."""
    if isinstance(value, str):
        parts = [p for p in value.replace(";", ",").replace("/", ",").replace(" ", ",").split(",") if p]
    elif isinstance(value, (list, tuple)):
        parts = list(value)
    else:
        _bad("deck", value)
    if len(parts) != len(RANKS):
        _bad("deck", value)
    counts = []
    for part in parts:
        if _is_int(part):
            number = part
        elif isinstance(part, str) and part.isascii() and part.isdecimal():
            number = int(part)
        else:
            _bad("deck", value)
        if not COUNT_MIN <= number <= COUNT_MAX:
            _bad("deck", value)
        counts.append(number)
    if not DECK_MIN_TOTAL <= sum(counts) <= DECK_MAX_TOTAL:
        _bad("deck", value)
    return ",".join(map(str, counts))


GAME = Whispers()
