"""`resetpass NAME` (admins): a one-time code that lets a player who forgot the password choose a new
one at login (world/password_reset.py keeps the code; the doors take it at the password prompt)."""
from __future__ import annotations

from datetime import timedelta

from world import accounts, password_reset
from world.ban_notice import UNTIL_FORMAT
from world.log_redact import secret_scope
from world.login_guard import ChecksBusy

from .base import ROLE_RANK, CommandError, Ctx, command
from .names import find_account


@command("resetpass", "сброситьпароль", "скинутипароль", role="admin", completes=("player",))
async def resetpass(ctx: Ctx) -> None:
    if len(ctx.args) != 1:
        raise CommandError("help.usage.resetpass")
    target = await find_account(ctx, ctx.args[0])
    # An admin's own password is changed with `password`; another admin's would be a way into
    # an account of the same rank.
    if ROLE_RANK.get(target.role, 0) >= ROLE_RANK["admin"]:
        raise CommandError("mod.not_above", name=target.name)
    hours = float(ctx.session.app.config.section("accounts")["reset_code_hours"])
    try:
        code = await password_reset.issue(ctx.session.app.checks, target, ctx.account.name, ctx.session.address, hours)
    except ChecksBusy:
        raise CommandError("login.busy") from None
    until = (accounts.now() + timedelta(hours=hours)).strftime(UNTIL_FORMAT)
    with secret_scope(code):  # shown to the admin once, never logged
        ctx.reply("reset.issued", name=target.name, code=code, until=until)
