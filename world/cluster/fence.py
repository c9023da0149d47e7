"""The fence (docs/cluster.md, "The lease and the fence"): a write of a running table's state
counts only while the writer's lease epoch is still the table's.

Every step a runner commits, the clock it stores and the end of its game update the table's row
``WHERE id = N AND lease_epoch = E`` first, in the write's own transaction. A node that took the
table has already put a greater epoch into the row (world/cluster/lease.py), so a node that lost
its lease, however late it learns it, matches no row: :class:`LeaseLost` is raised, its
transaction rolls back, and the node drops the table (world/cluster/ownership.py).

On a single node nothing ever takes a table, ``E`` is the row's own (0 for every table made
there) and every row matches: the fence is the same one UPDATE the write made before.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any

from ..models import GameTable

log = logging.getLogger("korchma.runner")


class LeaseLost(Exception):
    """The table's row has another epoch than ours: another node owns the table now."""

    def __init__(self, table_id: int, epoch: int) -> None:
        super().__init__(f"table {table_id}: lease epoch {epoch} is no longer the table's "
                         f"(another node took it)")
        self.table_id, self.epoch = table_id, epoch


async def fenced_update(table_id: int, epoch: int, **fields: Any) -> None:
    """``UPDATE game_table SET fields WHERE id = table_id AND lease_epoch = epoch``; no row: LeaseLost.
    Called first inside the write's transaction, so the refusal rolls the whole write back."""
    if not await GameTable.filter(id=table_id, lease_epoch=epoch).update(**fields):
        raise LeaseLost(table_id, epoch)


def let_go(runner: Any) -> None:
    """With the table's lock held (world/runner.py TableRunner): the table is another node's now
    (the fence refused a write): nothing moves here any more, and the manager drops it (its
    people are told where it went)."""
    if not runner.stopped:
        log.warning("table %d: another node owns it now; it stops here", runner.table.number)
    runner.halt()
    runner.manager.drop(runner.table)


def lose(runner: Any) -> None:
    """From outside the lock (world/cluster/ownership.py: the lease is another node's now):
    nothing is taken from now on and the table is dropped at once; a commit in hand finishes
    first (or fails at the fence), then the clock and the moves stop (``runner.stop``)."""
    runner.stopped = True
    runner.manager.drop(runner.table)
    runner.stopping = asyncio.get_running_loop().create_task(runner.stop())
