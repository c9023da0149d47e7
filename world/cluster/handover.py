"""Handing a node's tables to the other nodes before it stops: the table half of `korchma drain`
(docs/cluster.md, "Rolling upgrade"; the sessions' half is server/drain.py).

For each open or running table, one at a time:

1. its runner stops: the action in hand finishes and is stored (the lock), then no clock, bot
   or retry moves it here any more. The lease is still this node's meanwhile, so nobody else
   has started it;
2. the proxies of players on other nodes at it go quietly (their nodes follow the lease to the
   new owner and attach them there, world/cluster/play.py ``_follow_leases``: one line, "nothing
   lost, play on"); the people here are told once that the table is moving and go to the hall;
3. its lease is given back (compare and delete), so every other node's next look for tables
   without an owner (each heartbeat, ``TableOwnership.adopt_lapsed``) takes it at once, instead
   of after ``lease_seconds``; the new owner rebuilds it from its seed and log as at a restart.

Then it waits until another node holds each lease, up to ``wait`` seconds. A table nobody took by
then is still safe in the database: its lease is free, and the next node that beats takes it.
While draining the node neither takes tables (``TableOwnership.draining``) nor opens new ones.
"""
from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..messages import msg
from .lease import lease_owner

if TYPE_CHECKING:
    from ..ports import TableHost
    from .ownership import TableOwnership

log = logging.getLogger("korchma.cluster")

#: Seconds a draining node waits for the others to take its tables, beyond one lease: a node looks
#: for tables without an owner every heartbeat, then rebuilds each from its log.
EXTRA_WAIT = 10.0


@dataclass
class Handover:
    """What a drain did with the node's tables."""

    taken: dict[int, str] = field(default_factory=dict)  # table -> the node that took it
    untaken: list[int] = field(default_factory=list)  # given back, not yet taken when the wait ended


async def hand_over(manager: "TableHost", ownership: "TableOwnership", play: Any, wait: float,
                    every: float = 0.1) -> Handover:
    """Give every open and running table of this node to the others (above); wait for them."""
    ownership.draining = True
    if play is not None:
        play.draining = True
    numbers: list[int] = []
    for table in sorted(manager.tables.values(), key=lambda t: t.number):
        if table.state_name not in ("open", "running") or table.number not in ownership.leases.held:
            continue
        if table.runner is not None:
            await table.runner.stop()
        epoch = ownership.leases.forget(table.number)
        if play is not None:
            play.let_go_of(table.number)
        manager.drop(table, told=msg("drain.table_moving", number=table.number))
        await ownership.leases.release(table.number, epoch)
        log.info("table %d: given back for another node to take (node %s drains)", table.number, ownership.node)
        numbers.append(table.number)
    handover = Handover()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    while True:
        for number in numbers:
            if number not in handover.taken:
                owner = await lease_owner(ownership.client, number)
                if owner is not None and owner != ownership.node:
                    handover.taken[number] = owner
        if len(handover.taken) == len(numbers) or loop.time() >= deadline:
            break
        await asyncio.sleep(every)
    handover.untaken = [n for n in numbers if n not in handover.taken]
    return handover
