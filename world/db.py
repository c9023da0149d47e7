"""Database start and stop (tortoise-orm). Call init() before the front doors start.

Also what the rest of the world needs to live through storage trouble: :func:`is_storage_failure`
tells "the database cannot do it now" (a full disk, a read-only file, a server that went away:
pause and retry) from "the request is wrong" (a unique key taken, a bad field, a row that is not
there: a bug or a refusal that retrying repeats for ever), and :func:`transaction`, tortoise's
``in_transaction`` made safe for a database that goes away and comes back.
"""
from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
from tortoise import Tortoise, connections
from tortoise.exceptions import DBConnectionError, OperationalError, TransactionManagementError
from tortoise.exceptions import IntegrityError, NoValuesFetched, NotExistOrMultiple
from tortoise.transactions import in_transaction

from . import meters

log = logging.getLogger("korchma.db")

# What the drivers raise: tortoise wraps some of these in its own OperationalError (SQLite: the
# sqlite3 error is its argument; PostgreSQL: its cause) and lets the others through.
_DRIVER_ERRORS: tuple[type[BaseException], ...] = (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError,
                                                    OSError)

# SQLite's primary result codes that mean the storage, not the statement: busy or locked by
# another connection, out of memory, a read-only file, an I/O error, a full disk, a file that
# cannot be opened, a locking protocol error. SQLITE_ERROR (no such table, a bad query),
# SQLITE_CONSTRAINT (a unique key, a foreign key, a trigger's refusal), SQLITE_CORRUPT, ... are
# not: the same statement fails the same way again.
_SQLITE_STORAGE_CODES = frozenset({5, 6, 7, 8, 10, 13, 14, 15})

# PostgreSQL's error classes that mean the server or its storage: a connection lost (08), the
# server shutting down or a statement cancelled (57), out of disk, memory or connections (53),
# an I/O error (58), a read-only transaction, and the conflicts of concurrent transactions
# that the same statement survives when tried again (40: serialization, deadlock; 55P03).
_POSTGRES_STORAGE_ERRORS: tuple[type[BaseException], ...] = (
    asyncpg.PostgresConnectionError, asyncpg.OperatorInterventionError, asyncpg.InsufficientResourcesError,
    asyncpg.PostgresSystemError, asyncpg.ReadOnlySQLTransactionError, asyncpg.TransactionRollbackError,
    asyncpg.LockNotAvailableError)

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
    ("account", "autopass", "VARCHAR(8)"),
    ("ban", "reason", "VARCHAR(200)"),
]


def is_storage_failure(exc: BaseException) -> bool:
    """The database could not do what was asked because of the storage or the connection (disk
    full, read-only, locked, server gone): retrying later may work. False for a request the
    database refuses (a name already taken, a foreign key, a bad field, a row that is not
    there, a bad query) and for anything that is not a database error at all: a bug, which the
    same request repeats."""
    if isinstance(exc, DBConnectionError):
        return True
    if isinstance(exc, (IntegrityError, NotExistOrMultiple, NoValuesFetched)):
        return False
    if isinstance(exc, (OperationalError, TransactionManagementError)):
        inner = _driver_error(exc)
        return inner is not None and _driver_storage_failure(inner)
    return isinstance(exc, _DRIVER_ERRORS) and _driver_storage_failure(exc)


def _driver_error(exc: BaseException) -> BaseException | None:
    """The driver's error that tortoise wrapped, if any (a failure of tortoise's own, such as
    a field it refuses, has none)."""
    for inner in (exc.__cause__, exc.args[0] if exc.args else None, exc.__context__):
        if isinstance(inner, _DRIVER_ERRORS):
            return inner
    return None


def _driver_storage_failure(exc: BaseException) -> bool:
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        if code is None:  # made by the sqlite3 module itself, not by SQLite
            return isinstance(exc, sqlite3.OperationalError)
        return (code & 0xFF) in _SQLITE_STORAGE_CODES
    if isinstance(exc, asyncpg.PostgresError):
        return isinstance(exc, _POSTGRES_STORAGE_ERRORS)
    if isinstance(exc, asyncpg.InterfaceError):  # a connection closed or released under us
        return not isinstance(exc, ValueError)  # but not an argument of the wrong type (DataError)
    return isinstance(exc, OSError)  # refused or reset while the pool reconnects, a timeout


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
    started = time.perf_counter()
    try:
        async with in_transaction() as conn:
            yield conn
    except BaseException:
        meters.time_transaction(time.perf_counter() - started, ok=False)
        if connections.get("default") is not before:
            connections.set("default", before)
        await _rollback_left_open(before)
        raise
    meters.time_transaction(time.perf_counter() - started, ok=True)


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
