"""One seating change at a time: `open`, `join`, `leave`, `bots`, `start`, `rematch` and `watch`
each check the tables and then write to the database; without this, two players typing `join 3`
at the same moment both read the same free seat number and the second write fails
(UNIQUE(table, number)), or both fit into the last seat. These operations are rare and short
(one write or a few), so one lock for the whole tavern costs nothing a player could notice.

Re-entrant per task: `rematch` joins a table through `join`, under the same lock.
"""
from __future__ import annotations

import asyncio
import functools
from typing import Any, Awaitable, Callable, TypeVar

T = TypeVar("T")


class SeatingLock:
    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None

    async def run(self, step: Callable[[], Awaitable[T]]) -> T:
        task = asyncio.current_task()
        if task is not None and self._owner is task:  # a seating change inside another
            return await step()
        async with self._lock:
            self._owner = task
            try:
                return await step()
            finally:
                self._owner = None


def seating(method: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    """A TableManager method that changes who sits or watches where: run under its SeatingLock."""
    @functools.wraps(method)
    async def locked(self: Any, *args: Any, **kwargs: Any) -> T:
        return await self.seating.run(lambda: method(self, *args, **kwargs))
    return locked
