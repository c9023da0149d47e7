"""SIGHUP: read the configuration again (the same files and flags the server started with) and
apply what can change while it runs.

A file that does not load (TOML syntax, an unknown key, a bad value: server/config_check.py) is
refused with its own one line, naming the file and key, and the configuration in force stays as
it was. Otherwise every changed key is either applied at once (:data:`LIVE`) or kept at its old
value and reported as needing a restart (ports, folders, the database, argon2's parameters: what
was opened or built at start). One log line (an audit record, world/audit.py) says what changed,
``key: old -> new``, and what waits for a restart.

"Applied" means: read from the configuration at its next use (the banner, the MOTD, a new
session's limits, a new table's options and timings), or pushed into the objects that hold it
(the login throttle, the check queue, the new-account and connection limits, the admins, whose
role follows at once for those online, and the log level). The log file is reopened too, so a
file that logrotate moved away is let go.
"""
from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Callable, Iterator

from world import accounts
from world.addresses import AddressSet
from world.audit import audit
from world.best_effort import best_effort
from world.messages import msg

from . import logs
from .config import Config
from .startup import StartupError

log = logging.getLogger("korchma.reload")

#: Keys applied while the server runs: "section.key", or "section" for all of its keys (the
#: [games.NAME] table options are read when a table opens). Any other key needs a restart, so a
#: key added later is safe until someone says how it can change live.
LIVE = frozenset({
    "server.name", "server.default_language", "server.motd",
    "accounts.admins", "accounts.login_attempts", "accounts.login_backoff", "accounts.login_backoff_max",
    "accounts.login_forget", "accounts.new_accounts_per_address", "accounts.new_accounts_window",
    "accounts.new_accounts_exempt", "accounts.checks_per_address", "accounts.checks_exempt",
    "accounts.checks_queued_max",
    "limits.max_line", "limits.commands_per_second", "limits.command_burst", "limits.flood_mute",
    "limits.connections_per_address", "limits.connections_exempt",
    "limits.aliases_per_account", "limits.alias_length",
    "tables", "games",
    "board",
    "log.level",
})


def is_live(dotted: str) -> bool:
    parts = dotted.split(".")
    return any(".".join(parts[:n]) in LIVE for n in range(1, len(parts) + 1))


def _leaves(raw: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in raw.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from _leaves(value, dotted + ".")
        else:
            yield dotted, value


def changes(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """Every key whose value differs, as (dotted key, old, new); a missing side is None."""
    before, after = dict(_leaves(old)), dict(_leaves(new))
    return [(key, before.get(key), after.get(key)) for key in sorted(before.keys() | after.keys())
            if before.get(key) != after.get(key)]


def _show(value: Any) -> str:
    return "(none)" if value is None else json.dumps(value, ensure_ascii=False)


def _put(raw: dict[str, Any], dotted: str, value: Any) -> None:
    *path, last = dotted.split(".")
    for part in path:
        raw = raw.setdefault(part, {})
    if value is None:
        raw.pop(last, None)
    else:
        raw[last] = value


class Reloader:
    """Reload ``app``'s configuration with ``load_again`` (server/cli.py: the start's files and flags)."""

    def __init__(self, app: Any, load_again: Callable[[], Config]) -> None:
        """``app``: server/app.py App (not imported: it imports this module)."""
        self.app, self.load_again = app, load_again
        self.lock = asyncio.Lock()  # two quick SIGHUPs: one reload after the other
        self.tasks: set[asyncio.Task] = set()

    def on_signal(self) -> None:
        task = asyncio.get_running_loop().create_task(self.reload())
        self.tasks.add(task)  # held until done, or the loop may drop it
        task.add_done_callback(self.tasks.discard)

    async def reload(self) -> bool:
        """True if the files loaded (whatever changed); False if they were refused."""
        async with self.lock:
            return await self._reload()

    async def _reload(self) -> bool:
        try:
            fresh = self.load_again()
        except StartupError as err:
            log.error("configuration reload refused, the configuration in force stays: %s", err)
            return False
        except Exception:  # noqa: BLE001 - a signal must never stop the server
            log.exception("configuration reload failed, the configuration in force stays")
            return False
        cfg = self.app.config
        applied, waiting = [], []
        for key, old, new in changes(cfg.raw, fresh.raw):
            line = f"{key}: {_show(old)} -> {_show(new)}"
            if is_live(key):
                _put(cfg.raw, key, new)
                applied.append(line)
            else:
                waiting.append(line)
        logs.LOGS.reopen()
        if applied:
            await self._push(cfg)
        audit("config_reloaded", by="SIGHUP", changed="; ".join(applied) or "nothing",
              needs_restart="; ".join(waiting) or None)
        return True

    async def _push(self, cfg: Config) -> None:
        """Into the objects built from the configuration at start."""
        app = self.app
        acc, limits = cfg.section("accounts"), cfg.section("limits")
        throttle = app.throttle
        throttle.attempts, throttle.backoff = int(acc["login_attempts"]), float(acc["login_backoff"])
        throttle.backoff_max, throttle.forget = float(acc["login_backoff_max"]), float(acc["login_forget"])
        for book in (throttle.by_pair, throttle.by_address, throttle.by_name):
            book.forget = max(throttle.forget, throttle.backoff_max)
        checks = app.checks
        checks.per_address, checks.queue_max = int(acc["checks_per_address"]), int(acc["checks_queued_max"])
        checks.exempt = AddressSet(acc["checks_exempt"])
        creations = app.creations
        creations.per_address = int(acc["new_accounts_per_address"])
        creations.window = float(acc["new_accounts_window"])
        creations.exempt = AddressSet(acc["new_accounts_exempt"])
        app.connections.per_address = max(0, int(limits["connections_per_address"]))
        app.connections.exempt = AddressSet(limits["connections_exempt"])
        app.logins.admins = list(acc["admins"])
        logs.LOGS.set_level(cfg)
        for account in list(app.world.accounts.values()):  # an admin added or removed is one at once
            before = account.role
            with best_effort("the role of %s", account.name):  # else it follows at the next login
                await accounts.sync_admin_role(account, app.logins.admins)
            if account.role != before:
                audit("role", by="config", name=account.name, old=before, new=account.role)
                app.world.deliver(account.id, msg("mod.role_you", role=msg(f"role.{account.role}")))
