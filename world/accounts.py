"""Accounts: names, creation, bans, SSH keys. Passwords and the login throttle: world/login_guard.py."""
from __future__ import annotations

import base64
import hashlib
import re
import time
from datetime import datetime, timedelta, timezone
from typing import Iterable

from tortoise.exceptions import IntegrityError

from .addresses import AddressSet, address_key
from .models import NAME_LENGTH, Account, Ban, SshKey

NAME_RE = re.compile(r"^[A-Za-zА-Яа-яЁёІіЇїЄєҐґ][A-Za-zА-Яа-яЁёІіЇїЄєҐґ0-9_-]{1,19}$")
RESERVED = {"master", "мастер", "майстер", "system", "admin", "root", "new", "bot", "бот", "guest"}

# Look-alike letters fold to one form, so names that differ only by them collide. Applied after
# casefold(); Cyrillic letters that look like Latin ones map to the Latin letter.
_LOOKALIKE = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d",
    "ү": "y", "һ": "h", "ԛ": "q", "ԝ": "w", "ɡ": "g", "0": "o", "l": "i", "1": "i", "|": "i",
    "_": "-",
})

UTC = timezone.utc


def now() -> datetime:
    return datetime.now(UTC)


def name_problem(name: str) -> str | None:
    """A message key saying what is wrong with a new name, or None if it is good."""
    if not 2 <= len(name) <= 20:
        return "account.name_length"
    if not NAME_RE.fullmatch(name):
        return "account.name_chars"
    key = name_key(name)
    if name.casefold() in RESERVED or key in {name_key(r) for r in RESERVED}:
        return "account.name_reserved"
    if key.startswith(_BOT_PREFIXES) or _BOT_NUMBER.fullmatch(name.casefold()):  # bots' names (world/tables.py)
        return "account.name_reserved"
    return None


def name_key(name: str) -> str:
    return name.casefold().translate(_LOOKALIKE)


_BOT_PREFIXES = tuple(name_key(p) for p in ("бот-", "bot-"))
_BOT_NUMBER = re.compile(r"(bot|бот)\d+")


def _stored_key(name: str) -> str | None:
    """``name``'s key, or None when no account or ban can have it: longer than the column holds,
    and the ORM refuses to even run a query with it."""
    key = name_key(name)
    return key if len(key) <= NAME_LENGTH else None


async def find(name: str) -> Account | None:
    key = _stored_key(name)
    return await Account.get_or_none(name_key=key) if key is not None else None


class NameTaken(Exception):
    """Somebody made an account with this name (or one folding to the same key) meanwhile."""


async def create(name: str, password_hash: str, lang: str, admins: list[str],
                 encoding: str | None = None) -> Account:
    """A new account. Two people may ask for names with one key at the same moment (each saw it
    free): the database's unique key decides, and the second one gets :class:`NameTaken`."""
    try:
        account = await Account.create(name=name, name_key=name_key(name), lang=lang,
                                       password_hash=password_hash, role="player", encoding=encoding)
    except IntegrityError:
        if await find(name) is None:  # some other constraint: not a name clash
            raise
        raise NameTaken(name) from None
    apply_config_admins(account, admins)
    return account


def password_problem(password: str) -> str | None:
    if len(password) < 4:
        return "account.password_short"
    if len(password) > 200:
        return "account.password_long"
    return None


# Two sources of admins, layered (docs/decisions.md "Command line"): a name listed in
# `[accounts] admins` is an admin while it is listed, and the config is never written into the
# database; `korchma admin add` stores role "admin" in the database, which lasts until `korchma
# admin remove`. A name in the config list belongs to the config: its stored role is not "admin"
# (`settle_config_admins` at start-up clears the copies older versions wrote at each login).


def config_admin(name: str, admins: Iterable[str]) -> bool:
    key = name_key(name)
    return any(name_key(a) == key for a in admins)


def apply_config_admins(account: Account, admins: Iterable[str]) -> None:
    """``account`` (as loaded) with the config's admin role laid over it, in memory only."""
    if config_admin(account.name, admins):
        account.role = "admin"


async def sync_admin_role(account: Account, admins: list[str]) -> None:
    """At login, or when either source changed: the config's admins are admins; anybody else
    has the role stored in the database (so a name taken off the list is demoted, unless the
    command line made them an admin)."""
    if config_admin(account.name, admins):
        account.role = "admin"
        return
    if account.role != "admin":  # only the config sets a role in memory, and only "admin"
        return
    stored = await Account.filter(id=account.id).values_list("role", flat=True)
    if stored:
        account.role = stored[0]


