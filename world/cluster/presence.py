"""Who is online on which node, and which tables each node runs, kept in Redis (docs/cluster.md).

- ``korchma:node:NAME``: the node is alive; set with PX ``lease_seconds`` and renewed every
  ``heartbeat_seconds``. A node whose key expired (killed, cut off) is dead: its entries are
  ignored, and the first reader that finds it so removes them.
- ``korchma:presence:NAME``: a hash, account id -> JSON (name, role, room, table, away, the
  moment of the last input, the doors): what `who`, `finger` and a tell need about a player on
  another node.
- ``korchma:tables:NAME``: a hash, table number -> JSON summary (game, options, seats, state):
  what `tables` shows of another node's tables.
- ``korchma:nodes``: the set of node names, so a reader finds the hashes without SCAN.

A node writes only its own keys. At every heartbeat it writes what changed since the last one
(an entry per account whose line changed: arrived, left, moved, went away, typed); after an
outage, or when its node key was gone (Redis restarted empty), it writes everything again, the old
hash dropped first; so does a node starting, over a hash its previous run left.
"""
from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from . import PREFIX
from .bus import RedisHealth, redis_errors
from .codec import to_plain

log = logging.getLogger("korchma.cluster")

NODES = PREFIX + "nodes"
COALESCE = 0.05  # seconds a change waits for others to go in the same write
FULL_EVERY = 30  # heartbeats between two builds of every entry (between them: only what changed)


def node_key(node: str) -> str:
    return f"{PREFIX}node:{node}"


def presence_key(node: str) -> str:
    return f"{PREFIX}presence:{node}"


def tables_key(node: str) -> str:
    return f"{PREFIX}tables:{node}"


def presence_entry(world: Any, account_id: int) -> dict[str, Any]:
    """What other nodes need to know of one account online here (a plain JSON object)."""
    account = world.accounts[account_id]
    table = world.tables.table_of(account_id) if world.tables is not None else None
    at_table = table is not None and world.where(account_id) != "hall"
    live = world.by_account.get(account_id) or []
    idle = world.idle_seconds(account_id)
    return {"name": account.name, "role": account.role, "away": world.social.away.get(account_id),
            "table": table.number if at_table else None, "game": table.game_name if at_table else None,
            "watching": bool(at_table and account_id in table.watchers),
            "input": int(time.time() - idle),  # idle is the reader's now minus this
            "doors": [[s.kind, s.address] for s in live]}


def table_summary(table: Any) -> dict[str, Any]:
    """One of this node's tables as `tables` on another node lists it."""
    return {"number": table.number, "game": table.game_name, "options": to_plain(table.options_text()),
            "taken": len(table.seats), "total": table.seats_total, "state": table.state_name}


