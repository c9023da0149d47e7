#!/usr/bin/env python3
"""`history`, `stats` and `top` at scale: 100,000 finished games, in SQLite and in PostgreSQL.

    .venv/bin/python bench/history_scale.py [--games 100000] [--accounts 5000] [--runs 15]
                                            [--only sqlite|postgres]

For each database it makes a fresh one through the server's own migrations (world/db.py init),
fills it in bulk (5,000 accounts; 100,000 ended games over the five games, 3-12 seats each, a
fifth of the seats bots; 97% finished, 2% broken, 1% abandoned; and 2,000 tables that are open,
running or closed before their start, which `history` must leave out), ANALYZEs it, and times
the queries `history` makes (world/history.py, through the ORM as the command runs them, the
seats of the page included):

  all p1       `history`               the first page of every game
  all deep     `history 5000`          a page 75,000 games down
  player p1    `history NAME`          a busy player's first page
  player last  `history NAME LAST`     the same player's last page
  game p1      `history coup`          one game's first page
  game deep    `history coup 1000`     one game's page 15,000 down
  stats        `stats NAME`            the busy player's results, every game (world/ratings.py)
  stats game   `stats NAME coup`       the same, one game
  top p1       `top coup`              a leaderboard's first page
  top deep     `top coup 50`           its page 50
  top humans   `top coup humans`       the games-without-bots pool

The results and ratings are those the finished games would have left (world/ratings.py's
game_result rows, one per seat, and a rating per player, game and pool), filled in bulk too.

beside two baselines measured in the same run: a bare ``SELECT count(*) FROM game_table`` and
the same queries after the history and ratings indexes are dropped. The median of ``--runs``
runs is printed, in milliseconds. The issue's bar: under 50 ms each with the indexes.

PostgreSQL runs in a throwaway cluster (tests/pg.py, as the tests start theirs); with no
PostgreSQL installed that part is skipped, saying why.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Awaitable, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = ("bids", "coup", "whispers", "mafia", "revolution")
PAGE = 15  # config.toml [history] page_size
# The indexes the history migration adds, as (table, columns): dropped for the baseline.
HISTORY_INDEXES = (("game_table", ("finished_at", "id")), ("game_table", ("game", "finished_at", "id")),
                   ("seat", ("account_id", "ended_at", "table_id")),
                   ("game_result", ("account_id", "game", "season", "side", "role", "won", "with_bots", "seconds")),
                   ("rating", ("season", "game", "pool", "ordinal")))
TOP_PAGE = 20  # config.toml [ratings] top_page
SIDES = {"mafia": ("mafia", "law", "neutral"), "whispers": ("people", "peacekeepers")}


def generate(games: int, accounts: int, seed: int = 18) -> tuple[list[tuple], list[tuple], list[tuple]]:
    """(accounts, tables, seats) rows, ids from 1."""
    rng = random.Random(seed)
    base = datetime(2025, 1, 1, tzinfo=timezone.utc)
    account_rows = [(i, f"Player{i}", f"player{i}", "player", "ru", base) for i in range(1, accounts + 1)]
    # Some play much more than others (a few regulars, many who came once or twice).
    weights = [1.0 / (i ** 0.5) for i in range(1, accounts + 1)]
    tables, seats = [], []
    seat_id = 0
    extra = 2000
    for table_id in range(1, games + extra + 1):
        game = rng.choice(GAMES)
        n = rng.randint(3, 12)
        start = base + timedelta(seconds=table_id * 300 + rng.randint(0, 200))
        end = start + timedelta(seconds=rng.randint(60, 5400))
        if table_id > games:  # not ended: open, running, or closed before the start
            state = rng.choice(("open", "running", "closed"))
            started, finished = (start if state == "running" else None), None
            outcome = None
        else:
            roll = rng.random()
            state = "finished" if roll < 0.97 else "broken" if roll < 0.99 else "closed"
            started, finished = start, end  # a broken or abandoned game too has its end
            outcome = None
        humans = rng.choices(range(1, accounts + 1), weights=weights, k=n)
        seat_rows = []
        used: set[int] = set()
        for number in range(n):
            seat_id += 1
            account = humans[number]
            if number == 0 or (rng.random() > 0.2 and account not in used):
                account = account if account not in used else next(a for a in range(1, accounts + 1) if a not in used)
                used.add(account)
                seat_rows.append((seat_id, table_id, number, account, None, f"Player{account}", finished))
            else:
                seat_rows.append((seat_id, table_id, number, None, "normal", f"Бот-{number}", finished))
        if state == "finished":
            winners = rng.sample(range(n), k=rng.choice((1, 1, 1, 2, 3)))
            outcome = {"winners": [seat_rows[w][5] for w in winners], "winner_seats": winners,
                       "reason": f"{game}.win", "params": {}}
        elif state == "broken":
            outcome = {"broken": {"key": "broken.reason.error", "params": {}}, "detail": "bench", "was": "running"}
        seats += seat_rows
        tables.append((table_id, game, json.dumps({"seats": n}), rng.getrandbits(48), seat_rows[0][5], state, n,
                       json.dumps(outcome) if outcome is not None else None, start - timedelta(seconds=60),
                       started, finished))
    return account_rows, tables, seats


def results_and_ratings(tables: list[tuple], seats: list[tuple], seed: int = 18) -> tuple[list[tuple], list[tuple]]:
    """The game_result rows the finished games leave (one per seat) and the rating rows (per
    player, game and pool) they would have made: the shapes world/ratings.py writes."""
    rng = random.Random(seed)
    by_table: dict[int, list[tuple]] = {}
    for row in seats:
        by_table.setdefault(row[1], []).append(row)
    results, tally = [], {}
    for table_id, game, _opts, _seed, _host, state, n, outcome, _created, started, finished in tables:
        if state != "finished":
            continue
        winners = set(json.loads(outcome)["winner_seats"])
        table_seats = by_table[table_id]
        with_bots = any(r[3] is None for r in table_seats)
        for seat_id, _, number, account, bot, _name, _ended in table_seats:
            side = rng.choice(SIDES[game]) if game in SIDES else None
            won = number in winners
            results.append((len(results) + 1, table_id, number, game, 1, account, bot, side,
                            "citizen" if game == "mafia" else None, 0 if won else 1, won,
                            (finished - started).total_seconds(), with_bots, finished))
            player = f"a:{account}" if account is not None else f"b:{bot}"
            for pool in ("all",) + (() if with_bots else ("humans",)):
                entry = tally.setdefault((game, pool, player), [account, bot, 25.0, 8.333, 0, 0])
                entry[2] += rng.uniform(-1.0, 1.2)
                entry[3] = max(1.0, entry[3] * 0.97)
                entry[4] += 1
                entry[5] += won
    ratings = [(i, 1, game, pool, player, account, bot, mu, sigma, mu - 3 * sigma, played, wins)
               for i, ((game, pool, player), (account, bot, mu, sigma, played, wins)) in enumerate(tally.items(), 1)]
    return results, ratings


def insert_sql(dialect: str) -> dict[str, str]:
    def mark(i: int) -> str:
        return "?" if dialect == "sqlite" else f"${i}"

    def values(n: int) -> str:
        return ", ".join(mark(i) for i in range(1, n + 1))

    return {
        "account": f"INSERT INTO account (id, name, name_key, role, lang, created_at) VALUES ({values(6)})",
        "game_table": ("INSERT INTO game_table (id, game, options, seed, host, state, seats_total, outcome, "
                       f"created_at, started_at, finished_at) VALUES ({values(11)})"),
        "seat": f"INSERT INTO seat (id, table_id, number, account_id, bot_level, name, ended_at) VALUES ({values(7)})",
        "game_result": ("INSERT INTO game_result (id, table_id, seat, game, season, account_id, bot_level, side, role, "
                        f"rank, won, seconds, with_bots, finished_at) VALUES ({values(14)})"),
        "rating": ("INSERT INTO rating (id, season, game, pool, player, account_id, bot_level, mu, sigma, ordinal, "
                   f"games, wins) VALUES ({values(12)})"),
    }


async def fill(dialect: str, rows: tuple[list[tuple], ...]) -> float:
    from tortoise import connections

    conn = connections.get("default")
    sql = insert_sql(dialect)
    started = time.perf_counter()
    for name, data in zip(("account", "game_table", "seat", "game_result", "rating"), rows):
        for at in range(0, len(data), 20000):
            chunk = data[at:at + 20000]
            if dialect == "sqlite":  # datetimes as tortoise writes them to SQLite
                chunk = [tuple(v.isoformat() if isinstance(v, datetime) else v for v in row) for row in chunk]
            await conn.execute_many(sql[name], chunk)
    # PostgreSQL: what autovacuum does on a live server (statistics and the visibility map,
    # which index-only scans need); SQLite: the planner's statistics.
    await conn.execute_script("VACUUM ANALYZE" if dialect == "postgres" else "ANALYZE")
    return time.perf_counter() - started


async def index_names(dialect: str) -> list[tuple[str, str]]:
    """(table, index name) of the history indexes as the migration made them."""
    from tortoise import connections

    conn = connections.get("default")
    out = []
    for table, columns in HISTORY_INDEXES:
        if dialect == "sqlite":
            names = [r["name"] for r in await conn.execute_query_dict(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?", [table])]
            for name in names:
                cols = [r["name"] for r in await conn.execute_query_dict(f'PRAGMA index_info("{name}")')]
                if tuple(cols) == columns:
                    out.append((table, name))
        else:
            for r in await conn.execute_query_dict(
                    "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = $1", [table]):
                inside = r["indexdef"].rsplit("(", 1)[1].rstrip(")")
                if tuple(c.strip().strip('"') for c in inside.split(",")) == columns:
                    out.append((table, r["indexname"]))
    return out


async def timed(run: Callable[[], Awaitable[Any]], runs: int) -> float:
    await run()  # warm: the first run pays the plan and the cache
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        await run()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def queries(busy: int, busy_pages: int) -> dict[str, Callable[[], Awaitable[Any]]]:
    from world import history, ratings

    return {
        "all p1": lambda: history.page_all(1, PAGE),
        "all deep": lambda: history.page_all(5000, PAGE),
        "player p1": lambda: history.page_of_account(busy, 1, PAGE),
        "player last": lambda: history.page_of_account(busy, busy_pages, PAGE),
        "game p1": lambda: history.page_of_game("coup", 1, PAGE),
        "game deep": lambda: history.page_of_game("coup", 1000, PAGE),
        "stats": lambda: ratings.stats_of(busy),
        "stats game": lambda: ratings.stats_of(busy, "coup"),
        "top p1": lambda: ratings.leaderboard("coup", 1, False, 1, TOP_PAGE),
        "top deep": lambda: ratings.leaderboard("coup", 1, False, 50, TOP_PAGE),
        "top humans": lambda: ratings.leaderboard("coup", 1, True, 1, TOP_PAGE),
    }


async def measure(dialect: str, url: str, args: argparse.Namespace) -> dict[str, Any]:
    from tortoise import Tortoise, connections

    from world import db, history
    from world.models import Seat

    await db.init(url)
    try:
        rows = generate(args.games, args.accounts)
        rows = rows + results_and_ratings(rows[1], rows[2])
        fill_seconds = await fill(dialect, rows)
        conn = connections.get("default")
        ended = await history.ended().count()
        busy = 1  # the most regular player
        busy_games = await history.ended().filter(seats__account_id=busy).count()
        busy_pages = max(1, -(-busy_games // PAGE))
        checks = queries(busy, busy_pages)
        page = await history.page_of_account(busy, 1, PAGE)
        assert page.total == busy_games and len(page.items) == PAGE
        assert all(any(s.account_id == busy for s in e.seats) for e in page.items)
        bare = await timed(lambda: conn.execute_query("SELECT count(*) FROM game_table"), args.runs)
        with_indexes = {name: await timed(run, args.runs) for name, run in checks.items()}
        dropped = await index_names(dialect)
        assert len(dropped) == len(HISTORY_INDEXES), f"history indexes found: {dropped}"
        for _, name in dropped:
            await conn.execute_script(f'DROP INDEX "{name}"')
        await conn.execute_script("ANALYZE")
        without = {name: await timed(run, args.runs) for name, run in checks.items()}
        return {"fill": fill_seconds, "ended": ended, "seats": await Seat.all().count(), "busy_games": busy_games,
                "bare": bare, "with": with_indexes, "without": without}
    finally:
        await Tortoise.close_connections()


def report(dialect: str, found: dict[str, Any]) -> None:
    print(f"\n{dialect}: {found['ended']} ended games, {found['seats']} seats (filled in {found['fill']:.1f} s); "
          f"the busy player has {found['busy_games']} games")
    print(f"  baseline: SELECT count(*) FROM game_table   {found['bare']:8.2f} ms")
    print(f"  {'query':<14}{'with indexes':>14}{'without':>12}")
    for name, ms in found["with"].items():
        print(f"  {name:<14}{ms:11.2f} ms{found['without'][name]:9.2f} ms{'' if ms < 50 else '   OVER 50 ms'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--accounts", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--only", choices=("sqlite", "postgres"))
    args = parser.parse_args()
    if args.only != "postgres":
        with tempfile.TemporaryDirectory(prefix="korchma-history-") as folder:
            url = f"sqlite://{folder}/korchma.sqlite3"
            report("SQLite", asyncio.run(measure("sqlite", url, args)))
    if args.only != "sqlite":
        try:
            from tests.pg import running_cluster
        except ImportError as err:
            print(f"\nPostgreSQL: skipped ({err})")
            return
        try:
            clusters = running_cluster()
            cluster = next(clusters)
        except BaseException as err:  # noqa: BLE001 - no PostgreSQL here: say so and stop
            print(f"\nPostgreSQL: skipped ({err})")
            return
        try:
            url = cluster.create_database("history_bench")
            report("PostgreSQL", asyncio.run(measure("postgres", url, args)))
        finally:
            clusters.close()


if __name__ == "__main__":
    main()
