"""Coup: 10,000 seeded bot games straight on the engine (no server), checked at every step.

Each game draws from its seed: 2-10 players, the fifth role, the challenge order, the examine
mode, and an easy or normal bot per seat; the seat that answers next is drawn among the awaited
ones; now and then a seat times out (its ``Awaiting.default`` is applied instead of the bot's
move), and now and then it takes any legal action at random, as a person might. At every step:

* coins are conserved (players + treasury = 50, 75 with 9-10; the treasury never below 0), nobody's go
  negative;
* cards are conserved per role: hands + Court + face up + cards drawn for an exchange + cards out
  of the game (2 players: the 8 undrafted cards of piles 2 and 3) = 3 per role (4 with 7-8, 5
  with 9-10);
* no event shows a seat in its audience a role that is face down in another seat's hand, except
  the rule-sanctioned ones (docs/coup-protocol.md, "Events"): a claim (declare, challenge, block,
  concede) names the claimed role, a proven claim shows the card to all, a lost card is face up,
  a seat's own cards are whispered to it alone, the examined card goes to the Inquisitor alone;
  and every event key is one of the contract's, public or whispered as the contract says;
* no view shows a seat anything but the public part (the same for every viewer, with the claims
  in ``pending`` equal to what public events announced) plus its own hand, its own drawn cards
  during its exchange, and the card shown to it during its examine_decide: the acting seat's view
  and one other seat's at every step, every seat's and the spectator's in every 25th game;
* bots answer from ``legal``, never bluff a role whose every copy they can see, and normal bots
  challenge a claim they can see is impossible and coup from 7 coins;

and every game ends with exactly one winner. The state is read only through the fields the
contract names for tests (hands, face_up, court, coins, treasury, alive, active, stage, winner)
and the MASTER view. The games run in two worker processes when the machine has two cores
(``COUP_PROCESSES=1`` runs them in this process). To replay a failing seed: ``run_game(seed)``.
"""
from __future__ import annotations

import copy
import multiprocessing
import os
import random
import re
import traceback
from collections import Counter
from operator import itemgetter

from games.base import MASTER, SPECTATOR, Audience, Outcome
from games.coup import GAME, bot
import pytest

# Thousands of games: minutes of CPU, longer while other test files share the two cores; the
# suite's 180 s limit is for hangs, and these would trip it only by sharing the machine.
pytestmark = pytest.mark.timeout(600)

GAMES = 10_000
MAX_STEPS = 6_000  # a game of 8 bots takes about 500 actions
TIMEOUT_RATE = 0.06  # how often a seat times out instead of answering
WHIM_RATE = 0.03  # how often a seat takes any legal action at random instead of the bot's
FULL_VIEW_EVERY = 25  # every 25th game checks every seat's view (and the spectator's) at every step

# Player counts, weighted toward the tables people play most (and the shorter games).
PLAYER_COUNTS = (2, 2, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 8, 9, 10)

ROLES = frozenset(("duke", "assassin", "captain", "ambassador", "inquisitor", "contessa"))
ROLE_WORD = re.compile(r"'(duke|assassin|captain|ambassador|inquisitor|contessa)'")
CLAIM = {"tax": "duke", "assassinate": "assassin", "steal": "captain", "examine": "inquisitor"}
EVERYONE = Audience.everyone()

PUBLIC_VIEW_KEYS = frozenset(("game", "viewer", "players", "fifth", "coins", "treasury", "court", "face_up",
                              "cards", "alive", "active", "turn", "stage", "pending", "winner"))
SEAT_VIEW_KEYS = PUBLIC_VIEW_KEYS | {"hand", "drawn", "shown"}
SHARED_KEYS = tuple(sorted(PUBLIC_VIEW_KEYS - {"viewer"}))
SHARED = itemgetter(*SHARED_KEYS)
PENDING_KEYS = frozenset(("action", "actor", "target", "claim", "blocker", "block_role", "challenger",
                          "challenged", "challenged_role", "losing", "answered"))
