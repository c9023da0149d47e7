"""Writes a real database refuses, for tests of what the server does then.

Two kinds, which the server must tell apart (world/db.py ``is_storage_failure``):

* **storage trouble** (retrying later works): on PostgreSQL a trigger raising the SQLSTATE of
  a full disk, ``pg_refuse(url, "inbox_item")``;
* **a refused request** (retrying repeats it for ever, like a unique key taken or a foreign key):
  on SQLite a trigger that aborts the write (SQLITE_CONSTRAINT), ``sqlite_refuse(path, ...)``;
  on PostgreSQL ``pg_refuse(url, ..., errcode="unique_violation")``.

Each returns the trigger's name; ``sqlite_allow`` / ``pg_allow`` drop it again. A whole full disk
is tests/fsfault.py's ``small_disk``.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg

DISK_FULL = "disk_full"  # SQLSTATE 53100: asyncpg's DiskFullError, storage trouble


def sqlite_refuse(path: Path, table: str, event: str = "INSERT", when: str = "") -> str:
    """SQLite refuses this kind of write (``when``: a trigger's WHEN clause on NEW)."""
    name = f"refuse_{table}"
    db = sqlite3.connect(path, timeout=10)
    try:
        db.execute(f"CREATE TRIGGER {name} BEFORE {event} ON {table} {when} "
                   "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")
        db.commit()
    finally:
        db.close()
    return name


def sqlite_allow(path: Path, name: str) -> None:
    db = sqlite3.connect(path, timeout=10)
    try:
        db.execute(f"DROP TRIGGER {name}")
        db.commit()
    finally:
        db.close()


async def pg_refuse(url: str, table: str, event: str = "INSERT", when: str = "", errcode: str = DISK_FULL) -> str:
    """PostgreSQL fails this kind of write with ``errcode`` (``when``: a WHEN (...) clause)."""
    name = f"refuse_{table}"
    db = await asyncpg.connect(url)
    try:
        await db.execute("CREATE OR REPLACE FUNCTION korchma_test_refuse() RETURNS trigger AS $$ BEGIN "
                         "RAISE EXCEPTION 'refused by the test' USING ERRCODE = TG_ARGV[0]; END $$ LANGUAGE plpgsql")
        await db.execute(f"CREATE TRIGGER {name} BEFORE {event} ON {table} FOR EACH ROW {when} "
                         f"EXECUTE FUNCTION korchma_test_refuse('{errcode}')")
    finally:
        await db.close()
    return name


async def pg_allow(url: str, table: str, name: str) -> None:
    db = await asyncpg.connect(url)
    try:
        await db.execute(f"DROP TRIGGER {name} ON {table}")
    finally:
        await db.close()
