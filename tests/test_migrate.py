"""Schema migrations (world/schema.py, world/migrations/): a database made before them, by
generate_schemas and the ADDED_COLUMNS list of commit 9c7e156 (tests/data/make_pre_migrations_db.py
made the fixtures from that commit's own server), is adopted by `korchma migrate`, and a server on it
resumes its running table, which then finishes. `korchma migrate` says in one line what it did."""
from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import asyncpg

from tests.conftest import ROOT
from tests.pg import pg_cluster, pg_database  # noqa: F401  (fixtures)
from tests.ssh_client import connect
from tests.telnet_client import log_in

DATA = Path(__file__).parent / "data"
# Every migration in the repository, in order (a new one joins these lines by itself).
MIGRATIONS = sorted(p.stem for p in (Path(__file__).parents[1] / "world" / "migrations").glob("[0-9]*.py"))
APPLIED = "database schema migrated: applied " + ", ".join(MIGRATIONS)
ADOPTED = ("database schema migrated: applied 0001_initial (recorded: the tables of an earlier version were "
           "there), " + ", ".join(MIGRATIONS[1:]))
NOTHING = "database schema is current: no migrations pending"
# The columns the old server added at start (ADDED_COLUMNS), which 0002 adds where they are missing.
ADDED = {"game_table": {"paused_seconds", "master", "previous"}, "account": {"autopass"}}
HAND = re.compile(r"Ваши карты: ([\d, ]+)")
BIDS = "[games.bids]\nseconds = 600"


