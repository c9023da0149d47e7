"""Safety and conversation: ignore and unignore, reply to the last teller, afk (world/social.py)."""
from __future__ import annotations

from world.social import IGNORE_LIMIT

from .base import CommandError, Ctx, command
from .hall import tell_to
from .names import find_account

# The longest reason `afk` keeps: it is shown beside the name in `who`.
AWAY_REASON_LENGTH = 80


@command("ignore", "игнор", "игнорировать", "ігнор", "ігнорувати", completes=("player",))
async def ignore(ctx: Ctx) -> None:
    social = ctx.world.social
    if not ctx.args:
        names = await social.ignored_names(ctx.account.id)
        if not names:
            ctx.reply("social.ignore.none")
        else:
            ctx.reply("social.ignore.list", n=len(names), names=", ".join(names))
        return
    target = await find_account(ctx, ctx.rest)
    if target.id == ctx.account.id:
        raise CommandError("social.ignore.self")
    done = await social.ignore(ctx.account.id, target.id)
    if done == "already":
        raise CommandError("social.ignore.already", name=target.name)
    if done == "full":
        raise CommandError("social.ignore.full", n=IGNORE_LIMIT)
    ctx.reply("social.ignore.added", name=target.name)


@command("unignore", "слушать", "разыгнорить", "слухати", completes=("player",))
async def unignore(ctx: Ctx) -> None:
    if not ctx.args:
        raise CommandError("social.unignore.usage")
    target = await find_account(ctx, ctx.rest)
    if not await ctx.world.social.unignore(ctx.account.id, target.id):
        raise CommandError("social.unignore.not_ignored", name=target.name)
    ctx.reply("social.unignore.done", name=target.name)


@command("reply", "r", "ответить", "отв", "відповісти", "відп")
async def reply(ctx: Ctx) -> None:
    text = ctx.rest.strip()
    if not text:
        raise CommandError("social.reply.usage")
    target = await ctx.world.social.last_teller_of(ctx.account.id)
    if target is None:
        raise CommandError("social.reply.nobody")
    await tell_to(ctx, target, text)


@command("afk", "away", "отошёл", "отошел", "отошла", "отойти", "відійшов", "відійшла", "відійти")
async def afk(ctx: Ctx) -> None:
    reason = ctx.rest.strip()
    if len(reason) > AWAY_REASON_LENGTH:
        raise CommandError("social.afk.too_long", limit=AWAY_REASON_LENGTH)
    ctx.world.social.go_away(ctx.account.id, reason)
    if reason:
        ctx.reply("social.afk.set_reason", reason=reason)
    else:
        ctx.reply("social.afk.set")
