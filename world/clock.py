"""The server's clock: timezone-aware UTC datetimes, for the table runner and what works with it
(world/storage_pause.py), so that none of them imports another just to tell the time."""
from __future__ import annotations

from datetime import datetime, timezone

UTC = timezone.utc


def utcnow() -> datetime:
    return datetime.now(UTC)
