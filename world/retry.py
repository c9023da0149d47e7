"""Trying again after storage trouble: one backoff for every retry loop of the world (a paused
table, world/storage_pause.py; held inbox items, world/inbox_spool.py)."""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

FIRST_RETRY = 1.0  # seconds before the first try
LONGEST_RETRY = 30.0  # the wait doubles after each failed try, up to this


async def retry_with_backoff(try_once: Callable[[], Awaitable[bool]]) -> None:
    """Wait, then ``try_once()``; again and again, 1 s, 2 s, 4 s ... every 30 s at most, until it
    returns True (done: it worked, or there is nothing left to do). Cancel the task to stop."""
    delay = FIRST_RETRY
    while True:
        await asyncio.sleep(delay)
        if await try_once():
            return
        delay = min(delay * 2, LONGEST_RETRY)
