#!/usr/bin/env python3
"""What schema migrations cost a server start, beside the way before them.

    .venv/bin/python bench/migrate_bench.py [--runs 10]

Each run is a child process of its own (imports count: a server start pays them once), on a fresh
SQLite file in a temporary folder, and prints its CPU time (user + system, time.process_time)
for one of:
  baseline   Tortoise.init + generate_schemas(safe=True) + the four column checks, without
             importing tortoise's migrations: the start before migrations, on a new database
             (what every test server did)
  new db     db.init: Tortoise.init + world.schema.migrate, which makes a new database from the
             models and records every migration (what every test server does now)
  one by one the same database made by running every migration's operations (tortoise's
             executor alone): why world.schema does not, for a new database
  current    db.init on a database already migrated: the plan finds nothing pending (every
             later start of a real server)
The medians are printed side by side, in milliseconds.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r'''
import asyncio, sys, time
start = time.process_time()
from tortoise import Tortoise

async def main(mode, url):
    if mode == "baseline":
        import asyncpg, sqlite3  # what world/db.py imported before migrations
        await Tortoise.init(db_url=url, modules={"models": ["world.models"]})
        await Tortoise.generate_schemas(safe=True)
        conn = Tortoise.get_connection("default")
        for table in ("game_table", "game_table", "game_table", "account"):  # the old column checks
            await conn.execute_query(f'PRAGMA table_info("{table}")')
    elif mode == "one by one":
        from tortoise.migrations.executor import MigrationExecutor
        from world import db, schema
        await db.init(url, migrate=False)
        await MigrationExecutor(Tortoise.get_connection("default"), schema.APPS).migrate()
    else:
        from world import db
        await db.init(url)
    await Tortoise.close_connections()

asyncio.run(main(sys.argv[1], sys.argv[2]))
print(time.process_time() - start)
'''


def run(mode: str, url: str) -> float:
    done = subprocess.run([sys.executable, "-c", CHILD, mode, url], cwd=ROOT, check=True,
                          capture_output=True, text=True)
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    figures: dict[str, list[float]] = {"baseline": [], "new db": [], "one by one": [], "current": []}
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.runs):
            figures["baseline"].append(run("baseline", f"sqlite://{tmp}/old{n}.sqlite3"))
            url = f"sqlite://{tmp}/new{n}.sqlite3"
            figures["new db"].append(run("migrate", url))
            figures["current"].append(run("migrate", url))
            figures["one by one"].append(run("one by one", f"sqlite://{tmp}/steps{n}.sqlite3"))
    print(f"CPU of opening the database at start, median of {args.runs} processes (ms):")
    for mode, values in figures.items():
        print(f"  {mode:10} {statistics.median(values) * 1000:7.1f}   (min {min(values) * 1000:.1f})")


if __name__ == "__main__":
    main()