def korchma(*args: str) -> str:
    """Run a korchma subcommand to its end; its one line of output (and exit 0)."""
    done = subprocess.run([sys.executable, "-m", "server", *args, "--config", str(ROOT / "config.toml")],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 1, done.stdout
    return done.stdout.strip()


def deadline_ahead() -> str:
    # The fixture was made long ago; the wait it was in had not run out when its server stopped.
    return str(datetime.now(timezone.utc) + timedelta(minutes=10))


def load_sqlite(data: Path, drop: tuple[tuple[str, str], ...] = ()) -> Path:
    """The pre-migration SQLite database in ``data``, less the columns in ``drop`` (an older
    version's database, made before they were added)."""
    data.mkdir()
    path = data / "korchma.sqlite3"
    db = sqlite3.connect(path)
    db.executescript((DATA / "pre_migrations.sqlite.sql").read_text(encoding="utf-8"))
    db.execute("UPDATE game_table SET deadline_at = ? WHERE state = 'running'", [deadline_ahead()])
    for table, column in drop:
        db.execute(f'ALTER TABLE "{table}" DROP COLUMN "{column}"')
    db.commit()
    db.close()
    return path


def sqlite_contents(path: Path) -> dict[str, list[tuple]]:
    db = sqlite3.connect(path)
    try:
        return {table: db.execute(f'SELECT * FROM "{table}" ORDER BY id').fetchall()
                for table in ("account", "game_table", "seat", "action_log")}
    finally:
        db.close()


def columns(path: Path, table: str) -> set[str]:
    db = sqlite3.connect(path)
    try:
        return {row[1] for row in db.execute(f'PRAGMA table_info("{table}")')}
    finally:
        db.close()


async def resume_and_finish(srv, anna_bid: int) -> None:
    """Анна (telnet) and Борис (SSH) come back to table 1 of the fixture, round 2 of 3, with
    Анна's bid made; Борис bids, round 3 is played, and the game ends for both."""
    anna = await log_in(srv.telnet_port, "Анна", create=False)
    await anna.expect("Вы снова за столом 1")
    await anna.expect(f"Ваша тайная ставка: {anna_bid}")  # the logged action survived
    boris = await connect(srv.ssh_port, "Борис", password="secret1")
    await boris.expect("Вы снова за столом 1")
    boris.send_line("рука")
    hand_b = [int(x) for x in (HAND.search(await boris.expect(HAND))).group(1).replace(" ", "").split(",")]
    boris.send_line(f"ставка {hand_b[0]}")
    await anna.expect("Раунд 3 из 3")
    anna.send_line("рука")
    hand_a = [int(x) for x in (HAND.search(await anna.expect(HAND))).group(1).replace(" ", "").split(",")]
    anna.send_line(f"ставка {hand_a[0]}")
    await anna.expect(f"ставка {hand_a[0]} принята")
    boris.send_line(f"ставка {hand_b[1]}")
    await anna.expect("Игра за столом 1 окончена", timeout=10)
    await boris.expect("Игра за столом 1 окончена", timeout=10)
    await anna.close()
    await boris.close()


async def test_pre_migration_sqlite_database_is_adopted_and_its_table_finishes(server_factory, tmp_path):
    data = tmp_path / "data"
    path = load_sqlite(data)
    before = sqlite_contents(path)
    anna_bid = before["action_log"][-1][3]
    assert korchma("migrate", "--data-dir", str(data)) == ADOPTED
    assert korchma("migrate", "--data-dir", str(data)) == NOTHING  # and again: nothing to do
    # Not a row lost or changed (a column a later migration added comes after the old ones).
    after = {table: [row[:len(rows[0])] for row in after_rows] if rows else after_rows
             for (table, rows), after_rows in zip(before.items(), sqlite_contents(path).values())}
    assert after == before
    srv = server_factory(BIDS, data_dir=data)
    await resume_and_finish(srv, int(re.search(r'"card":\s*(\d+)', anna_bid).group(1)))
    assert NOTHING in srv.log_path.read_text()  # serve looked, and found nothing pending


def test_older_sqlite_databases_get_the_columns_they_lack(tmp_path):
    # The first release's database, with none of the added columns, gets them all and keeps its
    # rows (one with some of them is adopted in the PostgreSQL test and the same-tables test).
    data = tmp_path / "data"
    path = load_sqlite(data, (("game_table", "paused_seconds"), ("game_table", "master"),
                              ("game_table", "previous"), ("account", "autopass")))
    before = sqlite_contents(path)
    assert korchma("migrate", "--data-dir", str(data)) == ADOPTED
    for table, added in ADDED.items():
        assert added <= columns(path, table)
    after = sqlite_contents(path)
    assert {table: len(rows) for table, rows in after.items()} == {t: len(r) for t, r in before.items()}
    assert [row[:len(before["account"][0])] for row in after["account"]] == before["account"]
    assert [row[:len(before["game_table"][0])] for row in after["game_table"]] == before["game_table"]


def test_a_new_database_is_made_by_the_migrations(tmp_path):
    data = tmp_path / "data"
    assert korchma("migrate", "--data-dir", str(data)) == APPLIED
    for table, added in ADDED.items():
        assert added <= columns(data / "korchma.sqlite3", table)
    assert korchma("migrate", "--data-dir", str(data)) == NOTHING


async def test_the_migrations_match_the_models():
    # What `make migration` compares: a model change without its migration file fails here.
    from tortoise import Tortoise
    from tortoise.migrations.autodetector import MigrationAutodetector

    from world import schema

    await Tortoise.init(config=schema.TORTOISE_ORM)
    try:
        changes = await MigrationAutodetector(Tortoise.apps, schema.APPS).changes()
    finally:
        await Tortoise.close_connections()
    assert [op.describe() for writer in changes for op in writer.operations] == []


def sqlite_schema(path: Path) -> dict[str, tuple]:
    """Each table's columns, indexes and foreign keys, in an order-free form (an added column
    sits last in an old table, where the initial migration has it in its place)."""
    db = sqlite3.connect(path)
    try:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name "
                                               "NOT IN ('sqlite_sequence', 'tortoise_migrations')")]
        shape = {}
        for table in tables:
            cols = frozenset(row[1:] for row in db.execute(f'PRAGMA table_info("{table}")'))
            indexes = frozenset((row[2], tuple(info[2] for info in db.execute(f'PRAGMA index_info("{row[1]}")')))
                                for row in db.execute(f'PRAGMA index_list("{table}")'))
            keys = frozenset(row[2:] for row in db.execute(f'PRAGMA foreign_key_list("{table}")'))
            shape[table] = (cols, indexes, keys)
        return shape
    finally:
        db.close()


async def test_every_way_to_the_schema_makes_the_same_tables(tmp_path):
    # A new database is made from the models in one go (world/schema.py); the migrations run one
    # by one, and an adopted old database, must come to the same tables.
    from tortoise import Tortoise
    from tortoise.migrations.executor import MigrationExecutor

    from world import db, schema

    async def made(path: Path, one_by_one: bool) -> dict[str, tuple]:
        await db.init(f"sqlite://{path}", migrate=False)
        try:
            if one_by_one:
                await MigrationExecutor(Tortoise.get_connection("default"), schema.APPS).migrate()
            else:
                await schema.migrate()
        finally:
            await db.close()
        return sqlite_schema(path)

    at_once = await made(tmp_path / "new.sqlite3", one_by_one=False)
    assert set(at_once) == {"account", "ssh_key", "inbox_item", "ban", "game_table", "seat", "action_log",
                            "login_record", "password_reset", "alias", "account_ignore",
                            "server_setting", "news_item", "news_read", "board_note", "channel_mute",
                            "season", "game_result", "rating"}
    assert await made(tmp_path / "steps.sqlite3", one_by_one=True) == at_once
    assert await made(load_sqlite(tmp_path / "old", (("account", "autopass"),)), one_by_one=False) == at_once


