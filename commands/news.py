"""`news` (`новости`): the list, newest first (`news page 2`), an item (`news N`, which marks
it read); an admin's `news post TITLE | TEXT` and `news delete N`.

What counts as unread, and the read marks: world/news.py. The line at login: world/notices.py.
"""
from __future__ import annotations

from world import news
from world.audit import audit
from world.inbox import stamp as inbox_time
from world.messages import msg

from .base import CommandError, Ctx, command
from .listing import (DELETE_WORDS, POST_WORDS, is_admin, number_of, require_admin, show_page, subcommand,
                      unknown_word)

PAGE_WORDS = frozenset({"page", "p", "страница", "стр", "сторінка", "стор"})


@command("news", "новости", "новини")
async def news_(ctx: Ctx) -> None:
    word, folded, rest = subcommand(ctx)
    if folded in POST_WORDS or folded in DELETE_WORDS:
        require_admin(ctx, "news.admins_only")
        await (_post(ctx, rest) if folded in POST_WORDS else _delete(ctx, rest))
        return
    if not word:
        await _list(ctx, 1)
        return
    if folded in PAGE_WORDS:
        page = number_of(rest)
        if page is None or page < 1:
            raise CommandError("news.usage")
        await _list(ctx, page)
        return
    number = number_of(word)
    if number is None:
        raise unknown_word(ctx, word, PAGE_WORDS | (POST_WORDS | DELETE_WORDS if is_admin(ctx) else frozenset()),
                           "news.usage_admin" if is_admin(ctx) else "news.usage")
    item = await news.read(ctx.account, number)
    if item is None:
        raise CommandError("news.no_such", number=number)
    ctx.reply("news.item_header", number=item.id, title=item.title, when=inbox_time(item.created_at),
              by=item.by or "-")
    ctx.reply("news.item_text", text=item.text)


async def _list(ctx: Ctx, number: int) -> None:
    page = await news.page(ctx.account, number)
    show_page(ctx, "news", page, (
        msg("news.list_line", number=listed.item.id, title=listed.item.title, when=inbox_time(listed.item.created_at),
            mark=msg("news.unread_mark") if listed.unread else "")
        for listed in page.items))


async def _post(ctx: Ctx, text: str) -> None:
    title, bar, body = text.partition("|")
    title, body = title.strip(), body.strip()
    if not bar or not title or not body:
        raise CommandError("news.post_usage")
    if len(title) > news.TITLE_LIMIT:
        raise CommandError("news.title_too_long", limit=news.TITLE_LIMIT, length=len(title))
    item = await news.post(title, body, ctx.account.name)
    audit("news_posted", by=ctx.account.name, number=item.id, title=title)
    ctx.reply("news.posted", number=item.id, title=title)
    # Everyone else online hears of it now; it stays unread for them until they read it.
    others = [s for s in ctx.world.sessions if s.account is not None and s.account.id != ctx.account.id]
    ctx.world.send_to_sessions(others, msg("news.posted_live", number=item.id, title=title))


async def _delete(ctx: Ctx, text: str) -> None:
    number = number_of(text)
    if number is None:
        raise CommandError("news.delete_usage")
    item = await news.delete(number)
    if item is None:
        raise CommandError("news.no_such", number=number)
    audit("news_deleted", by=ctx.account.name, number=number, title=item.title)
    ctx.reply("news.deleted", number=number, title=item.title)
