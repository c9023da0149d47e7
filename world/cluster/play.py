"""Playing at a table another node owns (issue 19, part 3; docs/cluster.md "Playing across nodes").

Two sides of one account, whose session is on node B and whose table is owned by node A:

* **B, the player's node** (``remote_at``): a line the player types while B knows the account is
  at a table of A's (and `join N`, `watch N`, `master N` for a table B does not run) is not run
  here: after the flood guard, the cleaning and the alias expansion it goes over the bus to A
  (:meth:`RemotePlay.forward`). What A says back (a Msg as key and parameters, GMCP as package and
  data) B writes to the account's own sessions, rendered here in the player's language, width
  and encoding. A's reports of where the account is (:meth:`_on_state`) keep ``remote_at``; B
  watches the leases of those tables every heartbeat and, when another node took one (A died),
  attaches its players there (:meth:`_follow_leases`): one line, then the view, as at a login.
* **A, the owner** (``proxies``): one remote session proxy per (node, account), registered in
  A's World like a session (``by_account``), so that the runner, the table's output, whispers and
  the reveal reach it as they reach any session of the account: a whisper for X goes to X's
  proxy, hence to X's node only, hence to X's sessions only. Nothing of a table is sent to every
  node. A proxy lives while its account is at a table here; when the account is not (it left,
  the table ended), it goes and B hears the account is back in its hall.

The proxy itself and the running of a line are the server's (server/remote_play.py: a proxy is
a Session whose output travels), given here as ``host`` when the node starts; this module only
routes.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from ..messages import msg
from ..models import Account, GameTable, Seat
from ..rooms import HALL, table_room
from .codec import from_plain, to_plain
from .lease import lease_owner

log = logging.getLogger("korchma.cluster")

# Commands that act on the session itself, its account or the player's node: typed by their
# verb (any language), they run where the session is, even while the player is at a remote table.
LOCAL_COMMANDS = frozenset({"quit", "password", "lang", "encoding", "color", "alias", "unalias", "pagelength",
                            "tell", "reply", "who", "finger", "afk", "ignore", "unignore", "chat", "channels",
                            "inbox", "recall"})
TABLE_ENTRIES = frozenset({"join", "watch", "master"})  # `join N`: N may be another node's table


class PlayHost(Protocol):
    """The server's side (server/remote_play.py)."""

    async def make_proxy(self, account: Account, info: dict[str, Any], origin: str) -> Any: ...

    async def run_line(self, session: Any, line: str) -> None: ...

    def stays_here(self, verb: str) -> bool: ...


def session_info(session: Any) -> dict[str, Any]:
    """What a proxy needs of the player's real session to answer as it would."""
    return {"lang": session.lang, "width": getattr(session, "width", 80), "kind": session.kind,
            "address": session.address}


