"""`motd` (`объявление`): the message of the day; `motd set TEXT` and `motd clear` by an admin.

Where the text comes from and how the config's `[server] motd` relates to it: world/motd.py.
"""
from __future__ import annotations

from world.audit import audit
from world.motd import MOTD_LIMIT

from .admin_info import utc_time
from .base import CommandError, Ctx, command
from .listing import is_admin, require_admin, subcommand, unknown_word

SET_WORDS = frozenset({"set", "задать", "установить", "поставить", "встановити", "задати"})
CLEAR_WORDS = frozenset({"clear", "off", "убрать", "очистить", "снять", "прибрати", "очистити", "зняти"})


def config_motd(ctx: Ctx) -> str:
    return str(ctx.world.config.server.get("motd", ""))


@command("motd", "объявление", "оголошення")
async def motd(ctx: Ctx) -> None:
    word, folded, text = subcommand(ctx)
    if folded in SET_WORDS or folded in CLEAR_WORDS:
        require_admin(ctx, "motd.admins_only")
        await (_set(ctx, text) if folded in SET_WORDS else _clear(ctx))
        return
    if word:
        raise unknown_word(ctx, word, SET_WORDS | CLEAR_WORDS if is_admin(ctx) else (),
                           "motd.usage_admin" if is_admin(ctx) else "motd.usage")
    current = await ctx.world.motd.current(config_motd(ctx))
    if current is None:
        ctx.reply("motd.none")
        return
    ctx.reply("login.motd", text=current.text)
    if is_admin(ctx):  # where it comes from, and so what `motd clear` would do
        if current.by is None:
            ctx.reply("motd.from_config")
        else:
            ctx.reply("motd.set_by", by=current.by, when=utc_time(current.at) if current.at else "-")


async def _set(ctx: Ctx, text: str) -> None:
    if not text:
        raise CommandError("motd.usage_admin")
    if len(text) > MOTD_LIMIT:
        raise CommandError("motd.too_long", limit=MOTD_LIMIT, length=len(text))
    await ctx.world.motd.set(text, ctx.account.name)
    audit("motd_set", by=ctx.account.name, text=text)
    ctx.reply("motd.done_set")
    ctx.reply("login.motd", text=text)


async def _clear(ctx: Ctx) -> None:
    if not await ctx.world.motd.clear():
        raise CommandError("motd.nothing_to_clear")
    audit("motd_cleared", by=ctx.account.name)
    fallback = config_motd(ctx).strip()
    if fallback:
        ctx.reply("motd.cleared_to_config", text=fallback)
    else:
        ctx.reply("motd.cleared")
