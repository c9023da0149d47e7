"""Work one node does for the whole cluster: the start-up sweep that rates finished tables left
unrated (world/ratings.py), which every node would otherwise run at its start over the same
shared database, each rating the same games again (refused by the unique result rows, but
logged, and long on a large history).

The node that sets ``korchma:once:NAME`` first does the work and renews the key while it works; a
node that dies meanwhile lets it run out within ``KEEP_MS``, and the next node that starts does
the work again (it is safe twice, only wasted). With Redis away the work is done anyway.
"""
from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

from . import PREFIX

log = logging.getLogger("korchma.cluster")

KEEP_MS = 60_000  # a key nobody renews is gone after this
RENEW_EVERY = 20.0  # seconds between renewals while the work goes on


@asynccontextmanager
async def only_one(client: Any, node: str, name: str) -> AsyncIterator[bool]:
    """True inside: this node does the work; False: another node does it now."""
    key = f"{PREFIX}once:{name}"
    try:
        ours = bool(await client.set(key, node, nx=True, px=KEEP_MS))
    except Exception as err:  # noqa: BLE001 - Redis away: do it here (twice is safe)
        log.debug("cluster: %s not claimed (%s); done here anyway", name, err)
        ours, key = True, ""
    renewing = asyncio.get_running_loop().create_task(_renew(client, key, node)) if ours and key else None
    try:
        yield ours
    finally:
        if renewing is not None:
            renewing.cancel()
            try:
                if await client.get(key) in (node, node.encode()):
                    await client.delete(key)
            except Exception:  # noqa: BLE001 - it runs out by itself
                pass


async def _renew(client: Any, key: str, node: str) -> None:
    while True:
        await asyncio.sleep(RENEW_EVERY)
        try:
            await client.set(key, node, xx=True, px=KEEP_MS)
        except Exception as err:  # noqa: BLE001 - tried again; at worst another node does it too
            log.debug("cluster: %s not renewed (%s)", key, err)
