"""`korchma admin add|remove|list [NAME]`: make and unmake admins without editing a config file.

Two sources of admins, layered (world/accounts.py): the names in `[accounts] admins` of the config
files are admins while they are listed there; `admin add` stores role "admin" in the database,
where it lasts until `admin remove`. A name the config lists belongs to the config: `remove`
says which file and line list it. Works on the database alone; a running server on the same
data folder is told through the control channel (server/control.py), so an admin who is online
is told at once and their next command already works with the new role. The work itself, and
the server's end of the channel, are in server/admin_roles.py (imported only when it runs, so
other commands do not load the ORM for nothing).
"""
from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from .config import Config


def register(sub: Any) -> None:
    from .cli import common_flags

    summary = "make, unmake or list admins (kept in the database)"
    p = sub.add_parser("admin", help=summary, description=summary)
    common_flags(p)
    p.add_argument("action", choices=("add", "remove", "list"), help="add or remove NAME; list the admins (or NAME only)")
    p.add_argument("name", nargs="?", metavar="NAME", help="the account (needed for add and remove)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace, cfg: Config) -> int:
    if args.action != "list" and not args.name:
        print(f"korchma: admin {args.action} needs a NAME (see korchma admin --help)", file=sys.stderr)
        return 2
    from . import admin_roles

    return asyncio.run(admin_roles.with_database(cfg, lambda: admin_roles.ACTIONS[args.action](cfg, args.name)))
