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


async def init(url: str, generate: bool = True) -> None:
    await Tortoise.init(db_url=_sqlite_pragmas(url), modules={"models": MODELS})
    if generate:
        await Tortoise.generate_schemas(safe=True)


async def close() -> None:
    await Tortoise.close_connections()
