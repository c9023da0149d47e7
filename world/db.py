"""Database start and stop (tortoise-orm). Call init() before the front doors start."""
from __future__ import annotations

from tortoise import Tortoise
from tortoise.exceptions import (DBConnectionError, IntegrityError, NoValuesFetched,
                                 NotExistOrMultiple, OperationalError, TransactionManagementError)

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
    full, read-only, server gone), not because the request was wrong: retrying later may work."""
    if isinstance(exc, (IntegrityError, NotExistOrMultiple, NoValuesFetched)):
        return False
    if isinstance(exc, (OperationalError, DBConnectionError, TransactionManagementError, OSError)):
        return True
    try:  # asyncpg's own errors may reach us untranslated
        from asyncpg import exceptions as pg
    except ImportError:  # pragma: no cover - asyncpg is a dependency
        return False
    return isinstance(exc, (pg.PostgresConnectionError, pg.InterfaceError, pg.OperatorInterventionError,
                            pg.InsufficientResourcesError, pg.ReadOnlySQLTransactionError))


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


async def close() -> None:
    await Tortoise.close_connections()
