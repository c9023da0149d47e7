"""Work one node does for the cluster (world/cluster/once.py: the start-up rating sweep), against a
real Valkey: while one node holds the work no other node starts it; once it is done (or its node
died and the key ran out) the next one may; with Redis away a node does it anyway."""
from __future__ import annotations

import asyncio

import redis.asyncio as aioredis

from tests.valkey import valkey  # noqa: F401  (fixture)
from world.cluster import once
from world.cluster.once import only_one


async def test_one_node_at_a_time_does_the_work(valkey, monkeypatch):
    client = aioredis.from_url(valkey.url)
    try:
        async with only_one(client, "a", "rating_sweep") as first:
            assert first
            async with only_one(client, "b", "rating_sweep") as second:
                assert not second  # a sweeps: b does not start another
            assert await client.get("korchma:once:rating_sweep") == b"a"
        assert await client.get("korchma:once:rating_sweep") is None  # done: given back
        async with only_one(client, "b", "rating_sweep") as later:
            assert later  # the next start sweeps again (what is left: nothing, cheaply)

        # A node that dies with the work in hand renews nothing: the key runs out.
        monkeypatch.setattr(once, "KEEP_MS", 300)
        await client.set("korchma:once:rating_sweep", "dead", px=once.KEEP_MS)
        async with only_one(client, "c", "rating_sweep") as meanwhile:
            assert not meanwhile
        await asyncio.sleep(0.5)
        async with only_one(client, "c", "rating_sweep") as after:
            assert after
            # ... while a live holder renews it for as long as the work goes on.
            monkeypatch.setattr(once, "RENEW_EVERY", 0.1)
        async with only_one(client, "c", "rating_sweep") as long_work:
            assert long_work
            await asyncio.sleep(0.8)  # more than two lifetimes of an unrenewed key
            async with only_one(client, "d", "rating_sweep") as other:
                assert not other
    finally:
        await client.aclose()


async def test_with_redis_away_the_work_is_done_here(valkey):
    client = aioredis.from_url(valkey.url, socket_connect_timeout=1)
    valkey.kill()
    try:
        async with only_one(client, "a", "rating_sweep") as ours:
            assert ours
    finally:
        await client.aclose()
