"""The owner's side of a player on another node (issue 19, part 3; world/cluster/play.py routes).

A :class:`RemoteSession` is a Session of the owner's world for an account whose real session is
on another node: commands run in its context through the normal parser and dispatch, and what it
would write goes back over the bus as a Msg (key and parameters) or GMCP (package and data), to
be rendered there in the player's language, width and encoding. It never pages (the player's node
writes the lines as they come) and has no prompt of its own.
"""
from __future__ import annotations

from typing import Any

from commands.base import REGISTRY
from world.cluster.play import LOCAL_COMMANDS
from world.messages import Msg
from world.models import Account
from world.rooms import HALL

from .pager import Pager
from .session import Session


class _Unpaged(Pager):
    __slots__ = ()

    def page_length(self) -> int:
        return 0


class RemoteSession(Session):
    def __init__(self, app: Any, account: Account, info: dict[str, Any], origin: str) -> None:
        super().__init__(app, str(info.get("address") or origin))
        self.kind = str(info.get("kind") or "remote")  # the player's door, for what counts by door
        self.origin = origin
        self.account = account
        self.login_state = "ready"
        self.lang = str(info.get("lang") or self.lang)
        self.lang_chosen = True  # the player's session chose it: the account's setting does not override
        self.width = int(info.get("width") or 80)
        self.pager = _Unpaged(self)
        self.apply_account_settings(account)

    def render_key(self) -> tuple:
        return ("remote", id(self))  # rendered at the player's node: the Msg itself travels

    def render(self, message: Msg) -> Any:
        return message

    def write(self, rendered: Any) -> None:
        if not self.closed and isinstance(rendered, Msg) and self.world.cluster is not None:
            self.world.cluster.play.out(self.origin, self.account.id, rendered)

    def gmcp(self, package: str, data: Any) -> None:
        if not self.closed and self.world.cluster is not None:
            self.world.cluster.play.gmcp(self.origin, self.account.id, package, data)

    def queue_command(self, line: str, wait: int | None) -> None:
        """GMCP commands come as lines from the player's node."""

    async def close(self, message: Msg | None = None) -> None:
        """A kick or a ban: the player's node closes the real sessions (the message first)."""
        if message is not None:
            self.write(message)
        self.closed = True


class RemotePlayHost:
    """What world/cluster/play.py asks of the server: make a proxy, run a line in a session."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self._local: frozenset[str] | None = None

    def stays_here(self, verb: str) -> bool:
        """A verb of a command that acts on the player's own session or node (``password``, ``quit``,
        ``tell``...): run at the player's node even while at another node's table."""
        if self._local is None:
            from commands import load_all  # noqa: F401  (registers every command once)

            self._local = frozenset(v.casefold() for c in REGISTRY if c.key in LOCAL_COMMANDS for v in c.verbs)
        return verb.casefold() in self._local

    async def make_proxy(self, account: Account, info: dict[str, Any], origin: str) -> RemoteSession:
        world = self.app.world
        proxy = RemoteSession(self.app, account, info, origin)
        with_place = account.id in world.location
        world.logged_in(proxy, account)
        if not with_place:  # not in this node's hall: its hall lines reach the player at home already
            world.rooms.get(HALL, set()).discard(account.id)
        await world.social.ignoring(account.id)
        await world.tables.on_login(account, proxy)  # seated at a table here: back in the seat
        return proxy

    async def run_line(self, session: Any, line: str) -> None:
        await session.handle_line(line)
