"""`inbox` / `почта` / `пошта`: personal tells first, then the tables' news summed up by table;
`inbox N` (a page of tells), `inbox news [N]`, `inbox table T [N]`, `inbox clear [table T]`.
The folders and their rules live in world/inbox.py."""
from __future__ import annotations

from dataclasses import dataclass

from world import inbox as box
from world.messages import msg

from .base import CommandError, Ctx, command

NEWS = {"news", "новости", "новини", "игры", "ігри"}
TABLE = {"table", "стол", "стіл", "t"}
CLEAR = {"clear", "очистить", "очистити", "стереть", "удалить", "видалити"}


@dataclass
class Request:
    what: str  # tells | news | table | clear
    page: int = 1
    table: int | None = None


def _number(word: str) -> int | None:
    word = word.lstrip("#№")
    return int(word) if word.isdigit() and 0 < int(word) < 10**9 else None


def parse_request(args: list[str]) -> Request | None:
    """What the words after `inbox` ask for; None when they are not an inbox request (at a Mafia
    table `почта ИМЯ ТЕКСТ` is a letter: commands/games/mafia.py asks here first)."""
    words = [a.casefold() for a in args]
    if not words:
        return Request("tells")
    head, rest = words[0], words[1:]
    if _number(head) is not None and not rest:
        return Request("tells", _number(head) or 1)
    if head in NEWS and len(rest) <= 1:
        page = _number(rest[0]) if rest else 1
        return Request("news", page) if page is not None else None
    if head in TABLE and 1 <= len(rest) <= 2:
        numbers = [_number(w) for w in rest]
        if None in numbers:
            return None
        return Request("table", numbers[1] if len(numbers) > 1 else 1, numbers[0])
    if head in CLEAR and not rest:
        return Request("clear")
    if head in CLEAR and len(rest) == 2 and rest[0] in TABLE and _number(rest[1]) is not None:
        return Request("clear", table=_number(rest[1]))
    return None


def _show(ctx: Ctx, page: box.Page, with_table: bool = False) -> None:
    for item in page.items:
        text = msg(item.key, **item.params)
        if with_table and item.table_id is not None:
            text = msg("inbox.at_table", number=item.table_id, text=text)
        ctx.reply("inbox.item" if item.delivered else "inbox.item_new", when=box.stamp(item.created_at), text=text)


def _pager(ctx: Ctx, page: box.Page, more: str, **params: int) -> None:
    """«Страница 1 из 3; раньше: почта новости 2»: only when there is more than one page."""
    if page.pages > 1:
        ahead = msg(more, page=page.number + 1, **params) if page.number < page.pages else msg("inbox.page_last")
        ctx.reply("inbox.page", number=page.number, pages=page.pages, more=ahead)


def _check_page(page: box.Page) -> None:
    if page.number > page.pages:
        raise CommandError("inbox.no_such_page", number=page.number, pages=page.pages)


async def _tells(ctx: Ctx, number: int) -> None:
    account_id = ctx.account.id
    page = await box.tells_page(account_id, number)
    folders = await box.news_folders(account_id)
    if not page.total and not folders:
        ctx.reply("inbox.empty")
        return
    _check_page(page)
    await box.mark_read(account_id, page.items)  # (the page below still marks them new)
    if page.total:
        unread = sum(1 for i in page.items if not i.delivered)
        ctx.reply("inbox.tells_header", n=page.total, unread=unread)
        _show(ctx, page)
        _pager(ctx, page, "inbox.more_tells")
    else:
        ctx.reply("inbox.no_tells")
    if folders and number == 1:
        ctx.reply("inbox.news_header")
        for folder in folders:
            ctx.reply_msg(box.folder_line(folder))


async def _news(ctx: Ctx, number: int, table: int | None) -> None:
    page = await box.news_page(ctx.account.id, number, table)
    if not page.total:
        raise CommandError("inbox.no_news" if table is None else "inbox.no_table_news", number=table or 0)
    _check_page(page)
    await box.mark_read(ctx.account.id, page.items)  # (the page below still marks them new)
    if table is None:
        ctx.reply("inbox.news_list_header", n=page.total)
    else:
        ctx.reply("inbox.table_header", number=table, n=page.total)
    _show(ctx, page, with_table=table is None)
    if table is None:
        _pager(ctx, page, "inbox.more_news")
    else:
        _pager(ctx, page, "inbox.more_table", table=table)


@command("inbox", "почта", "входящие", "пошта", "вхідні")
async def inbox(ctx: Ctx) -> None:
    request = parse_request(ctx.args)
    if request is None:
        raise CommandError("inbox.usage")
    if request.what == "tells":
        await _tells(ctx, request.page)
    elif request.what in ("news", "table"):
        await _news(ctx, request.page, request.table)
    else:
        news, tells = await box.clear(ctx.account.id, request.table)
        if request.table is None:
            ctx.reply("inbox.cleared", news=news, tells=tells)
        else:
            ctx.reply("inbox.cleared_table", number=request.table, news=news)


__all__ = ["inbox", "parse_request", "Request"]
