"""The world hub: who is online, where they are, and delivery to accounts and rooms.

This is the seam ARCHITECTURE.md asks for: the runner and the commands reach sessions only
through ``deliver`` (to an account) and ``broadcast`` (to a room), so both can later travel
over Redis. A session is anything with the small interface of :class:`SessionLike`.
"""
from __future__ import annotations

import time
from collections import defaultdict
from typing import TYPE_CHECKING, Any, Iterable, Protocol

from games.collation import name_key

from .aliases import AliasBooks
from .board import FloodGuard as BoardFloodGuard
from .channels import Channels
from .inbox_spool import InboxSpool
from .messages import Msg
from .meters import Meters
from .models import Account
from .motd import Motd
from .rooms import HALL
from .scrollback import Scrollback
from .social import Social

if TYPE_CHECKING:
    from .table_data import Table


class TableDirectory(Protocol):
    """The table manager (world/tables.py TableManager) as the hub holds it: the hub sits below
    the tables and never calls them; commands and sessions reach the manager through
    ``world.tables``."""

    tables: dict[int, Table]
    at_table: dict[int, int]

    def table_of(self, account_id: int) -> Table | None: ...


class SessionLike(Protocol):
    account: Account | None
    address: str
    last_input: float
    kind: str
    lang: str  # the reader's language (GMCP payloads with text in it: world/table_output.py)

    def render_key(self) -> tuple: ...

    def render(self, message: Msg) -> Any: ...

    def write(self, rendered: Any) -> None: ...

    def gmcp(self, package: str, data: Any) -> None: ...

    async def close(self, message: Msg | None = None) -> None: ...


