"""Several nodes, one tavern (issue 19; the design is docs/cluster.md).

Off unless ``[cluster] redis_url`` (``--redis-url``) is set: then the nodes share one PostgreSQL
database (checked at start, server/config_check.py) and one Redis (or Valkey) server, and this
package holds what they share through Redis. Everything here is per node: a node's name, its
connection, the keys it uses.
"""
from __future__ import annotations

import socket
from typing import Any

PREFIX = "korchma:"  # every key and channel of the cluster starts so (one Redis may serve others)


def enabled(config: Any) -> bool:
    return bool(config.section("cluster").get("redis_url"))


def node_name(config: Any, telnet_port: int | None = None) -> str:
    """This node's name: ``[cluster] node`` (``--node``), else the host name and the telnet port
    (the port the node really listens on, when a test asks for any free one)."""
    name = config.section("cluster").get("node") or ""
    if name:
        return name
    port = telnet_port if telnet_port is not None else config.server["telnet_port"]
    return f"{socket.gethostname()}:{port}"


def redis_client(config: Any) -> Any:
    """A redis-py asyncio client for the cluster's server (a pool: one per purpose is fine)."""
    import redis.asyncio as aioredis

    return aioredis.from_url(config.section("cluster")["redis_url"], socket_connect_timeout=2,
                             socket_timeout=5, health_check_interval=10)