async def settle_config_admins(admins: list[str]) -> int:
    """Clear the stored "admin" of names the config lists (older versions copied the config
    there at each login, so taking a name off the list would no longer demote it); how many."""
    keys = [name_key(a) for a in admins]
    if not keys:
        return 0
    return await Account.filter(role="admin", name_key__in=keys).update(role="player")


class CreationLimit:
    """At most ``per_address`` new accounts from one address (world/addresses.py ``address_key``:
    an IPv4 address or an IPv6 /64) within ``window`` seconds, so one visitor cannot fill the
    name space; addresses in ``exempt`` (addresses or networks) are neither limited nor counted."""

    def __init__(self, per_address: int = 3, window: float = 3600.0, exempt: Iterable[str] = ()) -> None:
        self.per_address, self.window = per_address, window
        self.exempt = AddressSet(exempt)
        self.made: dict[str, list[float]] = {}  # by address_key

    def _key(self, address: str) -> str | None:
        """The unit ``address`` counts in, or None when it is not limited."""
        if self.per_address <= 0 or address in self.exempt:
            return None
        return address_key(address)

    def wait_left(self, address: str, clock: float | None = None) -> float:
        key = self._key(address)
        if key is None:
            return 0.0
        t = time.monotonic() if clock is None else clock
        recent = [m for m in self.made.get(key, []) if m > t - self.window]
        if recent:
            self.made[key] = recent
        else:
            self.made.pop(key, None)
        if len(recent) < self.per_address:
            return 0.0
        return recent[-self.per_address] + self.window - t

    def record(self, address: str, clock: float | None = None) -> None:
        key = self._key(address)
        if key is not None:
            self.made.setdefault(key, []).append(time.monotonic() if clock is None else clock)


async def lift_name_bans(name: str) -> int:
    """Remove the bans of ``name``; how many there were."""
    key = _stored_key(name)
    return await Ban.filter(name_key=key).delete() if key is not None else 0


async def active_ban(name: str | None, address: str | None) -> Ban | None:
    current = now()
    query = Ban.filter()
    bans = []
    key = _stored_key(name) if name else None
    if key is not None:
        bans += await query.filter(name_key=key)
    if address:
        bans += await Ban.filter(address=address)
    for ban in bans:
        if ban.until is None or ban.until > current:
            return ban
    return None


def parse_duration(text: str) -> timedelta | None:
    """'30m', '2h', '7d', '45s', '1w' (Russian and Ukrainian letters too: м, ч/г, д, с, н/тиж)."""
    m = re.fullmatch(r"(\d+)\s*([smhdwсмчдн]|г|год|тиж)?", text.strip().lower())
    if not m:
        return None
    n, unit = int(m.group(1)), m.group(2) or "m"
    seconds = {"s": 1, "с": 1, "m": 60, "м": 60, "h": 3600, "ч": 3600, "г": 3600, "год": 3600,
               "d": 86400, "д": 86400, "w": 604800, "н": 604800, "тиж": 604800}[unit]
    return timedelta(seconds=n * seconds)


# SSH keys ----------------------------------------------------------------------------------

KEY_RE = re.compile(r"^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(?:256|384|521)|sk-ssh-ed25519@openssh\.com"
                    r"|sk-ecdsa-sha2-nistp256@openssh\.com)\s+([A-Za-z0-9+/=]+)(?:\s+(.*))?$")


def parse_public_key(text: str) -> tuple[str, str, str, str] | None:
    """(algorithm, base64 blob, comment, SHA256 fingerprint) of an OpenSSH public key line."""
    m = KEY_RE.match(text.strip())
    if not m:
        return None
    algorithm, blob, comment = m.group(1), m.group(2), (m.group(3) or "").strip()
    try:
        raw = base64.b64decode(blob, validate=True)
    except ValueError:
        return None
    # The blob starts with the algorithm name as an SSH string: check it matches.
    if len(raw) < 4 or raw[4:4 + int.from_bytes(raw[:4], "big")].decode("ascii", "replace") != algorithm:
        return None
    digest = base64.b64encode(hashlib.sha256(raw).digest()).decode().rstrip("=")
    return algorithm, blob, comment[:200], f"SHA256:{digest}"


async def account_keys(account: Account) -> list[SshKey]:
    return await SshKey.filter(account=account).order_by("id")
