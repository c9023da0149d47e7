"""«Шептуны»: 5,000 seeded bot games straight on the engine (no server), checked at every step.

Each game draws from its seed: 2-12 seats (2-4 get their Peacekeepers from ``start_plan``, the
way the server adds them), the options (return rule, deck counts, a District override; about a
third of the games use the default options), and an easy or normal bot per seat; now and then a
seat times out (its ``Awaiting.default`` is applied) or takes any legal action at random, as a
person might. At every step:

* the game awaits exactly one seat, whose legal actions are not empty and include the default;
* every card is conserved per rank (deck + discard + hands + placed + status cards + a card
  being passed = the deck's counts, 39 cards by default);
* every event key is one of the contract's; public events go to everyone, whispers only to the
  seat that may know them (its side, the District team, a seat's own deal, the defeated Capitol
  citizen's card, the passed card to its receiver, a placement's rank to its placer) and carry
  exactly what that seat holds; no public event carries the rank of a face-down card except a
  reveal, whose cards are sorted and are exactly the cards that lay in front of the player;
* the acting seat's view and one other seat's (every seat's and the spectator's in every 25th
  game) hold the public part (the same for everyone) plus only the seat's own side, hand, team
  (District only) and placements, and a passed card only to its receiver during the swap;

and every game ends with a valid winner: the Capitol with every District role card face up, the
District with defeated Capitol >= defeated District + 2 (and not every District card face up),
else the round cap (never with the default options) or a stalemate (only possible where the
Capitol does not outnumber the District: the variant with 3-4 people or a District override).
The games run in two worker processes when the machine has two cores (``WHISPERS_PROCESSES=1``
runs them here). To replay a failing seed: ``run_game(seed)``.
"""
from __future__ import annotations

import copy
import multiprocessing
import os
import random
import traceback
from collections import Counter

from games.base import MASTER, SPECTATOR, Audience, Outcome
from games.whispers import GAME, bot
from games.whispers import engine as E
import pytest

# Thousands of games: minutes of CPU, longer while other test files share the two cores; the
# suite's 180 s limit is for hangs, and these would trip it only by sharing the machine.
pytestmark = pytest.mark.timeout(600)

GAMES = 5_000
MAX_STEPS = 20_000
TIMEOUT_RATE = 0.05
WHIM_RATE = 0.03
FULL_VIEW_EVERY = 25
DECKS = ("10,9,8,7,5", "8,8,8,7,5", "12,10,8,6,4", "6,8,9,8,7", "9,9,9,9,9", "20,10,5,3,2")

EVERYONE = Audience.everyone()
PUBLIC_EVENTS = {
    "whispers.start": {"players", "district", "capitol"},
    "whispers.start_coop": {"players", "peacekeepers"},
    "whispers.round": {"round", "seat"},
    "whispers.face_up": {"cards"},
    "whispers.passed": {"seat", "target_seat"},
    "whispers.pass_discarded": {"seat"},
    "whispers.swapped": {"seat"},
    "whispers.placed": {"seat", "target_seat"},
    "whispers.returned": {"seat", "n"},
    "whispers.returned_open": {"seat", "n"},
    "whispers.exposed_twice": {"seat", "side"},
    "whispers.justice": {"seat"},
    **{f"whispers.reveal.{k}": {"seat", "cards", "status", "prev"} for k in E.REVEAL_KEYS if k != "defeated"},
    "whispers.reveal.defeated": {"seat", "cards", "status", "prev", "side"},
}
WHISPERS = {"whispers.side", "whispers.team", "whispers.hand", "whispers.dealt_defeated",
            "whispers.passed_to_you", "whispers.you_placed"}
PUBLIC_VIEW = frozenset(("players", "round", "dealer", "stage", "turn", "lap", "status", "revealed", "defeated",
                         "face_up", "placed", "hand_sizes", "returned", "passer", "deck", "discard",
                         "district_total", "capitol_total", "coop", "peacekeepers_from", "last_reveal", "winner",
                         "rules_rev"))


class Leak(AssertionError):
    pass


# ----------------------------------------------------------------------------------- setup