class World:
    def __init__(self, config: Any) -> None:
        self.config = config
        self.started = time.time()
        self.sessions: set[SessionLike] = set()
        self.by_account: dict[int, list[SessionLike]] = defaultdict(list)
        self.accounts: dict[int, Account] = {}
        self.location: dict[int, str] = {}
        self.rooms: dict[str, set[int]] = defaultdict(set)
        self.tables: TableDirectory | None = None  # world/tables.py TableManager, set at start-up
        self.shutting_down = False
        self.inbox_spool = InboxSpool()  # inbox items whose write failed, until storage is back
        self.meters = Meters()  # no metrics unless the server fills them in (server/metrics.py)
        self.aliases = AliasBooks()  # the aliases of the accounts online (world/aliases.py)
        self.social = Social()  # ignores, last tellers, who is away (world/social.py)
        self.motd = Motd()  # the message of the day an admin set (world/motd.py)
        self.board_guard = BoardFloodGuard()  # who posted on the board lately (world/board.py)
        self.channels = Channels()  # who listens to `chat`, who is muted there (world/channels.py)
        self.scrollback = Scrollback(config.section("chat")["scrollback_lines"])  # world/scrollback.py
        self.cluster: Any = None  # world/cluster/node.py ClusterNode when [cluster] redis_url is set
        # (table, seat, legal, lang) -> the line to type for each answer (commands/games/answers.py,
        # given by the server: the world does not know the verbs); None: Awaiting carries no lines.
        self.answer_lines: Any = None

    # presence ---------------------------------------------------------------------------

    def connected(self, session: SessionLike) -> None:
        self.sessions.add(session)

    def logged_in(self, session: SessionLike, account: Account) -> bool:
        """Register a logged-in session; True if it is the account's first live session."""
        first = not self.by_account.get(account.id)
        self.by_account[account.id].append(session)
        self.accounts[account.id] = account
        if first and account.id not in self.location:
            self.move(account.id, HALL)
        self._presence_changed(account.id)
        return first

    def disconnected(self, session: SessionLike) -> bool:
        """Forget a session; True if that was the account's last live session."""
        self.sessions.discard(session)
        account = session.account
        if account is None:
            return False
        live = self.by_account.get(account.id, [])
        if session in live:
            live.remove(session)
        if live:
            return False
        self.by_account.pop(account.id, None)
        self.accounts.pop(account.id, None)
        where = self.location.pop(account.id, None)
        if where:
            self._leave_room(account.id, where)
        self._presence_changed(account.id)
        return True

    def is_online(self, account_id: int) -> bool:
        return bool(self.by_account.get(account_id))

    def online_accounts(self) -> list[Account]:
        return sorted(self.accounts.values(), key=lambda a: name_key(a.name))  # «Ёлка» before «Жаба»

    def find_online(self, name_key: str) -> Account | None:
        for account in self.accounts.values():
            if account.name_key == name_key:
                return account
        return None

    def idle_seconds(self, account_id: int) -> float:
        live = self.by_account.get(account_id) or []
        if not live:
            return 0.0
        return time.monotonic() - max(s.last_input for s in live)

    # places -----------------------------------------------------------------------------

    def move(self, account_id: int, room: str) -> None:
        """Put an account in a room; GMCP clients in the old and the new room learn who is there."""
        old = self.location.get(account_id)
        if old:
            self._leave_room(account_id, old)
        self.location[account_id] = room
        self.rooms[room].add(account_id)
        if old and old != room:
            self.gmcp_room(old)
        self.gmcp_room(room)
        self._presence_changed(account_id)

    def _presence_changed(self, account_id: int) -> None:
        if self.cluster is not None:  # the other nodes' `who` learns it now (world/cluster/presence.py)
            self.cluster.presence_changed(account_id)

    def _leave_room(self, account_id: int, room: str) -> None:
        people = self.rooms.get(room)
        if people is not None:
            people.discard(account_id)
            if not people:  # a table's room goes when its last person does (1,000 tables, 1,000 rooms)
                del self.rooms[room]

    def where(self, account_id: int) -> str:
        return self.location.get(account_id, HALL)

    def in_room(self, room: str) -> list[Account]:
        return [self.accounts[a] for a in self.rooms.get(room, ()) if a in self.accounts]

    # delivery ---------------------------------------------------------------------------

    def sessions_of(self, account_ids: Iterable[int]) -> list[SessionLike]:
        out: list[SessionLike] = []
        for account_id in account_ids:
            out.extend(self.by_account.get(account_id, ()))
        return out

    def send_to_sessions(self, sessions: Iterable[SessionLike], message: Msg) -> None:
        """Render once per distinct (language, width, colour, encoding), then write to each."""
        rendered: dict[tuple, Any] = {}
        for session in sessions:
            key = session.render_key()
            out = rendered.get(key)
            if out is None:
                out = rendered[key] = session.render(message)
            session.write(out)

    def deliver(self, account_id: int, message: Msg) -> bool:
        """Send to every live session of an account; False if it has none."""
        live = self.by_account.get(account_id)
        if not live:
            return False
        self.send_to_sessions(list(live), message)
        return True

    async def deliver_or_keep(self, account_id: int, message: Msg, kind: str,
                              table_id: int | None = None, keep: bool = False) -> bool:
        """Deliver now, or keep in the inbox for the next login; ``keep`` stores it either way."""
        online = self.deliver(account_id, message)
        if keep or not online:
            await self.keep(account_id, message, kind, table_id, delivered=online)
        return online

    async def keep(self, account_id: int, message: Msg, kind: str, table_id: int | None = None,
                   delivered: bool = False) -> None:
        """Store a message in the account's inbox; undelivered ones are shown at the next login.
        A failed write never raises: the message is held and written when storage is back."""
        await self.inbox_spool.store(account_id=account_id, kind=kind, key=message.key,
                                     params=message.params, table_id=table_id, delivered=delivered)

    def broadcast(self, room: str, message: Msg, exclude: Iterable[int] = ()) -> None:
        skip = set(exclude)
        self.send_to_sessions(self.sessions_of(a for a in self.rooms.get(room, ()) if a not in skip),
                              message)

    async def speak_in(self, room: str, message: Msg, exclude: Iterable[int] = (), speaker: int | None = None,
                       share: bool = True) -> None:
        """A line in a room, less ``exclude`` and those who ignore ``speaker`` (world/social.py);
        a hall line reaches the hall of every node too (``share``; world/cluster/node.py)."""
        skip = list(exclude)
        ignorers = await self.social.ignorers_among(speaker, self.rooms.get(room, ())) if speaker is not None else ()
        self.broadcast(room, message, exclude=[*skip, *ignorers])
        if share and self.cluster is not None:
            self.cluster.room_line(room, message, skip, speaker)

    def broadcast_all(self, message: Msg) -> None:
        self.send_to_sessions([s for s in self.sessions if s.account is not None], message)

    def gmcp_to(self, account_ids: Iterable[int], package: str, data: Any) -> None:
        for session in self.sessions_of(account_ids):
            session.gmcp(package, data)

    def room_payload(self, room: str) -> dict[str, Any]:
        return {"room": room, "players": [a.name for a in self.in_room(room)]}

    def gmcp_room(self, room: str) -> None:
        """Tell GMCP clients in a room who is there (Korchma.Room)."""
        sessions = self.sessions_of(self.rooms.get(room, ()))
        if not sessions:
            return
        payload = self.room_payload(room)
        for session in sessions:
            session.gmcp("Korchma.Room", payload)
