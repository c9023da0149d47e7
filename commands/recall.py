"""Scrollback (world/scrollback.py): the hall's last lines on entering it, and `recall [PLACE] [N]`
(`история чата`; `история ЗАЛ|КАНАЛ|СТОЛ` reaches it through commands/history.py) for the hall,
a channel or the table you are at. Times are UTC (accounts have no time zone); the header says so.
Lines of people the reader ignores are left out."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from world.channels import channel_named
from world.messages import Msg, msg
from world.rooms import HALL
from world.scrollback import Line, channel_place

from .base import NEW_PREFIX, CommandError, Ctx, command

HALL_WORDS = {"hall", "зал", "зала"}
TABLE_WORDS = {"table", "стол", "стіл"}


def line_time(when: datetime, now: datetime | None = None) -> str:
    """«20:14» for a line of today (UTC), «30.11 20:14» for an older one."""
    now = now or datetime.now(timezone.utc)
    return when.strftime("%H:%M" if when.date() == now.date() else "%d.%m %H:%M")


def _lines(lines: list[Line]) -> list[Msg]:
    now = datetime.now(timezone.utc)
    return [msg("recall.line", when=line_time(line.when, now), text=line.message) for line in lines]


async def show_hall_entry(world: Any, session: Any, account_id: int) -> None:
    """On entering the hall (login, leaving a table): its last ``chat.entry_lines`` lines."""
    count = int(world.config.section("chat")["entry_lines"])
    if count <= 0 or world.where(account_id) != HALL:
        return
    lines = world.scrollback.last(HALL, count, await world.social.ignoring(account_id))
    if not lines:
        return
    session.send("recall.entry_header", n=len(lines))
    for line in _lines(lines):
        session.send_msg(line)


def _place(ctx: Ctx, word: str | None) -> tuple[str, Msg]:
    """The place `recall` reads and how its header names it."""
    table = ctx.table
    if word is None:
        if table is not None:
            return table.room, msg("recall.at_table", number=table.number)
        return HALL, msg("recall.in_hall")
    folded = word.casefold()
    if folded in HALL_WORDS:
        return HALL, msg("recall.in_hall")
    if folded in TABLE_WORDS:
        if table is None:
            raise CommandError("recall.not_at_table")
        return table.room, msg("recall.at_table", number=table.number)
    channel = channel_named(word)
    if channel is not None:
        return channel_place(channel), msg("recall.on_channel", channel=msg(f"channel.name.{channel}"))
    raise CommandError("recall.unknown_place", word=word)


@command("recall", "история чата", "історія чату", "scrollback",
         min_prefix=NEW_PREFIX)
async def recall(ctx: Ctx) -> None:
    words = list(ctx.args)
    kept = ctx.world.scrollback.lines_kept
    count = int(ctx.world.config.section("chat")["recall_lines"])
    if words and words[-1].isdigit():
        count = int(words.pop())
        if not 1 <= count <= max(1, kept):
            raise CommandError("recall.bad_count", limit=max(1, kept))
    if len(words) > 1:
        raise CommandError("help.usage.recall")
    place, where = _place(ctx, words[0] if words else None)
    lines = ctx.world.scrollback.last(place, count, await ctx.world.social.ignoring(ctx.account.id))
    if not lines:
        ctx.reply("recall.empty", where=where)
        return
    ctx.reply("recall.header", where=where, n=len(lines))
    for line in _lines(lines):
        ctx.reply_msg(line)
