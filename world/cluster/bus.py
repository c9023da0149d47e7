"""Lines between nodes: one redis-py asyncio pub/sub connection per node (docs/cluster.md, "Why
pub/sub, not streams").

Every node listens on two channels: ``korchma:bus:all`` (hall lines, channels, announcements)
and ``korchma:bus:node:NAME`` (what is for its own sessions: a tell, an answer to its player).
A message is one JSON object ``{"kind": ..., "from": NODE, "payload": {...}}``; the receiving
node hands the payload to the handler registered for its kind (:meth:`Bus.on`), one message at
a time in the order they came, so a speaker's lines keep their order. A node ignores its own
messages on the shared channel: it has delivered them to its own sessions already.

Nothing here blocks the event loop or a command: :meth:`Bus.publish` queues, a task sends. While
Redis is unreachable lines to other nodes are dropped (they are for people online now; whatever
must last is in PostgreSQL first), the listener retries with a growing pause, and the outage is
logged once when it starts and once when it ends (:class:`RedisHealth`), never a traceback per
retry.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable

from . import PREFIX
from .codec import dumps, loads

log = logging.getLogger("korchma.cluster")

ALL = PREFIX + "bus:all"
QUEUE_LIMIT = 10_000  # lines waiting to be sent; past it (Redis far too slow) new ones are dropped
FIRST_PAUSE, LONGEST_PAUSE = 0.1, 2.0  # reconnecting: the pause doubles from the first to the longest
PROOF_WAIT = 0.5  # seconds between the listener's looks at whether its connection must prove itself

Handler = Callable[[dict[str, Any], str], Awaitable[None] | None]


def node_channel(node: str) -> str:
    return f"{PREFIX}bus:node:{node}"


def redis_errors() -> tuple[type[BaseException], ...]:
    import redis.exceptions as errors

    return (errors.RedisError, OSError, asyncio.TimeoutError)


def fail_fast(client: Any) -> Any:
    """One immediate retry inside redis-py (a pooled connection to a Redis that restarted is
    stale: the retry opens a new one), no backoff: our own loops retry with a pause, logged once,
    and a command against a Redis that is down must fail at once, not after redis-py's backoff."""
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff

    client.set_retry(Retry(NoBackoff(), 1))
    return client


class RedisHealth:
    """Whether this node reaches Redis, as its bus and its heartbeat last found: one warning when
    an outage starts, one line when it ends."""

    def __init__(self) -> None:
        self.up = False
        self.ever_up = False
        self.listening = False  # the bus is subscribed: lines from the others can arrive
        self._down_logged = False

    def ok(self) -> None:
        """A command worked. Back only once the bus listens again too, so that "back" in the
        log means lines flow both ways."""
        if not self.up and self.listening:
            self.up = True
            if self._down_logged:
                log.info("cluster: Redis answers again; this node is back in the cluster")
            self._down_logged = False
            self.ever_up = True

    def failed(self, err: BaseException) -> None:
        """A command failed: down until the bus has proved its own connection again (it may
        not have noticed yet that Redis went: one outage, one pair of lines)."""
        self.up = False
        self.listening = False
        if not self._down_logged:
            self._down_logged = True
            what = "lost" if self.ever_up else "cannot reach"
            log.warning("cluster: %s Redis (%s: %s); other nodes are out of reach until it answers, "
                        "retrying", what, type(err).__name__, str(err).splitlines()[0] if str(err) else "")


class Bus:
    def __init__(self, client: Any, node: str, health: RedisHealth) -> None:
        self.client = client
        self.node = node
        self.health = health
        self.channel = node_channel(node)
        self.handlers: dict[str, Handler] = {}
        self.dropped = 0  # lines not sent (Redis unreachable, or the queue full)
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue(QUEUE_LIMIT)
        self._inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._tasks: list[asyncio.Task] = []
        self.subscribed = asyncio.Event()  # set while the listener is subscribed

    def on(self, kind: str, handler: Handler) -> None:
        """``handler(payload, from_node)`` for every message of ``kind`` (may be a coroutine)."""
        self.handlers[kind] = handler

    def publish(self, kind: str, payload: dict[str, Any], node: str | None = None) -> None:
        """Send to every other node, or to ``node``; never waits."""
        if not self.health.up:
            self.dropped += 1
            return
        data = dumps({"kind": kind, "from": self.node, "payload": payload})
        try:
            self._outbox.put_nowait((node_channel(node) if node else ALL, data))
        except asyncio.QueueFull:
            self.dropped += 1

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen(), name="cluster-bus-listen"),
                       loop.create_task(self._send(), name="cluster-bus-send"),
                       loop.create_task(self._dispatch(), name="cluster-bus-dispatch")]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []

    # the tasks ----------------------------------------------------------------------------

    async def _listen(self) -> None:
        pause = FIRST_PAUSE
        while True:
            pubsub = self.client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(ALL, self.channel)
                self.subscribed.set()
                self._proved()
                pause = FIRST_PAUSE
                pinged = False
                while True:
                    message = await pubsub.get_message(timeout=PROOF_WAIT)
                    kind = message.get("type") if message is not None else None
                    if kind == "message":
                        self._received(message["data"])
                    elif kind == "pong" and pinged:
                        pinged = False
                        self._proved()
                    if not self.health.listening and not pinged:  # another command failed: is
                        await pubsub.ping()  # this connection alive? A pong says so
                        pinged = True
            except asyncio.CancelledError:
                raise
            except redis_errors() as err:
                self.subscribed.clear()
                self.health.failed(err)
            finally:
                try:
                    await pubsub.aclose()
                except Exception:  # a broken connection may fail to close: it is gone anyway
                    pass
            await asyncio.sleep(pause)
            pause = min(pause * 2, LONGEST_PAUSE)

    def _proved(self) -> None:
        self.health.listening = True
        self.health.ok()

    def _received(self, data: bytes | str) -> None:
        try:
            message = loads(data)
        except ValueError:
            log.warning("cluster: a message that is not JSON on the bus was ignored")
            return
        if not isinstance(message, dict) or message.get("from") == self.node:
            return
        self._inbox.put_nowait(message)

    async def _dispatch(self) -> None:
        while True:
            message = await self._inbox.get()
            handler = self.handlers.get(str(message.get("kind")))
            if handler is None:  # a newer node's kind: an older node lets it pass
                log.debug("cluster: no handler for %r", message.get("kind"))
                continue
            try:
                done = handler(message.get("payload") or {}, str(message.get("from")))
                if done is not None:
                    await done
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: handling a %r message from %s", message.get("kind"), message.get("from"))

    async def _send(self) -> None:
        while True:
            channel, data = await self._outbox.get()
            if not self.health.up:
                self.dropped += 1
                continue
            try:
                await self.client.publish(channel, data)
            except asyncio.CancelledError:
                raise
            except redis_errors() as err:
                self.dropped += 1
                self.health.failed(err)
