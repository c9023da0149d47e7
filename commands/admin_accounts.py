"""Admins change accounts: `rename NAME NEW`, `delete NAME` (confirmed by typing it again or `yes`
within CONFIRM_SECONDS). What happens to names in games and to seats: world/account_admin.py."""
from __future__ import annotations

import time

from world import account_admin
from world.audit import audit
from world.messages import msg
from world.models import Account
from world.table_data import TableError

from .admin import _drop, _protect
from .base import CommandError, Ctx, command
from .names import find_account

CONFIRM_SECONDS = 30.0

# Per admin account: (the account to delete, its name when asked, until when the question holds).
# One server process, so a plain dict; a question is forgotten when answered or when it expires.
_asked: dict[int, tuple[int, str, float]] = {}


async def _target(ctx: Ctx, words: int) -> Account:
    """The account the first of exactly ``words`` arguments names, of a lower rank than the admin."""
    if len(ctx.args) != words:
        raise CommandError(f"help.usage.{ctx.command.key}")
    target = await find_account(ctx, ctx.args[0])
    _protect(ctx, target)
    return target


@command("rename", "переименовать", "перейменувати", role="admin", completes=("player",))
async def rename(ctx: Ctx) -> None:
    target = await _target(ctx, 2)
    try:
        old = await account_admin.rename(ctx.world, target, ctx.args[1])
    except account_admin.Refusal as refusal:
        raise CommandError(refusal.key, **refusal.params) from None
    audit("rename", by=ctx.account.name, name=old, new=target.name)
    ctx.reply("rename.done", old=old, new=target.name)
    ctx.world.deliver(target.id, msg("rename.you", by=ctx.account.name, new=target.name))


@command("delete", "удалить", "видалити", role="admin", completes=("player",))
async def delete(ctx: Ctx) -> None:
    target = await _target(ctx, 1)
    asked = _asked.pop(ctx.account.id, None)
    if asked is not None and asked[0] == target.id and asked[2] > time.monotonic():
        await _delete(ctx, target)
        return
    _asked[ctx.account.id] = (target.id, target.name, time.monotonic() + CONFIRM_SECONDS)
    ctx.reply("delete.confirm", name=target.name, seconds=int(CONFIRM_SECONDS), verb=ctx.verb)


@command("yes", "да", "так", role="admin")
async def yes(ctx: Ctx) -> None:
    asked = _asked.pop(ctx.account.id, None)
    if asked is None or asked[2] <= time.monotonic():
        raise CommandError("delete.nothing_to_confirm")
    target = ctx.world.accounts.get(asked[0]) or await Account.get_or_none(id=asked[0])
    if target is None:  # deleted meanwhile (by another admin)
        raise CommandError("name.unknown", name=asked[1])
    await _delete(ctx, target)


async def _delete(ctx: Ctx, target: Account) -> None:
    _protect(ctx, target)  # (its role may have changed since the question)
    name = target.name
    await _drop(ctx, target.id, msg("delete.you", by=ctx.account.name))
    try:
        taken_over = await account_admin.delete(ctx.world, target)
    except TableError as err:  # a table of theirs is being started this very moment
        raise CommandError(err.key, **err.params) from None
    audit("delete", by=ctx.account.name, name=name, bot_seats=",".join(map(str, taken_over)) or None)
    ctx.reply("delete.done", name=name)
