"""The server's clock: timezone-aware UTC datetimes, for the table runner and what works with it
(world/storage_pause.py), so that none of them imports another just to tell the time."""
from __future__ import annotations

from datetime import datetime, timezone

UTC = timezone.utc


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """``moment`` in UTC: the database keeps UTC, and a naive value (SQLite's) is UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def utc_minute(moment: datetime) -> str:
    """A moment to the minute, with its zone: «2026-12-01 14:05 UTC»."""
    return as_utc(moment).strftime("%Y-%m-%d %H:%M UTC")
