"""News admins post (`news post TITLE | TEXT`) and players read (`news`, `news N`).

Read marks are per account and per item (NewsRead): reading an item marks it read, the list
does not. What counts as *unread* for an account (the line at login) is news posted after the
account was made and not read yet: a newcomer is not greeted with every notice of the years
before; they are all in the list, to read any time.
"""
from __future__ import annotations

from dataclasses import dataclass

from tortoise.exceptions import IntegrityError

from .models import Account, NewsItem, NewsRead
from .paging import Page, newest_first

# The longest title, in characters: one line of the list.
TITLE_LIMIT = 80
# Items a page of `news` lists.
PAGE_SIZE = 10


@dataclass(frozen=True)
class Listed:
    item: NewsItem
    unread: bool


async def post(title: str, text: str, by: str) -> NewsItem:
    return await NewsItem.create(title=title, text=text, by=by)


async def delete(number: int) -> NewsItem | None:
    item = await NewsItem.get_or_none(id=number)
    if item is not None:
        await item.delete()
    return item


def _unread_for(account: Account):
    """The query of the news that counts as unread for ``account`` (see the module docstring)."""
    read = NewsRead.filter(account_id=account.id).values_list("item_id", flat=True)
    query = NewsItem.filter(created_at__gt=account.created_at) if account.created_at else NewsItem.all()
    return query, read


async def unread_count(account: Account) -> int:
    query, read = _unread_for(account)
    read_ids = await read
    return await query.exclude(id__in=read_ids).count() if read_ids else await query.count()


async def page(account: Account, number: int, size: int = PAGE_SIZE) -> Page[Listed]:
    """Page ``number`` (from 1) of the news, newest first, each marked unread or not."""
    found = await newest_first(NewsItem.all(), number, size)
    query, read = _unread_for(account)
    shown = [i.id for i in found.items]
    unread = set(await query.filter(id__in=shown).values_list("id", flat=True)) - set(await read) if shown else set()
    return Page([Listed(i, i.id in unread) for i in found.items], number, found.pages, found.total)


async def read(account: Account, number: int) -> NewsItem | None:
    """Item ``number``, marked read by ``account``; None if there is no such item."""
    item = await NewsItem.get_or_none(id=number)
    if item is not None:
        try:
            await NewsRead.get_or_create(account_id=account.id, item_id=item.id)
        except IntegrityError:  # another session of the account marked it at the same moment
            pass
    return item


__all__ = ["TITLE_LIMIT", "PAGE_SIZE", "Listed", "post", "delete", "unread_count", "page", "read"]
