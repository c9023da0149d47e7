"""The board (`доска` / `board`): short notes players post and read, with replies.

- Notes and replies are BoardNote rows sharing one numbering; a reply has a ``parent``. The
  list shows notes (not replies) newest first, a page at a time; a note is read with its replies,
  oldest first. Deleting a note deletes its replies.
- Ignoring (world/social.py) hides: a note or reply whose author the reader ignores is left out
  of the reader's list, pages, reply counts and threads, as if it were not there.
- Limits come from the config's ``[board]``: the length of one note or reply, the page size,
  and the flood guard: at most ``posts_per_window`` notes and replies from one account in
  ``post_window`` seconds. The guard counts in memory (a restart forgets it), as the command
  flood guard does.
- A reply reaches the note's author at once if online; one who was away reads at login how many
  replies came to their notes since their last visit.
"""
from __future__ import annotations

import time
from collections import Counter, deque
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterable

from .models import Account, BoardNote
from .paging import Page, newest_first

# The list shows at most this many characters of a note; `board read N` shows the whole of it.
PREVIEW = 70


@dataclass(frozen=True)
class Limits:
    note_length: int
    page_size: int
    posts_per_window: int
    post_window: float

    @classmethod
    def of(cls, section: dict[str, Any]) -> "Limits":
        return cls(int(section["note_length"]), int(section["page_size"]), int(section["posts_per_window"]),
                   float(section["post_window"]))


@dataclass(frozen=True)
class Listed:
    note: BoardNote
    replies: int  # the replies the reader sees


@dataclass(frozen=True)
class Thread:
    note: BoardNote
    replies: list[BoardNote]


def preview(text: str) -> str:
    return text if len(text) <= PREVIEW else text[:PREVIEW - 1].rstrip() + "…"


class FloodGuard:
    """Recent posting times per account (monotonic seconds)."""

    def __init__(self) -> None:
        self._times: dict[int, deque[float]] = {}

    def wait_left(self, account_id: int, limits: Limits, now: float | None = None) -> float:
        """Seconds until ``account_id`` may post again; 0 if it may now."""
        now = time.monotonic() if now is None else now
        times = self._times.get(account_id)
        if times is None:
            return 0.0
        while times and times[0] <= now - limits.post_window:
            times.popleft()
        if not times:
            del self._times[account_id]
            return 0.0
        if len(times) < limits.posts_per_window:
            return 0.0
        return max(0.0, times[-limits.posts_per_window] + limits.post_window - now)

    def posted(self, account_id: int, now: float | None = None) -> None:
        self._times.setdefault(account_id, deque()).append(time.monotonic() if now is None else now)


def _visible(query, ignored: Iterable[int]):
    hidden = list(ignored)
    return query.exclude(author_id__in=hidden) if hidden else query


async def post(author: Account, text: str, parent: BoardNote | None = None) -> BoardNote:
    return await BoardNote.create(author_id=author.id, text=text, parent_id=parent.id if parent else None)


async def page(number: int, size: int, ignored: Iterable[int] = ()) -> Page[Listed]:
    """Page ``number`` (from 1) of the notes the reader sees, newest first."""
    ignored = list(ignored)
    found = await newest_first(_visible(BoardNote.filter(parent_id=None), ignored), number, size, "author")
    shown = [n.id for n in found.items]
    parents = await _visible(BoardNote.filter(parent_id__in=shown), ignored).values_list("parent_id", flat=True) \
        if shown else []
    counts = Counter(parents)
    return Page([Listed(n, counts[n.id]) for n in found.items], number, found.pages, found.total)


async def find(number: int, ignored: Iterable[int] = ()) -> BoardNote | None:
    """Note or reply ``number``, with its author, if the reader sees it (and, for a reply, its note)."""
    ignored = set(ignored)
    note = await BoardNote.get_or_none(id=number).select_related("author", "parent")
    if note is None or note.author_id in ignored:
        return None
    if note.parent is not None and note.parent.author_id in ignored:
        return None
    return note


async def thread(note: BoardNote, ignored: Iterable[int] = ()) -> Thread:
    """The note ``note`` is (or replies to), with the replies the reader sees, oldest first."""
    top = note.parent if note.parent_id is not None else note
    if top is not note:
        await top.fetch_related("author")
    replies = await _visible(BoardNote.filter(parent_id=top.id), ignored).order_by("id").select_related("author")
    return Thread(top, list(replies))


async def replies_since(account_id: int, since: datetime | None, ignored: Iterable[int] = ()) -> int:
    """Replies others posted to ``account_id``'s notes after ``since`` (its last visit) that it
    sees; 0 without a last visit."""
    if since is None:
        return 0
    query = BoardNote.filter(parent__author_id=account_id, created_at__gt=since).exclude(author_id=account_id)
    return await _visible(query, ignored).count()


async def delete(note: BoardNote) -> int:
    """Delete a note (with its replies) or a reply; how many replies went with it."""
    replies = await BoardNote.filter(parent_id=note.id).count()
    await note.delete()
    return replies


__all__ = ["PREVIEW", "Limits", "Listed", "Thread", "preview", "FloodGuard", "post", "page", "find",
           "thread", "replies_since", "delete"]
