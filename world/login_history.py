"""Where each account logged in from, for the admin's `where NAME`: one row per (account, door,
address) with how often and when last, kept in the database so it outlives a restart.

Bounded, so months of logins do not grow it without end: an account keeps its ``KEEP_PER_ACCOUNT``
most recent (door, address) pairs, and a pair not seen for ``KEEP_DAYS`` days is dropped. Both
are trimmed at the account's own login, which is the only time its rows grow.
"""
from __future__ import annotations

from datetime import timedelta

from tortoise.exceptions import IntegrityError
from tortoise.expressions import F

from . import accounts
from .models import Account, LoginRecord

KEEP_PER_ACCOUNT = 20
KEEP_DAYS = 90


async def record(account: Account, door: str, address: str) -> None:
    """Count one login of ``account`` through ``door`` from ``address``, and trim its history."""
    moment = accounts.now()
    address = address[:64]
    updated = await LoginRecord.filter(account_id=account.id, door=door, address=address).update(
        count=F("count") + 1, last_seen=moment)
    if not updated:
        try:
            await LoginRecord.create(account_id=account.id, door=door, address=address, last_seen=moment)
        except IntegrityError:  # a second session of the pair made the row meanwhile: count on it
            await LoginRecord.filter(account_id=account.id, door=door, address=address).update(
                count=F("count") + 1, last_seen=moment)
    await _trim(account.id, moment)


async def _trim(account_id: int, moment) -> None:
    await LoginRecord.filter(account_id=account_id, last_seen__lt=moment - timedelta(days=KEEP_DAYS)).delete()
    keep = await LoginRecord.filter(account_id=account_id).order_by("-last_seen", "-id") \
        .limit(KEEP_PER_ACCOUNT).values_list("id", flat=True)
    await LoginRecord.filter(account_id=account_id).exclude(id__in=list(keep)).delete()


async def recent(account_id: int) -> list[LoginRecord]:
    """The account's (door, address) pairs, the most recently seen first."""
    return await LoginRecord.filter(account_id=account_id).order_by("-last_seen", "-id")