def game_setup(seed: int) -> tuple[random.Random, int, dict, list[str], bool]:
    """(the table's RNG, seats, options as the server stores them, bot levels, default options?)"""
    table = random.Random(seed)
    humans = table.randint(2, 12)
    default = table.random() < 0.35
    options: dict = {}
    if not default:
        options["return_rule"] = table.choice(("all", "one"))
        options["deck"] = table.choice(DECKS)
        if humans >= 5 and table.random() < 0.25:
            options["district"] = table.randint(1, humans - 1)
        if humans < 5:
            options["peacekeepers"] = table.choice((3, 4))
    options = GAME.validate_options(options)
    extra, updates = GAME.start_plan(dict(options), humans)
    options.update(updates)
    players = humans + extra
    levels = [table.choice(("easy", "normal")) for _ in range(players)]
    return table, players, options, levels, default


def deck_of(options: dict) -> Counter:
    counts = [int(c) for c in options["deck"].split(",")]
    return Counter({rank: count for rank, count in zip(E.RANKS, counts)})


def cards_of(s) -> Counter:
    cards = s.deck + s.discard + [c for hand in s.hands for c in hand]
    cards += [rank for placed in s.placed for _, rank in placed] + [m for m in s.markers if m is not None]
    if s.passed_card is not None:
        cards.append(s.passed_card)
    return Counter(cards)


# ----------------------------------------------------------------------------------- checks


def check_events(events, s, before: dict, seat: int, action: dict) -> None:
    """Audiences and params: a hidden card reaches only the seat that may know it."""
    n = s.players
    # What counts at a reveal: for a player who returned, only the cards placed after the return.
    placed_before = [[rank for _, rank in cards][void:] for cards, void in zip(before["placed_cards"],
                                                                              before["voided"])]
    if action["type"] == "place":
        placed_before[action["target"]].append(action["card"])
    passed_to = None
    for event in events:
        key, params, audience = event.key, event.params, event.audience
        if key in WHISPERS:
            assert audience.kind == "seats" and len(audience.seats) == 1, (key, audience)
            who = audience.seats[0]
            if key == "whispers.side":
                assert params == {"side": s.sides[who]}
            elif key == "whispers.team":
                team = [x for x in range(n) if s.sides[x] == "district"]
                assert s.sides[who] == "district" and params == {"seats": team}
            elif key == "whispers.hand":
                assert not s.defeated[who] and params == {"cards": sorted(s.hands[who])}, (params, s.hands[who])
            elif key == "whispers.dealt_defeated":
                assert s.defeated[who] and s.sides[who] == "capitol" and params == {"card": s.hands[who][0]}
            elif key == "whispers.passed_to_you":
                assert who == passed_to and params == {"seat": seat, "card": before["hands"][seat][0]}
                assert s.passed_card == params["card"] and s.turn == who
            elif key == "whispers.you_placed":
                assert who == seat and action["type"] == "place"
                assert params == {"card": action["card"], "target_seat": action["target"]}
            continue
        if key == "whispers.winner":
            assert audience == EVERYONE
            assert set(params) == ({"side", "seats", "reason", "capitol_defeated", "district_defeated"}
                                   if params["reason"] == "capitol_defeated" else {"side", "seats", "reason"})
            continue
        assert key in PUBLIC_EVENTS, f"an event outside the contract: {key} {params}"
        assert audience == EVERYONE, (key, audience)
        assert set(params) == PUBLIC_EVENTS[key], (key, params)
        if key == "whispers.face_up":  # face-up ranks, exactly the ones dealt face up
            assert params["cards"] == [[x, s.face_up[x]] for x in E._from_dealer(s) if s.face_up[x] is not None]
        elif key.startswith("whispers.reveal."):
            who, cards = params["seat"], params["cards"]
            assert cards == sorted(cards), cards
            if key == "whispers.reveal.none":
                assert cards == [], "a returned player's cards stay face down"
            else:
                assert Counter(cards) == Counter(placed_before[who]), (cards, placed_before[who])
            assert params["prev"] == before["status"][who]
        elif key == "whispers.passed":
            passed_to = params["target_seat"]
        elif key in ("whispers.placed", "whispers.returned", "whispers.returned_open", "whispers.pass_discarded",
                     "whispers.swapped"):
            assert "card" not in params