class Presence:
    def __init__(self, world: Any, client: Any, node: str, health: RedisHealth,
                 lease_seconds: float, heartbeat_seconds: float) -> None:
        self.world = world
        self.client = client
        self.node = node
        self.health = health
        self.lease_ms = int(lease_seconds * 1000)
        self.heartbeat = heartbeat_seconds
        # What Redis has, as written: account id -> entry, number -> summary; None: write all again.
        self._pushed: dict[int, dict[str, Any]] | None = None
        self._tables_pushed: dict[int, dict[str, Any]] | None = None
        self._dirty: set[int] = set()  # accounts that arrived, left or moved since the last write
        self.typed: set[int] = set()  # accounts that typed a line since the last heartbeat
        self._beats_to_full = 0  # heartbeats until every entry is built again
        self._tables_dirty = False
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        self.beats = 0  # heartbeats that reached Redis
        self.first_beat = asyncio.Event()

    def changed(self, account_id: int | None = None) -> None:
        """An account arrived, left or moved here (``account_id``), or a table changed (None):
        written within COALESCE seconds, not at the next heartbeat."""
        if account_id is None:
            self._tables_dirty = True
        else:
            self._dirty.add(account_id)
        self._wake.set()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._loop(), name="cluster-presence")

    async def stop(self) -> None:
        """Leave the cluster: stop beating and remove this node's keys (others drop it at once)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        try:
            async with self.client.pipeline(transaction=False) as pipe:
                pipe.delete(node_key(self.node), presence_key(self.node), tables_key(self.node))
                pipe.srem(NODES, self.node)
                await asyncio.wait_for(pipe.execute(), 2)
        except redis_errors():
            pass  # the keys expire by themselves

    async def _loop(self) -> None:
        loop = asyncio.get_running_loop()
        next_beat = 0.0
        while True:
            full = loop.time() >= next_beat
            self._wake.clear()  # before writing: a change during the write wakes the next one
            try:
                if full:
                    next_beat = loop.time() + self.heartbeat
                    await self.beat()
                else:
                    await self.write_changes()
                self.health.ok()
            except asyncio.CancelledError:
                raise
            except redis_errors() as err:
                self._pushed = self._tables_pushed = None  # Redis may come back empty: all again
                self.health.failed(err)
            try:
                await asyncio.wait_for(self._wake.wait(), max(0.0, next_beat - loop.time()))
                await asyncio.sleep(COALESCE)  # a burst of logins makes one write
            except asyncio.TimeoutError:
                pass

    async def beat(self) -> None:
        """Renew the node key, and write every entry and table that changed (all, after a gap:
        the node key was gone, Redis restarted empty, or this node has just started)."""
        renewed = await self.client.pexpire(node_key(self.node), self.lease_ms)
        if not renewed:  # first beat, or Redis lost the key: register again, over any old hash
            self._pushed = self._tables_pushed = None
        typed, self.typed = self.typed, set()
        self._beats_to_full -= 1
        if self._pushed is None or self._beats_to_full <= 0:  # a role an admin changed, a door closed
            self._beats_to_full = FULL_EVERY
            entries = {a: presence_entry(self.world, a) for a in list(self.world.accounts)}
        else:  # only who typed (idle, an away mark), arrived, left or moved; and anyone missed
            entries = self._updated(self._pushed, typed | self._dirty | (self.world.accounts.keys() - self._pushed.keys()))
        self._dirty.clear()
        self._tables_dirty = False
        summaries = self._summaries()
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.set(node_key(self.node), str(int(time.time())), px=self.lease_ms)
            pipe.sadd(NODES, self.node)
            self._write(pipe, presence_key(self.node), entries, self._pushed)
            self._write(pipe, tables_key(self.node), summaries, self._tables_pushed)
            await pipe.execute()
        self._pushed, self._tables_pushed = entries, summaries
        self.beats += 1
        self.first_beat.set()

    async def write_changes(self) -> None:
        """Between heartbeats: only the accounts and tables said to have changed."""
        if self._pushed is None or self._tables_pushed is None:
            return  # not registered (yet, or again): the next beat writes everything
        dirty, self._dirty = self._dirty, set()
        entries = self._updated(self._pushed, dirty)
        summaries = self._tables_pushed
        if self._tables_dirty:
            self._tables_dirty = False
            summaries = self._summaries()
        async with self.client.pipeline(transaction=True) as pipe:
            self._write(pipe, presence_key(self.node), entries, self._pushed)
            self._write(pipe, tables_key(self.node), summaries, self._tables_pushed)
            await pipe.execute()
        self._pushed, self._tables_pushed = entries, summaries

    def _updated(self, before: dict[int, dict[str, Any]], account_ids: set[int]) -> dict[int, dict[str, Any]]:
        """``before`` with the entries of ``account_ids`` built again (or dropped: gone)."""
        entries = dict(before)
        for account_id in account_ids:
            if account_id in self.world.accounts:
                entries[account_id] = presence_entry(self.world, account_id)
            else:
                entries.pop(account_id, None)
        return entries

    def _summaries(self) -> dict[int, dict[str, Any]]:
        tables = self.world.tables.listing() if self.world.tables is not None else []
        return {t.number: table_summary(t) for t in tables}

    @staticmethod
    def _write(pipe: Any, key: str, now: dict[int, dict[str, Any]], before: dict[int, dict[str, Any]] | None) -> None:
        """The commands that turn the hash ``key`` from ``before`` into ``now`` (compared as
        dicts: only what changed is encoded and sent)."""
        if before is None:
            pipe.delete(key)
            before = {}
        gone = [str(k) for k in before.keys() - now.keys()]
        if gone:
            pipe.hdel(key, *gone)
        fresh = {str(k): json.dumps(v, ensure_ascii=False) for k, v in now.items()
                 if (old := before.get(k)) is not v and old != v}
        if fresh:
            pipe.hset(key, mapping=fresh)

    # reading the others ------------------------------------------------------------------------

    async def live_nodes(self) -> list[str]:
        """The other nodes whose heartbeat key lives; the hashes of dead ones are removed."""
        names = sorted(n.decode() if isinstance(n, bytes) else n for n in await self.client.smembers(NODES))
        names = [n for n in names if n != self.node]
        if not names:
            return []
        async with self.client.pipeline(transaction=False) as pipe:
            for name in names:
                pipe.exists(node_key(name))
            alive = await pipe.execute()
        dead = [n for n, a in zip(names, alive) if not a]
        if dead:
            async with self.client.pipeline(transaction=False) as pipe:
                for name in dead:
                    pipe.delete(presence_key(name), tables_key(name))
                pipe.srem(NODES, *dead)
                await pipe.execute()
            log.info("cluster: node%s %s stopped beating; %s dropped", "s" if len(dead) > 1 else "",
                     ", ".join(dead), "their players were" if len(dead) > 1 else "its players were")
        return [n for n, a in zip(names, alive) if a]

    async def _all_of(self, key_of: Any) -> list[tuple[str, dict[str, Any]]]:
        nodes = await self.live_nodes()
        if not nodes:
            return []
        async with self.client.pipeline(transaction=False) as pipe:
            for name in nodes:
                pipe.hgetall(key_of(name))
            found = await pipe.execute()
        out = []
        for name, fields in zip(nodes, found):
            for field, value in fields.items():
                entry = json.loads(value)
                entry["id"] = int(field)
                out.append((name, entry))
        return out

    async def others_online(self) -> list[tuple[str, dict[str, Any]]]:
        """(node, entry) for every account online on another live node; entry["id"] is its id."""
        return await self._all_of(presence_key)

    async def others_tables(self) -> list[tuple[str, dict[str, Any]]]:
        return await self._all_of(tables_key)

    async def node_of(self, account_id: int) -> tuple[str, dict[str, Any]] | None:
        """The other live node ``account_id`` is online on (and its entry), or None."""
        nodes = await self.live_nodes()
        if not nodes:
            return None
        async with self.client.pipeline(transaction=False) as pipe:
            for name in nodes:
                pipe.hget(presence_key(name), str(account_id))
            found = await pipe.execute()
        for name, value in zip(nodes, found):
            if value is not None:
                entry = json.loads(value)
                entry["id"] = account_id
                return name, entry
        return None
