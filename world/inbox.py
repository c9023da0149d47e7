"""The inbox in folders: personal tells apart from the tables' news, read a page at a time,
cleared, and kept for a number of days (``[inbox] retention_days``), not a count.

- Tells (kind ``tell``) are the player's mail: listed unread first, each group newest first.
  A Mafia game's hundred lines never push one out (nothing here is trimmed by number).
- News (kinds ``game`` and ``system``: a table's events, whispers to one's seat, a bot taking
  a seat over) are grouped by table; a folder reads as a log, in time order, page 1 being
  the newest page.
- "Unread" is the ``delivered`` flag: never put on the player's screen (not live, not at a
  login, not on a page of `inbox`). Showing an item marks it read.
- Every query names the account: a player only ever reads, counts or clears their own items.
- When one group (the tells, or one table's news) waiting since the player left holds more than
  ``[inbox] login_lines`` items, the login (and `join` back at the table) says how many and where
  to read them instead of printing them all; they stay unread.
"""
from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from tortoise.functions import Count

from . import accounts
from .best_effort import best_effort
from .clock import as_utc
from .messages import Msg, msg
from .models import GameTable, InboxItem

log = logging.getLogger("korchma.inbox")

PAGE = 20  # items on one page of a folder
TELL = "tell"
PURGE_EVERY = 3600.0  # seconds between sweeps of expired items (also at start and at each login)


def stamp(when: datetime) -> str:
    """An item's time with its zone, as ban expiries are written: «01.12 14:05 UTC» (the
    database keeps UTC; a naive value is UTC)."""
    return as_utc(when).strftime("%d.%m %H:%M UTC")


@dataclass
class Page:
    items: list[InboxItem]
    number: int  # 1-based
    pages: int
    total: int


