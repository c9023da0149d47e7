#!/usr/bin/env python3
"""The first start with ratings on an old database: how long rating every finished game takes.

    .venv/bin/python bench/ratings_backfill.py [--per-game 60] [--seed 1]

A server whose database holds games finished before ratings existed rates them all at its first
start (world/ratings.py ``rate_unrated``): each game's final state is rebuilt from its seed and
its log, then its results and ratings are written. This bench plays ``--per-game`` seeded bot
games of each of the five games straight on the engines (Coup, «Шептуны», «Революция», Mafia for
5-12 seats, Sealed Bids), stores them as finished tables with their seats and logs in a fresh
SQLite database made by the server's own migrations, and times:

  baseline   the same games replayed from their logs on the engines alone (no database)
  sweep      ``rate_unrated()`` over all of them: reading, replaying, rating, writing

and prints the tables per second of each, the sweep's cost per table beside the replay's, and
what that means for 100,000 old games. Measured in the same run, so the ratio holds on a busy
machine too.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SEATS = {"coup": (3, 6), "whispers": (5, 8), "revolution": (3, 5), "mafia": (5, 12), "bids": (2, 5)}


def options_of(name: str) -> dict[str, Any]:
    """A new table's options as the server stores them: the rules revisions pinned."""
    from games.registry import get
    from world.upgrades import start_options

    return start_options(get(name), {})


def play(name: str, seats: int, seed: int) -> list[tuple[int, Any]]:
    """A seeded bots' game to its end: every action, in order."""
    from games.registry import get

    engine = get(name)
    state = engine.new(seats, options_of(name), seed)
    rng = random.Random(seed)
    actions = []
    for _ in range(500_000):
        if engine.outcome(state) is not None:
            return actions
        wait = engine.awaiting(state)[0]
        legal = engine.legal(state, wait.seat)
        action = engine.bot_action(engine.view(state, wait.seat), legal, rng, "normal") if legal else wait.default
        engine.apply(state, wait.seat, action)
        actions.append((wait.seat, action))
    raise AssertionError(f"{name} seed {seed}: no end")


def replay_all(games: list[tuple[str, int, int, list]]) -> float:
    from games.registry import get
    from world.upgrades import apply_logged

    started = time.perf_counter()
    for name, seats, seed, actions in games:
        engine = get(name)
        state = engine.new(seats, options_of(name), seed)
        for seat, action in actions:
            apply_logged(engine, state, seat, action)
        assert engine.outcome(state) is not None
    return time.perf_counter() - started


async def store(games: list[tuple[str, int, int, list]]) -> None:
    from world.db import transaction
    from world.models import Account, ActionLogEntry, GameTable, Seat

    people = [await Account.create(name=f"P{i}", name_key=f"p{i}") for i in range(12)]
    base = datetime(2025, 1, 1, tzinfo=timezone.utc)
    for number, (name, seats, seed, actions) in enumerate(games):
        start = base + timedelta(minutes=10 * number)
        async with transaction():
            row = await GameTable.create(game=name, seed=seed, host="P0", state="finished", seats_total=seats,
                                         options=options_of(name),
                                         started_at=start, finished_at=start + timedelta(minutes=7), outcome={})
            await Seat.bulk_create([Seat(table=row, number=n, account=people[(number + n) % 12],
                                         name=people[(number + n) % 12].name, ended_at=row.finished_at)
                                    for n in range(seats)])
            await ActionLogEntry.bulk_create([ActionLogEntry(table=row, step=step, seat=seat, action=action)
                                              for step, (seat, action) in enumerate(actions)])


async def sweep(url: str, games: list[tuple[str, int, int, list]]) -> tuple[float, int, int]:
    from tortoise import Tortoise

    from world import db, ratings
    from world.models import GameResult

    await db.init(url)
    try:
        await store(games)
        started = time.perf_counter()
        rated = await ratings.rate_unrated()
        seconds = time.perf_counter() - started
        return seconds, rated, await GameResult.all().count()
    finally:
        await Tortoise.close_connections()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-game", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    games = []
    for name, (low, high) in SEATS.items():
        for i in range(args.per_game):
            seats = rng.randint(low, high)
            seed = args.seed * 100_000 + i
            games.append((name, seats, seed, play(name, seats, seed)))
    rng.shuffle(games)
    steps = sum(len(g[3]) for g in games)
    replay_seconds = replay_all(games)
    with tempfile.TemporaryDirectory(prefix="korchma-backfill-") as folder:
        sweep_seconds, rated, results = asyncio.run(sweep(f"sqlite://{folder}/korchma.sqlite3", games))
    assert rated == len(games), f"rated {rated} of {len(games)}"
    per_table = sweep_seconds / len(games)
    print(f"{len(games)} finished games ({args.per_game} of each of {len(SEATS)}), {steps} logged steps, "
          f"{results} results written")
    print(f"  baseline: replay on the engines  {len(games) / replay_seconds:8.1f} tables/s "
          f"({replay_seconds / len(games) * 1000:6.2f} ms a table)")
    print(f"  sweep: rate_unrated() on SQLite  {len(games) / sweep_seconds:8.1f} tables/s "
          f"({per_table * 1000:6.2f} ms a table, {sweep_seconds / replay_seconds:.1f}x the replay)")
    print(f"  so a first start on 100,000 old games would spend about {per_table * 100_000 / 60:.0f} min rating them")


if __name__ == "__main__":
    main()
