"""`pagelength`: how many lines a page of long output holds, for this account (server/pager.py)."""
from __future__ import annotations

from .base import CommandError, Ctx, command

AUTO = frozenset({"auto", "авто"})
MAX_PAGE = 1000


@command("pagelength", "длинастраницы", "довжинасторінки", "pager")
async def pagelength(ctx: Ctx) -> None:
    if not ctx.args:
        _tell(ctx)
        return
    word = ctx.args[0].casefold()
    if word in AUTO:
        value: int | None = None
    elif word.isdigit() and int(word) <= MAX_PAGE:
        value = int(word)
    else:
        raise CommandError("pager.usage", most=MAX_PAGE)
    ctx.account.page_length = value
    await ctx.account.save(update_fields=["page_length"])
    _tell(ctx)


def _tell(ctx: Ctx) -> None:
    chosen = ctx.account.page_length
    if chosen is None:
        rows = ctx.session.pager.page_length()
        ctx.reply("pager.auto_rows" if rows else "pager.auto_off", n=rows)
    elif chosen == 0:
        ctx.reply("pager.off")
    else:
        ctx.reply("pager.set", n=chosen)
