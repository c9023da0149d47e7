"""One-time password reset codes.

An admin's ``resetpass NAME`` (commands/password_reset.py) makes a code and shows it to the admin
once; the player types it where the password is asked (telnet's password prompt, SSH's
keyboard-interactive ``Password:`` or the password method) and then chooses a new password. The
code is stored only as its argon2 hash, expires after ``accounts.reset_code_hours``, works once,
and a new code for the account deletes the older ones. Checking a code goes through the same check
queue and failure books as a password (world/logins.py), and neither the code nor the new password
ever reaches a log (world/log_redact.py) or the audit trail.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from . import accounts, db
from .audit import audit
from .log_redact import secret_scope
from .login_guard import PasswordChecks
from .models import Account, PasswordReset

# No look-alikes (0/o, 1/l/i): a code is read off one screen and typed on another.
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
GROUPS, GROUP_LENGTH = 3, 4  # "abcd-efgh-jkmn": 12 symbols of 31, about 59 bits


def new_code() -> str:
    return "-".join("".join(secrets.choice(ALPHABET) for _ in range(GROUP_LENGTH)) for _ in range(GROUPS))


def normalize(text: str) -> str | None:
    """``text`` as a code in its one spelling ("ABCD efgh-jkmn" -> "abcd-efgh-jkmn"), or None when it
    cannot be one (then it is only ever a password)."""
    bare = "".join(ch for ch in text.strip().lower() if ch not in "- ")
    if len(bare) != GROUPS * GROUP_LENGTH or any(ch not in ALPHABET for ch in bare):
        return None
    return "-".join(bare[i:i + GROUP_LENGTH] for i in range(0, len(bare), GROUP_LENGTH))


async def issue(checks: PasswordChecks, account: Account, by: str, address: str, hours: float) -> str:
    """A new code for ``account`` (the older ones stop working); the caller shows it once."""
    code = new_code()
    with secret_scope(code):
        code_hash = await checks.hash(address, code)
        async with db.transaction():
            await PasswordReset.filter(account_id=account.id).delete()
            await PasswordReset.create(account_id=account.id, code_hash=code_hash, by=by,
                                       expires_at=accounts.now() + timedelta(hours=hours))
    audit("password_reset", stage="issued", by=by, name=account.name)
    return code


@dataclass(frozen=True)
class Verdict:
    """What a typed code turned out to be: ``reset_id`` of the code that matched and may be used,
    or ``refusal``, a message key saying why not."""

    reset_id: int | None = None
    refusal: str | None = None


async def verdict(checks: PasswordChecks, account: Account, address: str, line: str) -> Verdict | None:
    """``line`` (which was not the password) read as a reset code of ``account``; None when it is
    no code of this account at all (no code issued, or the line is not shaped like one), so the
    wrong-password refusal stands. May raise login_guard.ChecksBusy."""
    code = normalize(line)
    if code is None:
        return None
    row = await PasswordReset.filter(account_id=account.id).order_by("-id").first()
    if row is None:
        return None
    with secret_scope(code):
        checked = await checks.check(address, row.code_hash, code)
    if not checked.ok:
        return Verdict(refusal="login.reset_bad_code")
    if row.used_at is not None:
        return Verdict(refusal="login.reset_used")
    if row.expires_at <= accounts.now():
        return Verdict(refusal="login.reset_expired")
    return Verdict(reset_id=row.id)


async def complete(account: Account, reset_id: int, password_hash: str, door: str, address: str) -> bool:
    """Use the code: the new password hash is stored and the code spent, together. False when the
    code was spent (or replaced) meanwhile, e.g. by the same code typed on another connection."""
    async with db.transaction():
        spent = await PasswordReset.filter(id=reset_id, account_id=account.id, used_at=None).update(
            used_at=accounts.now())
        if not spent:
            return False
        await Account.filter(id=account.id).update(password_hash=password_hash)
    account.password_hash = password_hash
    audit("password_reset", stage="used", by=account.name, name=account.name, door=door, address=address)
    return True
