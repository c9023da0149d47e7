"""`korchma drain` (or SIGUSR1): a node of a cluster hands its tables to the other nodes, asks its
sessions to reconnect, and exits, so that a host upgrades node by node and no game ends
(docs/cluster.md, "Rolling upgrade").

In order:

1. refused in one line when it cannot help: clustering is off, no other node is alive to take the
   tables, Redis does not answer, the server is already stopping or draining;
2. the doors stop listening (a load balancer's check sends newcomers to the other nodes; the
   connections already open stay);
3. the tables go to the others (world/cluster/handover.py): each runner stops after the action in
   hand, the lease is given back, and this node waits until another node took each one;
4. players of other nodes who were at a finished table here go back to their own halls; every
   session here is told to reconnect (a table's seat is kept: the login finds it on whichever
   node took it) and closed;
5. the server stops as at SIGTERM, exit status 0.

The control channel's answer (server/control.py) is the summary `korchma drain` prints.
"""
from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

from world.audit import audit
from world.cluster.handover import EXTRA_WAIT, hand_over
from world.messages import msg

from .control import handler
from .remote_play import RemoteSession

log = logging.getLogger("korchma")


class DrainRefused(Exception):
    """Drain cannot help now: one line for the host."""


async def drain(app: Any) -> dict[str, Any]:
    world = app.world
    node = world.cluster
    owner = world.tables.owner if world.tables is not None else None
    if node is None or owner is None:
        raise DrainRefused("this server is not one of several nodes ([cluster] redis_url is not set): no other "
                           "node can take its tables; stop it instead (SIGTERM, or `shutdown` in the game), and "
                           "its games go on at its next start")
    if world.shutting_down or app.draining:
        raise DrainRefused("this node is already stopping")
    try:
        others = await node.presence.live_nodes()
    except Exception as err:  # noqa: BLE001 - one line for the host
        raise DrainRefused(f"the cluster's Redis does not answer ({type(err).__name__}: {err}); the other nodes "
                           f"cannot be reached to take the tables") from err
    if not others:
        raise DrainRefused(f"no other node is up to take this node's tables ({len(owner.leases.held)} held); start "
                           f"another node first, then drain this one")
    app.draining = True
    audit("drain", node=node.node, others=others)
    log.info("node %s drains: its tables go to %s, then it stops", node.node, ", ".join(others))
    await app.stop_listening()
    handover = await hand_over(world.tables, owner, node.play, owner.lease + EXTRA_WAIT)
    for number, taker in sorted(handover.taken.items()):
        log.info("table %d: taken over by node %s", number, taker)
    if handover.untaken:
        log.warning("drain: table%s %s not taken by another node yet; the next node that beats takes %s",
                    "s" if len(handover.untaken) > 1 else "", ", ".join(map(str, handover.untaken)),
                    "them" if len(handover.untaken) > 1 else "it")
    node.play.let_all_go()
    people = [s for s in list(world.sessions) if not isinstance(s, RemoteSession)]
    for session in people:
        try:
            await session.close(msg("drain.reconnect"))
        except Exception:  # noqa: BLE001 - the others are still told
            log.exception("closing a session while draining")
    log.info("drain: %d session%s asked to reconnect; node %s stops", len(people), "" if len(people) == 1 else "s",
             node.node)
    # After this answer is written: the control channel closes with the rest.
    asyncio.get_running_loop().call_later(0.2, app.request_shutdown, 0, "drain")
    return {"node": node.node, "pid": os.getpid(), "taken": {str(n): t for n, t in handover.taken.items()},
            "untaken": handover.untaken, "sessions": len(people)}


@handler("drain")
async def _drain_request(app: Any, request: dict[str, Any]) -> dict[str, Any]:
    try:
        return await drain(app)
    except DrainRefused as err:
        return {"refused": str(err)}


def on_signal(app: Any) -> None:
    """SIGUSR1: the same drain, its outcome in the log."""
    async def run() -> None:
        try:
            await drain(app)
        except DrainRefused as err:
            log.warning("drain (SIGUSR1) refused: %s", err)

    app.drain_task = asyncio.get_running_loop().create_task(run())
