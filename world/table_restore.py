"""Tables rebuilt from the database at start-up; running ones replay their log from the seed.

A table that cannot be rebuilt is marked broken (world/broken_tables.py) and the others start.
Storage trouble on the way (a database locked or gone, a connection dropped) is no table's fault:
:class:`TablesNotRestored` stops the start-up with one line for the host (server/app.py) and
nothing is marked broken, so the next start, with the database back, rebuilds every table.
Stopping is the choice, rather than retrying here, because the server is not serving anyone yet:
a host (or the service manager) that sees the line fixes or waits for the database and starts
again, and a start-up that hangs on a database that is not coming back helps nobody.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Awaitable, Callable

from games import registry

from .broken_tables import GameGone, mark_broken
from .db import is_storage_failure
from .models import ActionLogEntry, GameTable
from .runner import TableRunner
from .table_data import table_of_row

if TYPE_CHECKING:
    from .ports import TableHost


class TablesNotRestored(Exception):
    """The database failed for storage trouble while the tables were rebuilt at start-up."""

    def __init__(self, table_id: int | None, cause: BaseException) -> None:
        where = f"while table {table_id} was rebuilt" if table_id is not None else "while the tables were read"
        super().__init__(f"the database failed {where} ({type(cause).__name__}: {' '.join(str(cause).split())})")
        self.table_id, self.cause = table_id, cause


async def restore_tables(manager: "TableHost", claim: Callable[[GameTable], Awaitable[bool]] | None = None) -> None:
    """Every unfinished table; with ``claim`` (a cluster's node: world/cluster/ownership.py),
    only the open and running ones it takes (the others are another live node's)."""
    try:
        rows = await GameTable.filter(state__in=["open", "running", "broken"]).order_by("id")
    except Exception as err:
        _stop_on_storage_failure(None, err)
        raise
    for row in rows:
        try:
            if claim is not None and row.state != "broken" and not await claim(row):
                continue
            await _restore_or_break(manager, row)
        except Exception as err:
            _stop_on_storage_failure(row.id, err)
            raise


async def restore_taken(manager: "TableHost", row: GameTable) -> None:
    """One table a cluster's node has just taken over (its owner died): rebuilt as at start-up,
    or marked broken. Storage trouble is raised (the node tries again at its next heartbeat)."""
    await _restore_or_break(manager, row)


def _stop_on_storage_failure(table_id: int | None, err: Exception) -> None:
    if is_storage_failure(err):
        raise TablesNotRestored(table_id, err) from err


async def _restore_or_break(manager: "TableHost", row: GameTable) -> None:
    if row.state == "broken":
        manager.tables[row.id] = await table_of_row(row)  # for admins' `tables`, and `join`
        return
    try:
        await _restore_one(manager, row)
    except Exception as err:  # noqa: BLE001 - but storage trouble, whatever it is, it is this table's alone
        if is_storage_failure(err):
            raise
        manager.tables[row.id] = await mark_broken(manager, row, err)


async def _restore_one(manager: "TableHost", row: GameTable) -> None:
    if registry.get(row.game) is None:
        raise GameGone(row.game)
    table = await table_of_row(row)
    seated = [s.account_id for s in table.seats if s.account_id is not None]
    manager.tables[row.id] = table
    for account_id in seated:
        manager.at_table[account_id] = row.id
    try:
        if row.state == "running":
            entries = await ActionLogEntry.filter(table_id=row.id).order_by("step")
            table.runner = TableRunner(manager, table)
            await table.runner.replay(entries, row.deadline_at, row.deadline_step, row.paused_seconds)
    except BaseException:
        if table.runner is not None:
            await table.runner.stop()
        for account_id in seated:
            if manager.at_table.get(account_id) == row.id:
                del manager.at_table[account_id]
        manager.tables.pop(row.id, None)
        raise
