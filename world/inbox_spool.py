"""Inbox items that could not be written: kept in order, written when storage works again.

A message for a player who is away (a whisper, table news, a tell) is stored in the inbox and
shown at their next login. When that write fails (a full disk, a database that went away), the
message must neither stop the table that sent it nor vanish: :class:`InboxSpool` holds it in
memory and writes the held items, oldest first, with a backoff (1 s doubling to 30 s) until the
database takes them. ``flush()`` is also called before a login shows the inbox, and at shutdown;
what is still held when the process stops is logged as lost (with the count, never the text).
"""
from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Any

from .db import STORAGE_ERRORS
from .models import InboxItem

log = logging.getLogger("korchma.inbox")

FIRST_RETRY = 1.0
LONGEST_RETRY = 30.0


class InboxSpool:
    def __init__(self) -> None:
        self.held: deque[dict[str, Any]] = deque()
        self._retry: asyncio.Task | None = None
        self._lock = asyncio.Lock()

    def __len__(self) -> int:
        return len(self.held)

    async def store(self, **fields: Any) -> None:
        """Write an inbox item now, or hold it (after any already held: order is kept)."""
        if not self.held:
            try:
                await InboxItem.create(**fields)
                return
            except STORAGE_ERRORS as err:
                log.warning("inbox: could not store a message for account %s (%s); held in memory",
                            fields.get("account_id"), type(err).__name__)
        self.held.append(fields)
        if self._retry is None or self._retry.done():
            self._retry = asyncio.get_running_loop().create_task(self._retry_loop())

    async def flush(self) -> bool:
        """Write what is held, oldest first; True when nothing is held any more."""
        async with self._lock:
            while self.held:
                try:
                    await InboxItem.create(**self.held[0])
                except STORAGE_ERRORS:
                    return False
                self.held.popleft()
            return True

    async def _retry_loop(self) -> None:
        delay = FIRST_RETRY
        while self.held:
            await asyncio.sleep(delay)
            if await self.flush():
                log.info("inbox: held messages stored")
                return
            delay = min(delay * 2, LONGEST_RETRY)

    async def close(self) -> None:
        """At shutdown: a last try, then say how many messages are lost."""
        if self._retry is not None:
            self._retry.cancel()
        if not await self.flush():
            log.error("inbox: %d message(s) could not be stored before shutdown and are lost", len(self.held))
