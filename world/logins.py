"""A password login, for both doors: the throttle, the check queue, the account, argon2, the
re-hash, the failure books and new accounts, in that order, once.

Telnet asks the name first and then either the password of an account (:meth:`Logins.log_in`)
or a new one twice (:meth:`Logins.create`); SSH gets a name and a password together, so a
password for a name nobody has makes the account (``log_in(..., create_lang=...)``). Each door
turns the :class:`Outcome` into its own replies: telnet says the refusal's line and asks the
name again, SSH sends it as an auth banner. The ``password`` command checks an old password the
same way (:meth:`Logins.check_old`).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Callable

from . import accounts, password_reset
from .audit import audit
from .best_effort import best_effort
from .failed_logins import FailedLogins
from .login_guard import Checked, ChecksBusy, LoginThrottle, PasswordChecks
from .meters import Meters
from .models import Account

log = logging.getLogger("korchma.logins")


@dataclass(frozen=True)
class Outcome:
    """``account`` when the login (or the new account) succeeded; else ``refusal``, a message key
    with its ``params``, for the door to say."""

    account: Account | None = None
    refusal: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    created: bool = False
    #: Failed logins on the account since its last one (count, addresses), to tell its owner.
    failures: tuple[int, int] = (0, 0)
    #: Set (with ``account``) when a password reset code was typed and holds: no login yet, the
    #: door asks for a new password and gives it to :meth:`Logins.finish_reset`.
    reset_id: int | None = None


def refused(key: str, **params: Any) -> Outcome:
    return Outcome(refusal=key, params=params)


async def store_rehash(account: Account, new_hash: str) -> None:
    """Store a hash re-made with today's argon2 parameters. Not storing it is no reason to refuse
    the login: the old hash still works, and the next login tries again."""
    with best_effort("the re-made password hash of %s", account.name) as write:
        await Account.filter(id=account.id).update(password_hash=new_hash)
    if not write.failed:
        account.password_hash = new_hash
        log.info("password hash of %s re-made with the current argon2 parameters", account.name)


class Logins:
    """``meters``: gives the world's meters at the moment of asking (the metrics, when they are
    on, are installed after this is made)."""

    def __init__(self, throttle: LoginThrottle, checks: PasswordChecks, creations: accounts.CreationLimit,
                 admins: list[str], meters: Callable[[], Meters] = Meters) -> None:
        self.throttle, self.checks, self.creations, self.admins = throttle, checks, creations, admins
        self.failed = FailedLogins()
        self.meters = meters

    def refused_login(self, door: str, address: str, name: str, refusal: str) -> None:
        """The one place a refused login is recorded, whichever door and step refused it: the
        audit trail gets the name tried and why (the refusal's key without its catalog section:
        bad_password, wait, banned, name_taken...; never the password), the metrics its full key."""
        self.failed.record(door, address, name, refusal.rpartition(".")[2])
        self.meters().login_refused(door, refusal)

    def audited(self, outcome: Outcome, door: str, address: str, name: str) -> Outcome:
        if outcome.refusal is not None:
            self.refused_login(door, address, name, outcome.refusal)
        return outcome

    def _before_check(self, name: str, address: str) -> Outcome | None:
        """A refusal before anything is read or checked: the throttle's wait, or a full queue."""
        wait = self.throttle.wait_left(name, address)
        if wait > 0:
            return refused("login.wait", seconds=int(wait) + 1)
        if self.checks.full(address):  # not checked, so not counted: "try again in a moment"
            return refused("login.busy")
        return None

    async def _check(self, name: str, address: str, stored: str | None, password: str,
                     resets: Account | None = None) -> Checked | Outcome:
        """argon2 on the queue; a wrong password counts as a failure of (name, address). With
        ``resets``, a line that is not the password may be that account's reset code: one that
        holds is no failure; a wrong, spent or expired one is, with its own refusal."""
        try:
            checked = await self.checks.check(address, stored, password)
            code = await self._reset_code(resets, address, password) if resets is not None and not checked.ok else None
        except ChecksBusy:
            return refused("login.busy")
        if code is not None and code.reset_id is not None:
            return code
        if not checked.ok:
            self.throttle.failed(name, address)
            return code or refused("login.bad_password")
        return checked

    async def log_in(self, name: str, address: str, password: str, create_lang: str | None = None,
                     door: str = "") -> Outcome:
        """The password of account ``name`` from ``address``. With ``create_lang`` (SSH), a name
        nobody has gets a new account with this password, in that language. A missing account is
        checked all the same (against nothing), so it takes as long and counts as a failure.
        A refusal is audited (``door``: where it was typed)."""
        return self.audited(await self._log_in(name, address, password, create_lang, door), door, address, name)

    async def _log_in(self, name: str, address: str, password: str, create_lang: str | None, door: str) -> Outcome:
        early = self._before_check(name, address)
        if early is not None:
            return early
        account = await accounts.find(name)
        if account is None and create_lang is not None:
            problem = accounts.name_problem(name) or accounts.password_problem(password)
            return refused(problem) if problem else await self._create(name, address, password, create_lang, None,
                                                                       door)
        checked = await self._check(account.name if account else name, address,
                                    account.password_hash if account else None, password, resets=account)
        if isinstance(checked, Outcome):
            return checked
        assert account is not None  # nothing checks out against no hash
        if checked.new_hash is not None:
            await store_rehash(account, checked.new_hash)
        return Outcome(account, failures=self.throttle.succeeded(account.name, address))

    async def _reset_code(self, account: Account, address: str, line: str) -> Outcome | None:
        """``line`` read as the reset code an admin gave ``account`` (None: it is none)."""
        found = await password_reset.verdict(self.checks, account, address, line)
        if found is None:
            return None
        return refused(found.refusal) if found.refusal else Outcome(account, reset_id=found.reset_id)

    async def finish_reset(self, account: Account, reset_id: int, address: str, password: str,
                           door: str) -> Outcome:
        """The new password after a reset code (:attr:`Outcome.reset_id`): stored, the code spent,
        and the login done."""
        try:
            new_hash = await self.checks.hash(address, password)
        except ChecksBusy:
            return self.audited(refused("login.busy"), door, address, account.name)
        if not await password_reset.complete(account, reset_id, new_hash, door, address):
            return self.audited(refused("login.reset_used"), door, address, account.name)
        return Outcome(account, failures=self.throttle.succeeded(account.name, address))

    async def create(self, name: str, address: str, password: str, lang: str, encoding: str | None,
                     door: str = "") -> Outcome:
        """A new account (telnet): the name was free at the name prompt, but somebody may have
        taken it since."""
        if await accounts.find(name) is not None:
            return self.audited(refused("account.name_taken"), door, address, name)
        return self.audited(await self._create(name, address, password, lang, encoding, door), door, address, name)

    async def _create(self, name: str, address: str, password: str, lang: str, encoding: str | None,
                      door: str) -> Outcome:
        wait = self.creations.wait_left(address)
        if wait > 0:
            return refused("login.too_many_new", minutes=max(1, int(wait // 60) + 1))
        try:
            password_hash = await self.checks.hash(address, password)
            account = await accounts.create(name, password_hash, lang, self.admins, encoding)
        except ChecksBusy:
            return refused("login.busy")
        except accounts.NameTaken:  # the same name (or a look-alike) made at the same moment
            return refused("account.name_taken")
        self.creations.record(address)
        audit("account_created", door=door, address=address, name=account.name)
        self.throttle.succeeded(name, address)  # guesses at the name before it was anyone's are nobody's news
        return Outcome(account, created=True)

    async def check_old(self, account: Account, address: str, password: str) -> Outcome:
        """The old password given to ``password`` (a logged-in player): the same waits, queue
        and failure count as a login."""
        early = self._before_check(account.name, address)
        if early is not None:
            return early
        checked = await self._check(account.name, address, account.password_hash, password)
        return checked if isinstance(checked, Outcome) else Outcome(account)