# Every event key of the contract (with its "Changes by the engine"); whispers go to params["seat"].
PUBLIC_EVENTS = frozenset((
    "coup.start", "coup.draft_start", "coup.turn", "coup.declare", "coup.challenge", "coup.proven",
    "coup.bluff", "coup.concede", "coup.block", "coup.must_lose", "coup.lost", "coup.eliminated",
    "coup.income", "coup.foreign_aid", "coup.tax", "coup.treasury_short", "coup.treasury_empty", "coup.steal", "coup.blocked", "coup.refund",
    "coup.exchanged", "coup.examine_returned", "coup.examine_swapped", "coup.allowed", "coup.winner"))
WHISPERS = frozenset(("coup.hand", "coup.new_card", "coup.exchange_draw", "coup.exchange_done",
                      "coup.examine_show", "coup.queued", "coup.challenge_dropped", "coup.block_dropped"))


class Leak(AssertionError):
    pass


# ----------------------------------------------------------------------------------- helpers


def game_setup(seed: int) -> tuple[random.Random, int, dict, list[str]]:
    table = random.Random(seed)
    players = table.choice(PLAYER_COUNTS)
    options = {"role": table.choice(("advisor", "investigator")),
               "challenge_order": table.choice(("seat", "first")),
               "examine": table.choice(("choose", "always_swap"))}
    levels = [table.choice(("easy", "normal")) for _ in range(players)]
    return table, players, options, levels


def claim_of(fifth: str, action_type: str | None) -> str | None:
    return fifth if action_type == "exchange" else CLAIM.get(action_type)


def block_roles(fifth: str, action_type: str | None) -> set[str]:
    return {"foreign_aid": {"duke"}, "assassinate": {"contessa"}, "steal": {"captain", fifth}}.get(action_type, set())


