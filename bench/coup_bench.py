#!/usr/bin/env python3
"""Coup engine benchmark: whole seeded bot games per second, engine and bots only, on one core.

    python bench/coup_bench.py                 (about 40 s)
    python bench/coup_bench.py --seconds 1     (a quicker, noisier run)
    python bench/coup_bench.py --json out.json
    python bench/coup_bench.py --stages        (time the steps by stage)
    python bench/coup_bench.py --play 140      (no timing: for valgrind's instruction count)

No server, no asyncio: a loop asks the engine who it waits for, picks one of the awaited seats
(seeded), asks that seat's bot (from its view and legal actions) and applies the answer, until
the game has a winner. That is the engine (``awaiting``, ``legal``, ``view``, ``apply``,
``outcome``) and the bots (``GAME.bot_action``) together, as a table of bots plays. Each figure is
games per CPU second of this process (``time.process_time``, so other load on the machine
matters less), measured for ``--seconds`` per row. The headline row mixes 2-8 players (seed % 7),
both fifth roles and both challenge orders; the next the base game's 2-6 players (seed 000; 7-8
is seed 001's extension): the target is for these. Then per player count, for comparison (the
actions of a game grow with the square of the table). The breakdown at the end shows
where a step's time goes. See bench/README.md ("Coup engine").
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.compiled import implementation  # noqa: E402
from games.coup import GAME, bot as coup_bot, engine as coup_engine  # noqa: E402

TARGET = 1000.0  # easy-bot games per second on one core

OPTION_CYCLE = [
    {"role": "advisor", "challenge_order": "seat", "examine": "choose"},
    {"role": "investigator", "challenge_order": "seat", "examine": "choose"},
    {"role": "advisor", "challenge_order": "first", "examine": "choose"},
    {"role": "investigator", "challenge_order": "first", "examine": "always_swap"},
]


def play(seed: int, players: int, level: str) -> int:
    """One whole game of bots; returns the number of actions applied."""
    rng = random.Random(seed)
    game = GAME
    state = game.new(players, OPTION_CYCLE[seed % 4], seed)
    awaiting, legal, view, apply, outcome, bot = (game.awaiting, game.legal, game.view, game.apply,
                                                  game.outcome, game.bot_action)
    steps = 0
    while outcome(state) is None:
        waits = awaiting(state)
        seat = waits[0].seat if len(waits) == 1 else waits[int(rng.random() * len(waits))].seat
        action = bot(view(state, seat), legal(state, seat), rng, level)
        apply(state, seat, action)
        steps += 1
        if steps > 20000:
            raise RuntimeError(f"game did not end: seed {seed}, {players} players, {level}")
    return steps


def measure(level: str, players: int | str, seconds: float, first_seed: int = 0) -> dict:
    """Games for about ``seconds`` of CPU; ``players`` "2-8" or "2-6" mixes the counts by seed."""
    low, high = (int(x) for x in players.split("-")) if isinstance(players, str) else (players, players)
    games = steps = 0
    seed = first_seed
    cpu0, wall0 = time.process_time(), time.perf_counter()
    while True:
        steps += play(seed, low + seed % (high - low + 1), level)
        games += 1
        seed += 1
        if games % (high - low + 1) == 0 and time.process_time() - cpu0 >= seconds:  # whole cycles
            break
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return {"level": level, "players": players, "games": games, "steps": steps, "cpu_s": cpu,
            "wall_s": wall, "games_per_s": games / cpu, "steps_per_game": steps / games,
            "us_per_step": cpu / steps * 1e6}


def breakdown(level: str, players: int, games: int) -> dict[str, float]:
    """Microseconds per step spent in each call (timer overhead included, so only the shares count)."""
    clock = time.perf_counter
    spent = dict.fromkeys(("outcome", "awaiting", "legal", "view", "bot_action", "apply"), 0.0)
    steps = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = GAME.new(players, OPTION_CYCLE[seed % 4], seed)
        while True:
            t0 = clock()
            over = GAME.outcome(state) is not None
            t1 = clock()
            if over:
                spent["outcome"] += t1 - t0
                break
            waits = GAME.awaiting(state)
            t2 = clock()
            seat = waits[0].seat if len(waits) == 1 else waits[int(rng.random() * len(waits))].seat
            t3 = clock()
            legal = GAME.legal(state, seat)
            t4 = clock()
            view = GAME.view(state, seat)
            t5 = clock()
            action = GAME.bot_action(view, legal, rng, level)
            t6 = clock()
            GAME.apply(state, seat, action)
            t7 = clock()
            spent["outcome"] += t1 - t0
            spent["awaiting"] += t2 - t1
            spent["legal"] += t4 - t3
            spent["view"] += t5 - t4
            spent["bot_action"] += t6 - t5
            spent["apply"] += t7 - t6
            steps += 1
    return {name: total / steps * 1e6 for name, total in spent.items()}


def by_stage(level: str, games: int) -> list[tuple[str, float, float]]:
    """(stage of the step, share of the steps, ns per step) over ``games`` mixed 2-8 games; an
    ``allow`` counts apart from the other answers of its window."""
    clock = time.perf_counter_ns
    spent: dict[str, int] = {}
    count: dict[str, int] = {}
    for seed in range(games):
        rng = random.Random(seed)
        state = GAME.new(2 + seed % 7, OPTION_CYCLE[seed % 4], seed)
        while True:
            stage = state.stage
            t0 = clock()
            if GAME.outcome(state) is not None:
                break
            waits = GAME.awaiting(state)
            seat = waits[0].seat if len(waits) == 1 else waits[int(rng.random() * len(waits))].seat
            action = GAME.bot_action(GAME.view(state, seat), GAME.legal(state, seat), rng, level)
            GAME.apply(state, seat, action)
            elapsed = clock() - t0
            key = stage + ("/allow" if action.get("type") == "allow" else "")
            spent[key] = spent.get(key, 0) + elapsed
            count[key] = count.get(key, 0) + 1
    steps = sum(count.values())
    return sorted(((key, count[key] / steps, spent[key] / count[key]) for key in count),
                  key=lambda row: -row[1] * row[2])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.5, help="CPU seconds per row (default 2.5)")
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    parser.add_argument("--play", type=int, metavar="N",
                        help="only play N seeded mixed 2-8 games (easy bots) and print the number of "
                             "actions: for counting instructions under valgrind (bench/README.md)")
    parser.add_argument("--stages", action="store_true",
                        help="only time the steps by stage (easy bots, 1,400 mixed 2-8 games)")
    args = parser.parse_args()
    if args.play is not None:
        play(0, 4, "easy")  # the same warm-up as a timed run
        steps = sum(play(seed, 2 + seed % 7, "easy") for seed in range(args.play))
        print(f"{args.play} games, {steps} actions")
        return 0
    if args.stages:
        print(f"{'stage':<24} {'steps':>6} {'ns/step':>8} {'time':>6}")
        rows = by_stage("easy", 1400)
        total = sum(share * ns for _, share, ns in rows)
        for key, share, ns in rows:
            print(f"{key:<24} {share:>6.1%} {ns:>8,.0f} {share * ns / total:>6.1%}")
        return 0
    started = time.perf_counter()
    print(f"Coup engine + bots, one core: Python {platform.python_version()}, {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.2f}; {args.seconds:g} CPU s per row")
    print(f"engine: {implementation(coup_engine)}, bots: {implementation(coup_bot)} (setup.py compiles them with Cython)")
    play(0, 4, "easy")  # warm-up: imports, first calls
    rows = []
    header = f"{'bots':<7} {'players':>7} {'games':>6} {'games/s':>9} {'actions/game':>12} {'us/action':>9}  target"
    print(header)
    print("-" * len(header))
    for level in ("easy", "normal"):
        for players in ("2-8", "2-6", 2, 4, 6, 8, 10):
            row = measure(level, players, args.seconds)
            rows.append(row)
            verdict = ""
            if level == "easy" and isinstance(players, str):  # the target: games of every size
                verdict = f">= {TARGET:,.0f}/s: " + ("PASS" if row["games_per_s"] >= TARGET else "MISS")
            elif level == "easy":  # one size, for comparison: a game of 8 has 400 actions, of 2 38
                verdict = "(one size)"
            print(f"{level:<7} {row['players']!s:>7} {row['games']:>6} {row['games_per_s']:>9,.0f} "
                  f"{row['steps_per_game']:>12.1f} {row['us_per_step']:>9.2f}  {verdict}", flush=True)
    print()
    split = breakdown("easy", 4, 200)
    total = sum(split.values())
    engine = total - split["bot_action"]
    print("Where an action's time goes (easy bots, 4 players, 200 games; us per action, timers included):")
    print("  " + ", ".join(f"{name} {value:.2f}" for name, value in split.items())
          + f"; engine {engine:.2f} ({engine / total:.0%}), bot {split['bot_action']:.2f} "
          f"({split['bot_action'] / total:.0%})")
    print(f"\n{time.perf_counter() - started:.1f} s in all")
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": rows, "breakdown_us": split}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