async def test_a_database_a_newer_version_migrated_is_said_so(tmp_path, caplog):
    # Korchma rolled back to an older version: it runs on (new columns are nullable), and warns.
    from world import db

    path = tmp_path / "k.sqlite3"
    assert await db.init(f"sqlite://{path}") == MIGRATIONS
    await db.close()
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO tortoise_migrations (app, name, applied_at) VALUES ('models', '0099_future', ?)",
                     [str(datetime.now(timezone.utc))])
    conn.close()
    caplog.set_level("WARNING", logger="korchma.db")
    assert await db.init(f"sqlite://{path}") == []
    await db.close()
    assert [r.getMessage() for r in caplog.records if r.name == "korchma.db"] == [
        "the database has migrations this version does not know (0099_future): it was upgraded by a newer Korchma"]


async def test_pre_migration_postgres_database_is_adopted_and_its_table_finishes(server_factory, pg_database,
                                                                                tmp_path):
    conn = await asyncpg.connect(pg_database)
    try:
        await conn.execute((DATA / "pre_migrations.postgres.sql").read_text(encoding="utf-8"))
        await conn.execute("SET search_path = public")
        # An older version's database: made before the autopass column.
        await conn.execute("ALTER TABLE account DROP COLUMN autopass")
        await conn.execute("UPDATE game_table SET deadline_at = $1 WHERE state = 'running'",
                           datetime.now(timezone.utc) + timedelta(minutes=10))
        anna_bid = await conn.fetchval("SELECT action->>'card' FROM action_log ORDER BY step DESC LIMIT 1")
        rows_before = await conn.fetchval("SELECT count(*) FROM action_log")
    finally:
        await conn.close()
    # Here `serve` adopts it at start, and logs which migrations it applied.
    srv = server_factory(f'[server]\ndatabase_url = "{pg_database}"\n{BIDS}', data_dir=tmp_path / "data")
    assert ADOPTED in srv.log_path.read_text()
    await resume_and_finish(srv, int(anna_bid))
    assert korchma("migrate", "--database-url", pg_database) == NOTHING
    conn = await asyncpg.connect(pg_database)
    try:
        assert await conn.fetchval("SELECT state FROM game_table WHERE id = 1") == "finished"
        assert await conn.fetchval("SELECT count(*) FROM action_log") == rows_before + 3
        assert await conn.fetchval("SELECT count(*) FROM account WHERE autopass IS NULL") == 2
    finally:
        await conn.close()


def test_the_history_migration_dates_the_games_that_ended_before_it(tmp_path):
    """0012_history (issue 18): a table broken before broken tables had an end time gets one
    (its start), and the seats of every game that ended get their table's end (Seat.ended_at),
    so `history` and `history NAME` list the games an older database already has."""
    data = tmp_path / "data"
    path = load_sqlite(data)
    db = sqlite3.connect(path)
    start, end = "2026-11-30 10:00:00+00:00", "2026-11-30 10:20:00+00:00"
    for number, state, finished in ((2, "finished", end), (3, "broken", None), (4, "closed", None)):
        db.execute("INSERT INTO game_table (id, game, options, seed, host, state, seats_total, created_at, "
                   "started_at, finished_at, outcome) VALUES (?, 'bids', '{}', 1, 'Анна', ?, 2, ?, ?, ?, '{}')",
                   [number, state, start, start if state != "closed" else None, finished])
        db.execute("INSERT INTO seat (table_id, number, account_id, name) SELECT ?, 0, id, name FROM account "
                   "ORDER BY id LIMIT 1", [number])
    db.commit()
    db.close()
    assert korchma("migrate", "--data-dir", str(data)) == ADOPTED
    db = sqlite3.connect(path)
    try:
        tables = dict(db.execute("SELECT id, finished_at FROM game_table WHERE id > 1").fetchall())
        seats = dict(db.execute("SELECT table_id, ended_at FROM seat WHERE table_id > 1").fetchall())
        running = db.execute("SELECT ended_at FROM seat WHERE table_id = 1").fetchall()
    finally:
        db.close()
    assert tables == {2: end, 3: start, 4: None}
    assert seats == tables
    assert running and all(ended is None for (ended,) in running)