def roles_in(value, path: str = ""):
    """(path, role) for every role name anywhere in a nest of dicts, lists and tuples."""
    if isinstance(value, str):
        if value in ROLES:
            yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from roles_in(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from roles_in(item, path)


def names_a_role(value) -> bool:
    """A fast first look (the repr of plain data quotes every string): does a role appear at all?"""
    return ROLE_WORD.search(repr(value)) is not None


def visible(view: dict, role: str) -> int:
    return sum(cards.count(role) for cards in view["face_up"]) + view["hand"].count(role)


def drawn_now(s) -> list[str]:
    """The cards drawn for the exchange under way (the MASTER view), else none."""
    return GAME.view(s, MASTER)["drawn"] if s.stage == "exchange" else []


class Before:
    """What the step's checks need from just before ``apply``: the acting seat's view of the
    action under way (its ``pending`` is checked against the public record first) and the hands."""

    __slots__ = ("stage", "active", "action", "target", "claim", "block_role", "challenged",
                 "challenged_role", "hands")

    def __init__(self, view: dict, s) -> None:
        self.stage, self.active = view["stage"], view["active"]
        pending = view["pending"] or {}
        self.action, self.target, self.claim = pending.get("action"), pending.get("target"), pending.get("claim")
        self.block_role, self.challenged, self.challenged_role = (
            pending.get("block_role"), pending.get("challenged"), pending.get("challenged_role"))
        self.hands = [list(hand) for hand in s.hands]


class Record:
    """What the table has been told in public: the action under way and the turn number."""

    def __init__(self) -> None:
        self.turns = 0
        self.reset()

    def reset(self) -> None:
        self.action = self.actor = self.target = self.claim = None
        self.blocker = self.block_role = self.challenger = self.challenged = self.challenged_role = None
        self.losing = None
        self.allowed: set[int] = set()

    def hear(self, event) -> None:
        key, p = event.key, event.params
        if key == "coup.turn":
            self.turns += 1
            self.reset()
        elif key == "coup.winner":
            self.reset()
        elif key == "coup.declare":
            self.reset()
            self.action, self.actor, self.target, self.claim = (
                p["action"], p["actor_seat"], p.get("target_seat"), p.get("claim"))
        elif key == "coup.block":
            self.blocker, self.block_role = p["blocker_seat"], p["role"]
        elif key == "coup.challenge":
            self.challenger, self.challenged, self.challenged_role = (
                p["challenger_seat"], p["target_seat"], p["role"])
        elif key == "coup.allowed":
            self.allowed.add(p["seat"])
        elif key == "coup.must_lose":
            self.losing = p["seat"]
        elif key == "coup.lost":
            self.losing = None


# ----------------------------------------------------------------------------------- checks


def check_events(events, before: Before | None, s, fifth: str) -> None:
    """Audience and params of each event: no face-down card reaches a seat it does not belong to."""
    players = len(s.hands)
    roles_named = names_a_role([event.params for event in events])
    for event in events:
        key, params, audience = event.key, event.params, event.audience
        if key in WHISPERS:
            assert audience == Audience.only(params["seat"]), (key, audience, params)
        else:
            assert key in PUBLIC_EVENTS, f"an event outside the contract: {key} {params}"
            assert audience == EVERYONE, (key, audience)
        if not roles_named or not names_a_role(params):
            continue
        sanctioned = sanctioned_params(key, params, before, s, fifth)
        seats = audience.seats if key in WHISPERS else range(players)
        for name, role in roles_in(params):
            if name in sanctioned:
                continue
            for seat in seats:
                for other in range(players):
                    if other != seat and (role in s.hands[other] or (before and role in before.hands[other])):
                        raise Leak(f"{key} {params} shows seat {seat} the face-down {role} of seat {other}")


def sanctioned_params(key: str, p: dict, b: Before | None, s, fifth: str) -> set[str]:
    """The params of this event that may name a role, each checked to be what the rules allow."""
    if key == "coup.start":
        assert p["fifth"] == fifth
        return {"fifth"}
    if key == "coup.hand":  # a seat's own hand, to itself (at the start and after its draft pick)
        assert p["roles"] == s.hands[p["seat"]], (p, s.hands)
        return {"roles"}
    if b is None:
        return set()
    if key == "coup.declare":
        assert p.get("claim") == claim_of(fifth, p["action"]), p
        return {"claim"}
    if key == "coup.challenge":  # names the claim being challenged, which is public
        assert b.stage in ("challenge_action", "challenge_block"), (key, b.stage)
        assert p["role"] == (b.claim if b.stage == "challenge_action" else b.block_role), p
        return {"role"}
    if key == "coup.block":  # in the block window, or (#31) a queued block once the public one fell
        queued = b.stage in ("prove", "lose") and b.block_role is not None and b.action == "foreign_aid"
        assert (b.stage == "block" or queued) and p["role"] in block_roles(fifth, b.action), (p, b.action)
        return {"role"}
    if key in ("coup.concede", "coup.bluff"):  # the claim that failed
        assert b.stage == "prove" and p["seat"] == b.challenged and p["role"] == b.challenged_role, p
        return {"role"}
    if key == "coup.proven":  # #11: a proven claim shows the card to everyone
        assert b.stage == "prove" and p["seat"] == b.challenged and p["role"] == b.challenged_role, p
        assert p["role"] in b.hands[p["seat"]], "proved a card it did not hold"
        return {"role"}
    if key == "coup.lost":  # turned face up: public from now on
        assert p["role"] in s.face_up[p["seat"]], p
        return {"role"}
    if key == "coup.new_card":  # whispered to its owner
        assert p["role"] in s.hands[p["seat"]], p
        return {"role"}
    if key == "coup.exchange_draw":  # whispered to the exchanger
        assert p["seat"] == b.active and b.action == "exchange" and p["roles"] == drawn_now(s), p
        return {"roles"}
    if key == "coup.exchange_done":
        assert p["seat"] == b.active and p["roles"] == s.hands[p["seat"]], p
        return {"roles"}
    if key == "coup.examine_show":  # #23: the examined card, to the Inquisitor alone
        assert p["seat"] == b.active and p["target_seat"] == b.target, (p, b.active, b.target)
        assert b.action == "examine" and p["role"] in b.hands[b.target], p
        return {"role"}
    return set()


def public_part(s, fifth: str, record: Record, answered: list[int] | None) -> tuple:
    """The part of every view that is the same for every viewer, from the state and from what
    public events told the table (the action under way, its claims); in the order of ``SHARED``."""
    pending = None
    if record.action is not None:
        assert answered is not None and len(set(answered)) == len(answered), answered
        assert set(answered) <= record.allowed, (answered, record.allowed)  # each said so in public
        pending = {"action": record.action, "actor": record.actor, "target": record.target,
                   "claim": record.claim, "blocker": record.blocker, "block_role": record.block_role,
                   "challenger": record.challenger, "challenged": record.challenged,
                   "challenged_role": record.challenged_role, "losing": record.losing,
                   "answered": answered}
    shared = {"game": "coup", "players": len(s.hands), "fifth": fifth, "coins": s.coins,
              "treasury": s.treasury, "court": len(s.court), "face_up": s.face_up,
              "cards": [len(hand) for hand in s.hands], "alive": s.alive, "active": s.active,
              "turn": max(1, record.turns), "stage": s.stage, "pending": pending, "winner": s.winner}
    return SHARED(shared)


def check_view(view: dict, s, viewer: int, public: tuple, secret: dict | None, scan: bool = False) -> None:
    """What ``viewer`` sees: exactly the public part (the same for everyone, with the claims the
    table was told), plus for a seat its own hand, its own drawn cards during its exchange and the
    card shown to it during its examine_decide (``secret``: the MASTER view, at those stages).
    ``scan``: also count every role named anywhere in the view."""
    seat = viewer >= 0
    keys = SEAT_VIEW_KEYS if seat else PUBLIC_VIEW_KEYS
    assert view.keys() == keys, sorted(view.keys() ^ keys)
    assert view["viewer"] == viewer
    if SHARED(view) != public:
        diff = {k: (view[k], v) for k, v in zip(SHARED_KEYS, public) if view[k] != v}
        raise Leak(f"viewer {viewer}: the view differs from the public part (view, expected): {diff}")
    named = 0
    if seat:
        assert view["hand"] == s.hands[viewer]
        mine = viewer == s.active and secret is not None
        drawn = secret["drawn"] if mine and s.stage == "exchange" else []
        shown = secret["shown"] if mine and s.stage == "examine_decide" else None
        assert view["drawn"] == drawn, (viewer, s.stage, view["drawn"])
        assert view["shown"] == shown, (viewer, s.stage, view["shown"])
        named = len(view["hand"]) + len(drawn) + (shown is not None)
    if scan:  # every role named is public (fifth, face up, the claims) or the viewer's own
        pending = view["pending"] or {}
        named += 1 + sum(len(up) for up in s.face_up) + sum(
            pending.get(k) is not None for k in ("claim", "block_role", "challenged_role"))
        found = len(ROLE_WORD.findall(repr(view)))
        if found != named:
            raise Leak(f"viewer {viewer} sees {found} roles named, {named} of them its to see: {view}")


def check_bot_move(view: dict, legal: list, action: dict, level: str, copies: int) -> None:
    assert action in legal, (action, legal)
    kind = action["type"]
    hand = view["hand"]
    claimed = None
    if view["stage"] == "turn":
        claimed = claim_of(view["fifth"], kind)
        if level == "normal" and view["coins"][view["viewer"]] >= 7:
            assert kind == "coup", "a normal bot with 7 coins coups"
    elif kind == "block":
        claimed = action["role"]
    if claimed is not None and claimed not in hand:
        assert visible(view, claimed) < copies, f"bluffed {claimed} with every copy in sight: {view}"
    if level == "normal" and kind in ("allow", "challenge") and view["stage"] != "block":
        pending = view["pending"]
        role = pending["block_role"] if view["stage"] == "challenge_block" else pending["claim"]
        if visible(view, role) >= copies:
            assert kind == "challenge", f"a normal bot let an impossible {role} pass: {view}"
    if kind == "concede":
        assert {"type": "prove"} not in legal, "a bot conceded while holding the card"


def cards_in_play(s) -> list[str]:
    cards = list(s.court)
    cards += drawn_now(s)
    for hand in s.hands:
        cards += hand
    for up in s.face_up:
        cards += up
    cards.sort()
    return cards


def check_cards_and_coins(s, total_coins: int, in_play: list[str]) -> None:
    assert sum(s.coins) + s.treasury == total_coins, (s.coins, s.treasury)
    assert min(s.coins) >= 0 and s.treasury >= 0, (s.coins, s.treasury)  # #3 (revised)
    cards = cards_in_play(s)
    assert cards == in_play, (cards, in_play)
    for seat, hand in enumerate(s.hands):
        assert s.alive[seat] == bool(hand)
        if not hand:
            assert s.coins[seat] == 0 and len(s.face_up[seat]) == 2


def copies_of(players: int) -> int:
    """Copies of each role: 3, 4 with 7-8 players (seed 001), 5 with 9-10 (coup.md #1)."""
    return 5 if players >= 9 else 4 if players >= 7 else 3


def expected_cards(players: int, roles: list[str], picks: list[str]) -> list[str]:
    """The cards in play, sorted. 2 players: pile 1 (one of each role) and the drafted cards; the
    other 8 are out of the game, so each role has 3 = in play + (2 - times it was drafted)."""
    if players > 2:
        return sorted(role for role in roles for _ in range(copies_of(players)))
    for role in roles:
        assert 1 + picks.count(role) + (2 - picks.count(role)) == 3 and picks.count(role) <= 2
    return sorted(roles + picks)


# ----------------------------------------------------------------------------------- a game


def run_game(seed: int, full_views: bool | None = None) -> tuple[object, list, list]:
    """One seeded game of bots with every check; returns the state, the action log and the events."""
    table, players, options, levels = game_setup(seed)
    if full_views is None:
        full_views = seed % FULL_VIEW_EVERY == 0
    s = GAME.new(players, options, seed)
    fifth = {"advisor": "ambassador", "investigator": "inquisitor"}[options["role"]]
    roles = ["duke", "assassin", "captain", fifth, "contessa"]
    copies = copies_of(players)
    total_coins = sum(s.coins) + s.treasury
    assert total_coins == (75 if players >= 9 else 50)
    picks: list[str] = []
    in_play = expected_cards(players, roles, picks)
    master = GAME.view(s, MASTER)
    assert sorted(sum(master["hands"], []) + master["court_cards"]) == in_play
    record = Record()
    start = GAME.start_events(s)
    check_events(start, None, s, fifth)
    for event in start:
        record.hear(event)
    log: list = []
    all_events = [start]
    check_cards_and_coins(s, total_coins, in_play)
    seats = range(players)
    while GAME.outcome(s) is None:
        waits = GAME.awaiting(s)
        assert waits, f"seed {seed}: nobody to wait for at stage {s.stage}"
        wait = waits[0] if len(waits) == 1 else waits[table.randrange(len(waits))]
        seat = wait.seat
        legal = GAME.legal(s, seat)
        assert legal and wait.default in legal, (wait, legal)
        view = GAME.view(s, seat)
        secret = GAME.view(s, MASTER) if s.stage in ("exchange", "examine_decide") else None
        public = public_part(s, fifth, record, view["pending"] and view["pending"]["answered"])
        check_view(view, s, seat, public, secret)
        if full_views:
            for other in (SPECTATOR, *seats):
                check_view(GAME.view(s, other), s, other, public, secret, scan=True)
        else:  # one more seat, drawn at random
            other = table.randrange(players)
            check_view(GAME.view(s, other), s, other, public, secret)
        roll = table.random()
        if roll < TIMEOUT_RATE:
            action = wait.default
        elif roll < TIMEOUT_RATE + WHIM_RATE:  # a person may do anything legal, e.g. concede holding the card
            action = legal[table.randrange(len(legal))]
        else:
            action = GAME.bot_action(view, legal, table, levels[seat])
            check_bot_move(view, legal, action, levels[seat], copies)
        before = Before(view, s)
        events = GAME.apply(s, seat, action)
        log.append((seat, action))
        all_events.append(events)
        if action["type"] == "draft":
            picks.append(action["role"])
            in_play = expected_cards(players, roles, picks)
        check_events(events, before, s, fifth)
        for event in events:
            record.hear(event)
        check_cards_and_coins(s, total_coins, in_play)
        assert len(log) < MAX_STEPS, f"seed {seed}: no winner after {MAX_STEPS} actions"
    outcome = GAME.outcome(s)
    assert isinstance(outcome, Outcome) and len(outcome.winners) == 1, outcome
    winner = outcome.winners[0]
    assert s.alive.count(True) == 1 and s.alive[winner] and s.hands[winner] and s.winner == winner
    assert [e.params["seat"] for e in all_events[-1] if e.key == "coup.winner"] == [winner]
    assert GAME.awaiting(s) == [] and all(GAME.legal(s, seat) == [] for seat in seats)
    if players == 2:
        assert len(picks) == 2
    assert Counter(in_play) == Counter({role: copies for role in roles}) - Counter(
        {role: 2 - picks.count(role) for role in roles} if players == 2 else {})
    return s, log, all_events


def run_seeds(seeds: range) -> list[str]:
    """Play these seeds; a failure report per failing seed (a worker process cannot raise to pytest)."""
    bot.STRICT = True  # a bot's exception fails the game instead of falling back to a safe move
    failures = []
    for seed in seeds:
        try:
            run_game(seed)
        except Exception:
            failures.append(f"seed {seed}: {traceback.format_exc(limit=-3)}")
            if len(failures) >= 5:
                break
    return failures


def replay_log(seed: int, log: list) -> list:
    _, players, options, _ = game_setup(seed)
    s = GAME.new(players, options, seed)
    events = [GAME.start_events(s)]
    for seat, action in log:
        events.append(GAME.apply(s, seat, action))
    return events


# ----------------------------------------------------------------------------------- tests


def test_10000_bot_games_conserve_never_leak_and_end_with_one_winner():
    processes = int(os.environ.get("COUP_PROCESSES", min(2, os.cpu_count() or 1)))
    chunks = [range(start, min(start + 250, GAMES)) for start in range(0, GAMES, 250)]
    if processes > 1:
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            results = pool.map(run_seeds, chunks, chunksize=1)
    else:
        results = [run_seeds(chunk) for chunk in chunks]
    failures = [failure for result in results for failure in result]
    assert not failures, f"{len(failures)} failing games; replay one with run_game(seed):\n\n" + "\n".join(failures[:3])


def test_the_mix_covers_every_player_count_option_and_level():
    seen = set()
    for seed in range(GAMES):
        _, players, options, levels = game_setup(seed)
        seen |= {("players", players), *(("option", k, v) for k, v in options.items()),
                 *(("level", level) for level in levels)}
    assert {("players", n) for n in range(2, 11)} <= seen
    assert {("option", "role", "advisor"), ("option", "role", "investigator"),
            ("option", "challenge_order", "seat"), ("option", "challenge_order", "first"),
            ("option", "examine", "choose"), ("option", "examine", "always_swap"),
            ("level", "easy"), ("level", "normal")} <= seen


def test_replaying_the_log_gives_the_same_events():
    for seed in range(40):
        _, log, events = run_game(seed)
        assert replay_log(seed, log) == events


def test_bots_are_pure_and_answer_from_legal():
    """Same view, legal and RNG state: same answer; the inputs are left as they were."""
    bot.STRICT = True
    for seed in range(60):
        table, players, options, levels = game_setup(seed)
        s = GAME.new(players, options, seed)
        while GAME.outcome(s) is None:
            waits = GAME.awaiting(s)
            seat = waits[table.randrange(len(waits))].seat
            view, legal = GAME.view(s, seat), GAME.legal(s, seat)
            for level in ("easy", "normal"):
                view_copy, legal_copy = copy.deepcopy(view), copy.deepcopy(legal)
                rng_a, rng_b = random.Random(seed * 31 + len(legal)), random.Random(seed * 31 + len(legal))
                first = bot.bot_action(view, legal, rng_a, level)
                assert view == view_copy and legal == legal_copy
                assert bot.bot_action(view, legal, rng_b, level) == first and first in legal
            GAME.apply(s, seat, GAME.bot_action(view, legal, table, levels[seat]))


def test_bots_on_set_positions():
    bot.STRICT = True

    def position(stage: str, hand: list[str], **extra) -> dict:
        view = {"game": "coup", "viewer": 0, "players": 4, "fifth": "ambassador", "coins": [2, 2, 2, 2],
                "treasury": 42, "court": 7, "face_up": [[], [], [], []], "cards": [2, 2, 2, 2],
                "alive": [True] * 4, "active": 0, "turn": 3, "stage": stage, "pending": None,
                "winner": None, "hand": hand, "drawn": [], "shown": None}
        view.update(extra)
        return view

    def pending(**fields) -> dict:
        base = dict.fromkeys(PENDING_KEYS)
        base["answered"] = []
        base.update(fields)
        return base

    rng = random.Random(5)
    turn = [{"type": "income"}, {"type": "foreign_aid"}, *({"type": "coup", "target": t} for t in (1, 2, 3)),
            {"type": "tax"}, *({"type": "assassinate", "target": t} for t in (1, 2, 3)),
            *({"type": "steal", "target": t} for t in (1, 2, 3)), {"type": "exchange"}]
    rich = position("turn", ["duke", "contessa"], coins=[8, 2, 5, 3], cards=[2, 1, 2, 2])
    for _ in range(20):  # coups the strongest: 2 cards and 5 coins
        assert bot.bot_action(rich, turn, rng, "normal") == {"type": "coup", "target": 2}
    forced = [{"type": "coup", "target": t} for t in (1, 2, 3)]
    for level in ("easy", "normal"):
        assert bot.bot_action(position("turn", ["duke", "duke"], coins=[10, 2, 2, 2]), forced, rng, level) in forced
    # Every Duke in sight (two face up, one in hand): a normal bot challenges the tax; nobody bluffs it.
    seen = position("challenge_action", ["duke", "captain"], face_up=[[], ["duke"], ["duke"], []], cards=[2, 1, 1, 2],
                    active=3, pending=pending(action="tax", actor=3, claim="duke"))
    answer = [{"type": "challenge"}, {"type": "allow"}]
    assert all(bot.bot_action(seen, answer, rng, "normal") == {"type": "challenge"} for _ in range(20))
    no_dukes = position("turn", ["captain", "contessa"], face_up=[[], ["duke"], ["duke", "duke"], []],
                        cards=[2, 1, 0, 2], alive=[True, True, False, True])
    for level in ("easy", "normal"):
        assert all(bot.bot_action(no_dukes, turn, rng, level) != {"type": "tax"} for _ in range(300))
    # Blocks with what it holds; loses and shows its least useful card; keeps the best on exchange.
    steal = position("block", ["captain", "ambassador"], active=1,
                     pending=pending(action="steal", actor=1, target=0, claim="captain"))
    blocks = [{"type": "block", "role": "captain"}, {"type": "block", "role": "ambassador"}, {"type": "allow"}]
    for level in ("easy", "normal"):
        assert bot.bot_action(steal, blocks, rng, level)["type"] == "block"
        lose = position("lose", ["duke", "ambassador"])
        assert bot.bot_action(lose, [{"type": "lose", "role": "duke"}, {"type": "lose", "role": "ambassador"}],
                              rng, level) == {"type": "lose", "role": "ambassador"}
        show = position("examine_show", ["duke", "ambassador"], fifth="inquisitor")
        assert bot.bot_action(show, [{"type": "show", "role": "duke"}, {"type": "show", "role": "ambassador"}],
                              rng, level) == {"type": "show", "role": "ambassador"}
        keeps = [{"type": "keep", "roles": list(k)} for k in
                 (("duke", "assassin"), ("duke", "ambassador"), ("duke", "contessa"), ("assassin", "ambassador"),
                  ("assassin", "contessa"), ("ambassador", "contessa"))]
        swap = position("exchange", ["ambassador", "contessa"], drawn=["duke", "assassin"])
        assert bot.bot_action(swap, keeps, rng, level) == {"type": "keep", "roles": ["duke", "assassin"]}
    # One card left, about to be assassinated, no Contessa: a normal bot mostly bluffs one (dead anyway).
    last = position("block", ["duke"], cards=[1, 2, 2, 2], face_up=[["captain"], [], [], []], active=2,
                    pending=pending(action="assassinate", actor=2, target=0, claim="assassin"))
    contessa = [{"type": "block", "role": "contessa"}, {"type": "allow"}]
    picks = [bot.bot_action(last, contessa, rng, "normal")["type"] for _ in range(200)]
    assert picks.count("block") > 150
    # A bot never stalls: unknown stages and levels still get a legal answer.
    assert bot.bot_action(position("mystery", ["duke"]), answer, rng, "hard") in answer
