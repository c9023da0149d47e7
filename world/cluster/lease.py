"""Which node owns which table: a lease in Redis and its epoch in PostgreSQL (docs/cluster.md).

* **Take** table N (:meth:`Leases.claim`): one Lua script that, only while no lease key exists,
  does ``INCR korchma:epoch:N`` and ``SET korchma:lease:N NODE:EPOCH PX lease_ms`` (the design's
  ``SET NX`` after ``INCR``, in one step, so a node that finds the key taken burns no epoch), then
  ``UPDATE game_table SET lease_epoch = E WHERE id = N AND lease_epoch < E``. No row changed: a
  newer owner exists, the key is given back and the node lets go. The script is handed the
  row's epoch as a floor: a Redis that restarted empty counts from 0 again, and its next epoch
  must still be greater than the one PostgreSQL holds, or the fence would refuse its owner.
* **Keep**: every heartbeat :meth:`Leases.renew` extends all the node's keys in one script that
  compares each with ``NODE:EPOCH`` first (a key that is someone else's is not touched: that
  table is lost; a key that is gone, as after a Redis restart, is set again, and the epoch in the
  row decides whether it is still ours at the next write).
* **Give back** (:meth:`Leases.release`): compare and delete, at a clean stop or a drop, so the
  next node may take the table at once.

Only Redis and the one UPDATE live here; when to do what is world/cluster/ownership.py.
"""
from __future__ import annotations

import logging
from typing import Any

from ..models import GameTable
from . import PREFIX

log = logging.getLogger("korchma.cluster")

_TAKE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local epoch = redis.call('INCR', KEYS[2])
local floor = tonumber(ARGV[3])
if epoch <= floor then
  epoch = floor + 1
  redis.call('SET', KEYS[2], epoch)
end
redis.call('SET', KEYS[1], ARGV[1] .. ':' .. epoch, 'PX', ARGV[2])
return epoch
"""

# KEYS: the node's lease keys; ARGV[1]: the lease in ms; ARGV[i + 1]: what KEYS[i] must hold.
_RENEW = """
local kept = {}
for i, key in ipairs(KEYS) do
  local value = redis.call('GET', key)
  if value == ARGV[i + 1] then
    redis.call('PEXPIRE', key, ARGV[1])
    kept[i] = 1
  elseif not value then
    redis.call('SET', key, ARGV[i + 1], 'PX', ARGV[1])
    kept[i] = 1
  else
    kept[i] = 0
  end
end
return kept
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def lease_key(table_id: int) -> str:
    return f"{PREFIX}lease:{table_id}"


def epoch_key(table_id: int) -> str:
    return f"{PREFIX}epoch:{table_id}"


async def lease_owner(client: Any, table_id: int) -> str | None:
    """The node whose lease covers the table now, or None (no lease, Redis away)."""
    try:
        value = await client.get(lease_key(table_id))
    except Exception:  # noqa: BLE001 - Redis away: the table is nobody's we can reach
        return None
    if not value:
        return None
    text = value.decode() if isinstance(value, bytes) else str(value)
    return text.rsplit(":", 1)[0]


class Leases:
    """The leases one node holds: table number -> epoch."""

    def __init__(self, client: Any, node: str, lease_seconds: float) -> None:
        self.client = client
        self.node = node
        self.lease_ms = int(lease_seconds * 1000)
        self.held: dict[int, int] = {}
        self._take = client.register_script(_TAKE)
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)

    def value(self, table_id: int) -> str:
        return f"{self.node}:{self.held[table_id]}"

    async def claim(self, table_id: int, floor: int) -> int | None:
        """Take table ``table_id`` (Redis, then its row); its epoch, or None if another node has
        it. ``floor``: the epoch its row holds now. Redis errors are raised."""
        epoch = int(await self._take(keys=[lease_key(table_id), epoch_key(table_id)],
                                     args=[self.node, self.lease_ms, int(floor)]))
        if not epoch:
            return None
        self.held[table_id] = epoch
        if not await GameTable.filter(id=table_id, lease_epoch__lt=epoch).update(lease_epoch=epoch):
            log.info("table %d: a newer owner than epoch %d is in the database; let go", table_id, epoch)
            await self.release(table_id)
            return None
        return epoch

    async def renew(self) -> list[int]:
        """Extend every lease held; the tables whose key another node holds now (lost)."""
        ids = sorted(self.held)
        if not ids:
            await self.client.ping()  # still a check that Redis answers (the pause counts on it)
            return []
        kept = await self._renew(keys=[lease_key(i) for i in ids],
                                 args=[self.lease_ms, *(self.value(i) for i in ids)])
        return [i for i, ok in zip(ids, kept) if not int(ok)]

    async def lapsed(self, table_ids: list[int]) -> list[int]:
        """Of these tables, those no lease covers now."""
        if not table_ids:
            return []
        async with self.client.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                pipe.exists(lease_key(table_id))
            found = await pipe.execute()
        return [t for t, there in zip(table_ids, found) if not there]

    def forget(self, table_id: int) -> int | None:
        """Stop renewing (the table is dropped or over); its epoch, if it was held."""
        return self.held.pop(table_id, None)

    async def release(self, table_id: int, epoch: int | None = None) -> None:
        """Give the key back if it is still ours (compare and delete)."""
        epoch = self.held.pop(table_id, None) if epoch is None else epoch
        if epoch is not None:
            await self._release(keys=[lease_key(table_id)], args=[f"{self.node}:{epoch}"])
