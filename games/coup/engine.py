"""Coup («Переворот»): the pure rules engine.

The contract with the verbs, presenters and bots is docs/coup-protocol.md; the rules come from
seeds 000 (Russian edition) and 001 (Ukrainian text of the French edition) as
../shared/rules/coup.md decides (row numbers "#7" below refer to its table).

Layout (as in games/bids): ``CoupState`` is plain data (small lists and ints, plus the game's
``random.Random``); ``Coup`` holds no data and every method takes the state. ``apply`` checks the
action completely before touching anything, then changes the state and returns the events.

A turn runs as a small state machine (``state.stage``):

    turn -> [challenge_action -> prove -> lose] -> [block -> challenge_block -> prove -> lose]
         -> resolve (income/aid/tax/steal, or lose for coup/assassinate, exchange, examine_*)

Losses are taken one at a time: ``_lose`` either turns up the only card at once or opens a
``lose`` stage; either way the turn then carries on from ``state.after`` (a continuation tag).

Speed (bench/coup_bench.py): a game is mostly reaction windows, where every other living seat
answers each claim, and the runner asks ``awaiting``, ``legal`` and ``view`` around every answer.
So what stays the same for a whole wait is built once per wait and kept in the state's caches
(``CoupState._clear_caches``; each wait has a number, ``wait_no``, so a cache knows when it is
stale): the Awaiting objects (an answer drops its seat), a window's answers, the public part of
the views. The seats after each seat and the turn menus depend only on the seating (the fifth
role and who is alive), the seat and its coins: they are built once for all games (``_SEATINGS``)
and a state holds the tables of its seating until someone is out. Callers get
fresh lists and dicts at the top, but the dicts and lists inside them (actions in ``legal``,
``coins`` or ``face_up`` in a view, an event's params) may be shared between calls and games:
treat them as read-only, as the presenters, the runner and the bots do.
"""
from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from ..base import MASTER, Action, Audience, Awaiting, Event, Outcome, RuleError, int_option
from . import bot as _bots
from .treasury import LEGACY_REVISION, REVISION, REVISIONS, box_coins, payout

# ------------------------------------------------------------------------------------ constants

ROLE_KEYS = ("duke", "assassin", "captain", "ambassador", "inquisitor", "contessa")
ROLE_OPTIONS = {"advisor": "advisor", "ambassador": "advisor",
                "investigator": "investigator", "inquisitor": "investigator"}
FIFTH_OF = {"advisor": "ambassador", "investigator": "inquisitor"}
CHALLENGE_ORDERS = ("seat", "first")
EXAMINE_MODES = ("choose", "always_swap")
TURN_LIMITS = (10, 3600)
REACTION_LIMITS = (5, 600)

COUP_COST = 7
ASSASSINATE_COST = 3
FORCED_COUP = 10
STEAL_MAX = 2
MAX_SEATS = 10  # 2-6 the base game, 7-8 seed 001's, 9-10 coup.md #1's optional table
DEFAULT_SEATS = 8  # what `open coup` seats without seats=N: 9-10 are asked for (#1: "optional")


def copies_for(seats: int) -> int:
    """Copies of each role in the deck: 3 (2-6 players), 4 (7-8, #27), 5 (9-10, #1)."""
    return 5 if seats >= 9 else 4 if seats >= 7 else 3

TURN_ACTIONS = frozenset(("income", "foreign_aid", "coup", "tax", "assassinate", "steal", "exchange", "examine"))
TARGETED = frozenset(("coup", "assassinate", "steal", "examine"))
COSTS = {"coup": COUP_COST, "assassinate": ASSASSINATE_COST}
WINDOWS = frozenset(("challenge_action", "block", "challenge_block"))
CLAIMS = {"tax": "duke", "assassinate": "assassin", "steal": "captain", "examine": "inquisitor"}
GAIN = {"income": 1, "foreign_aid": 2, "tax": 3}
GAIN_KEYS = {kind: "coup." + kind for kind in GAIN}

EVERYONE = Audience.everyone()
_ONLY = [Audience.only(seat) for seat in range(MAX_SEATS)]


# Awaiting and Event are tuples (games/base.py); a game makes about one of each per action, so
# they are made with tuple.__new__ at once, without the keyword handling of their constructors.
_tuple_new = tuple.__new__


def _awaiting(seat: int, kind: str, seconds: float, default: Action, window: str) -> Awaiting:
    """A decision the seat owes (a turn, a card to lose, a card to show...): not optional."""
    return _tuple_new(Awaiting, (seat, kind, seconds, default, window, False))


def _event(audience: Audience, key: str, params: dict[str, Any]) -> Event:
    return _tuple_new(Event, (audience, key, params))


# A reaction window's answers (legal() hands out copies of these lists; the dicts are shared and
# read-only, as every action dict that legal() returns).
_ALLOW = {"type": "allow"}
_CHALLENGE_REPLIES = ({"type": "challenge"}, _ALLOW)


BLOCKABLE = frozenset(("foreign_aid", "assassinate", "steal"))  # the rest can never be blocked (#9, #24)


def _blockers(action: str | None, fifth: str) -> tuple[str, ...]:
    """The roles that block ``action`` (#9, #20)."""
    if action == "foreign_aid":
        return ("duke",)
    if action == "assassinate":
        return ("contessa",)
    if action == "steal":
        return ("captain", fifth)  # #20
    return ()


_BLOCK_REPLIES = {
    fifth: {action: tuple({"type": "block", "role": role} for role in _blockers(action, fifth)) + (_ALLOW,)
            for action in ("foreign_aid", "assassinate", "steal")}
    for fifth in FIFTH_OF.values()
}

# The event of the most common action, one per seat for all games (events are immutable; their
# params are read-only to everyone, as with every event).
_ALLOWED = tuple(_event(EVERYONE, "coup.allowed", {"seat": seat}) for seat in range(MAX_SEATS))


# ------------------------------------------------------------------------------------ state

# The caches of CoupState: derived from the game data, never part of it (data() leaves them out,
# copy() starts the twin without them).
_CACHES = ("waits", "waits_no", "public", "public_no", "view_coins", "view_cards",
           "seated", "menus", "others")


