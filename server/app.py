"""The server process: database, world, front doors, login bookkeeping, clean shutdown."""
from __future__ import annotations

import asyncio
import logging
import signal
from typing import Any, Callable

from commands.games.answers import answer_lines
from commands.recall import show_hall_entry
from world import (accounts, cluster, db, inbox, log_redact, login_guard, login_history, logins, notices, profiles,
                   ratings, schema)
from world.audit import audit
from world.ban_notice import ban_notice
from world.best_effort import best_effort
from world.cluster import ownership
from world.cluster.node import ClusterNode
from world.cluster.once import only_one
from world.hub import World
from world.messages import msg
from world.models import Account
from world.table_restore import TablesNotRestored
from world.tables import TableManager

from . import control, drain, listener, runfile, startup
from .config import Config
from .connections import ConnectionLimit
from .metrics import ServerMeters, close_metrics, open_metrics
from .reload import Reloader
from .remote_play import RemotePlayHost

log = logging.getLogger("korchma")


class App:
    def __init__(self, config: Config) -> None:
        self.config = config
        self.world = World(config)
        self.world.answer_lines = answer_lines  # GMCP Awaiting's lines to type (docs/gmcp.md)
        acc = config.section("accounts")
        log_redact.install()  # no password in any log record, whoever logs it
        self.throttle, self.checks = login_guard.from_config(acc)
        self.creations = accounts.CreationLimit(int(acc["new_accounts_per_address"]),
                                                float(acc["new_accounts_window"]), acc["new_accounts_exempt"])
        self.logins = logins.Logins(self.throttle, self.checks, self.creations, acc["admins"],
                                    meters=lambda: self.world.meters)
        limits = config.section("limits")
        self.connections = ConnectionLimit(int(limits["connections_per_address"]), limits["connections_exempt"])
        self.accept_trouble = listener.AcceptTrouble()
        self.telnet: Any = None
        self.ssh: Any = None
        self.telnet_port = 0
        self.ssh_port = 0
        self.telnet_sockets: list[listener.GuardedSocket] = []
        self.ssh_sockets: list[listener.GuardedSocket] = []
        self.web: Any = None  # [web] port set: the page and its WebSocket (server/web/)
        self.metrics: ServerMeters | None = None  # [metrics] port set: /metrics (server/metrics.py)
        self.stopped = asyncio.Event()
        self.shutdown_task: asyncio.Task | None = None
        self.inbox_sweep: asyncio.Task | None = None  # drops expired inbox items (world/inbox.py)
        self.rating_sweep: asyncio.Task | None = None  # rates finished tables left unrated (world/ratings.py)
        self.on_sighup: Callable[[], None] | None = None  # set by serve(): SIGHUP reloads the config
        self.draining = False  # `korchma drain` or SIGUSR1 (server/drain.py): the tables go to other nodes
        self.drain_task: asyncio.Task | None = None
        self.control = control.ControlServer(self, control.socket_path(config.data_dir))

    async def start(self) -> None:
        """Open everything, cheapest checks first; on any failure close what was opened (so the
        process can exit: aiosqlite's thread, runners, sockets) and raise. A failure the host can
        fix is a StartupError (server/startup.py)."""
        try:
            await self._start()
        except BaseException:
            await self._close_after_failed_start()
            raise

    async def _start(self) -> None:
        cfg = self.config
        host = cfg.server["host"]
        startup.prepare_data_dir(cfg.data_dir)
        startup.preload_texts()
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(listener.quiet_accept_errors)
        # Bind before the database: a busy port is found in a moment, whatever the restore costs.
        self.telnet_sockets = listener.bind(host, int(cfg.server["telnet_port"]), "telnet", self.accept_trouble)
        self.ssh_sockets = listener.bind(host, int(cfg.server["ssh_port"]), "ssh", self.accept_trouble)
        self.metrics = open_metrics(self.world, cfg)
        # tortoise keeps its state in a context variable: init before the servers exist.
        # Its line is logged with the listening ones: a start that fails says only why.
        migrated = await startup.open_database(cfg.database_url, in_data_dir=not cfg.server.get("database_url"))
        from .ssh import host_key, start_ssh
        from .telnet import start_telnet

        key = host_key(cfg.host_key_path)
        self.world.tables = TableManager(self.world)
        self.world.tables.owner = ownership.for_node(self.world.tables, cfg, self.telnet_sockets[0].getsockname()[1])
        try:
            await self.world.tables.restore()
        except TablesNotRestored as err:  # storage trouble: no table is marked broken for it
            raise startup.StartupError(f"tables could not be restored: {err}; nothing was marked broken, and "
                                       f"the next start tries again once the database works; "
                                       f"{startup.DB_URL_HINT}") from err
        await accounts.settle_config_admins(cfg.section("accounts")["admins"])
        # At start, then hourly: items past [inbox] retention_days go (a login also sweeps its own).
        self.inbox_sweep = loop.create_task(inbox.purge_loop(float(cfg.section("inbox")["retention_days"])))
        await self.control.start()
        self.telnet, self.telnet_port = await start_telnet(self, self.telnet_sockets)
        self.ssh, self.ssh_port = await start_ssh(self, self.ssh_sockets, key)
        await self._join_cluster()
        log.info("telnet listening on %s:%d", host, self.telnet_port)
        log.info("ssh listening on %s:%d", host, self.ssh_port)
        if int(cfg.section("web")["port"]) >= 0:  # (aiohttp is imported only for a web door)
            from .web.door import start_web

            self.web = await start_web(self)
        if self.web is not None:
            log.info("web listening on http://%s:%d/", self.web.host, self.web.port)
        # Beside the open doors: a first start on years of games spends most of an hour on it.
        node = self.world.cluster  # in a cluster one node sweeps for all (world/cluster/once.py)
        self.rating_sweep = loop.create_task(ratings.sweep_after_start(
            (lambda: only_one(node.client, node.node, "rating_sweep")) if node is not None else None))
        schema.report(migrated)
        if self.metrics:
            self.metrics.start()
        metrics_port = self.metrics.port if self.metrics else None
        runfile.write(cfg.data_dir, host=host, telnet=self.telnet_port, ssh=self.ssh_port,
                      metrics_host=cfg.section("metrics")["host"], metrics=metrics_port,
                      web=self.web.port if self.web else None)
        # SIGTERM and SIGINT stop cleanly from the moment READY is out (a script may send one
        # as soon as it reads the line).
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, self.request_shutdown, 0, sig.name)
            except NotImplementedError:  # pragma: no cover - not on Windows
                pass
        if self.on_sighup is not None and hasattr(signal, "SIGHUP"):  # reload (server/reload.py)
            loop.add_signal_handler(signal.SIGHUP, self.on_sighup)
        if hasattr(signal, "SIGUSR1"):  # drain: hand the tables to other nodes, then stop
            loop.add_signal_handler(signal.SIGUSR1, drain.on_signal, self)
        # A line tests and scripts can wait for (the run file `korchma status` reads is there by then).
        print(f"KORCHMA READY telnet={self.telnet_port} ssh={self.ssh_port}"
              + (f" metrics={metrics_port}" if self.metrics else "")
              + (f" web={self.web.port}" if self.web else ""), flush=True)

    async def _join_cluster(self) -> None:
        """[cluster] redis_url set: this node's bus and presence (world/cluster/node.py)."""
        if cluster.enabled(self.config):
            node = ClusterNode(self.world, self.config, cluster.node_name(self.config, self.telnet_port))
            self.world.cluster = node
            node.play.host = RemotePlayHost(self)
            await node.start()

    async def _leave_cluster(self) -> None:
        node, self.world.cluster = self.world.cluster, None
        if node is not None:
            await node.stop()

    def _stop_sweeps(self) -> None:
        for task in (self.inbox_sweep, self.rating_sweep):
            if task is not None:
                task.cancel()

    async def _close_after_failed_start(self) -> None:
        self.world.shutting_down = True
        self._stop_sweeps()
        await self._leave_cluster()
        await self.control.close()
        for closer in (self.telnet, self.ssh):
            if closer is not None:
                closer.close()
        for sock in [*self.telnet_sockets, *self.ssh_sockets]:
            sock.close()
        if self.web is not None:
            await self.web.close()
        if self.world.tables is not None:
            try:
                await self.world.tables.stop()
            except Exception:
                log.debug("stopping tables after a failed start", exc_info=True)
        await close_metrics(self.metrics)
        # Always: a failed init may have opened a connection (aiosqlite's thread keeps the
        # process alive). tortoise's "shutdown" line would be a second line on the host's screen.
        tortoise_log = logging.getLogger("tortoise")
        level = tortoise_log.level
        tortoise_log.setLevel(logging.WARNING)
        try:
            await db.close()
        except Exception:
            log.debug("closing the database after a failed start", exc_info=True)
        finally:
            tortoise_log.setLevel(level)
        startup.wait_for_database_threads()
        self.accept_trouble.close()

    async def logged_in(self, session: Any, account: Account, method: str = "password") -> None:
        """``method``: how the player got in (password, key, or new: a new account)."""
        await accounts.sync_admin_role(account, self.config.section("accounts")["admins"])
        ban = await accounts.active_ban(account.name, session.address)
        if ban:
            self.logins.refused_login(session.kind, session.address, account.name, "login.banned")
            await session.close(ban_notice(ban))
            return
        self.world.meters.login(session.kind)
        audit("login", door=session.kind, address=session.address, name=account.name, method=method)
        account.last_login = accounts.now()
        if session.encoding_known and account.encoding != session.encoding:
            account.encoding = session.encoding
        with best_effort("the login of %s", account.name):  # a login can live without it
            await account.save(update_fields=["last_login", "encoding"])
        with best_effort("the login history of %s", account.name):  # for the admin's `where NAME`
            await login_history.record(account, session.kind, session.address)
        session.account = account
        session.apply_account_settings(account)
        session.login_state = "ready"
        with best_effort("the ignore list of %s", account.name):  # loaded now: talk need not read it
            await self.world.social.ignoring(account.id)
        first = self.world.logged_in(session, account)
        # After logged_in: a last other session closing meanwhile must not forget the loaded book.
        with best_effort("the aliases of %s", account.name):  # typing works without them
            await self.world.aliases.load(account.id)
        session.send("login.welcome", name=account.name)
        with best_effort("the notices of %s", account.name):  # the motd, unread news (world/notices.py)
            for line in await notices.at_login(self.world, account, str(self.config.server.get("motd", ""))):
                session.send_msg(line)
        await self.show_missed(session, account)
        if first:
            await self.world.speak_in(self.world.where(account.id), msg("hall.arrives", name=account.name),
                                      exclude=[account.id])
        assert self.world.tables is not None
        await self.world.tables.on_login(account, session)
        if self.world.cluster is not None:  # seated at a table another node runs: back to it
            await self.world.cluster.play.logged_in(session, account)
        session.gmcp("Korchma.Room", self.world.room_payload(self.world.where(account.id)))
        await show_hall_entry(self.world, session, account.id)  # back in the hall: its last lines

    async def show_missed(self, session: Any, account: Account) -> None:
        """Tells and news kept while the player was away: in order, or a line per long group
        pointing at `inbox` (world/inbox.py)."""
        for message in await inbox.at_login(self.world, account.id):
            session.send_msg(message)

    async def logged_out(self, session: Any) -> None:
        last = self.world.disconnected(session)
        account = session.account
        if account is not None and last:
            self.world.aliases.forget(account.id)
        if account is not None and last and not self.world.shutting_down:
            with best_effort("the last visit of %s", account.name):  # for `finger` (world/profiles.py)
                await profiles.record_left(account)
        if account is not None and last and not self.world.shutting_down:
            await self.world.speak_in("hall", msg("hall.leaves", name=account.name))
            assert self.world.tables is not None
            self.world.tables.on_logout(account)
        if account is not None and last and self.world.cluster is not None:
            self.world.cluster.play.logged_out(account.id)

    # -- shutdown ------------------------------------------------------------------------

    async def stop_listening(self) -> None:
        """No new connection from now on (a drain); those already open stay."""
        if self.telnet is not None:
            self.telnet.stop_listening()
        if self.ssh is not None:
            self.ssh.close()  # (only the acceptors: asyncssh keeps the connections)
        if self.web is not None:
            await self.web.stop_listening()

    def request_shutdown(self, minutes: float = 0, by: str = "") -> None:
        if self.world.shutting_down:
            # Already stopping (a second SIGTERM: `make run` in a terminal, systemd's whole
            # group): cancelling that stop half-way would leave the process up for ever.
            return
        """``by``: the admin's name, or the signal's (SIGTERM, SIGINT)."""
        audit("shutdown", by=by or "signal", minutes=minutes)
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
        await self.control.close()
        self._stop_sweeps()
        self.world.broadcast_all(msg("admin.shutdown_now"))
        if self.world.tables:
            await self.world.tables.stop()  # runners finish their current action and write
        await self.world.inbox_spool.close()
        with best_effort("the last visit of those online"):  # their sessions end now (`finger`)
            await profiles.record_left_all(list(self.world.accounts.values()))
        await self._leave_cluster()  # the other nodes drop this one's players at once
        for session in list(self.world.sessions):
            try:
                await session.close()
            except Exception:
                log.exception("closing a session")
        if self.telnet is not None:
            self.telnet.close()
        if self.ssh is not None:
            self.ssh.close()
        if self.web is not None:
            await self.web.close()
        await db.close()
        await close_metrics(self.metrics)
        runfile.remove(self.config.data_dir)
        self.accept_trouble.close()
        self.stopped.set()


async def serve(config: Config, load_again: Callable[[], Config] | None = None) -> None:
    """Run until SIGTERM/SIGINT (or `shutdown`); SIGHUP reloads the configuration with
    ``load_again`` (server/reload.py), the files and flags the server started with."""
    app = App(config)
    if load_again is not None:
        app.on_sighup = Reloader(app, load_again).on_signal
    try:
        await app.start()
    except (startup.StartupError, asyncio.CancelledError, KeyboardInterrupt):
        raise
    except Exception as err:  # not foreseen: still one line (the traceback with --debug)
        raise startup.StartupError(f"start-up failed: {type(err).__name__}: {startup.one_line(err)} "
                                   f"(run with --debug for the traceback)") from err
    await app.stopped.wait()
