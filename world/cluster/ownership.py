"""One node's tables in a cluster: taken, kept, paused, taken over and given back (docs/cluster.md).

* A table opened here is taken when its row is made (:meth:`TableOwnership.take_new`, in the
  row's own transaction, so no other node ever sees the row without its lease).
* At start-up a node rebuilds only the open and running tables it can take (:meth:`claim`);
  the others are some live node's.
* Every heartbeat (:meth:`_beat`) it renews all its leases in one script. A table whose key
  another node holds is dropped (its runner stops; the people here at it are told where it
  went). A renewal counts from the moment it was sent: a node that has not renewed for
  ``lease_seconds - heartbeat_seconds`` (Redis unreachable, or too slow) holds every table it
  owns (the storage-pause machinery, world/storage_pause.py, with the lines below), before its
  lease could have run out anywhere; when Redis answers again, each table whose lease is still
  its own epoch resumes, the others are dropped.
* Every heartbeat, too (:meth:`_adopt`, a loop of its own so that a slow database never delays a
  renewal), it looks for running tables whose lease key is gone (their node died, or let go),
  takes each and rebuilds it from its log as a restart does (world/table_restore.py).
* A clean stop gives every lease back, so that the next node takes the tables at once.

Whatever a write of this node's tries after it lost a table, the fence refuses it
(world/cluster/fence.py).
"""
from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from ..db import transaction
from ..models import GameTable
from ..storage_pause import PauseLines
from ..table_restore import restore_taken
from .fence import lose
from .lease import Leases

if TYPE_CHECKING:
    from ..ports import TableHost

log = logging.getLogger("korchma.cluster")

CLUSTER_LINES = PauseLines("cluster.paused", "cluster.refused", "cluster.resumed", "cluster.resumed_clock",
                           "cluster.look", over="its lease is this node's again")


class ClusterUnavailable(Exception):
    """Redis did not answer when a lease was needed (a new table: refused in one line)."""


class NodeDraining(Exception):
    """The node hands its tables to the others and stops (`korchma drain`): no new table here."""


