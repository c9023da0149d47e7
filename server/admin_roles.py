"""The work of `korchma admin` (server/cli_admin.py) on the database, and the server's end of it:
the control channel's "role" operation, which gives an online player their new role at once."""
from __future__ import annotations

import difflib
import logging
import sys
from typing import Any

from world import accounts, db
from world.audit import audit
from world.messages import msg
from world.models import Account

from . import control, startup
from .config import Config

NOT_REACHED = "the server was not reached (not running?): it applies when they next log in"


async def with_database(cfg: Config, work: Any) -> int:
    logging.getLogger("tortoise").setLevel(logging.WARNING)  # no "shutdown" line for a one-line command
    await startup.open_database(cfg.database_url, in_data_dir=not cfg.server.get("database_url"))
    try:
        return await work()
    finally:
        await db.close()


def _admins(cfg: Config) -> list[str]:
    return list(cfg.section("accounts")["admins"])


def _listed_in(cfg: Config) -> str:
    return f"[accounts] admins in {cfg.origin('accounts', 'admins')}"


async def _account(name: str) -> Account | None:
    account = await accounts.find(name)
    if account is None:
        names = await Account.all().values_list("name", flat=True)
        close = suggestions(name, list(names))
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        print(f"korchma: no account is called {name}{hint}", file=sys.stderr)
    return account


def suggestions(typed: str, names: list[str]) -> list[str]:
    """Names close to ``typed``: the looser matches players get in the game (a start of the
    name, the other script, another case), else near spellings."""
    from commands.names import latin_fold, loose_matches  # the commands' package is slow to import

    found = loose_matches(typed, names)
    if not found:
        folded = {latin_fold(n): n for n in names}
        found = [folded[f] for f in difflib.get_close_matches(latin_fold(typed), list(folded), n=3, cutoff=0.6)]
    return found[:3]


def _tell(cfg: Config, account: Account) -> str:
    """Tell the running server the stored role changed; what became of it, for the one line."""
    reply = control.request(cfg.data_dir, "role", account_id=account.id)
    if reply is None:
        return NOT_REACHED
    if not reply.get("ok"):
        return f"the server refused the news ({reply.get('error')}): it applies when they next log in"
    return "they are online and were told" if reply.get("online") else "they are not online: it applies when they log in"


async def add(cfg: Config, name: str) -> int:
    account = await _account(name)
    if account is None:
        return 1
    if accounts.config_admin(account.name, _admins(cfg)):
        print(f"{account.name} is already an admin: listed in {_listed_in(cfg)}; nothing changed")
        return 0
    if account.role == "admin":
        print(f"{account.name} is already an admin (kept in the database); nothing changed")
        return 0
    was = account.role
    account.role = "admin"
    await account.save(update_fields=["role"])
    audit("role", by="cli", name=account.name, role="admin", was=was)
    print(f"{account.name} is now an admin (kept in the database); {_tell(cfg, account)}")
    return 0


async def remove(cfg: Config, name: str) -> int:
    listed = next((a for a in _admins(cfg) if accounts.name_key(a) == accounts.name_key(name)), None)
    if listed is not None:  # whether or not the account exists yet
        print(f"korchma: {listed} is an admin by {_listed_in(cfg)}; take the name off that list "
              f"and restart the server", file=sys.stderr)
        return 1
    account = await _account(name)
    if account is None:
        return 1
    if account.role != "admin":
        print(f"{account.name} is not an admin; nothing changed")
        return 0
    account.role = "player"
    await account.save(update_fields=["role"])
    audit("role", by="cli", name=account.name, role="player", was="admin")
    print(f"{account.name} is no longer an admin; {_tell(cfg, account)}")
    return 0


async def list_admins(cfg: Config, name: str | None) -> int:
    listed = _admins(cfg)
    stored = await Account.filter(role="admin").order_by("name_key").values_list("name", flat=True)
    rows: list[tuple[str, str]] = []  # (name, where it comes from)
    for wanted in listed:
        account = await accounts.find(wanted)
        rows.append((account.name if account else wanted,
                     f"config, {_listed_in(cfg)}" + ("" if account else " (no account yet)")))
    rows += [(n, "database (korchma admin add)") for n in stored if not accounts.config_admin(n, listed)]
    if name:  # `admin list NAME`: that one only
        rows = [row for row in rows if accounts.name_key(row[0]) == accounts.name_key(name)]
    lines = [f"{shown}: {source}" for shown, source in rows]
    print(f"{len(lines)} admin{'' if len(lines) == 1 else 's'}" + (":" if lines else ""))
    for line in lines:
        print(f"  {line}")
    return 0


ACTIONS = {"add": add, "remove": remove, "list": list_admins}


# -- the server's end ---------------------------------------------------------------------------

@control.handler("role")
async def role_changed(app: Any, request: dict[str, Any]) -> dict[str, Any]:
    """The stored role of ``account_id`` changed: the live account (if online) takes it now, with
    the config's admins laid over, and the player is told."""
    live = app.world.accounts.get(int(request["account_id"]))
    if live is None:
        return {"online": False}
    before = live.role
    stored = await Account.filter(id=live.id).values_list("role", flat=True)
    if stored:
        live.role = stored[0]
    accounts.apply_config_admins(live, app.config.section("accounts")["admins"])
    if live.role == "admin" and before != "admin":
        app.world.deliver(live.id, msg("mod.made_admin"))
    elif before == "admin" and live.role != "admin":
        app.world.deliver(live.id, msg("mod.unmade_admin"))
    return {"online": True, "role": live.role}
