"""«Революция»: 2,000 seeded bot games straight on the engine (no server), checked at every step.

Each game draws from its seed: 2-6 players (mostly 3-6), sometimes other options (hand limit,
escape target), an easy or normal bot per seat. The seat that answers next is drawn among the
awaited ones; now and then it times out (its ``Awaiting.default`` is applied), takes any legal
action at random, or a seat that is not awaited takes an "any time" action. After every action:

* every card is conserved: decks + discards + hands + equipment + class/party cards + cards in play
  = the deck file's cards, per card id;
* no level is below 1 or above 10; a level 10 appears only in the action that won a fight
  (``revolution.won`` for that seat), and the game is then over;
* every die shown is 1..6; the awaited seats' legal actions are non-empty and hold the default;

and every game ends with exactly one player at level 10, the winner, reached in a fight. Every
20th game is replayed from its seed and action log and must give the same events (dice come only
from the game's seeded RNG). Games run in two processes where there are two cores
(``REVOLUTION_PROCESSES=1`` runs them here). To replay a failing seed: ``run_game(seed)``.
"""
from __future__ import annotations

import multiprocessing
import os
import random
import traceback
from collections import Counter

from games.revolution import GAME, bot
from games.revolution import deck as D
import pytest

# Thousands of games: minutes of CPU, longer while other test files share the two cores; the
# suite's 180 s limit is for hangs, and these would trip it only by sharing the machine.
pytestmark = pytest.mark.timeout(600)

GAMES = 2_000
MAX_STEPS = 20_000
TIMEOUT_RATE = 0.05
WHIM_RATE = 0.03
ANYTIME_RATE = 0.02
REPLAY_EVERY = 20
PLAYER_COUNTS = (2, 3, 3, 4, 4, 4, 5, 5, 6, 6)

DECK = D.load("default")
TOTAL = dict(Counter(DECK.ids("turn") + DECK.ids("loot")))


def setup(seed: int) -> tuple[random.Random, int, dict, list[str]]:
    table = random.Random(seed)
    players = table.choice(PLAYER_COUNTS)
    options: dict = {}
    if table.random() < 0.3:
        options["hand"] = table.choice((4, 5, 6))
        options["escape"] = table.choice((4, 5, 6))
    levels = [table.choice(("easy", "normal", "normal")) for _ in range(players)]
    return table, players, GAME.validate_options(options), levels


def run_game(seed: int, replay: bool = False) -> dict:
    table, players, options, levels = setup(seed)
    s = GAME.new(players, options, seed)
    log: list[tuple[int, dict]] = []
    events_log: list[list] = []
    assert dict(Counter(s.all_cards())) == TOTAL
    steps = 0
    while s.stage != "over":
        steps += 1
        assert steps <= MAX_STEPS, f"seed {seed}: no end after {MAX_STEPS} actions"
        awaited = GAME.awaiting(s)
        assert awaited, f"seed {seed}: nobody awaited at stage {s.stage}"
        roll = table.random()
        if roll < ANYTIME_RATE:
            seat = table.randrange(players)
            legal = [a for a in GAME.legal(s, seat) if a["type"] in ("equip", "place", "play", "speech")]
            if not legal:
                continue
            action = legal[table.randrange(len(legal))]
        else:
            wait = awaited[table.randrange(len(awaited))]
            seat = wait.seat
            legal = GAME.legal(s, seat)
            assert legal and wait.default in legal, (seed, s.stage, wait, legal)
            if roll < ANYTIME_RATE + TIMEOUT_RATE:
                action = wait.default
            elif roll < ANYTIME_RATE + TIMEOUT_RATE + WHIM_RATE:
                action = legal[table.randrange(len(legal))]
            else:
                action = bot.bot_action(GAME.view(s, seat), legal, table, levels[seat])
                assert action in legal
        before = list(s.levels)
        events = GAME.apply(s, seat, action)
        log.append((seat, action))
        if replay:
            events_log.append([(e.key, e.audience, e.params) for e in events])
        check(s, seed, before, events)
    tens = [x for x in range(players) if s.levels[x] == 10]
    assert len(tens) == 1 and s.winner == tens[0], (seed, s.levels, s.winner)
    assert s.win_turn_fight
    out = GAME.outcome(s)
    assert out.winners == (s.winner,) and out.reason == "revolution.outcome.winner"
    if replay:
        again = GAME.new(players, options, seed)
        for (seat, action), expected in zip(log, events_log):
            got = [(e.key, e.audience, e.params) for e in GAME.apply(again, seat, action)]
            assert got == expected, f"seed {seed}: the replay differs"
        assert again.levels == s.levels and again.winner == s.winner
    return {"steps": steps, "players": players, "turns": s.turn_no}


def check(s, seed: int, before: list[int], events) -> None:
    assert dict(Counter(s.all_cards())) == TOTAL, f"seed {seed}: cards not conserved"
    assert all(1 <= lv <= 10 for lv in s.levels), (seed, s.levels)
    keys = [e.key for e in events]
    for e in events:
        if e.key == "revolution.roll":
            assert 1 <= e.params["roll"] <= 6
    for x, lv in enumerate(s.levels):
        if lv == 10 and before[x] != 10:
            won = [e for e in events if e.key == "revolution.won" and e.params["seat"] == x]
            assert won and s.stage == "over" and s.winner == x, (seed, keys)
    if s.stage != "over":
        assert 10 not in s.levels


def _run(seed: int):
    try:
        return seed, run_game(seed, replay=seed % REPLAY_EVERY == 0), None
    except Exception:  # report the seed, not just the traceback
        return seed, None, traceback.format_exc()


def test_two_thousand_bot_games():
    bot.STRICT = True
    processes = int(os.environ.get("REVOLUTION_PROCESSES", min(2, os.cpu_count() or 1)))
    seeds = range(GAMES)
    if processes > 1:
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            results = pool.map(_run, seeds, chunksize=50)
    else:
        results = [_run(seed) for seed in seeds]
    failures = [(seed, tb) for seed, _, tb in results if tb]
    assert not failures, f"{len(failures)} games failed; first seed {failures[0][0]}:\n{failures[0][1]}"
    stats = [r for _, r, _ in results]
    assert len(stats) == GAMES
    counts = Counter(r["players"] for r in stats)
    assert set(counts) == {2, 3, 4, 5, 6}, counts
