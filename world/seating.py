"""One seating change at a time per table: `join`, `leave`, `bots`, `rematch` and the moment
`start` holds a table still each check the table and then write to the database. Without this,
two players typing `join 3` at the same moment both read the same free seat number and the second
write fails (UNIQUE(table, number)), two could fit into the last seat, or two `rematch`es open two
new tables. A lock per table keeps other tables free: a table whose write is stuck on storage
holds up nobody else (and `start`, the long one, holds its lock only while it marks the table
"starting", after which a `join` is told to try again in a moment).
"""
from __future__ import annotations

import asyncio
import weakref
from typing import Any


class SeatingLock:
    def __init__(self) -> None:
        # A lock lives while someone holds or waits for it (their frames keep it): no table's
        # lock outlives its use.
        self._locks: "weakref.WeakValueDictionary[Any, asyncio.Lock]" = weakref.WeakValueDictionary()

    def of(self, key: Any) -> asyncio.Lock:
        """The lock of one table (its number), or of another seating decision (e.g. a rematch of
        a finished table: ``("rematch", number)``)."""
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock
