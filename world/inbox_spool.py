"""Inbox items that could not be written: kept in order, written when storage works again.

A message for a player who is away (a whisper, table news, a tell) is stored in the inbox and
shown at their next login. When that write fails for storage trouble (a full disk, a database
that went away), the message must neither stop the table that sent it nor vanish:
:class:`InboxSpool` holds it in memory and writes the held items, oldest first, with the world's
backoff (world/retry.py) until the database takes them. ``flush()`` is also called before a login
shows the inbox, and at shutdown; what is still held when the process stops is logged as lost
(with the count, never the text).

An item the database refuses for any other reason (a bug: a foreign key, a field it rejects)
would be refused again at every try: it is logged with its traceback and dropped, so that it
never holds the items after it.
"""
from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Any

from .db import is_storage_failure
from .models import InboxItem
from .retry import retry_with_backoff

log = logging.getLogger("korchma.inbox")


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
            except Exception as err:
                if not is_storage_failure(err):
                    _drop(fields, err)
                    return
                log.warning("inbox: could not store a message for account %s (%s); held in memory",
                            fields.get("account_id"), type(err).__name__)
        self.held.append(fields)
        if self._retry is None or self._retry.done():
            self._retry = asyncio.get_running_loop().create_task(retry_with_backoff(self._try_to_flush))

    async def flush(self) -> bool:
        """Write what is held, oldest first; True when nothing is held any more."""
        async with self._lock:
            while self.held:
                try:
                    await InboxItem.create(**self.held[0])
                except Exception as err:
                    if is_storage_failure(err):
                        return False
                    _drop(self.held[0], err)
                self.held.popleft()
            return True

    async def _try_to_flush(self) -> bool:
        if await self.flush():
            log.info("inbox: held messages stored")
            return True
        return False

    async def close(self) -> None:
        """At shutdown: a last try, then say how many messages are lost."""
        if self._retry is not None:
            self._retry.cancel()
        if not await self.flush():
            log.error("inbox: %d message(s) could not be stored before shutdown and are lost", len(self.held))


def _drop(fields: dict[str, Any], err: BaseException) -> None:
    # The message's key, never its parameters (a whisper's text).
    log.error("inbox: the database refused message %s for account %s; it is dropped",
              fields.get("key"), fields.get("account_id"), exc_info=err)
