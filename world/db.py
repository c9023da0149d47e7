"""Database start and stop (tortoise-orm). Call init() before the front doors start.

Also what the rest of the world needs to live through storage trouble: which exceptions mean
"the database cannot be written now" (:data:`STORAGE_ERRORS`), and :func:`transaction`, tortoise's
``in_transaction`` made safe for a database that goes away and comes back.
"""
from __future__ import annotations

import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
from tortoise import Tortoise, connections
from tortoise.exceptions import BaseORMException, IntegrityError, NoValuesFetched, NotExistOrMultiple
from tortoise.transactions import in_transaction

log = logging.getLogger("korchma.db")

# A full disk or a read-only file (sqlite3.OperationalError, raw from a failed COMMIT, or
# tortoise's OperationalError), a PostgreSQL server that went away (asyncpg's connection errors,
# or ConnectionRefusedError while the pool reconnects): the write did not happen.
STORAGE_ERRORS: tuple[type[BaseException], ...] = (
    BaseORMException, sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError, OSError)

MODELS = ["world.models"]


def _sqlite_pragmas(url: str) -> str:
    # WAL keeps readers and the writer apart; synchronous=FULL makes a commit survive kill -9
    # (and power loss), which is the promise the runner makes before it speaks.
    if url.startswith("sqlite://") and "?" not in url:
        return url + "?journal_mode=WAL&synchronous=FULL"
    return url


# Columns added after the first release. generate_schemas(safe=True) creates missing tables but
# never touches existing ones, so a database made by an older version gets these added here
# (nullable, so old rows stay valid). Append, never edit: (table, column, SQL type).
ADDED_COLUMNS = [
    ("game_table", "paused_seconds", "DOUBLE PRECISION"),
    ("game_table", "master", "VARCHAR(32)"),
    ("game_table", "previous", "INTEGER"),
]


def is_storage_failure(exc: BaseException) -> bool:
    """The database could not do what was asked because of the storage or the connection (disk
    full, read-only, server gone), not because the request was wrong (a name already taken, a row
    that is not there, a bad query): retrying later may work."""
    if not isinstance(exc, STORAGE_ERRORS):
        return False
    if isinstance(exc, (IntegrityError, NotExistOrMultiple, NoValuesFetched)):
        return False
    if isinstance(exc, asyncpg.PostgresError):  # asyncpg's own errors may reach us untranslated
        return isinstance(exc, (asyncpg.PostgresConnectionError, asyncpg.OperatorInterventionError,
                                asyncpg.InsufficientResourcesError, asyncpg.ReadOnlySQLTransactionError))
    return True


async def init(url: str, generate: bool = True) -> None:
    await Tortoise.init(db_url=_sqlite_pragmas(url), modules={"models": MODELS})
    if generate:
        await Tortoise.generate_schemas(safe=True)
        await add_missing_columns()


async def add_missing_columns() -> None:
    conn = Tortoise.get_connection("default")
    sqlite = conn.capabilities.dialect == "sqlite"
    for table, column, sql_type in ADDED_COLUMNS:
        if sqlite:
            _, rows = await conn.execute_query(f'PRAGMA table_info("{table}")')
            present = {row["name"] for row in rows}
        else:
            _, rows = await conn.execute_query(
                "SELECT column_name FROM information_schema.columns WHERE table_name = $1", [table])
            present = {row["column_name"] for row in rows}
        if column not in present:
            await conn.execute_script(f'ALTER TABLE "{table}" ADD COLUMN "{column}" {sql_type} NULL')


@asynccontextmanager
async def transaction() -> AsyncIterator[Any]:
    """``in_transaction()``, and after a failure the connection is left as it was before.

    tortoise-orm 1.1.9 sets the task's connection to the transaction before it sends BEGIN; when
    BEGIN fails (a PostgreSQL server that was stopped: the pooled connection is dead) it never
    sets it back, so every later query of that task (a player's whole session) goes to the dead
    transaction ("connection has been released back to the pool") even after the server is back.
    SQLite rolls a transaction back itself when COMMIT fails with SQLITE_FULL; should one still be
    open after a failure, it is rolled back here, or the next statement would join it and a later
    COMMIT write what was refused."""
    before = connections.get("default")
    try:
        async with in_transaction() as conn:
            yield conn
    except BaseException:
        if connections.get("default") is not before:
            connections.set("default", before)
        await _rollback_left_open(before)
        raise


async def _rollback_left_open(client: Any) -> None:
    if getattr(client, "capabilities", None) is None or client.capabilities.dialect != "sqlite":
        return
    async with client._lock:  # the SQLite client's one connection: no other transaction runs now
        raw = client._connection
        if raw is not None and raw.in_transaction:
            log.warning("a failed SQLite transaction was still open: rolled back")
            try:
                await raw.rollback()
            except sqlite3.Error:
                log.exception("rolling back a failed SQLite transaction")


async def close() -> None:
    await Tortoise.close_connections()