class CoupState:
    """Everything about one game. ``copy()`` is the fast way to fork a game (deepcopy works too)."""

    __slots__ = (
        # table and options
        "players", "roles", "fifth", "first_wins", "always_swap", "turn_seconds", "reaction_seconds",
        "rng", "unlimited_treasury",
        # cards and coins
        "hands", "face_up", "court", "coins", "treasury", "alive", "living",
        # turn and stage
        "active", "turn", "stage", "wait_no", "window", "winner", "picked",
        # the action under way (pending)
        "action", "actor", "target", "claim", "paid", "blocker", "block_role",
        "challenger", "challenged", "challenged_role", "losing", "lose_default", "after",
        "queued_blocks",
        # the open reaction window
        "order", "answered", "acted",
        # exchange and examination
        "drawn", "shown",
        # caches (see _clear_caches)
        *_CACHES,
    )

    def __init__(self, rng: random.Random | None = None) -> None:
        self.players = 0
        self.roles: tuple[str, ...] = ()  # the five roles in play, in the fixed order
        self.fifth = "ambassador"
        self.first_wins = False  # challenge_order=first
        self.always_swap = False  # examine=always_swap
        self.turn_seconds = 60
        self.reaction_seconds = 20
        self.unlimited_treasury = False  # treasury revision 1 (a table logged before #3's revision)
        # new() passes the game's seeded RNG: an unseeded Random() reads the OS entropy pool and
        # costs as much as a tenth of a short game.
        self.rng = rng if rng is not None else random.Random()
        self.hands: list[list[str]] = []  # face-down roles per seat (secret)
        self.face_up: list[list[str]] = []  # lost influence per seat (public)
        self.court: list[str] = []  # the Court deck, always shuffled; draws pop from the end (secret)
        self.coins: list[int] = []
        self.treasury = 0
        self.alive: list[bool] = []
        self.living = 0
        self.active = 0
        self.turn = 1
        self.stage = "turn"
        self.wait_no = 0  # counts waits, for unique window names (and the caches)
        self.window = ""
        self.winner: int | None = None
        self.picked: list[str | None] | None = None  # 2-player draft picks
        self._clear_pending()
        self.order: list[int] = []  # eligible seats of the open window, in priority order
        self.answered: list[int] = []  # seats that allowed in the open window
        self.acted: dict[int, Action] = {}  # challenge_order=seat: challenges/blocks waiting for priority
        self._clear_caches()

    def _clear_pending(self) -> None:
        self.action: str | None = None
        self.actor: int | None = None
        self.target: int | None = None
        self.claim: str | None = None
        self.paid = 0
        self.blocker: int | None = None
        self.block_role: str | None = None
        self.challenger: int | None = None
        self.challenged: int | None = None
        self.challenged_role: str | None = None
        self.losing: int | None = None
        self.lose_default: str | None = None
        self.after = ""
        # #31: blocks that queued behind the public one (seat, role), in priority order (secret)
        self.queued_blocks: list[tuple[int, str]] = []
        self.drawn: list[str] = []
        self.shown: str | None = None

    def _clear_caches(self) -> None:
        """A cache marked with a wait number (``*_no``) is valid while ``wait_no`` is that number;
        ``view_coins`` and ``view_cards`` while the data they copy stays the same; ``others`` and
        ``menus`` (shared by all games of the seating) while ``alive`` equals ``seated``.
        Clearing them changes nothing but speed."""
        self.waits: dict[int, Awaiting] = {}  # awaiting(): seat -> its Awaiting (answers drop out)
        self.waits_no = -1
        self.public: tuple = ()  # view(): what _public() returns
        self.public_no = -1
        self.view_coins: list[int] | None = None  # view(): see _public()
        self.view_cards: tuple[list[list[str]], list[int], list[bool]] | None = None  # face_up, cards, alive
        self.seated: list[bool] = []  # ``alive`` as of ``menus`` and ``others``
        self.menus: list[list[Action] | None] = []  # _turn_actions(): by seat * 4 + coin bracket
        self.others: list[list[int] | None] = []  # _others_from(): by seat, the others clockwise

    def copy(self) -> "CoupState":
        """An independent twin (its own RNG in the same state): much faster than deepcopy."""
        twin = CoupState.__new__(CoupState)
        for name in CoupState.__slots__:
            setattr(twin, name, getattr(self, name))
        twin.rng = random.Random(0)  # seeded (not from the OS: cheaper); setstate() replaces it
        twin.rng.setstate(self.rng.getstate())
        twin.hands = [list(h) for h in self.hands]
        twin.face_up = [list(f) for f in self.face_up]
        twin.court = list(self.court)
        twin.coins = list(self.coins)
        twin.alive = list(self.alive)
        twin.picked = None if self.picked is None else list(self.picked)
        twin.order = list(self.order)
        twin.answered = list(self.answered)
        twin.acted = dict(self.acted)
        twin.queued_blocks = list(self.queued_blocks)
        twin.drawn = list(self.drawn)
        twin._clear_caches()
        return twin

    def __deepcopy__(self, memo: dict) -> "CoupState":
        return self.copy()

    def data(self) -> dict[str, Any]:
        """Every field as plain data (the RNG as its internal state), for comparisons in tests."""
        out = {name: getattr(self, name) for name in CoupState.__slots__ if name != "rng" and name not in _CACHES}
        out["rng"] = self.rng.getstate()
        return out


# ------------------------------------------------------------------------------------ engine