def check_view(view: dict, s, viewer: int, public: dict) -> None:
    if viewer == SPECTATOR:
        if set(view) != PUBLIC_VIEW:
            raise Leak(f"spectator view keys {sorted(set(view) ^ PUBLIC_VIEW)}")
        return
    extra = {"me", "side", "hand", "my_placements"}
    if s.sides[viewer] == "district":
        extra.add("team")
    if s.stage == "swap" and s.turn == viewer:
        extra.add("passed_card")
    if set(view) != PUBLIC_VIEW | extra:
        raise Leak(f"seat {viewer}: view keys {sorted(set(view) ^ (PUBLIC_VIEW | extra))}")
    for key in PUBLIC_VIEW:
        if view[key] != public[key]:
            raise Leak(f"seat {viewer}: public field {key} differs: {view[key]} != {public[key]}")
    assert view["me"] == viewer and view["side"] == s.sides[viewer] and view["hand"] == sorted(s.hands[viewer])
    if "team" in view:
        assert view["team"] == [x for x in range(s.players) if s.sides[x] == "district"]
    if view["my_placements"] != [[t, r] for p, t, r in s.placements if p == viewer]:
        raise Leak(f"seat {viewer}: my_placements {view['my_placements']} are not its own")
    if "passed_card" in view:
        assert view["passed_card"] == s.passed_card


def check_public(public: dict, s) -> None:
    """The public part holds no secret: sides only when face up, counts only for what is face down."""
    n = s.players
    for x in range(n):
        side = public["revealed"][x]
        if (side is None) == s.revealed[x] or (side is not None and side != s.sides[x]):
            raise Leak(f"revealed[{x}] = {side}")
    assert public["placed"] == [len(p) for p in s.placed] and public["hand_sizes"] == [len(h) for h in s.hands]
    for entry in public["last_reveal"]:
        assert entry["cards"] == sorted(entry["cards"]) and entry["change"] in E.REVEAL_KEYS


def check_end(s, outcome: Outcome, default: bool) -> str:
    capitol = sum(1 for x in range(s.players) if s.defeated[x] and s.sides[x] == "capitol")
    district = sum(1 for x in range(s.players) if s.defeated[x] and s.sides[x] == "district")
    all_up = all(s.revealed[x] for x in range(s.players) if s.sides[x] == "district")
    reason = outcome.reason.rsplit(".", 1)[-1]
    side = outcome.params["side"]
    assert outcome.winners == tuple(x for x in range(s.players) if s.sides[x] == side)
    assert GAME.awaiting(s) == [] and all(GAME.legal(s, x) == [] for x in range(s.players))
    if reason == "all_district_revealed":
        assert side == "capitol" and all_up
    elif reason == "capitol_defeated":
        assert side == "district" and not all_up and capitol >= district + 2
        assert outcome.params == {"side": side, "capitol_defeated": capitol, "district_defeated": district}
    elif reason == "round_limit":
        assert side == "none" and not default and s.round == s.max_rounds
    else:
        assert reason == "stalemate" and side == "none" and s.defeated.count(False) == 1
        assert s.capitol_total <= s.district_total and not all_up and capitol < district + 2
    return reason


# ----------------------------------------------------------------------------------- one game


def run_game(seed: int, full_views: bool | None = None):
    table, players, options, levels, default = game_setup(seed)
    if full_views is None:
        full_views = seed % FULL_VIEW_EVERY == 0
    s = GAME.new(players, options, seed)
    deck = deck_of(options)
    start = GAME.start_events(s)
    check_events(start, s, {"placed_cards": [[] for _ in range(players)], "voided": [0] * players, "hands": [],
                            "status": [1] * players},
                 -1, {"type": "start"})
    assert cards_of(s) == deck and s.total == sum(deck.values())
    log = []
    all_events = [start]
    while GAME.outcome(s) is None:
        waits = GAME.awaiting(s)
        assert len(waits) == 1, waits
        wait = waits[0]
        seat = wait.seat
        legal = GAME.legal(s, seat)
        assert legal and wait.default in legal, (wait, legal)
        view = GAME.view(s, seat)
        public = GAME.view(s, SPECTATOR)
        check_public(public, s)
        check_view(view, s, seat, public)
        viewers = (SPECTATOR, *range(players)) if full_views else (table.randrange(players),)
        for other in viewers:
            check_view(GAME.view(s, other), s, other, public)
        roll = table.random()
        if roll < TIMEOUT_RATE:
            action = wait.default
        elif roll < TIMEOUT_RATE + WHIM_RATE:
            action = legal[table.randrange(len(legal))]
        else:
            action = GAME.bot_action(view, legal, table, levels[seat])
            assert action in legal, (action, legal)
        before = GAME.view(s, MASTER)
        before["status"] = list(s.status)
        events = GAME.apply(s, seat, action)
        log.append((seat, action))
        all_events.append(events)
        check_events(events, s, before, seat, action)
        assert cards_of(s) == deck, (cards_of(s), deck)
        assert len(log) < MAX_STEPS, f"seed {seed}: no end after {MAX_STEPS} actions"
    reason = check_end(s, GAME.outcome(s), default)
    assert [e.params["reason"] for e in all_events[-1] if e.key == "whispers.winner"] == [reason]
    return s, log, all_events, reason, default


