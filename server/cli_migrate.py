"""`korchma migrate`: apply the pending schema migrations to the configured database and say in one
line which (or that none were pending). `serve` does the same at start; this is for a host who wants
the upgrade done, and seen, before the server comes back (or with the server stopped)."""
from __future__ import annotations

import argparse
import asyncio

from . import config as config_mod
from .cli import common_flags


def register(sub: argparse._SubParsersAction) -> None:
    summary = "apply pending database schema migrations"
    p = sub.add_parser("migrate", help=summary, description=summary)
    common_flags(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace, cfg: config_mod.Config) -> int:
    print(asyncio.run(_migrate(cfg)), flush=True)
    return 0


async def _migrate(cfg: config_mod.Config) -> str:
    from world import db, schema
    from world.audit import audit

    from . import startup

    in_data_dir = not cfg.server.get("database_url")
    if in_data_dir:  # the default SQLite file: its folder is made as `serve` makes it
        startup.prepare_data_dir(cfg.data_dir)
    try:
        applied = await startup.open_database(cfg.database_url, in_data_dir=in_data_dir)
    finally:
        await db.close()
        startup.wait_for_database_threads()
    if applied:
        audit("schema.migrated", applied=",".join(applied), by="korchma migrate")
    return schema.summary(applied)
