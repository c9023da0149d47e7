"""This node in the cluster: its bus and its presence, and the hall's lines that cross nodes.

The world (world/hub.py) holds one :class:`ClusterNode` as ``world.cluster`` when clustering is
on, and None otherwise; each place that speaks beyond its node asks it in one line:

- a hall line (`say`, `emote`, arrivals and departures): :meth:`room_line`;
- a channel line (`chat`): :meth:`channel_line`;
- an announcement: :meth:`announce`;
- a tell to an account online on another node: :meth:`tell` (the receiving node applies its
  player's ignore, keeps the tell in the inbox, remembers the teller for `reply`, and sends the
  away notice back to the teller);
- `who`, `finger`, `tables`: :meth:`others_online`, :meth:`online_elsewhere`, :meth:`others_tables`.

Each line travels once per node as a Msg (key and parameters) and the receiving node delivers it
to its own sessions the way a line of its own would go: its players' ignores, their channels,
their languages. The speaker's node has already applied the flood guard, the length limit and
the line cleaning (commands/), so no node cleans a line twice.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from ..messages import Msg
from ..models import Account
from ..rooms import HALL
from ..scrollback import channel_place
from . import redis_client
from .bus import Bus, RedisHealth, fail_fast, redis_errors
from .play import RemotePlay
from .codec import from_plain, to_plain
from .presence import Presence

log = logging.getLogger("korchma.cluster")

START_WAIT = 2.0  # seconds a starting node waits for Redis before it opens anyway
STOP_WAIT = 3.0  # seconds a stopping node gives Redis to drop its keys


class ClusterNode:
    def __init__(self, world: Any, config: Any, node: str) -> None:
        section = config.section("cluster")
        self.world = world
        self.node = node
        self.health = RedisHealth()
        self.client = fail_fast(redis_client(config))
        self.bus = Bus(self.client, node, self.health)
        self.presence = Presence(world, self.client, node, self.health,
                                 float(section["lease_seconds"]), float(section["heartbeat_seconds"]))
        for kind, handler in (("room_line", self._on_room_line), ("channel_line", self._on_channel_line),
                              ("announce", self._on_announce), ("tell", self._on_tell),
                              ("deliver", self._on_deliver)):
            self.bus.on(kind, handler)
        # Tables of other nodes (world/cluster/play.py).
        self.play = RemotePlay(self, float(section["heartbeat_seconds"]), float(section["lease_seconds"]))

    async def start(self) -> None:
        """Start beating and listening; never waits for Redis (a node starts while it is down)."""
        self.presence.start()
        self.bus.start()
        self.play.start()
        try:  # READY then means "in the cluster", unless Redis is down (then later, logged)
            await asyncio.wait_for(asyncio.gather(self.bus.subscribed.wait(), self.presence.first_beat.wait()),
                                   START_WAIT)
        except asyncio.TimeoutError:
            pass
        log.info("cluster: node %s %s", self.node, "joined" if self.health.up else "waits for Redis")

    async def stop(self) -> None:
        await self.play.stop()
        await self.bus.stop()
        try:
            await asyncio.wait_for(self.presence.stop(), STOP_WAIT)
        except asyncio.TimeoutError:
            pass
        try:
            await self.client.aclose()
        except redis_errors():
            pass

    def typed(self, account_id: int) -> None:
        """The account typed a line here: its idle time (and away mark) at the next heartbeat."""
        self.presence.typed.add(account_id)

    def presence_changed(self, account_id: int | None = None) -> None:
        """An account arrived, left or moved (``account_id``), or this node's tables changed."""
        self.presence.changed(account_id)

    # speaking beyond this node ---------------------------------------------------------------

    def room_line(self, room: str, message: Msg, exclude: list[int], speaker: int | None) -> None:
        if room == HALL:  # a table's room lives at its owner node (the tables' part of issue 19)
            self.bus.publish("room_line", {"room": room, "msg": to_plain(message), "exclude": exclude,
                                           "speaker": speaker})

    def channel_line(self, channel: str, message: Msg, speaker: int) -> None:
        self.bus.publish("channel_line", {"channel": channel, "msg": to_plain(message), "speaker": speaker})

    def announce(self, message: Msg) -> None:
        self.bus.publish("announce", {"msg": to_plain(message)})

    async def tell(self, sender: Account, target: Account, message: Msg) -> bool:
        """Send a tell to ``target`` if it is online on another live node; False if it is not
        (or Redis cannot say): then the tell goes the one-node way (the inbox)."""
        found = await self.online_elsewhere(target.id)
        if found is None:
            return False
        node, _ = found
        self.bus.publish("tell", {"sender": sender.id, "target": target.id, "msg": to_plain(message)}, node=node)
        return True

    # what the others have ----------------------------------------------------------------------

    async def _read(self, reading: Callable[[], Awaitable[Any]]) -> Any:
        """A read of the others' presence; None if Redis cannot be read now (said at once when it
        is known to be away, rather than waiting on it)."""
        if not self.health.up:
            return None
        try:
            return await reading()
        except redis_errors() as err:
            self.health.failed(err)
            return None

    async def others_online(self) -> list[tuple[str, dict[str, Any]]] | None:
        """(node, entry) of everyone online on another node; None if Redis cannot be read now."""
        return await self._read(self.presence.others_online)

    async def online_elsewhere(self, account_id: int) -> tuple[str, dict[str, Any]] | None:
        return await self._read(lambda: self.presence.node_of(account_id))

    async def others_tables(self) -> list[tuple[str, dict[str, Any]]] | None:
        return await self._read(self.presence.others_tables)

    # lines from the others -------------------------------------------------------------------

    async def _on_room_line(self, payload: dict[str, Any], origin: str) -> None:
        line = from_plain(payload["msg"])
        speaker = payload.get("speaker")
        room = str(payload["room"])
        await self.world.speak_in(room, line, exclude=list(payload.get("exclude") or ()), speaker=speaker,
                                  share=False)
        if speaker is not None:  # spoken lines, not arrivals, are in `recall` (world/scrollback.py)
            self.world.scrollback.add(room, int(speaker), line)

    async def _on_channel_line(self, payload: dict[str, Any], origin: str) -> None:
        channel, line, speaker = str(payload["channel"]), from_plain(payload["msg"]), int(payload["speaker"])
        await self.world.channels.deliver(self.world, channel, line, speaker)
        self.world.scrollback.add(channel_place(channel), speaker, line)

    def _on_announce(self, payload: dict[str, Any], origin: str) -> None:
        self.world.broadcast_all(from_plain(payload["msg"]))

    async def _on_tell(self, payload: dict[str, Any], origin: str) -> None:
        social = self.world.social
        target = self.world.accounts.get(int(payload["target"])) or await Account.get_or_none(id=int(payload["target"]))
        sender = await Account.get_or_none(id=int(payload["sender"]))
        if target is None or sender is None:
            return
        await social.deliver_tell(self.world, sender, target, from_plain(payload["msg"]))
        away = social.away_notice(target)
        if away is not None:  # the teller hears it where they are, as on one node
            self.bus.publish("deliver", {"account": sender.id, "msg": to_plain(away)}, node=origin)

    def _on_deliver(self, payload: dict[str, Any], origin: str) -> None:
        self.world.deliver(int(payload["account"]), from_plain(payload["msg"]))