def run_seeds(seeds: range) -> tuple[list[str], Counter]:
    """Play these seeds: (failure reports, how the games ended); a worker cannot raise to pytest."""
    bot.STRICT = True
    failures: list[str] = []
    ends: Counter = Counter()
    for seed in seeds:
        try:
            _, _, _, reason, default = run_game(seed)
            ends[(reason, default)] += 1
        except Exception:
            failures.append(f"seed {seed}: {traceback.format_exc(limit=-3)}")
            if len(failures) >= 5:
                break
    return failures, ends


# ----------------------------------------------------------------------------------- tests


def test_5000_bot_games_conserve_never_leak_and_end_with_a_valid_winner():
    processes = int(os.environ.get("WHISPERS_PROCESSES", min(2, os.cpu_count() or 1)))
    chunks = [range(start, min(start + 250, GAMES)) for start in range(0, GAMES, 250)]
    if processes > 1:
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            results = pool.map(run_seeds, chunks, chunksize=1)
    else:
        results = [run_seeds(chunk) for chunk in chunks]
    failures = [failure for result, _ in results for failure in result]
    assert not failures, f"{len(failures)} failing games; replay one with run_game(seed):\n\n" + "\n".join(failures[:3])
    ends: Counter = sum((counts for _, counts in results), Counter())
    assert sum(ends.values()) == GAMES
    # The round cap is a safety net: with the default options no game reaches it.
    assert ends[("round_limit", True)] == 0, ends
    # Stalemates: only where the Capitol does not outnumber the District (checked per game);
    # with the default options that is the variant with 3-4 people (see the Decisions).
    print("\nwhispers endings:", dict(ends))
    assert ends[("round_limit", False)] <= GAMES // 100, ends


def test_the_mix_covers_every_player_count_and_option():
    seen = set()
    for seed in range(GAMES):
        _, players, options, levels, default = game_setup(seed)
        seen |= {("players", players), ("default", default), ("coop", "peacekeepers_from" in options),
                 ("return_rule", options["return_rule"]), ("deck", options["deck"]),
                 ("district", options["district"] != "auto"), *(("level", level) for level in levels)}
    assert {("players", n) for n in range(5, 13)} <= seen
    assert {("default", True), ("default", False), ("coop", True), ("coop", False), ("return_rule", "all"),
            ("return_rule", "one"), ("district", True), ("district", False), ("level", "easy"),
            ("level", "normal")} <= seen
    assert {("deck", deck) for deck in DECKS} <= seen


def test_replaying_the_log_gives_the_same_game():
    for seed in range(30):
        s, log, events, _, _ = run_game(seed)
        _, players, options, _, _ = game_setup(seed)
        twin = GAME.new(players, options, seed)
        again = [GAME.start_events(twin)] + [GAME.apply(twin, seat, action) for seat, action in log]
        assert again == events
        assert GAME.view(twin, MASTER) == GAME.view(s, MASTER)


def test_bots_are_pure_and_answer_from_legal():
    """Same view, legal and RNG state: the same answer, one of ``legal``; the inputs stay as they were."""
    bot.STRICT = True
    for seed in range(80):
        table, players, options, levels, _ = game_setup(seed)
        s = GAME.new(players, options, seed)
        while GAME.outcome(s) is None:
            seat = GAME.awaiting(s)[0].seat
            view, legal = GAME.view(s, seat), GAME.legal(s, seat)
            for level in ("easy", "normal"):
                view_copy, legal_copy = copy.deepcopy(view), copy.deepcopy(legal)
                first = bot.bot_action(view, legal, random.Random(seed * 7 + len(legal)), level)
                assert view == view_copy and legal == legal_copy
                assert bot.bot_action(view, legal, random.Random(seed * 7 + len(legal)), level) == first
                assert first in legal
            GAME.apply(s, seat, GAME.bot_action(view, legal, table, levels[seat]))


