"""`finger NAME` (`профиль`): who a player is; `title TEXT` (`титул`): the line they show there;
`untitle NAME` (`снять титул`): a moderator removes a title that should not be shown.

What is shown and how games are counted: world/profiles.py.
"""
from __future__ import annotations

from world import profiles
from world.audit import audit
from world.broken_tables import game_name
from world.hub import HALL
from world.messages import Msg, msg
from world.models import Account

from . import elsewhere
from .admin_info import utc_time
from .base import ROLE_RANK, CommandError, Ctx, command
from .hall import check_muted
from .names import find_account
from .ratings import show_ratings


@command("finger", "profile", "whois", "профиль", "профіль", "анкета", completes=("player",))
async def finger(ctx: Ctx) -> None:
    target = await find_account(ctx, ctx.args[0]) if ctx.args else ctx.account
    if target.title:
        ctx.reply("profile.header_titled", name=target.name, title=target.title)
    else:
        ctx.reply("profile.header", name=target.name)
    ctx.reply("profile.created", when=utc_time(target.created_at))
    found = None if ctx.world.is_online(target.id) or ctx.world.cluster is None \
        else await ctx.world.cluster.online_elsewhere(target.id)  # on another node (world/cluster/)
    if ctx.world.is_online(target.id):
        ctx.reply("profile.online", where=_where_now(ctx, target.id))
    elif found is not None:
        ctx.reply("profile.online", where=elsewhere.where(found[1], with_game=True))
    else:
        seen = target.last_seen or target.last_login  # last_login: seen before last_seen was kept
        if seen is None:
            ctx.reply("profile.seen_never")
        else:
            ctx.reply("profile.seen", when=utc_time(seen))
    records = await profiles.game_records(target.id)
    if not records:
        ctx.reply("profile.games_none")
        return
    ctx.reply("profile.games_header")
    for record in records:
        ctx.reply("profile.game_line", game=game_name(record.game), played=record.played, won=record.won)
    if len(records) > 1:
        ctx.reply("profile.games_total", played=sum(r.played for r in records), won=sum(r.won for r in records))
    await show_ratings(ctx, target)


def _where_now(ctx: Ctx, account_id: int) -> Msg:
    """The hall, or the table (and its game) the player sits at or watches: what `who` and
    `look` show anyone anyway."""
    table = ctx.world.tables.table_of(account_id) if ctx.world.tables else None
    if ctx.world.where(account_id) == HALL or table is None:
        return msg("where.hall")
    game = msg(f"game.{table.game_name}")
    if account_id in table.watchers:
        return msg("profile.watching", number=table.number, game=game)
    return msg("profile.at_table", number=table.number, game=game)


@command("title", "титул")
async def title(ctx: Ctx) -> None:
    text = ctx.rest.strip()
    if not text:
        current = ctx.account.title
        if current:
            ctx.reply("profile.title_current", title=current)
        else:
            ctx.reply("profile.title_none", n=profiles.TITLE_LIMIT)
        return
    if text in profiles.CLEAR_WORDS:
        await _store(ctx, ctx.account, None)
        ctx.reply("profile.title_cleared")
        return
    check_muted(ctx)  # a title is public text: no way round a mute
    refusal = profiles.title_refusal(text)
    if refusal is not None:
        key, params = refusal
        raise CommandError(key, **params)
    await _store(ctx, ctx.account, text)
    ctx.reply("profile.title_set", title=text)


@command("untitle", "снять титул", "зняти титул", role="moderator", completes=("player",))
async def untitle(ctx: Ctx) -> None:
    """A moderator removes a title that should not be shown (the player may choose another)."""
    if not ctx.args:
        raise CommandError("help.usage.untitle")
    target = await find_account(ctx, ctx.args[0])
    if target.id != ctx.account.id and ROLE_RANK.get(target.role, 0) >= ROLE_RANK.get(ctx.account.role, 0):
        raise CommandError("mod.not_above", name=target.name)
    if not target.title:
        raise CommandError("profile.untitle_none", name=target.name)
    old = target.title
    await _store(ctx, target, None)
    audit("untitle", by=ctx.account.name, name=target.name, title=old)
    if target.id != ctx.account.id:
        ctx.world.deliver(target.id, msg("profile.untitled_you", by=ctx.account.name))
    ctx.reply("profile.untitled", name=target.name)


async def _store(ctx: Ctx, target: Account, text: str | None) -> None:
    """``target``'s title, stored and seen at once by every live session of the account."""
    await profiles.set_title(target, text)
    for session in ctx.world.sessions_of([target.id]):
        account = getattr(session, "account", None)
        if account is not None and account is not target:
            account.title = text
    live = ctx.world.accounts.get(target.id)
    if live is not None and live is not target:
        live.title = text
