"""What staff look up: `bans` (the bans in force), `where NAME` (an account's recent addresses),
and the doors and addresses an admin's `who` adds under each player."""
from __future__ import annotations

import re
from datetime import datetime

from world.clock import utc_minute
from world import accounts, login_history
from world.messages import Msg, msg
from world.models import Account, Ban

from .base import CommandError, Ctx, command
from .names import find_account

# A reason is kept (Ban.reason) and shown as typed, up to this many characters.
REASON_LENGTH = 200

_WORD = re.compile(r'\s*(?:"[^"]*"|«[^»]*»|\S+)')


def utc_time(moment: datetime) -> str:
    """A moment as ban messages write it, with its zone: «2026-12-01 14:05 UTC» (the database
    keeps UTC; a naive value is UTC)."""
    return utc_minute(moment)


def reason_after(rest: str, words: int) -> str | None:
    """The text typed after the first ``words`` arguments of ``rest`` (quoted arguments count
    as one), or None when nothing follows: `kick Troll спамит в зале` → «спамит в зале»."""
    at = 0
    for _ in range(words):
        found = _WORD.match(rest, at)
        if found is None:
            return None
        at = found.end()
    reason = rest[at:].strip()
    if len(reason) >= 2 and (reason[0], reason[-1]) in (('"', '"'), ("«", "»")):
        reason = reason[1:-1].strip()
    return reason[:REASON_LENGTH] or None


@command("bans", "баны", "бани", "запреты", role="moderator")
async def bans(ctx: Ctx) -> None:
    current = accounts.now()
    rows = [b for b in await Ban.all().order_by("created_at", "id") if b.until is None or b.until > current]
    if not rows:
        ctx.reply("bans.none")
        return
    # A name ban keeps the folded key («troii» for Troll): show the account's own spelling.
    keys = [row.name_key for row in rows if row.name_key]
    names = dict(await Account.filter(name_key__in=keys).values_list("name_key", "name")) if keys else {}
    ctx.reply("bans.header", n=len(rows))
    for row in rows:
        ctx.reply_msg(_ban_line(row, names))


def _ban_line(row: Ban, names: dict[str, str]) -> Msg:
    if row.address:
        whom = msg("bans.address", address=row.address)
    else:
        whom = msg("bans.name", name=names.get(row.name_key or "", row.name_key or ""))
    until = msg("bans.forever") if row.until is None else msg("bans.until", until=utc_time(row.until))
    reason = msg("bans.reason", reason=row.reason) if row.reason else ""
    return msg("bans.line", whom=whom, until=until, by=row.by or "?", at=utc_time(row.created_at), reason=reason)


@command("where", "где", "де", "откуда", role="admin", completes=("player",))
async def where(ctx: Ctx) -> None:
    if not ctx.args:
        raise CommandError("help.usage.where")
    target = await find_account(ctx, ctx.args[0])
    records = await login_history.recent(target.id)
    if not records:
        ctx.reply("where_from.none", name=target.name)
        return
    ctx.reply("where_from.header", name=target.name)
    for item in records:
        ctx.reply("where_from.line", door=item.door, address=item.address, seen=utc_time(item.last_seen),
                  count=item.count)


def session_doors(ctx: Ctx, account_id: int) -> Msg | None:
    """For an admin's `who`: each live session of the account, its door and address; None for
    anyone else (players and moderators see the plain list)."""
    if ctx.account.role != "admin":
        return None
    sessions = ctx.world.by_account.get(account_id, ())
    doors = ", ".join(f"{s.kind} {s.address}" for s in sessions)
    return msg("who.doors", doors=doors) if doors else None
