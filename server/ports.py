"""What the doors and sessions need of the server, as protocols.

server/app.py builds the doors (ssh.py, telnet.py) and they build sessions; each of those calls
back into the app (login bookkeeping, limits), and the telnet protocol calls back into its door.
Naming those few calls here, below all of them, keeps the imports one-way (ports <- session <-
ssh/telnet <- app) rather than a circle of ``TYPE_CHECKING`` imports.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from world import accounts, login_guard, logins
    from world.hub import World
    from world.models import Account

    from .config import Config
    from .connections import ConnectionLimit


class AppServices(Protocol):
    """The running server (server/app.py App) as doors and sessions see it."""

    config: Config
    world: World
    throttle: login_guard.LoginThrottle
    creations: accounts.CreationLimit
    logins: logins.Logins
    connections: ConnectionLimit

    async def logged_in(self, session: Any, account: Account) -> None: ...

    async def logged_out(self, session: Any) -> None: ...


class TelnetDoorLike(Protocol):
    """The telnet door (server/telnet.py TelnetDoor) as one connection's protocol sees it."""

    app: AppServices
    input_buffer: int
    sessions: set[Any]
    proxy_gate: Any  # server/proxy_gate.py ProxyGate

    def mssp_variables(self) -> dict[str, Any]: ...

    def new_session(self, protocol: Any, address: str) -> Any: ...

    def too_many_line(self) -> bytes: ...