class Coup:
    name = "coup"
    min_players = 2
    max_players = MAX_SEATS
    default_seats = DEFAULT_SEATS  # the table's seats when `open` names none
    default_options: dict[str, Any] = {"role": "advisor", "challenge_order": "seat", "examine": "choose",
                                       "turn": 60, "reaction": 20, "first": None}
    internal_options = ("treasury_rev",)  # kept by the table (start_options), never typed or shown
    # coup.md #4: the first game's first player is random, a later game's is the previous winner.
    # The table sets ``first`` (a seat number from 1) on a rematch when the winner sits at it.
    winner_starts = True

    # ----------------------------------------------------------------------------- setting up

    def validate_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Defaults filled in, words and numbers parsed from text; anything else is refused."""
        result = dict(self.default_options)
        for name, value in (options or {}).items():
            if name == "role":
                result[name] = ROLE_OPTIONS.get(_word(value), None) or _bad(name, value)
            elif name == "challenge_order":
                word = _word(value)
                result[name] = word if word in CHALLENGE_ORDERS else _bad(name, value)
            elif name == "examine":
                word = _word(value).replace("-", "_")
                result[name] = word if word in EXAMINE_MODES else _bad(name, value)
            elif name == "turn":
                result[name] = int_option(value, *TURN_LIMITS, name, "coup.error.bad_option")
            elif name == "reaction":
                result[name] = int_option(value, *REACTION_LIMITS, name, "coup.error.bad_option")
            elif name == "first":
                random_words = ("", "random", "случайно", "випадково")
                if value is None or (isinstance(value, str) and _word(value) in random_words):
                    result[name] = None
                else:
                    result[name] = int_option(value, 1, self.max_players, name, "coup.error.bad_option")
            elif name == "treasury_rev":  # set at the start (start_options), not typed at `open`
                result[name] = value if type(value) is int and value in REVISIONS else _bad(name, value)
            else:
                _bad(name, value)
        return result

    def start_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options a table starts with: today's treasury rules are pinned (world/upgrades.py),
        so a later revision does not change this game's replay; a rematch plays today's."""
        return {**options, "treasury_rev": REVISION}

    def restored_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """A table stored before the pin played treasury revision 1 (#3 before its revision)."""
        return options if "treasury_rev" in options else {**options, "treasury_rev": LEGACY_REVISION}

    def rematch_plan(self, options: dict[str, Any], seats: int) -> tuple[dict[str, Any], int]:
        """A rematch keeps the options and the seats; who starts is the table's to set again."""
        return {k: v for k, v in options.items() if k != "first"}, seats

    def new(self, seats: int, options: dict[str, Any] | None, seed: int) -> CoupState:
        if not isinstance(seats, int) or isinstance(seats, bool) or not self.min_players <= seats <= self.max_players:
            raise RuleError("coup.error.bad_option", name="players", value=seats)
        opts = self.validate_options(options)
        s = CoupState(random.Random(seed))
        s.players = seats
        s.fifth = FIFTH_OF[opts["role"]]
        s.roles = ("duke", "assassin", "captain", s.fifth, "contessa")
        s.first_wins = opts["challenge_order"] == "first"
        s.always_swap = opts["examine"] == "always_swap"
        s.turn_seconds = opts["turn"]
        s.reaction_seconds = opts["reaction"]
        rng = s.rng
        s.active = rng.randrange(seats)  # the first player is random (#4) ...
        if opts["first"] is not None:  # ... but in a rematch the previous winner starts (#4)
            if opts["first"] > seats:
                raise RuleError("coup.error.bad_option", name="first", value=opts["first"])
            s.active = opts["first"] - 1
        s.coins = [2] * seats
        if seats == 2:
            # #26: three piles of one of each role; one pile is shuffled, each player gets one of its
            # cards and its other three form the Court; each then drafts a second card from an own pile.
            pile = list(s.roles)
            rng.shuffle(pile)
            s.hands = [[pile.pop()], [pile.pop()]]
            s.court = pile
            s.picked = [None, None]
            s.coins[s.active] = 1  # [2P] the starting player starts with 1 coin
            stage = "draft"
        else:
            deck = [role for role in s.roles for _ in range(copies_for(seats))]  # #1, #27
            rng.shuffle(deck)
            s.hands = [[deck.pop(), deck.pop()] for _ in range(seats)]
            s.court = deck
            stage = "turn"
        s.face_up = [[] for _ in range(seats)]
        s.alive = [True] * seats
        s.living = seats
        revision = opts.get("treasury_rev", REVISION)
        s.unlimited_treasury = revision == LEGACY_REVISION
        s.treasury = box_coins(seats, revision) - sum(s.coins)  # #3 (revised): 50 coins, 75 at 9-10
        _enter(s, stage)
        return s

    def start_events(self, state: CoupState) -> list[Event]:
        """What to announce when the game begins; reads the state without changing it."""
        s = state
        events = [Event(EVERYONE, "coup.start", {"players": s.players, "fifth": s.fifth})]
        for seat, hand in enumerate(s.hands):
            events.append(Event(_ONLY[seat], "coup.hand", {"seat": seat, "roles": list(hand)}))
        if s.stage == "draft":
            events.append(Event(EVERYONE, "coup.draft_start", {}))
        else:
            events.append(_turn_event(s))
        return events

    # ----------------------------------------------------------------------------- questions

    def awaiting(self, state: CoupState) -> list[Awaiting]:
        s = state
        if s.waits_no != s.wait_no:
            # One set of Awaiting objects per wait (they are immutable); an answer in a window or
            # a draft pick drops its seat from it, so no later call of the wait builds them again.
            s.waits = _waits(s)
            s.waits_no = s.wait_no
        return list(s.waits.values())

    def window_pass(self, state: CoupState, seat: int) -> tuple[Action, bool] | None:
        """The answer that lets ``seat``'s open challenge or block window pass, and whether the
        window is about that seat (an action aimed at it, a block of its own action); None: it
        has no such window open. For autopass (world/autopass.py)."""
        s = state
        if s.stage not in WINDOWS or not _yet_to_answer(s, seat):
            return None
        return dict(_ALLOW), seat == s.target or (s.stage == "challenge_block" and seat == s.actor)

    def legal(self, state: CoupState, seat: int) -> list[Action]:
        """The actions ``seat`` may take now, in a fixed order. The list is the caller's; the
        action dicts in it may be shared with other calls (a window's answers, a seat's turn
        menu), so treat them as read-only, as apply() does."""
        s = state
        stage = s.stage
        if stage in WINDOWS:
            if not (seat in s.waits if s.waits_no == s.wait_no and seat.__class__ is int
                    else _yet_to_answer(s, seat)):
                return []
            if stage == "block":  # the same answers for every seat of the window, for all games
                return list(_BLOCK_REPLIES[s.fifth][s.action])
            return list(_CHALLENGE_REPLIES)
        if stage == "turn":
            return _turn_actions(s).copy() if seat == s.active else []
        if stage == "lose":
            return [{"type": "lose", "role": r} for r in _distinct(s.hands[seat])] if seat == s.losing else []
        if stage == "prove":
            if seat != s.challenged:
                return []
            held = s.challenged_role in s.hands[seat]
            return ([{"type": "prove"}] if held else []) + [{"type": "concede"}]
        if stage == "exchange":
            return [{"type": "keep", "roles": list(keep)} for keep in _keeps(s)] if seat == s.active else []
        if stage == "examine_show":
            return [{"type": "show", "role": r} for r in _distinct(s.hands[seat])] if seat == s.target else []
        if stage == "examine_decide":
            return [{"type": "examine_return"}, {"type": "examine_swap"}] if seat == s.active else []
        if stage == "draft":
            if seat in (0, 1) and s.picked[seat] is None:
                return [{"type": "draft", "role": role} for role in s.roles]
            return []
        return []

    def outcome(self, state: CoupState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome((state.winner,), "coup.outcome.winner", {"seat": state.winner})

    def view(self, state: CoupState, viewer: int) -> dict[str, Any]:
        """What ``viewer`` may know. No list in it belongs to the state, so nobody changes the game
        through a view; but the views of a wait share their public lists (coins, face_up, cards,
        alive): treat a view as read-only."""
        s = state
        if s.public_no != s.wait_no:
            s.public = _public(s)
            s.public_no = s.wait_no
        public, pending = s.public
        view = public.copy()
        view["viewer"] = viewer
        if pending is not None:
            pending = pending.copy()
            pending["answered"] = s.answered.copy()  # the one thing that changes within a wait
            view["pending"] = pending
        if isinstance(viewer, int) and 0 <= viewer < s.players:
            view["hand"] = s.hands[viewer].copy()
            if viewer == s.active:
                stage = s.stage
                view["drawn"] = s.drawn.copy() if stage == "exchange" else []
                view["shown"] = s.shown if stage == "examine_decide" else None
            else:  # most views: a seat answering someone else's claim
                view["drawn"] = []
                view["shown"] = None
        elif viewer == MASTER:
            view["face_up"] = list(map(list, s.face_up))  # the master's view shares nothing
            view["hands"] = list(map(list, s.hands))
            view["court_cards"] = s.court.copy()
            view["drawn"] = s.drawn.copy()
            view["shown"] = s.shown
        return view

    def final_reveal(self, state: CoupState) -> dict[str, Any] | None:
        """Everything the game hid, for the end-of-game block: None while the game goes on (a
        secret stays one). Each seat's face-down cards (the winner's) and face-up ones (lost
        influence), its coins, and the turns played."""
        outcome = self.outcome(state)
        if outcome is None:
            return None
        s = state
        return {"game": self.name, "winners": list(outcome.winners), "reason": outcome.reason,
                "params": dict(outcome.params), "length": {"turns": s.turn},
                "seats": [{"seat": seat, "hidden": list(s.hands[seat]), "revealed": list(s.face_up[seat]),
                           "coins": s.coins[seat], "alive": s.alive[seat]} for seat in range(s.players)]}

    # The bots (games/coup/bot.py) answer straight from here, without a call in between: the
    # benchmark and the runner ask once per step.
    bot_action = staticmethod(_bots.bot_action)

    # ----------------------------------------------------------------------------- the one change

    def apply(self, state: CoupState, seat: int, action: Action) -> list[Event]:
        s = state
        stage = s.stage
        if stage in WINDOWS:
            # The most common action of all, checked and done at once (legal() hands out _ALLOW,
            # so the identity test nearly always decides; an equal dict from elsewhere still does).
            if action is _ALLOW or (isinstance(action, dict) and action.get("type") == "allow"):
                if (seat in s.waits if s.waits_no == s.wait_no and seat.__class__ is int
                        else _yet_to_answer(s, seat)):
                    return _allowed(s, seat)
        elif stage == "over":
            raise RuleError("coup.error.game_over")
        kind = action.get("type") if isinstance(action, dict) else None
        if not isinstance(kind, str):
            raise RuleError("coup.error.no_such_action")
        events: list[Event] = []
        if stage == "turn":
            target = _check_turn(s, seat, kind, action)
            _declare(s, seat, kind, target, events)
        elif stage in WINDOWS:
            role = _check_window(s, seat, kind, action)
            _answer(s, seat, kind, role, events)
        elif stage == "prove":
            if seat != s.challenged:
                raise RuleError("coup.error.not_your_turn")
            if kind == "prove":
                if s.challenged_role not in s.hands[seat]:
                    raise RuleError("coup.error.no_such_card", role=s.challenged_role)
                _proven(s, events)
            elif kind == "concede":
                _conceded(s, events)
            else:
                raise RuleError("coup.error.no_such_action")
        elif stage == "lose":
            if seat != s.losing:
                raise RuleError("coup.error.not_your_turn")
            if kind != "lose":
                raise RuleError("coup.error.no_such_action")
            role = action.get("role")
            if role not in s.hands[seat]:
                raise RuleError("coup.error.no_such_card", role=role)
            _turn_up(s, seat, role, events)
        elif stage == "exchange":
            if seat != s.active:
                raise RuleError("coup.error.not_your_turn")
            if kind != "keep":
                raise RuleError("coup.error.no_such_action")
            _keep(s, seat, _check_keep(s, seat, action.get("roles")), events)
        elif stage == "examine_show":
            if seat != s.target:
                raise RuleError("coup.error.not_your_turn")
            if kind != "show":
                raise RuleError("coup.error.no_such_action")
            role = action.get("role")
            if role not in s.hands[seat]:
                raise RuleError("coup.error.no_such_card", role=role)
            _show(s, role, events)
        elif stage == "examine_decide":
            if seat != s.active:
                raise RuleError("coup.error.not_your_turn")
            if kind == "examine_return":
                params = {"actor_seat": s.actor, "target_seat": s.target}
                events.append(_event(EVERYONE, "coup.examine_returned", params))
                _end_turn(s, events)
            elif kind == "examine_swap":
                _swap(s, events)
            else:
                raise RuleError("coup.error.no_such_action")
        elif stage == "draft":
            if not isinstance(seat, int) or isinstance(seat, bool) or seat not in (0, 1):
                raise RuleError("coup.error.not_your_turn")
            if s.picked[seat] is not None:
                raise RuleError("coup.error.already_answered")
            if kind != "draft":
                raise RuleError("coup.error.no_such_action")
            role = action.get("role")
            if role not in s.roles:
                raise RuleError("coup.error.not_in_deck", role=role)
            _draft(s, seat, role, events)
        return events


# ------------------------------------------------------------------------------------ checks


def _check_turn(s: CoupState, seat: int, kind: Any, action: Action) -> int | None:
    """Validate a declared action; return its target (or None)."""
    if seat != s.active or isinstance(seat, bool):
        raise RuleError("coup.error.not_your_turn")
    if kind not in TURN_ACTIONS:
        raise RuleError("coup.error.no_such_action")
    if kind == "examine" and s.fifth != "inquisitor":
        raise RuleError("coup.error.not_in_deck", role="inquisitor")
    coins = s.coins[seat]
    if coins >= FORCED_COUP and kind != "coup":
        raise RuleError("coup.error.must_coup")  # #6
    cost = COSTS.get(kind, 0)
    if coins < cost:
        raise RuleError("coup.error.not_enough_coins", need=cost)
    if kind not in TARGETED:
        return None
    target = action.get("target")
    if (not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < s.players
            or target == seat or not s.alive[target]):
        raise RuleError("coup.error.bad_target")
    return target


def _check_window(s: CoupState, seat: int, kind: Any, action: Action) -> str | None:
    """Validate an answer in a reaction window; return the block role (or None)."""
    order, role = s.order, None
    if kind == "block":
        role = action.get("role")
        if role not in ROLE_KEYS or role not in s.roles:
            raise RuleError("coup.error.not_in_deck", role=role)
        if s.action is not None and s.action not in BLOCKABLE:
            raise RuleError("coup.error.unblockable", action=s.action)  # not now, nor later
        if s.stage != "block" or seat not in order or role not in _block_roles(s):
            raise RuleError("coup.error.cannot_block")
    elif kind != "allow" and (kind != "challenge" or s.stage == "block"):
        raise RuleError("coup.error.no_such_action" if seat in order else "coup.error.not_your_turn")
    if seat not in order:
        raise RuleError("coup.error.not_your_turn")
    if seat in s.answered or seat in s.acted:
        raise RuleError("coup.error.already_answered")
    return role


def _check_keep(s: CoupState, seat: int, roles: Any) -> list[str]:
    hand = s.hands[seat]
    if not isinstance(roles, (list, tuple)) or len(roles) != len(hand):
        raise RuleError("coup.error.bad_keep")
    pool = hand + s.drawn
    for role in roles:
        if not isinstance(role, str) or roles.count(role) > pool.count(role):
            raise RuleError("coup.error.bad_keep")
    return list(roles)


# ------------------------------------------------------------------------------------ flow


def _enter(s: CoupState, stage: str) -> None:
    s.stage = stage
    no = s.wait_no = s.wait_no + 1
    turn = s.turn
    # f"t{turn}.{no}-{stage}", with the numbers' text looked up: this runs for every wait.
    s.window = f"t{_TEXT[turn] if turn < _TEXTS else turn}.{_TEXT[no] if no < _TEXTS else no}-{stage}"


_TEXTS = 2048  # a long game of 8 bots has about 500 waits
_TEXT = [str(number) for number in range(_TEXTS)]


def _turn_event(s: CoupState) -> Event:
    return _tuple_new(Event, (EVERYONE, "coup.turn", {"seat": s.active, "coins": s.coins[s.active]}))


def _others_from(s: CoupState, seat: int) -> list[int]:
    """Living seats other than ``seat``, clockwise from its left. The list is shared by the calls
    until someone is out (it may become a window's ``order``): never change it."""
    if s.seated != s.alive:
        _seating_changed(s)
    others = s.others[seat]
    if others is None:
        n, alive = s.players, s.alive
        others = s.others[seat] = [x % n for x in range(seat + 1, seat + n) if alive[x % n]]
    return others


def _seating_changed(s: CoupState) -> None:
    """Someone is out (or a test seated the table anew): on to the tables of the new seating."""
    s.seated = s.alive.copy()
    seating = (s.fifth, tuple(s.alive))
    tables = _SEATINGS.get(seating)
    if tables is None:  # (setdefault() keeps one pair of tables per seating even across threads)
        tables = _SEATINGS.setdefault(seating, ([None] * (4 * MAX_SEATS), [None] * MAX_SEATS))
    s.menus, s.others = tables


def _declare(s: CoupState, seat: int, kind: str, target: int | None, events: list[Event]) -> None:
    claim = s.fifth if kind == "exchange" else CLAIMS.get(kind)
    cost = COSTS.get(kind, 0)
    if cost:  # paid costs leave at once (#10)
        s.coins[seat] -= cost
        s.treasury += cost
    s.action, s.actor, s.target, s.claim, s.paid = kind, seat, target, claim, cost
    params: dict[str, Any] = {"actor_seat": seat, "action": kind}
    if target is not None:
        params["target_seat"] = target
    if claim is not None:
        params["claim"] = claim
    events.append(_tuple_new(Event, (EVERYONE, "coup.declare", params)))  # (_event() written out)
    if kind == "income":
        _gain(s, seat, "income", events)
        _end_turn(s, events)
    elif kind == "coup":
        _lose(s, target, "end", events)
    elif claim is not None:
        _open(s, "challenge_action", _others_from(s, seat))
    else:  # foreign aid: nothing to challenge, straight to the blocks
        _claim_stands(s, events)


def _gain(s: CoupState, seat: int, kind: str, events: list[Event]) -> None:
    """Income, foreign aid or tax: paid from the treasury, or what is left of it (#3 revised)."""
    asked = GAIN[kind]
    # (the common case decided here: a call into treasury.py, which is not compiled, only when low)
    amount = asked if asked <= s.treasury or s.unlimited_treasury else payout(s.treasury, asked)
    coins = s.coins
    coins[seat] += amount
    s.treasury -= amount
    if amount == asked:
        events.append(_tuple_new(Event, (EVERYONE, GAIN_KEYS[kind], {"seat": seat, "coins": amount, "total": coins[seat]})))
    else:  # the treasury ran low: say what it gave instead of the usual line
        key = "coup.treasury_short" if amount else "coup.treasury_empty"
        events.append(_event(EVERYONE, key, {"seat": seat, "action": kind, "coins": amount, "asked": asked,
                                             "total": coins[seat]}))


def _open(s: CoupState, stage: str, order: list[int]) -> None:
    s.order = order
    s.answered = []
    s.acted = {}
    _enter(s, stage)


def _block_roles(s: CoupState) -> tuple[str, ...]:
    return _blockers(s.action, s.fifth)


def _claim_stands(s: CoupState, events: list[Event]) -> None:
    """The action's claim was not challenged (or was proven): on to the blocks, or resolve."""
    kind = s.action
    if kind == "foreign_aid":
        _open(s, "block", _others_from(s, s.actor))  # anyone may block foreign aid (#9)
    elif kind in ("assassinate", "steal"):
        if s.alive[s.target]:
            _open(s, "block", [s.target])  # only the target (#9); also after losing a challenge (#17)
        else:
            _end_turn(s, events)  # the target is out already: nothing left to do
    else:
        _resolve(s, events)


def _allowed(s: CoupState, seat: int) -> list[Event]:
    """``seat`` allows (apply() checked that it may): the events."""
    answered = s.answered
    answered.append(seat)
    if s.waits_no == s.wait_no:
        s.waits.pop(seat, None)
    if seat.__class__ is int:
        events = [_ALLOWED[seat]]
    else:  # e.g. True for seat 1: the event names the seat as it was given, as before
        events = [_event(EVERYONE, "coup.allowed", {"seat": seat})]
    if s.acted:
        _settle(s, events)
    elif len(answered) == len(s.order):
        _window_closes(s, events)  # everyone allowed
    return events


def _answer(s: CoupState, seat: int, kind: str, role: str | None, events: list[Event]) -> None:
    """A challenge or a block (an allow goes to _allowed)."""
    if s.first_wins:
        _won(s, seat, kind, role, events)
        return
    # challenge_order=seat: it wins once every seat before it in priority order has allowed.
    s.acted[seat] = {"type": kind, "role": role}
    if s.waits_no == s.wait_no:
        s.waits.pop(seat, None)
    answered = s.answered
    for x in s.order:  # tell the seat it waits only if a seat with priority is yet to answer
        if x == seat:
            break
        if x not in answered:
            events.append(_event(_ONLY[seat], "coup.queued", {"seat": seat, "kind": kind}))
            break
    _settle(s, events)


def _settle(s: CoupState, events: list[Event]) -> None:
    """A challenge or block waits for priority (challenge_order=seat): the first seat in priority
    order that has not allowed decides, once it has answered."""
    acted, answered = s.acted, s.answered
    for x in s.order:
        act = acted.get(x)
        if act is not None:
            _won(s, x, act["type"], act["role"], events)
            return
        if x not in answered:
            return  # still waiting for a seat with priority


def _yet_to_answer(s: CoupState, seat: Any) -> bool:
    """``seat`` is yet to answer the open window. apply() and legal() ask ``seat in s.waits``
    first, for a seat number while the wait's Awaiting objects are kept: they are exactly those
    seats (answers drop out of them), so one lookup tells."""
    return seat in s.order and seat not in s.answered and seat not in s.acted


def _window_closes(s: CoupState, events: list[Event]) -> None:
    """Everyone allowed: on to what comes after the window."""
    stage = s.stage
    if stage == "challenge_action":
        _claim_stands(s, events)
    elif stage == "block":
        _resolve(s, events)
    else:
        _blocked(s, events)


def _won(s: CoupState, seat: int, kind: str, role: str | None, events: list[Event]) -> None:
    """A challenge or a block that takes effect."""
    if kind == "block":
        # #31: the other blocks stay queued, in case this one falls to a challenge
        acted = s.acted
        s.queued_blocks += [(x, acted[x]["role"]) for x in s.order if x != seat and x in acted]
        s.blocker, s.block_role = seat, role
        events.append(_event(EVERYONE, "coup.block", {"blocker_seat": seat, "role": role, "actor_seat": s.actor}))
        # Anyone but the blocker may challenge it, the active player first (#7, 000).
        actor = s.actor
        order = [actor] + [x for x in _others_from(s, actor) if x != seat]
        _open(s, "challenge_block", order)
        return
    _drop_queued(s, seat, events)
    if s.stage == "challenge_action":
        challenged, role = s.actor, s.claim
    else:
        challenged, role = s.blocker, s.block_role
    s.challenger, s.challenged, s.challenged_role = seat, challenged, role
    s.order, s.answered, s.acted = [], [], {}
    params = {"challenger_seat": seat, "target_seat": challenged, "role": role}
    events.append(_event(EVERYONE, "coup.challenge", params))
    _enter(s, "prove")


def _drop_queued(s: CoupState, winner: int, events: list[Event]) -> None:
    """Challenges queued behind priority (challenge_order=seat) that lose to ``winner``'s: each
    seat is told privately, or it would wait for a challenge that never comes."""
    for x in s.acted:
        if x != winner:
            events.append(_event(_ONLY[x], "coup.challenge_dropped", {"seat": x, "winner_seat": winner}))


def _next_block_or_resolve(s: CoupState, events: list[Event]) -> None:
    """#31: the public block fell; the next queued block goes public (its own challenge window),
    or, with none left, the action goes ahead (#14)."""
    if s.queued_blocks:
        seat, role = s.queued_blocks.pop(0)
        if not s.alive[seat]:
            _next_block_or_resolve(s, events)
            return
        _won(s, seat, "block", role, events)
    else:
        _resolve(s, events)


def _tell_unused_blocks(s: CoupState, events: list[Event]) -> None:
    """#31: a blocker whose queued block was never used is told so (privately)."""
    for seat, _ in s.queued_blocks:
        events.append(_event(_ONLY[seat], "coup.block_dropped", {"seat": seat, "winner_seat": s.blocker}))
    s.queued_blocks = []


def _proven(s: CoupState, events: list[Event]) -> None:
    """#11: the card is shown, shuffled into the Court, a new one drawn; the challenger loses one."""
    seat, role = s.challenged, s.challenged_role
    events.append(_event(EVERYONE, "coup.proven", {"seat": seat, "role": role}))
    _replace_card(s, seat, role, events)
    _lose(s, s.challenger, "stands" if s.blocker is None else "blocked", events)


def _replace_card(s: CoupState, seat: int, role: str, events: list[Event]) -> None:
    """The card goes into the Court, the Court is shuffled, the seat draws a new card (whispered)."""
    hand, court = s.hands[seat], s.court
    hand.remove(role)
    court.append(role)
    s.rng.shuffle(court)
    new = court.pop()
    hand.append(new)
    events.append(_event(_ONLY[seat], "coup.new_card", {"seat": seat, "role": new}))


def _conceded(s: CoupState, events: list[Event]) -> None:
    """#12, #16: the claim fails (bluff or concession alike, so nobody learns which)."""
    seat = s.challenged
    events.append(_event(EVERYONE, "coup.concede", {"seat": seat, "role": s.challenged_role}))
    if s.blocker is None:
        if s.paid:  # #12: coins paid come back
            s.coins[seat] += s.paid
            s.treasury -= s.paid
            events.append(_event(EVERYONE, "coup.refund", {"seat": seat, "amount": s.paid}))
            s.paid = 0
        _lose(s, seat, "end", events)
    else:
        _lose(s, seat, "next_block", events)  # #14: a false block: the action goes ahead (#31: or the next block)


def _lose(s: CoupState, seat: int, after: str, events: list[Event]) -> None:
    """``seat`` must turn a card up; then the turn carries on from ``after``."""
    s.after = after
    events.append(_event(EVERYONE, "coup.must_lose", {"seat": seat}))
    hand = s.hands[seat]
    if len(hand) == 1:  # no choice to make
        _turn_up(s, seat, hand[0], events)
        return
    s.losing = seat
    s.lose_default = s.rng.choice(hand)  # #15: on timeout a random card, drawn from the game's RNG
    _enter(s, "lose")


def _turn_up(s: CoupState, seat: int, role: str, events: list[Event]) -> None:
    hand = s.hands[seat]
    hand.remove(role)
    s.face_up[seat].append(role)
    s.losing = s.lose_default = None
    events.append(_event(EVERYONE, "coup.lost", {"seat": seat, "role": role}))
    if not hand:
        returned = s.coins[seat]
        s.coins[seat] = 0
        s.treasury += returned  # #18
        s.alive[seat] = False
        s.living -= 1
        events.append(_event(EVERYONE, "coup.eliminated", {"seat": seat, "coins": returned}))
        if s.living == 1:
            s.winner = s.alive.index(True)
            s._clear_pending()
            s.order, s.answered, s.acted = [], [], {}
            _enter(s, "over")
            events.append(_event(EVERYONE, "coup.winner", {"seat": s.winner}))
            return
    after = s.after
    if after == "end":
        _end_turn(s, events)
    elif after == "stands":
        _claim_stands(s, events)
    elif after == "resolve":
        _resolve(s, events)
    elif after == "next_block":
        _next_block_or_resolve(s, events)
    else:
        _blocked(s, events)


def _blocked(s: CoupState, events: list[Event]) -> None:
    """The block stands: the action fails; coins paid stay spent (#13)."""
    events.append(_event(EVERYONE, "coup.blocked", {"actor_seat": s.actor, "action": s.action}))
    _end_turn(s, events)


def _resolve(s: CoupState, events: list[Event]) -> None:
    kind, actor, target = s.action, s.actor, s.target
    if kind in GAIN:
        _gain(s, actor, kind, events)
    elif kind == "steal":
        if s.alive[target]:  # a target out already (a false block with its last card): nothing to say
            amount = min(STEAL_MAX, s.coins[target])  # #19
            s.coins[target] -= amount
            s.coins[actor] += amount
            events.append(_event(EVERYONE, "coup.steal", {"actor_seat": actor, "target_seat": target, "amount": amount}))
    elif kind == "assassinate":
        if s.alive[target]:
            _lose(s, target, "end", events)
            return
    elif kind == "exchange":
        court = s.court
        s.drawn = [court.pop() for _ in range(2 if s.fifth == "ambassador" else 1)]  # #21, #22
        events.append(_event(_ONLY[actor], "coup.exchange_draw", {"seat": actor, "roles": list(s.drawn)}))
        _enter(s, "exchange")
        return
    elif kind == "examine":
        if s.alive[target]:
            hand = s.hands[target]
            if len(hand) == 1:
                _show(s, hand[0], events)
            else:
                _enter(s, "examine_show")
            return
    _end_turn(s, events)


def _keep(s: CoupState, seat: int, kept: list[str], events: list[Event]) -> None:
    pool = s.hands[seat] + s.drawn
    for role in kept:
        pool.remove(role)
    s.hands[seat] = kept
    s.court.extend(pool)
    s.rng.shuffle(s.court)  # #21: shuffle after returning
    s.drawn = []
    events.append(_event(EVERYONE, "coup.exchanged", {"seat": seat}))
    events.append(_event(_ONLY[seat], "coup.exchange_done", {"seat": seat, "roles": list(kept)}))
    _end_turn(s, events)


def _show(s: CoupState, role: str, events: list[Event]) -> None:
    """The examined target shows ``role`` to the Inquisitor alone (#23)."""
    actor = s.actor
    s.shown = role
    events.append(_event(_ONLY[actor], "coup.examine_show", {"seat": actor, "target_seat": s.target, "role": role}))
    if s.always_swap:
        _swap(s, events)
    else:
        _enter(s, "examine_decide")


def _swap(s: CoupState, events: list[Event]) -> None:
    target = s.target
    events.append(_event(EVERYONE, "coup.examine_swapped", {"actor_seat": s.actor, "target_seat": target}))
    _replace_card(s, target, s.shown, events)
    _end_turn(s, events)


def _end_turn(s: CoupState, events: list[Event]) -> None:
    if s.queued_blocks:
        _tell_unused_blocks(s, events)
    s._clear_pending()
    s.order, s.answered, s.acted = [], [], {}
    n, alive, seat = s.players, s.alive, s.active
    seat = (seat + 1) % n
    while not alive[seat]:
        seat = (seat + 1) % n
    s.active = seat
    s.turn += 1
    _enter(s, "turn")
    events.append(_tuple_new(Event, (EVERYONE, "coup.turn", {"seat": seat, "coins": s.coins[seat]})))  # _turn_event()


def _draft(s: CoupState, seat: int, role: str, events: list[Event]) -> None:
    s.picked[seat] = role
    s.hands[seat].append(role)
    if s.waits_no == s.wait_no:
        s.waits.pop(seat, None)
    s.public_no = -1  # a seat's card count changed within the wait
    events.append(_event(_ONLY[seat], "coup.hand", {"seat": seat, "roles": list(s.hands[seat])}))
    if None not in s.picked:
        _enter(s, "turn")
        events.append(_turn_event(s))


# ------------------------------------------------------------------------------------ waits


def _waits(s: CoupState) -> dict[int, Awaiting]:
    """Everyone the current wait awaits, by seat in the order awaiting() lists them (seats that
    answered or picked already left out)."""
    stage = s.stage
    if stage == "turn":
        return {s.active: _awaiting(s.active, "turn", s.turn_seconds, _default_turn(s), s.window)}
    react, window = s.reaction_seconds, s.window
    if stage in WINDOWS:
        answered, acted = s.answered, s.acted
        allow = _ALLOW  # one default for every window: nobody changes an action dict
        # _awaiting() written out: a window awaits up to nine seats. A challenge or block window
        # is optional: letting it run out is a plain "allow".
        return {seat: _tuple_new(Awaiting, (seat, "reaction", react, allow, window, True)) for seat in s.order
                if seat not in answered and seat not in acted}
    if stage == "lose":
        default = {"type": "lose", "role": s.lose_default}
        return {s.losing: _awaiting(s.losing, "choice", react, default, window)}
    if stage == "prove":
        held = s.challenged_role in s.hands[s.challenged]
        default = {"type": "prove" if held else "concede"}
        return {s.challenged: _awaiting(s.challenged, "choice", react, default, window)}
    if stage == "exchange":
        held = sorted(s.hands[s.active], key=s.roles.index)  # as legal() lists it
        return {s.active: _awaiting(s.active, "choice", react, {"type": "keep", "roles": held}, window)}
    if stage == "examine_show":
        default = {"type": "show", "role": s.hands[s.target][0]}
        return {s.target: _awaiting(s.target, "choice", react, default, window)}
    if stage == "examine_decide":
        return {s.active: _awaiting(s.active, "choice", react, {"type": "examine_return"}, window)}
    if stage == "draft":
        return {seat: _awaiting(seat, "choice", react, {"type": "draft", "role": s.roles[0]}, window)
                for seat in (0, 1) if s.picked[seat] is None}
    return {}  # over


# ------------------------------------------------------------------------------------ views


def _public(s: CoupState) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The part of every view that is the same for every viewer during the current wait (in a
    wait only the answers of a window change; a draft pick resets this cache): the view's keys in
    their order, and pending without its ``answered``.

    Its lists are copies of the state's, kept in ``view_coins`` and ``view_cards`` and shared by
    the views for as long as they stay equal to the state: coins change nearly every turn, the
    cards only when someone loses one. (Outside the draft, a seat's face-down count changes only
    as it turns a card face up, and ``alive`` with it, so comparing ``face_up`` covers them.)"""
    coins = s.view_coins
    if coins != s.coins:
        coins = s.view_coins = s.coins.copy()
    cards = s.view_cards
    if cards is None or cards[0] != s.face_up or s.stage == "draft":
        cards = (list(map(list, s.face_up)), list(map(len, s.hands)), s.alive.copy())
        # Kept but for the draft, where the picks change the card counts (and which is short).
        s.view_cards = cards if s.stage != "draft" else None
    face_up, counts, alive = cards
    pending = None
    if s.action is not None:
        pending = {"action": s.action, "actor": s.actor, "target": s.target, "claim": s.claim,
                   "blocker": s.blocker, "block_role": s.block_role, "challenger": s.challenger,
                   "challenged": s.challenged, "challenged_role": s.challenged_role,
                   "losing": s.losing, "answered": None}
    public = {
        "game": "coup", "viewer": None, "players": s.players, "fifth": s.fifth,
        # (a table of treasury revision 1, logged before #3's revision, paid past zero: its
        # players still read an empty treasury, never a negative one)
        "coins": coins, "treasury": s.treasury if s.treasury > 0 else 0, "court": len(s.court), "face_up": face_up,
        "cards": counts, "alive": alive, "active": s.active, "turn": s.turn, "stage": s.stage,
        "pending": None, "winner": s.winner,
    }
    return public, pending


# ------------------------------------------------------------------------------------ lists


# Turn menus and the seats after each seat, by seating (the fifth role and who is alive): they
# depend on nothing else, and games meet the same ones again and again, so each is built once for
# all games. Per seating: the menus by seat * 4 + coin bracket, the others by seat. Their action
# dicts are shared too, one per kind and target (_TURN_ACTION): never change them. The set is
# finite: two fifth roles x the ways 2-10 seats can be alive (about 4,000 seatings), each with up
# to 10 seats x 4 brackets of lists of at most 40 references. Filled only as games meet them,
# it stays far below its bound of about 60 MB (a 2-8 seat game only meets 1,016 seatings).
_SEATINGS: dict[tuple[str, tuple[bool, ...]], tuple[list[list[Action] | None], list[list[int] | None]]] = {}
_TURN_ACTION = {kind: {"type": kind} for kind in ("income", "foreign_aid", "tax", "exchange")}
_TARGETED_ACTIONS = {kind: [{"type": kind, "target": seat} for seat in range(MAX_SEATS)] for kind in TARGETED}


def _turn_actions(s: CoupState) -> list[Action]:
    """The active seat's turn menu (shared: copy it before handing it out)."""
    seat = s.active
    coins = s.coins[seat]
    if s.seated != s.alive:
        _seating_changed(s)
    bracket = 0 if coins < ASSASSINATE_COST else 1 if coins < COUP_COST else 2 if coins < FORCED_COUP else 3
    slot = seat * 4 + bracket
    actions = s.menus[slot]
    if actions is None:
        actions = s.menus[slot] = _build_turn_actions(s, seat, coins)
    return actions


def _build_turn_actions(s: CoupState, seat: int, coins: int) -> list[Action]:
    targets = _others_from(s, seat)
    coups = [_TARGETED_ACTIONS["coup"][t] for t in targets] if coins >= COUP_COST else []
    if coins >= FORCED_COUP:
        return coups
    actions: list[Action] = [_TURN_ACTION["income"], _TURN_ACTION["foreign_aid"]]
    actions += coups
    actions.append(_TURN_ACTION["tax"])
    if coins >= ASSASSINATE_COST:
        actions += [_TARGETED_ACTIONS["assassinate"][t] for t in targets]
    actions += [_TARGETED_ACTIONS["steal"][t] for t in targets]
    actions.append(_TURN_ACTION["exchange"])
    if s.fifth == "inquisitor":
        actions += [_TARGETED_ACTIONS["examine"][t] for t in targets]
    return actions


def _default_turn(s: CoupState) -> Action:
    """The timeout's action on a turn: one of the menu's (shared) actions."""
    if s.coins[s.active] >= FORCED_COUP:
        return _TARGETED_ACTIONS["coup"][_others_from(s, s.active)[0]]
    return _TURN_ACTION["income"]


def _distinct(hand: list[str]) -> list[str]:
    out: list[str] = []
    for role in hand:
        if role not in out:
            out.append(role)
    return out


def _keeps(s: CoupState) -> list[tuple[str, ...]]:
    """Every distinct multiset of cards the exchanger may keep (in the game's role order)."""
    hand = s.hands[s.active]
    rank = s.roles.index
    pool = sorted(hand + s.drawn, key=rank)
    return list(dict.fromkeys(combinations(pool, len(hand))))


# ------------------------------------------------------------------------------------ options


def _word(value: Any) -> str:
    return value.strip().lower() if isinstance(value, str) else ""


def _bad(name: str, value: Any) -> Any:
    raise RuleError("coup.error.bad_option", name=name, value=value)


GAME = Coup()
