"""A seat that a bot plays for its player (they left a running game, or missed too many
decisions: world/absence.py) is marked in its row too, so that a table rebuilt from the database
(a restart, another node's takeover after a `kill -9`, a drain: docs/cluster.md) keeps the bot at
it instead of waiting for a player who is not there. Their return (``join``, a login, a command
at the table) hands the seat back, in memory at once and in the row after.

The row is written with the seat's value at the moment of the write, so writes that race each
other (a leave and a join typed in a moment) still leave the last value; a write that fails for
storage trouble is logged and forgotten (the seat then goes back to its player at a rebuild, as
it did before the mark was kept)."""
from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from .best_effort import best_effort
from .models import Seat

if TYPE_CHECKING:
    from .table_data import Table


async def store_autopilot(table: "Table", number: int) -> None:
    """Write seat ``number``'s autopilot mark as it is now."""
    seat = table.seats[number]
    with best_effort("the autopilot mark of seat %d at table %d", number, table.number):
        await Seat.filter(table_id=table.number, number=number).update(autopilot=seat.autopilot)


def hand_back(table: "Table", number: int) -> bool:
    """The player is back: the seat is theirs (and their missed decisions start again from 0);
    the row follows in a moment. True if a bot held it."""
    seat = table.seats[number]
    was = seat.autopilot
    seat.autopilot, seat.timeouts = False, 0
    if was:
        _spawn(store_autopilot(table, number))
    return was


_writes: set[asyncio.Task] = set()  # kept until done (a task nobody holds may be collected)


def _spawn(write) -> None:
    task = asyncio.get_running_loop().create_task(write)
    _writes.add(task)
    task.add_done_callback(_writes.discard)