class RemotePlay:
    def __init__(self, node: Any, heartbeat: float, lease: float) -> None:
        self.node = node
        self.answer_wait = lease  # a forwarded line unanswered so long: its table's node is gone
        self.world = node.world
        self.heartbeat = heartbeat
        self.host: PlayHost | None = None
        self.remote_at: dict[int, tuple[str, int, str]] = {}  # account -> (owner node, table, role)
        self.proxies: dict[tuple[str, int], Any] = {}  # (player's node, account) -> proxy
        self._task: asyncio.Task | None = None
        self._running: set[asyncio.Task] = set()  # forwarded lines being run here
        self._sent = 0
        self.unanswered: dict[int, tuple[int, int, float]] = {}  # line -> (account, table, loop time sent)
        self.draining = False  # `korchma drain`: this node's tables are going to others (let_go_of)
        self.moving: dict[int, tuple[int, str]] = {}  # account -> (table, role) of a table handed over
        for kind, handler in (("play.line", self._on_line), ("play.attach", self._on_attach),
                              ("play.detach", self._on_detach), ("play.out", self._on_out),
                              ("play.gmcp", self._on_gmcp), ("play.state", self._on_state)):
            node.bus.on(kind, handler)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._beat())

    async def stop(self) -> None:
        for task in [self._task, *self._running]:
            if task is not None:
                task.cancel()

    # -- B: the player's node ------------------------------------------------------------------

    async def forward(self, session: Any, parsed: Any) -> bool:
        """Send ``parsed`` to the owner of the account's table, if that table is another node's;
        False if the line is this node's to run."""
        account = session.account
        if account is None or self.host is None or not parsed.verb:
            return False
        line = f"{parsed.verb} {parsed.rest}".strip()
        where = self.remote_at.get(account.id)
        if where is not None:  # read here among the hall's commands: only the verb itself counts
            if self.host.stays_here(parsed.verb):
                return False
            self._send_line(where[0], session, line, where[1])
            return True
        key = parsed.command.key if parsed.command is not None else None
        if parsed.secret or key not in TABLE_ENTRIES or not parsed.rest.strip():
            return False
        word = parsed.rest.split()[0].lstrip("#№")
        tables = self.world.tables
        if not word.isdigit() or tables is None or int(word) in tables.tables or tables.table_of(account.id):
            return False
        owner = await self.owner_of(int(word))
        if owner is None or owner == self.node.node:
            return False
        self._send_line(owner, session, line, int(word))
        return True

    def _send_line(self, owner: str, session: Any, line: str, number: int) -> None:
        self._sent += 1
        self.unanswered[self._sent] = (session.account.id, number, asyncio.get_running_loop().time())
        self.node.bus.publish("play.line", {"account": session.account.id, "line": line, "seq": self._sent,
                                            "info": session_info(session)}, node=owner)

    async def _no_answers(self) -> None:
        """Lines whose table's node never answered (it died with them): the player hears it once
        per line, so that a move is typed again (nothing unanswered was taken: docs/cluster.md).
        A table nobody owns that is not running either (a finished game whose node died: no node
        takes it over) lets its people go: they are back in this node's hall."""
        now = asyncio.get_running_loop().time()
        for seq, (account_id, number, sent) in list(self.unanswered.items()):
            if now - sent <= self.answer_wait:
                continue
            del self.unanswered[seq]
            self.world.deliver(account_id, msg("cluster_play.no_answer", number=number))
            where = self.remote_at.get(account_id)
            if where is not None and where[1] == number and await self.owner_of(number) is None:
                row = await GameTable.get_or_none(id=number)
                if row is None or row.state != "running":
                    self.remote_at.pop(account_id, None)
                    self.world.move(account_id, HALL)

    async def owner_of(self, number: int) -> str | None:
        """The node whose lease covers table ``number`` now, or None (no lease, Redis away)."""
        return await lease_owner(self.node.client, number)

    async def logged_in(self, session: Any, account: Account) -> None:
        """A login here of an account seated at a running table another node owns: back to it."""
        if account.id in self.remote_at or (self.world.tables and self.world.tables.table_of(account.id)):
            return
        numbers = await Seat.filter(account_id=account.id, table__state="running").values_list("table_id", flat=True)
        for number in sorted(set(numbers), reverse=True):
            if self.world.tables is not None and number in self.world.tables.tables:
                continue
            owner = await self.owner_of(number)
            if owner is not None and owner != self.node.node:
                self.node.bus.publish("play.attach", {"account": account.id, "table": number, "role": "seat",
                                                      "info": session_info(session)}, node=owner)
                return

    def logged_out(self, account_id: int) -> None:
        """The account's last session here closed: the owner treats it as a disconnect."""
        where = self.remote_at.pop(account_id, None)
        if where is not None:
            self.node.bus.publish("play.detach", {"account": account_id}, node=where[0])

    def _on_out(self, payload: dict[str, Any], origin: str) -> None:
        self.world.deliver(int(payload["account"]), from_plain(payload["msg"]))

    def _on_gmcp(self, payload: dict[str, Any], origin: str) -> None:
        self.world.gmcp_to([int(payload["account"])], str(payload["package"]), from_plain(payload["data"]))

    def _on_state(self, payload: dict[str, Any], origin: str) -> None:
        account_id, number = int(payload["account"]), payload.get("table")
        self.unanswered.pop(int(payload.get("seq") or 0), None)
        if not self.world.is_online(account_id):
            if number is not None:  # gone meanwhile: the owner must not keep a proxy for nobody
                self.node.bus.publish("play.detach", {"account": account_id}, node=origin)
            return
        if number is None:
            if self.remote_at.pop(account_id, None) is not None:
                self.world.move(account_id, HALL)
            return
        self.remote_at[account_id] = (origin, int(number), str(payload.get("role") or "seat"))
        if self.world.where(account_id) != table_room(int(number)):  # not in this node's hall meanwhile
            self.world.move(account_id, table_room(int(number)))

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat)
            try:
                await self._follow_leases()
                await self._no_answers()
                self._sweep_proxies()
            except Exception as err:  # noqa: BLE001 - tried again at the next heartbeat
                log.debug("cluster play: heartbeat failed (%s)", err)

    async def _follow_leases(self) -> None:
        """A table of ``remote_at`` whose lease another node holds now (its owner died): its
        players here are attached there, with one line each."""
        for number in sorted({where[1] for where in self.remote_at.values()}):
            owner = await self.owner_of(number)
            if owner is None:
                continue
            for account_id, (node, at, role) in list(self.remote_at.items()):
                if at != number or node == owner:
                    continue
                self.world.deliver(account_id, msg("cluster_play.moved", number=number))
                sessions = self.world.by_account.get(account_id) or []
                if owner == self.node.node:  # this node took the table itself: the player is local now
                    self.remote_at.pop(account_id, None)
                    self.world.move(account_id, HALL)
                    if sessions and self.host is not None:
                        await self._come_back_here(sessions[0], number, role)
                    continue
                self.remote_at[account_id] = (owner, number, role)
                if sessions:
                    self.node.bus.publish("play.attach", {"account": account_id, "table": number, "role": role,
                                                          "info": session_info(sessions[0])}, node=owner)

    async def _come_back_here(self, session: Any, number: int, role: str) -> None:
        assert self.host is not None and self.world.tables is not None
        if role == "seat":
            await self.world.tables.on_login(session.account, session)
        else:
            await self.host.run_line(session, f"{role} {number}")

    # -- A: the owner ----------------------------------------------------------------------------

    async def _proxy(self, origin: str, payload: dict[str, Any]) -> Any:
        account_id = int(payload["account"])
        proxy = self.proxies.get((origin, account_id))
        if proxy is None and self.host is not None:
            account = await Account.get_or_none(id=account_id)
            if account is None:
                return None
            proxy = await self.host.make_proxy(account, dict(payload.get("info") or {}), origin)
            self.proxies[(origin, account_id)] = proxy
        return proxy

    async def _on_line(self, payload: dict[str, Any], origin: str) -> None:
        if self.draining:
            self._not_taken(origin, payload)
            return
        proxy = await self._proxy(origin, payload)
        if proxy is None or self.host is None:
            return
        # Run beside the bus, not in it: a move's commit must not hold every other node's line.
        # The proxy's lock (taken first thing, in the order the lines came) keeps its lines in order.
        line, seq = str(payload["line"]), int(payload.get("seq") or 0)
        task = asyncio.get_running_loop().create_task(self._run(proxy, origin, line, seq))
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _run(self, proxy: Any, origin: str, line: str, seq: int) -> None:
        assert self.host is not None
        try:
            await self.host.run_line(proxy, line)
        finally:
            self._report(origin, proxy.account.id, seq)

    async def _on_attach(self, payload: dict[str, Any], origin: str) -> None:
        """The player's node (re)attaches an account at table N: seated, back to the seat (as a
        login); a watcher or the Master, watching again (a new owner does not know them)."""
        if self.draining:
            return  # its node follows the lease to the table's next owner
        fresh = (origin, int(payload["account"])) not in self.proxies
        proxy = await self._proxy(origin, payload)
        if proxy is None or self.host is None or self.world.tables is None:
            return
        if not fresh:
            self.world.tables.on_logout(proxy.account)
            await self.world.tables.on_login(proxy.account, proxy)
        role, number = str(payload.get("role") or "seat"), int(payload["table"])
        if role != "seat" and self.world.tables.table_of(proxy.account.id) is None:
            await self.host.run_line(proxy, f"{role} {number}")
        self._report(origin, proxy.account.id)

    def _on_detach(self, payload: dict[str, Any], origin: str) -> None:
        self._drop(origin, int(payload["account"]))

    def _report(self, origin: str, account_id: int, seq: int = 0) -> None:
        """Tell the player's node where the account is here (and that line ``seq`` was run);
        a proxy not at a table goes."""
        tables = self.world.tables
        table = tables.table_of(account_id) if tables is not None else None
        if table is None or table.state_name not in ("open", "running", "finished"):
            self._drop(origin, account_id)
            self.node.bus.publish("play.state", {"account": account_id, "table": None, "seq": seq}, node=origin)
            return
        self.node.bus.publish("play.state", {"account": account_id, "table": table.number,
                                             "role": _role_at(table, account_id), "seq": seq}, node=origin)

    def let_go_of(self, number: int) -> None:
        """`korchma drain` (world/cluster/handover.py): table ``number`` goes to another node. Its
        proxies here go without a word to their nodes, which keep following the table's lease and
        attach their players to the new owner (``_follow_leases``); a line they forward meanwhile is
        answered as not taken (``_not_taken``)."""
        table = self.world.tables.tables.get(number) if self.world.tables is not None else None
        if table is None:
            return
        for origin, account_id in list(self.proxies):
            if account_id in table.everyone():
                self.moving[account_id] = (number, _role_at(table, account_id))
                proxy = self.proxies.pop((origin, account_id))
                proxy.closed = True
                self.world.disconnected(proxy)

    def let_all_go(self) -> None:
        """The node stops (drain): every proxy left (a player at a finished table here) goes, and
        its node hears the account is back in its own hall."""
        for origin, account_id in list(self.proxies):
            self._drop(origin, account_id)
            self.node.bus.publish("play.state", {"account": account_id, "table": None, "seq": 0}, node=origin)

    def _not_taken(self, origin: str, payload: dict[str, Any]) -> None:
        """A line forwarded to a draining node: not run; the player's node still follows the table."""
        account_id = int(payload["account"])
        self.node.bus.publish("play.out", {"account": account_id, "msg": to_plain(msg("drain.not_taken"))},
                              node=origin)
        number, role = self.moving.get(account_id, (None, "seat"))
        self.node.bus.publish("play.state", {"account": account_id, "table": number, "role": role,
                                             "seq": int(payload.get("seq") or 0)}, node=origin)

    def _drop(self, origin: str, account_id: int) -> None:
        proxy = self.proxies.pop((origin, account_id), None)
        if proxy is None:
            return
        proxy.closed = True
        if self.world.disconnected(proxy) and self.world.tables is not None:
            self.world.tables.on_logout(proxy.account)

    def _sweep_proxies(self) -> None:
        """A proxy whose account is no longer at a table here (the game ended and they left, the
        table broke or was abandoned) goes, and its node hears it."""
        tables = self.world.tables
        for origin, account_id in list(self.proxies):
            if tables is None or tables.table_of(account_id) is None:
                self._report(origin, account_id)

    def gmcp_proxies(self, package: str, data: Any) -> None:
        """What this node tells every session (the table list) goes to its proxies too."""
        for proxy in list(self.proxies.values()):
            proxy.gmcp(package, data)

    def out(self, origin: str, account_id: int, message: Any) -> None:
        """A line for the account's sessions at its node (the proxy's ``write``)."""
        self.node.bus.publish("play.out", {"account": account_id, "msg": to_plain(message)}, node=origin)

    def gmcp(self, origin: str, account_id: int, package: str, data: Any) -> None:
        self.node.bus.publish("play.gmcp", {"account": account_id, "package": package, "data": to_plain(data)},
                              node=origin)


def _role_at(table: Any, account_id: int) -> str:
    """How the account is at the table: "seat", "master" or "watch"."""
    if table.seat_of(account_id) is not None:
        return "seat"
    return "master" if account_id in table.masters else "watch"