class TableOwnership:
    def __init__(self, manager: "TableHost", client: Any, node: str, lease_seconds: float,
                 heartbeat_seconds: float) -> None:
        self.manager = manager
        self.client = client
        self.node = node
        self.lease = float(lease_seconds)
        self.heartbeat = float(heartbeat_seconds)
        self.leases = Leases(client, node, lease_seconds)
        self.renewed_at = 0.0  # loop time at which the last renewal that worked was sent
        self.holding = False  # every table is held: no renewal for too long
        self.stopping = False
        self.draining = False  # `korchma drain` (world/cluster/handover.py): no table is taken or opened here
        self._pause_timer: asyncio.TimerHandle | None = None
        self._tasks: list[asyncio.Task] = []

    # -- taking -------------------------------------------------------------------------------

    async def claim(self, row: GameTable) -> bool:
        """Take a table that is in the database (start-up, failover); its row gets our epoch."""
        epoch = await self.leases.claim(row.id, row.lease_epoch)
        if epoch is None:
            return False
        row.lease_epoch = epoch
        log.info("table %d: taken by node %s with lease epoch %d", row.id, self.node, epoch)
        return True

    async def create_table(self, **fields: Any) -> GameTable:
        """A new table's row, taken by this node in the row's own transaction."""
        if self.draining:
            raise NodeDraining(f"node {self.node} is draining")
        number = None
        try:
            async with transaction():
                row = await GameTable.create(**fields)
                number = row.id
                if not await self.claim(row):
                    raise ClusterUnavailable(f"the lease of new table {row.id} is held by another node")
        except BaseException as err:
            if number is not None:  # the row is rolled back: its lease goes too
                self.forget(number)
            if isinstance(err, Exception) and _redis_error(err):
                raise ClusterUnavailable(str(err)) from err
            raise
        return row

    # -- the heartbeat ------------------------------------------------------------------------

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self.renewed_at = loop.time()  # the leases taken at start-up were just set
        self._arm_pause(loop)
        self._tasks = [loop.create_task(self._beat()), loop.create_task(self._adopt())]

    def _arm_pause(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._pause_timer is not None:
            self._pause_timer.cancel()
        self._pause_timer = loop.call_at(self.renewed_at + self.lease - self.heartbeat, self._hold_all)

    async def _beat(self) -> None:
        loop = asyncio.get_running_loop()
        failing = False
        while True:
            sent = loop.time()
            try:
                lost = await asyncio.wait_for(self.leases.renew(), self.heartbeat)
            except Exception as err:  # noqa: BLE001 - Redis unreachable, slow, or refusing
                if not failing:
                    log.warning("node %s: the cluster's Redis does not answer (%s: %s); the tables pause "
                                "if it does not answer within %.1f s", self.node, type(err).__name__, err,
                                max(0.0, self.renewed_at + self.lease - self.heartbeat - loop.time()))
                failing = True
            else:
                if failing:
                    log.info("node %s: the cluster's Redis answers again", self.node)
                failing = False
                self.renewed_at = sent
                self._arm_pause(loop)
                await self._renewed(lost)
            await asyncio.sleep(max(0.0, sent + self.heartbeat - loop.time()))

    def _hold_all(self) -> None:
        """No renewal for lease - heartbeat seconds: the leases may run out soon; stop every table."""
        self._pause_timer = None
        if self.stopping:
            return
        self.holding = True
        log.warning("node %s: no lease renewed for %.1f s; its tables are paused", self.node,
                    self.lease - self.heartbeat)
        for table in list(self.manager.tables.values()):
            if table.runner is not None and table.number in self.leases.held:
                table.runner.storage.hold(CLUSTER_LINES)

    async def _renewed(self, lost: list[int]) -> None:
        for number in lost:
            self.leases.forget(number)
            table = self.manager.tables.get(number)
            log.warning("table %d: its lease is another node's now; dropped here", number)
            if table is not None and table.runner is not None:
                lose(table.runner)
            elif table is not None:  # an open table: nothing runs, it is only forgotten
                self.manager.drop(table)
        if not self.holding:
            return
        self.holding = False
        for table in list(self.manager.tables.values()):
            if table.runner is not None and table.number in self.leases.held:
                log.info("table %d: the lease is still this node's (epoch %d); the game goes on",
                         table.number, self.leases.held[table.number])
                self._spawn(table.runner.storage.lift())  # (it may wait for a slow database)

    async def _adopt(self) -> None:
        failing = False
        while True:
            await asyncio.sleep(self.heartbeat)
            if self.holding or self.stopping or self.draining:
                continue
            try:
                await self.adopt_lapsed()
                failing = False
            except Exception as err:  # noqa: BLE001 - tried again at the next heartbeat
                if not failing:
                    log.warning("node %s: looking for tables without an owner failed (%s: %s)",
                                self.node, type(err).__name__, err)
                failing = True

    async def adopt_lapsed(self) -> None:
        """Take each open or running table no lease covers (its node died, or drained) and rebuild
        it from its log. (A live node's open table always has its lease: it is taken with its row.)"""
        rows = await GameTable.filter(state__in=("open", "running")).values_list("id", flat=True)
        candidates = [n for n in rows if n not in self.leases.held and n not in self.manager.tables]
        for number in await self.leases.lapsed(candidates):
            if self.holding or self.stopping or self.draining:
                return
            row = await GameTable.get_or_none(id=number)
            if row is None or row.state not in ("open", "running") or not await self.claim(row):
                continue
            log.info("table %d: its owner's lease had lapsed; node %s rebuilds it from its log", number, self.node)
            try:
                await restore_taken(self.manager, row)
            except BaseException:
                await self.leases.release(number)
                raise
            self.settle()
            self.manager.announce_tables()  # GMCP clients (here and at other nodes' tables) see it back

    def settle(self) -> None:
        """Leases of tables that are not open or running here (marked broken while rebuilt) go back."""
        for number in list(self.leases.held):
            table = self.manager.tables.get(number)
            if table is None or table.state_name not in ("open", "running"):
                self.forget(number)

    # -- letting go ---------------------------------------------------------------------------

    def forget(self, number: int) -> None:
        """The table is not this node's any more (dropped, over): its lease goes back, if ours."""
        epoch = self.leases.forget(number)
        if epoch is not None and not self.stopping:
            self._spawn(self._give_back(number, epoch))

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.append(task)
        task.add_done_callback(lambda t: t in self._tasks and self._tasks.remove(t))

    async def _give_back(self, number: int, epoch: int) -> None:
        try:
            await self.leases.release(number, epoch)
        except Exception as err:  # noqa: BLE001 - it runs out by itself
            log.debug("table %d: the lease could not be given back (%s)", number, err)

    async def stop(self) -> None:
        """A clean stop (after the runners stopped): every lease goes back."""
        self.stopping = True
        if self._pause_timer is not None:
            self._pause_timer.cancel()
        for task in self._tasks:
            task.cancel()
        for number in sorted(self.leases.held):
            try:
                await asyncio.wait_for(self.leases.release(number), self.heartbeat)
            except Exception as err:  # noqa: BLE001 - it runs out by itself
                log.debug("table %d: the lease could not be given back (%s)", number, err)
        try:
            await self.client.aclose()
        except Exception:  # noqa: BLE001
            pass


def _redis_error(err: BaseException) -> bool:
    from redis.exceptions import RedisError

    return isinstance(err, (RedisError, asyncio.TimeoutError))


def for_node(manager: "TableHost", config: Any, telnet_port: int) -> TableOwnership | None:
    """The node's table ownership when clustering is on (``[cluster] redis_url``), else None."""
    from . import enabled, node_name, redis_client

    if not enabled(config):
        return None
    section = config.section("cluster")
    return TableOwnership(manager, redis_client(config), node_name(config, telnet_port),
                          float(section["lease_seconds"]), float(section["heartbeat_seconds"]))