def test_bots_on_set_positions():
    bot.STRICT = True
    rng = random.Random(3)

    def view(**fields) -> dict:
        base = {"players": 5, "round": 2, "dealer": 0, "stage": "place", "turn": 0, "lap": 1,
                "status": [1, 1, 1, 1, 1], "revealed": [None] * 5, "defeated": [False] * 5,
                "face_up": [None] * 5, "placed": [0] * 5, "hand_sizes": [2] * 5, "returned": [False] * 5,
                "passer": None, "deck": 20, "discard": 0, "district_total": 2, "capitol_total": 3,
                "coop": False, "peacekeepers_from": None, "last_reveal": [], "winner": None,
                "me": 0, "side": "district", "hand": [1, 5], "team": [0, 1], "my_placements": []}
        base.update(fields)
        return base

    def places(hand, targets):
        return [{"type": "place", "card": c, "target": t} for c in sorted(set(hand)) for t in targets]

    # District: the Fled card on a vulnerable enemy, never on the vulnerable teammate
    v = view(status=[1, 3, 4, 1, 1])
    fled_on_2 = {"type": "place", "card": 5, "target": 2}
    assert all(bot.bot_action(v, places([1, 5], (1, 2, 3, 4)), rng, "normal") == fled_on_2 for _ in range(30))
    # Capitol: a Fled card goes to a revealed District citizen who is vulnerable
    v = view(side="capitol", team=None, status=[1, 3, 4, 3, 1], revealed=[None, None, None, "district", None],
             hand=[2, 5])
    del v["team"]
    fled_on_3 = {"type": "place", "card": 5, "target": 3}
    assert all(bot.bot_action(v, places([2, 5], (1, 2, 3, 4)), rng, "normal") == fled_on_3 for _ in range(30))
    # Peacekeeper: the highest card on the most vulnerable human; never on a Peacekeeper if a human is free
    v = view(coop=True, peacekeepers_from=2, me=3, side="capitol", status=[3, 4, 1, 1, 1], hand=[3, 4])
    del v["team"]
    exposed_on_1 = {"type": "place", "card": 4, "target": 1}
    assert all(bot.bot_action(v, places([3, 4], (4, 0, 1)), rng, "normal") == exposed_on_1 for _ in range(30))
    v["status"] = [1, 1, 1, 1, 1]
    assert all(bot.bot_action(v, places([3, 4], (4, 0, 1)), rng, "normal")["target"] in (0, 1) for _ in range(30))
    # a defeated Capitol bot: a high card to a revealed Capitol friend, a low one to a revealed District
    passes = [{"type": "pass", "target": t} for t in (1, 2, 4)] + [{"type": "discard_pass"}]
    v = view(stage="pass", side="capitol", hand=[5], defeated=[True, False, False, False, False],
             revealed=["capitol", "district", "capitol", None, None])
    del v["team"]
    assert bot.bot_action(v, passes, rng, "normal") == {"type": "pass", "target": 2}
    v["hand"] = [1]
    assert bot.bot_action(v, passes, rng, "normal") == {"type": "pass", "target": 1}
    v["revealed"] = ["capitol", None, None, None, None]
    assert bot.bot_action(v, passes, rng, "normal") == {"type": "discard_pass"}
    # a swap: discard the lowest; a District bot keeps one low card for a vulnerable teammate
    swaps = [{"type": "swap", "card": 2}, {"type": "swap", "card": 4}]
    swap = view(stage="swap", hand=[2, 4], passed_card=5)
    assert bot.bot_action(swap, swaps, rng, "normal") == {"type": "swap", "card": 2}
    assert bot.bot_action(view(stage="swap", hand=[2, 4], passed_card=5, status=[1, 3, 1, 1, 1]), swaps, rng,
                          "normal") == {"type": "swap", "card": 4}
    # a bot never stalls: unknown stages and levels still get a legal answer
    assert bot.bot_action(view(stage="mystery"), swaps, rng, "hard") in swaps
