"""Moderation: kick, ban, unban, mute, unmute, announce, role, shutdown."""
from __future__ import annotations

import ipaddress
from datetime import timedelta

from world import accounts
from world.audit import audit
from world.messages import msg
from world.models import Account, Ban

from .admin_info import reason_after, utc_time
from .base import CommandError, Ctx, command
from .names import find_account


# `ban NAME навсегда причина`: "for ever" said in words, before a reason.
FOREVER = {"forever", "навсегда", "назавжди"}


def duration_and_reason(ctx: Ctx, default: timedelta | None) -> tuple[timedelta | None, str | None]:
    """`ban|mute NAME [DURATION] [REASON...]`: a second word that is a duration (or, for a ban,
    "for ever") is one; a second word that starts with a digit but is no duration (``2hh``) is
    refused, never read as a reason (a mistyped term must not become a ban for ever); any other
    word starts the reason."""
    word = ctx.args[1] if len(ctx.args) > 1 else None
    if word is None:
        return default, None
    value = accounts.parse_duration(word)
    if value is not None:
        return value, reason_after(ctx.rest, 2)
    if word.casefold() in FOREVER:
        if default is not None:  # a mute is always for a while
            raise CommandError("mod.bad_duration", word=word)
        return None, reason_after(ctx.rest, 2)
    if word[:1].isdigit():
        raise CommandError("mod.bad_duration", word=word)
    return default, reason_after(ctx.rest, 1)


def banned_message(until, reason: str | None):
    """What a banned player reads before the door closes: until when, and why if given."""
    if until is None:
        return msg("mod.banned_you_forever_reason", reason=reason) if reason else msg("mod.banned_you_forever")
    if reason:
        return msg("mod.banned_you_reason", until=utc_time(until), reason=reason)
    return msg("mod.banned_you", until=utc_time(until))


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
        return True
    except ValueError:
        return False


def _protect(ctx: Ctx, target: Account) -> None:
    rank = {"player": 0, "moderator": 1, "admin": 2}
    if rank.get(target.role, 0) >= rank.get(ctx.account.role, 0):
        raise CommandError("mod.not_above", name=target.name)


async def _drop(ctx: Ctx, account_id: int, message) -> int:
    sessions = list(ctx.world.by_account.get(account_id, ()))
    for session in sessions:
        await session.close(message)
    return len(sessions)


@command("kick", "выгнать", "вигнати", role="moderator", completes=("player",))
async def kick(ctx: Ctx) -> None:
    if not ctx.args:
        raise CommandError("help.usage.kick")
    target = await find_account(ctx, ctx.args[0])
    _protect(ctx, target)
    reason = reason_after(ctx.rest, 1)
    told = msg("mod.kicked_you_reason", by=ctx.account.name, reason=reason) if reason else \
        msg("mod.kicked_you", by=ctx.account.name)
    if not await _drop(ctx, target.id, told):
        raise CommandError("mod.not_online", name=target.name)
    audit("kick", by=ctx.account.name, name=target.name, reason=reason)
    ctx.reply("mod.kicked", name=target.name)


@command("ban", "бан", "забанить", "заблокувати", role="moderator", completes=("player",))
async def ban(ctx: Ctx) -> None:
    if not ctx.args:
        raise CommandError("help.usage.ban")
    who = ctx.args[0]
    length, reason = duration_and_reason(ctx, None)
    until = accounts.now() + length if length else None
    told = banned_message(until, reason)
    if _is_address(who):
        await Ban.create(address=who, until=until, by=ctx.account.name, reason=reason)
        audit("ban", by=ctx.account.name, address=who, until=until.isoformat(timespec="seconds") if until else "never",
              reason=reason)
        for session in [s for s in ctx.world.sessions if s.address == who]:
            await session.close(told)
        if until is None:
            ctx.reply("mod.banned_address_forever", address=who)
        else:
            ctx.reply("mod.banned_address", address=who, until=utc_time(until))
        return
    target = await find_account(ctx, who)
    _protect(ctx, target)
    await Ban.create(name_key=target.name_key, until=until, by=ctx.account.name, reason=reason)
    audit("ban", by=ctx.account.name, name=target.name, until=until.isoformat(timespec="seconds") if until else "never",
          reason=reason)
    await _drop(ctx, target.id, told)
    if until is None:
        ctx.reply("mod.banned_forever", name=target.name)
    else:
        ctx.reply("mod.banned", name=target.name, until=utc_time(until))


