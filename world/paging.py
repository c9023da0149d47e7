"""A page of a list kept in the database, newest first (the news, the board)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Page(Generic[T]):
    items: list[T]
    number: int  # from 1
    pages: int  # at least 1, even for an empty list
    total: int


async def newest_first(query: Any, number: int, size: int, *related: str) -> Page[Any]:
    """Page ``number`` of ``query``'s rows, ``size`` a page, the highest id first (ids grow with
    time, and never tie as creation times can)."""
    total = await query.count()
    rows = query.order_by("-id").offset((number - 1) * size).limit(size)
    if related:
        rows = rows.select_related(*related)
    return Page(list(await rows), number, max(1, -(-total // size)), total)


__all__ = ["Page", "newest_first"]