def pages_of(total: int) -> int:
    return max(1, -(-total // PAGE))


async def tells_page(account_id: int, number: int) -> Page:
    """Page ``number`` of the account's tells: the unread ones first, each group newest first."""
    query = InboxItem.filter(account_id=account_id, kind=TELL)
    total = await query.count()
    items = await query.order_by("delivered", "-id").offset((number - 1) * PAGE).limit(PAGE)
    return Page(list(items), number, pages_of(total), total)


async def news_page(account_id: int, number: int, table_id: int | None = None) -> Page:
    """Page ``number`` of the account's news (of one table, or all), counted from the newest
    page back, each page in time order (a log reads top to bottom)."""
    query = InboxItem.filter(account_id=account_id).exclude(kind=TELL)
    if table_id is not None:
        query = query.filter(table_id=table_id)
    total = await query.count()
    items = await query.order_by("-id").offset((number - 1) * PAGE).limit(PAGE)
    return Page(list(reversed(items)), number, pages_of(total), total)


async def mark_read(account_id: int, items: list[InboxItem]) -> None:
    unread = [i.id for i in items if not i.delivered]
    if unread:
        with best_effort("the inbox of account %s as read", account_id):
            await InboxItem.filter(account_id=account_id, id__in=unread).update(delivered=True)


@dataclass
class Folder:
    table_id: int | None  # None: news of no table (a notice of the server's)
    game: str | None  # the table's game, if the table is known
    total: int
    unread: int


async def news_folders(account_id: int) -> list[Folder]:
    """The account's news by table, the latest table first, with totals and unread counts."""
    rows = await (InboxItem.filter(account_id=account_id).exclude(kind=TELL)
                  .annotate(n=Count("id")).group_by("table_id", "delivered")
                  .values("table_id", "delivered", "n"))
    folders: dict[int | None, Folder] = {}
    for row in rows:
        folder = folders.setdefault(row["table_id"], Folder(row["table_id"], None, 0, 0))
        folder.total += row["n"]
        if not row["delivered"]:
            folder.unread += row["n"]
    known = [t for t in folders if t is not None]
    for row in await GameTable.filter(id__in=known).values("id", "game"):
        folders[row["id"]].game = row["game"]
    return sorted(folders.values(), key=lambda f: -1 if f.table_id is None else f.table_id, reverse=True)


def folder_line(folder: Folder) -> Msg:
    """«Стол 3 (Мафия): 41 новое из 57 — почта стол 3», or the news of no table."""
    if folder.table_id is None:
        return msg("inbox.folder_other", n=folder.total, unread=folder.unread)
    game = msg(f"game.{folder.game}") if folder.game else msg("inbox.game_unknown")
    key = "inbox.folder_unread" if folder.unread else "inbox.folder_read"
    return msg(key, number=folder.table_id, game=game, n=folder.total, unread=folder.unread)


async def clear(account_id: int, table_id: int | None = None) -> tuple[int, int]:
    """`inbox clear`: the account's news (of one table, or all, read or not: news is a notice to
    dismiss) and, for all, its tells already read; an unread tell is never dropped unseen.
    Returns (news removed, tells removed)."""
    news = InboxItem.filter(account_id=account_id).exclude(kind=TELL)
    if table_id is not None:
        return await news.filter(table_id=table_id).delete(), 0
    return (await news.delete(),
            await InboxItem.filter(account_id=account_id, kind=TELL, delivered=True).delete())


async def purge(days: float, account_id: int | None = None) -> int:
    """Drop items older than ``days`` (of one account, or everyone's). Returns how many."""
    query = InboxItem.filter(created_at__lt=accounts.now() - timedelta(days=days))
    if account_id is not None:
        query = query.filter(account_id=account_id)
    return await query.delete()


async def purge_loop(days: float, every: float = PURGE_EVERY) -> None:
    """Sweep expired items now and then every ``every`` seconds, for accounts that never log in
    again (a login sweeps its own account's first: world/inbox.py ``waiting_at_login``)."""
    while True:
        with best_effort("the sweep of expired inbox items"):
            dropped = await purge(days)
            if dropped:
                log.info("inbox: %d item(s) older than %s days removed", dropped, days)
        await asyncio.sleep(every)


def config_of(world: Any) -> tuple[float, int]:
    section = world.config.section("inbox")
    return float(section["retention_days"]), int(section["login_lines"])


async def waiting(world: Any, account_id: int, table_id: int | None = None, tells: bool = True) -> list[Msg]:
    """What waited for the player (since they left), as lines to show: each group (the tells,
    each table's news) in full and marked read when it holds at most ``login_lines`` items, else
    one line saying how many and where to read them (left unread). ``table_id``: that table's
    news only (back at the table with `join`)."""
    await world.inbox_spool.flush()  # any held while storage was failing come first
    _, limit = config_of(world)
    query = InboxItem.filter(account_id=account_id, delivered=False)
    if table_id is not None:
        query = query.filter(table_id=table_id).exclude(kind=TELL)
    elif not tells:
        query = query.exclude(kind=TELL)
    items = await query.order_by("id")
    groups: dict[Any, list[InboxItem]] = {}
    for item in items:
        groups.setdefault(TELL if item.kind == TELL else item.table_id, []).append(item)
    shown: list[InboxItem] = []
    summaries: list[Msg] = []
    games = {row["id"]: row["game"] for row in
             await GameTable.filter(id__in=[g for g in groups if isinstance(g, int)]).values("id", "game")}
    for group, members in groups.items():
        if len(members) <= limit:
            shown.extend(members)
        elif group == TELL:
            summaries.append(msg("inbox.waiting_tells", n=len(members)))
        else:
            summaries.append(folder_line(Folder(group, games.get(group), len(members), len(members))))
    shown.sort(key=lambda i: i.id)
    out = [msg("inbox.missed_header", n=len(shown))] if shown else []
    out += [msg(item.key, **item.params) for item in shown]
    if summaries:
        out.append(msg("inbox.waiting_header"))
        out += summaries
    # Not stored: they are shown once more next time, which beats not letting in.
    await mark_read(account_id, shown)
    return out


async def at_login(world: Any, account_id: int) -> list[Msg]:
    """The login's lines: the account's expired items dropped first (so a returning player never
    reads one past the retention, whatever the sweep's hour), then what waited."""
    days, _ = config_of(world)
    with best_effort("the expired inbox items of account %s", account_id):
        await purge(days, account_id)
    return await waiting(world, account_id)


__all__ = ["PAGE", "Page", "Folder", "stamp", "tells_page", "news_page", "mark_read", "news_folders",
           "folder_line", "clear", "purge", "purge_loop", "waiting", "at_login"]