@command("unban", "разбанить", "розбанити", role="moderator")
async def unban(ctx: Ctx) -> None:
    if not ctx.args:
        raise CommandError("help.usage.unban")
    who = ctx.args[0]
    if _is_address(who):
        removed = await Ban.filter(address=who).delete()
    else:
        removed = await accounts.lift_name_bans(who)
    if removed:
        audit("unban", by=ctx.account.name, **{"address" if _is_address(who) else "name": who})
    ctx.reply("mod.unbanned" if removed else "mod.no_ban", name=who)


@command("mute", "заглушить", "заглушити", "молчать", role="moderator", completes=("player",))
async def mute(ctx: Ctx) -> None:
    if not ctx.args:
        raise CommandError("help.usage.mute")
    target = await find_account(ctx, ctx.args[0])
    _protect(ctx, target)
    length, reason = duration_and_reason(ctx, timedelta(minutes=10))
    assert length is not None
    target.muted_until = accounts.now() + length
    await target.save(update_fields=["muted_until"])
    audit("mute", by=ctx.account.name, name=target.name, until=target.muted_until.isoformat(timespec="seconds"))
    live = ctx.world.accounts.get(target.id)
    if live is not None and live is not target:
        live.muted_until = target.muted_until
    minutes = max(1, int(length.total_seconds() // 60))
    ctx.world.deliver(target.id, msg("mod.muted_you_reason", minutes=minutes, reason=reason) if reason
                      else msg("mod.muted_you", minutes=minutes))
    audit("mute", by=ctx.account.name, name=target.name, minutes=minutes, reason=reason)
    ctx.reply("mod.muted", name=target.name, minutes=minutes)


@command("unmute", "разглушить", "розглушити", role="moderator", completes=("player",))
async def unmute(ctx: Ctx) -> None:
    if not ctx.args:
        raise CommandError("help.usage.unmute")
    target = await find_account(ctx, ctx.args[0])
    target.muted_until = None
    await target.save(update_fields=["muted_until"])
    audit("unmute", by=ctx.account.name, name=target.name)
    live = ctx.world.accounts.get(target.id)
    if live is not None:
        live.muted_until = None
    ctx.reply("mod.unmuted", name=target.name)


@command("announce", "объявить", "оголосити", role="moderator")
async def announce(ctx: Ctx) -> None:
    if not ctx.rest:
        raise CommandError("help.usage.announce")
    line = msg("mod.announcement", name=ctx.account.name, text=ctx.rest)
    ctx.world.broadcast_all(line)
    if ctx.world.cluster is not None:  # every node's sessions (world/cluster/node.py)
        ctx.world.cluster.announce(line)


@command("role", "роль", role="admin", completes=("player",))
async def role(ctx: Ctx) -> None:
    if len(ctx.args) < 2 or ctx.args[1].lower() not in ("player", "moderator", "игрок", "модератор"):
        raise CommandError("help.usage.role")
    target = await find_account(ctx, ctx.args[0])
    if target.role == "admin":  # the config's or the command line's (world/accounts.py)
        listed = accounts.config_admin(target.name, ctx.world.config.section("accounts")["admins"])
        raise CommandError("mod.admin_from_config" if listed else "mod.admin_from_cli", name=target.name)
    new = {"игрок": "player", "модератор": "moderator"}.get(ctx.args[1].lower(), ctx.args[1].lower())
    old, target.role = target.role, new
    await target.save(update_fields=["role"])
    audit("role", by=ctx.account.name, name=target.name, old=old, new=new)
    live = ctx.world.accounts.get(target.id)
    if live is not None:
        live.role = new
    ctx.reply("mod.role_set", name=target.name, role=msg(f"role.{new}"))
    ctx.world.deliver(target.id, msg("mod.role_you", role=msg(f"role.{new}")))


@command("shutdown", "выключить", "вимкнути", role="admin")
async def shutdown(ctx: Ctx) -> None:
    minutes = 0.0
    if ctx.args:
        try:
            minutes = float(ctx.args[0].replace(",", "."))
        except ValueError as err:
            raise CommandError("help.usage.shutdown") from err
    ctx.reply("mod.shutdown_ok", minutes=minutes)
    ctx.session.app.request_shutdown(minutes, ctx.account.name)
