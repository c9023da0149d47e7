"""Database start and stop (tortoise-orm). Call init() before the front doors start."""
from __future__ import annotations

from tortoise import Tortoise

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
