"""Writes tests/data/pre_migrations.sqlite.sql and pre_migrations.postgres.sql: the database of a
server from before schema migrations (commit 9c7e156: generate_schemas + ADDED_COLUMNS), on SQLite
and on PostgreSQL, with a «торги» table stopped mid-game, for tests/test_migrate.py.

    .venv/bin/python tests/data/make_pre_migrations_db.py [--commit 9c7e156]

The old code is taken from git (``git archive``) into a temporary folder and its server runs from
there (its own tests/conftest.py starts it), so nothing of today's schema code takes part. Анна
(telnet) and Борис (telnet), password secret1, play table 1, «торги rounds=3»: round 1 both bid,
round 2 Анна bids; then the server is killed (kill -9) and the database dumped: SQLite with
sqlite3's iterdump, PostgreSQL with ``pg_dump --inserts`` (plain statements, no COPY blocks, so
the test loads it with asyncpg alone) from a throwaway cluster (the old tests/pg.py).
"""
from __future__ import annotations

import argparse
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent

# Run in the old tree (cwd and sys.path[0]): its tests/ helpers start its server.
PLAY = r'''
import asyncio, re, sys
from pathlib import Path
from tests.conftest import ServerProcess, TEST_CONFIG, merge_toml
from tests.telnet_client import log_in

HAND = re.compile(r"ваши карты — ([\d, ]+)\.")

def hand_of(text):
    return [int(x) for x in HAND.search(text).group(1).replace(" ", "").split(",")]

async def play(folder, url):
    data = folder / "data"
    data.mkdir()
    cfg = folder / "test.toml"
    server = f'[server]\ndatabase_url = "{url}"\n' if url else ""
    cfg.write_text(merge_toml(TEST_CONFIG, server + "[games.bids]\nseconds = 600"))
    srv = ServerProcess(data_dir=data, config=cfg).start()
    anna = await log_in(srv.telnet_port, "Анна")
    boris = await log_in(srv.telnet_port, "Борис")
    anna.send_line("открыть торги rounds=3")
    await anna.expect("открываете стол 1")
    boris.send_line("сесть 1")
    await boris.expect("Вы садитесь")
    anna.send_line("начать")
    hand_a = hand_of(await anna.expect(HAND, 10))
    hand_b = hand_of(await boris.expect(HAND, 10))
    anna.send_line(f"ставка {hand_a[0]}")
    await anna.expect(f"ставка {hand_a[0]} принята")
    boris.send_line(f"ставка {hand_b[0]}")
    await anna.expect("Раунд 2 из 3")
    anna.send_line(f"ставка {hand_a[1]}")
    await anna.expect(f"ставка {hand_a[1]} принята")
    srv.kill9()
    return data / "korchma.sqlite3"

folder = Path(sys.argv[1])
if sys.argv[2] == "sqlite":
    print(asyncio.run(play(folder, "")))
else:
    from tests.pg import running_cluster, SUPERUSER
    clusters = running_cluster()
    cluster = next(clusters)
    url = cluster.create_database("korchma")
    asyncio.run(play(folder, url))
    dump = cluster.root / "dump.sql"
    cluster.run("pg_dump", "-h", "127.0.0.1", "-p", str(cluster.port), "-U", SUPERUSER, "--inserts",
                "--no-owner", "--no-privileges", "-f", str(dump), "korchma")
    (folder / "dump.sql").write_text(dump.read_text())
    clusters.close()
    print(folder / "dump.sql")
'''


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--commit", default="9c7e156")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "old"
        old.mkdir()
        archive = subprocess.run(["git", "archive", args.commit], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
        for kind in ("sqlite", "postgres"):
            folder = Path(tmp) / kind
            folder.mkdir()
            done = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(old)!r})\n" + PLAY,
                                   str(folder), kind], cwd=old, check=True, capture_output=True, text=True)
            made = Path(done.stdout.strip().splitlines()[-1])
            header = f"-- Made by tests/data/make_pre_migrations_db.py from commit {args.commit}."
            if kind == "sqlite":
                db = sqlite3.connect(made)
                lines = [header, *db.iterdump()]
                db.close()
            else:  # psql's own commands (\\restrict in newer pg_dump) are not SQL
                lines = [header, *(line for line in made.read_text().splitlines() if not line.startswith("\\"))]
            out = HERE / f"pre_migrations.{kind}.sql"
            out.write_text("\n".join(lines) + "\n", encoding="utf-8")
            print(f"wrote {out} ({len(lines)} lines)")


if __name__ == "__main__":
    main()
