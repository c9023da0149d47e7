"""The server process: database, world, front doors, login bookkeeping, clean shutdown."""
from __future__ import annotations

import asyncio
import logging
import signal
from typing import Any

from world import accounts, db, log_redact, login_guard
from world.hub import World
from world.messages import msg
from world.models import Account, InboxItem
from world.tables import TableManager

from .config import Config

log = logging.getLogger("korchma")


class App:
    def __init__(self, config: Config) -> None:
        self.config = config
        self.world = World(config)
        acc = config.section("accounts")
        log_redact.install()  # no password in any log record, whoever logs it
        self.throttle, self.checks = login_guard.from_config(acc)
        self.creations = accounts.CreationLimit(int(acc["new_accounts_per_address"]),
                                                float(acc["new_accounts_window"]),
                                                frozenset(acc["new_accounts_exempt"]))
        self.telnet: Any = None
        self.ssh: Any = None
        self.telnet_port = 0
        self.ssh_port = 0
        self.stopped = asyncio.Event()
        self.shutdown_task: asyncio.Task | None = None

    async def start(self) -> None:
        self.config.data_dir.mkdir(parents=True, exist_ok=True)
        # tortoise keeps its state in a context variable: init before the servers exist.
        await db.init(self.config.database_url)
        self.world.tables = TableManager(self.world)
        await self.world.tables.restore()
        host = self.config.server["host"]
        from .ssh import start_ssh
        from .telnet import start_telnet

        self.telnet, self.telnet_port = await start_telnet(self, host, int(self.config.server["telnet_port"]))
        self.ssh, self.ssh_port = await start_ssh(self, host, int(self.config.server["ssh_port"]))
        log.info("telnet listening on %s:%d", host, self.telnet_port)
        log.info("ssh listening on %s:%d", host, self.ssh_port)
        # A line tests and scripts can wait for.
        print(f"KORCHMA READY telnet={self.telnet_port} ssh={self.ssh_port}", flush=True)

    async def logged_in(self, session: Any, account: Account) -> None:
        await accounts.sync_admin_role(account, self.config.section("accounts")["admins"])
        ban = await accounts.active_ban(account.name, session.address)
        if ban:
            await session.close(msg("login.banned"))
            return
        account.last_login = accounts.now()
        if session.encoding_known and account.encoding != session.encoding:
            account.encoding = session.encoding
        await account.save(update_fields=["last_login", "encoding"])
        session.account = account
        session.apply_account_settings(account)
        session.login_state = "ready"
        first = self.world.logged_in(session, account)
        session.send("login.welcome", name=account.name)
        await self.show_missed(session, account)
        if first:
            self.world.broadcast(self.world.where(account.id), msg("hall.arrives", name=account.name),
                                 exclude=[account.id])
        assert self.world.tables is not None
        await self.world.tables.on_login(account, session)
        session.gmcp("Korchma.Room", self.world.room_payload(self.world.where(account.id)))

    async def show_missed(self, session: Any, account: Account) -> None:
        """Tells and whispers kept while the player was away, in order."""
        items = await InboxItem.filter(account=account, delivered=False).order_by("id")
        if not items:
            return
        session.send("inbox.missed_header", n=len(items))
        for item in items:
            session.send(item.key, **item.params)
        await InboxItem.filter(id__in=[i.id for i in items]).update(delivered=True)

    async def logged_out(self, session: Any) -> None:
        last = self.world.disconnected(session)
        account = session.account
        if account is not None and last and not self.world.shutting_down:
            self.world.broadcast("hall", msg("hall.leaves", name=account.name))
            assert self.world.tables is not None
            self.world.tables.on_logout(account)

    # -- shutdown ------------------------------------------------------------------------

    def request_shutdown(self, minutes: float = 0, by: str = "") -> None:
        if self.shutdown_task and not self.shutdown_task.done():
            self.shutdown_task.cancel()
        self.shutdown_task = asyncio.get_running_loop().create_task(self._shutdown(minutes, by))

    async def _shutdown(self, minutes: float, by: str) -> None:
        seconds = max(0.0, minutes * 60)
        while seconds > 0:
            self.world.broadcast_all(msg("admin.shutdown_warning", minutes=max(1, round(seconds / 60)),
                                         seconds=int(seconds)))
            step = 60.0 if seconds > 60 else seconds
            await asyncio.sleep(step)
            seconds -= step
        await self.stop()

    async def stop(self) -> None:
        if self.world.shutting_down:
            return
        self.world.shutting_down = True
        self.world.broadcast_all(msg("admin.shutdown_now"))
        if self.world.tables:
            await self.world.tables.stop()  # runners finish their current action and write
        for session in list(self.world.sessions):
            try:
                await session.close()
            except Exception:
                log.exception("closing a session")
        if self.telnet is not None:
            self.telnet.close()
        if self.ssh is not None:
            self.ssh.close()
        await db.close()
        self.stopped.set()


async def serve(config: Config) -> None:
    app = App(config)
    await app.start()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, app.request_shutdown)
        except NotImplementedError:  # pragma: no cover - not on Windows
            pass
    await app.stopped.wait()
