"""Account commands: SSH keys (keys add/list/remove) and the password."""
from __future__ import annotations

from typing import Any

from world import accounts
from world.best_effort import best_effort
from world.login_guard import ChecksBusy
from world.models import Account, SshKey

from .base import CommandError, Ctx, command

ADD = frozenset({"add", "добавить", "додати", "+"})
LIST = frozenset({"list", "список", "ls"})
REMOVE = frozenset({"remove", "delete", "del", "rm", "удалить", "видалити", "-"})
MAX_KEYS = 20

@command("keys", "key", "ключи", "ключ", "ключі")
async def keys(ctx: Ctx) -> None:
    sub = ctx.args[0].casefold() if ctx.args else "list"
    rest = ctx.rest.split(None, 1)[1] if len(ctx.args) > 1 else ""
    if sub in LIST:
        await _list(ctx)
    elif sub in ADD:
        await _add(ctx, rest)
    elif sub in REMOVE:
        await _remove(ctx, rest.strip())
    else:
        raise CommandError("keys.usage")


async def _list(ctx: Ctx) -> None:
    rows = await accounts.account_keys(ctx.account)
    if not rows:
        ctx.reply("keys.none")
        return
    ctx.reply("keys.header", n=len(rows))
    for number, key in enumerate(rows, 1):
        ctx.reply("keys.line", number=number, algorithm=key.algorithm, fingerprint=key.fingerprint,
                  comment=key.comment or "")


async def _add(ctx: Ctx, text: str) -> None:
    if "PRIVATE KEY" in text.upper():
        raise CommandError("keys.private")
    parsed = accounts.parse_public_key(text)
    if parsed is None:
        raise CommandError("keys.bad_key")
    algorithm, blob, comment, fingerprint = parsed
    rows = await accounts.account_keys(ctx.account)
    if any(row.fingerprint == fingerprint for row in rows):
        raise CommandError("keys.exists", fingerprint=fingerprint)
    if len(rows) >= MAX_KEYS:
        raise CommandError("keys.too_many", limit=MAX_KEYS)
    await SshKey.create(account=ctx.account, algorithm=algorithm, key_data=blob, comment=comment,
                        fingerprint=fingerprint)
    ctx.reply("keys.added", fingerprint=fingerprint)


async def _remove(ctx: Ctx, arg: str) -> None:
    if not arg.isdigit():
        raise CommandError("keys.remove_usage")
    rows = await accounts.account_keys(ctx.account)
    number = int(arg)
    if not 1 <= number <= len(rows):
        raise CommandError("keys.no_such", number=number)
    key = rows[number - 1]
    await key.delete()
    ctx.reply("keys.removed", number=number, fingerprint=key.fingerprint)


@command("password", "пароль", "passwd", secret=True)
async def password(ctx: Ctx) -> None:
    """`password` asks for the old and the new password with hidden input (a telnet client
    echoes a typed command line, so the passwords are best not typed on one); `password OLD NEW`
    does it at once (SSH masks that line). The session keeps both forms out of the log
    (``secret=True``, PasswordDialog.secret)."""
    if not ctx.args:
        ctx.session.dialog = PasswordDialog()
        ctx.reply("password.ask_old")
        ctx.session.set_echo(False)
        return
    if len(ctx.args) != 2:
        raise CommandError("password.usage")
    old, new = ctx.args
    await _check_old(ctx.session, old)
    problem = accounts.password_problem(new)
    if problem:
        raise CommandError(problem)
    await _change(ctx.session, new)


async def _check_old(session: Any, old: str) -> None:
    outcome = await session.app.logins.check_old(session.account, session.address, old)
    if outcome.refusal is not None:
        raise CommandError("password.wrong" if outcome.refusal == "login.bad_password" else outcome.refusal,
                           **outcome.params)


async def _change(session: Any, new: str) -> None:
    """Store the new hash; the account in memory changes only once the database has it, so a
    failed write leaves the old password working everywhere."""
    account = session.account
    try:
        new_hash = await session.app.checks.hash(session.address, new)
    except ChecksBusy:
        raise CommandError("login.busy") from None
    with best_effort("the new password of %s", account.name) as write:
        await Account.filter(id=account.id).update(password_hash=new_hash)
    if write.failed:
        raise CommandError("password.not_saved")
    account.password_hash = new_hash
    session.send("password.changed")


class PasswordDialog:
    """The old password, the new one, the new one again; each typed with echo off. An empty
    line cancels; any refusal ends the dialogue with its reason."""

    secret = True  # every line it takes is a password: the session never logs them

    def __init__(self) -> None:
        self.step, self.new = "old", ""

    async def __call__(self, session: Any, line: str) -> None:
        if not line:
            self._end(session, "password.cancelled")
            return
        try:
            if self.step == "old":
                await _check_old(session, line)
                self.step = "new"
                session.send("password.ask_new")
            elif self.step == "new":
                problem = accounts.password_problem(line)
                if problem:
                    session.send(problem)
                    session.send("password.ask_new")
                    return
                self.new, self.step = line, "again"
                session.send("password.ask_again")
            else:
                if line != self.new:
                    self._end(session, "password.mismatch")
                    return
                self._end(session, None)
                await _change(session, line)
        except CommandError as err:
            self._end(session, None)
            session.send_msg(err.message)

    def _end(self, session: Any, key: str | None) -> None:
        session.dialog = None
        session.set_echo(True)
        if key is not None:
            session.send(key)
