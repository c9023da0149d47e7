"""Channels (world/channels.py): `chat TEXT`, `chat off` / `chat on`, `channels`, and the
moderators' `chanmute CHANNEL NAME [DURATION] [REASON]` / `chanunmute CHANNEL NAME`."""
from __future__ import annotations

import dataclasses
from datetime import timedelta

from world import accounts
from world.audit import audit
from world.channels import CHANNELS, channel_named
from world.messages import msg
from world.scrollback import channel_place

from .admin import _protect, duration_and_reason
from .admin_info import reason_after, utc_time
from .base import NEW_PREFIX, CommandError, Ctx, command
from .hall import check_muted, check_silenced
from .names import find_account

# `chat off` leaves, `chat on` comes back. Narrower than `color`'s words: `chat no` is a line.
JOIN_WORDS = {"on", "вкл", "увімк"}
LEAVE_WORDS = {"off", "выкл", "вимк"}


def _minutes_left(until) -> int:
    return max(1, int((until - accounts.now()).total_seconds() // 60) + 1)


async def speak(ctx: Ctx, channel: str, text: str) -> None:
    """A line on ``channel``: the same mutes as `say` (a moderator's mute, a game's silence), then
    the channel's own mute; heard by everyone online who listens and does not ignore the speaker."""
    world = ctx.world
    check_muted(ctx)
    check_silenced(ctx)  # the dead of a Mafia table do not talk to the living here either
    if not world.channels.listens(ctx.account, channel):
        raise CommandError("channel.you_left", channel=msg(f"channel.name.{channel}"))
    mute = await world.channels.mute_of(ctx.account.id, channel)
    if mute is not None:
        name = msg(f"channel.name.{channel}")
        minutes = _minutes_left(mute.until)
        if mute.reason:
            raise CommandError("channel.muted_reason", channel=name, minutes=minutes, reason=mute.reason)
        raise CommandError("channel.muted", channel=name, minutes=minutes)
    line = msg("channel.line", channel=msg(f"channel.name.{channel}"), name=ctx.account.name, text=text)
    await world.channels.deliver(world, channel, line, ctx.account.id)
    if world.cluster is not None:  # the hearers on the other nodes (world/cluster/node.py)
        world.cluster.channel_line(channel, line, ctx.account.id)
    world.scrollback.add(channel_place(channel), ctx.account.id, line)


@command("chat", "болтать", "болталка", "чат", "балакати", "балачки", "ooc", min_prefix=NEW_PREFIX)
async def chat(ctx: Ctx) -> None:
    text = ctx.rest.strip()
    name = msg("channel.name.chat")
    if not text:
        raise CommandError("channel.usage", channel=name)
    word = text.casefold()
    if word in JOIN_WORDS or word in LEAVE_WORDS:
        on = word in JOIN_WORDS
        changed = await ctx.world.channels.set_listening(ctx.account, "chat", on)
        key = ("channel.joined" if on else "channel.left") if changed else \
            ("channel.already_on" if on else "channel.already_off")
        ctx.reply(key, channel=name)
        return
    await speak(ctx, "chat", text)


@command("channels", "каналы", "канали", min_prefix=NEW_PREFIX)
async def channels(ctx: Ctx) -> None:
    mutes = await ctx.world.channels.mutes_of(ctx.account.id)
    ctx.reply("channel.list_header")
    for channel in CHANNELS:
        state = msg("channel.state_on" if ctx.world.channels.listens(ctx.account, channel) else "channel.state_off")
        mute = mutes.get(channel)
        if mute is not None:
            state = msg("channel.state_muted", state=state, until=utc_time(mute.until))
        ctx.reply("channel.list_line", channel=msg(f"channel.name.{channel}"), word=channel, state=state)
    ctx.reply("channel.list_footer")


def _channel_arg(ctx: Ctx, usage: str) -> str:
    if len(ctx.args) < 2:
        raise CommandError(usage)
    channel = channel_named(ctx.args[0])
    if channel is None:
        raise CommandError("channel.unknown", word=ctx.args[0], channels=", ".join(CHANNELS))
    return channel


@command("chanmute", "заглушить канал", "заглушити канал", role="moderator", completes=("player",),
         min_prefix=NEW_PREFIX)
async def chanmute(ctx: Ctx) -> None:
    channel = _channel_arg(ctx, "help.usage.chanmute")
    target = await find_account(ctx, ctx.args[1])
    _protect(ctx, target)
    # NAME [DURATION] [REASON] as `mute` reads them, after the channel's word
    rest = reason_after(ctx.rest, 1) or ""
    length, reason = duration_and_reason(dataclasses.replace(ctx, args=ctx.args[1:], rest=rest),
                                         timedelta(minutes=10))
    assert length is not None
    until = accounts.now() + length
    await ctx.world.channels.mute(target.id, channel, until, ctx.account.name, reason)
    minutes = max(1, int(length.total_seconds() // 60))
    audit("channel_mute", by=ctx.account.name, name=target.name, channel=channel,
          until=until.isoformat(timespec="seconds"), minutes=minutes, reason=reason)
    name = msg(f"channel.name.{channel}")
    ctx.world.deliver(target.id, msg("channel.muted_you_reason", channel=name, minutes=minutes, reason=reason)
                      if reason else msg("channel.muted_you", channel=name, minutes=minutes))
    ctx.reply("channel.muted_done", name=target.name, channel=name, minutes=minutes)


@command("chanunmute", "разглушить канал", "розглушити канал", role="moderator", completes=("player",),
         min_prefix=NEW_PREFIX)
async def chanunmute(ctx: Ctx) -> None:
    channel = _channel_arg(ctx, "help.usage.chanunmute")
    target = await find_account(ctx, ctx.args[1])
    name = msg(f"channel.name.{channel}")
    if not await ctx.world.channels.unmute(target.id, channel):
        raise CommandError("channel.not_muted", name=target.name, channel=name)
    audit("channel_unmute", by=ctx.account.name, name=target.name, channel=channel)
    ctx.world.deliver(target.id, msg("channel.unmuted_you", channel=name))
    ctx.reply("channel.unmuted_done", name=target.name, channel=name)
