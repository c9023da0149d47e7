"""Prometheus metrics of a running server: ``/metrics`` on ``[metrics] host`` and ``port``.

Off unless ``[metrics] port`` (or ``--metrics-port``) is 0 or more; 0 takes any free port, which
the READY line names (``metrics=N``) and the run file keeps for ``korchma status``
(server/runfile.py). prometheus-client is imported only then: a server without metrics pays
nothing for it.

Each server has its own registry (not prometheus-client's global one), so two servers in one
process, or a test and its server, never share a number. The HTTP side is prometheus-client's
own threaded server (``start_http_server``): a scrape, however slow the scraper, runs in a
thread of its own and never waits for the event loop, and a loop that is stuck still answers,
with a lag that grows while it is stuck. The numbers it reads are prometheus-client's, which
take their own locks; what has to be counted in the world's data (sessions by door, tables by
game and state) is counted on the loop by the lag sampler, once a second (:data:`TICK`), and
laid into gauges, so the thread never walks a dict the loop is changing.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import Counter as Tally
from typing import TYPE_CHECKING, Any, Iterator

from world import meters as world_meters
from world.meters import Meters

from .startup import port_problem

if TYPE_CHECKING:
    from world.hub import World

    from .config import Config

log = logging.getLogger("korchma.metrics")

#: Seconds between two event-loop lag samples (and refreshes of the session and table gauges).
TICK = 1.0
DOORS = ("telnet", "ssh", "web")
TABLE_STATES = ("open", "running", "finished", "closed", "broken")
#: Seconds; from a quick command (a millisecond) to one that waits on a slow database.
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


def reason_label(key: str) -> str:
    """A refusal's catalog key as a label: ``login.bad_password`` -> ``bad_password``."""
    return key.removeprefix("login.")


def command_label(parsed: Any) -> str:
    """A command line's label: the command's canonical verb; a game's own verb (routed to the
    table) or an unknown one is ``other``, so what people type never makes a new series."""
    command = getattr(parsed, "command", None)
    return command.key if command is not None else "other"


class ServerMeters(Meters):
    """The world's reports (world/meters.py) as prometheus-client metrics, and their HTTP server."""

    def __init__(self, world: World) -> None:
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector

        self.world = world
        self.registry = registry = CollectorRegistry()
        ProcessCollector(registry=registry)  # CPU seconds, memory, open files of this process
        self.sessions = Gauge("korchma_sessions", "Open sessions, by door (logged in or not yet)", ["door"],
                              registry=registry)
        self.logged_in = Gauge("korchma_sessions_logged_in", "Sessions past the login, by door", ["door"],
                               registry=registry)
        self.logins = Counter("korchma_logins", "Logins, by door", ["door"], registry=registry)
        self.login_failures = Counter("korchma_login_failures", "Refused logins, by door and reason",
                                      ["door", "reason"], registry=registry)
        self.tables = Gauge("korchma_tables", "Tables the server holds, by game and state", ["game", "state"],
                            registry=registry)
        self.actions = Counter("korchma_actions", "Actions applied at tables, by game and by whom", ["game", "by"],
                               registry=registry)
        self.commands = Histogram("korchma_command_seconds", "Time to run one command line, by command", ["command"],
                                  buckets=LATENCY_BUCKETS, registry=registry)
        self.commits = Histogram("korchma_db_commit_seconds",
                                 "Database transactions from BEGIN to COMMIT (every logged action), by outcome",
                                 ["outcome"], buckets=LATENCY_BUCKETS, registry=registry)
        self.delays = Histogram("korchma_event_loop_delay_seconds",
                                f"How late the event loop woke a task, sampled every {TICK:g} s",
                                buckets=LATENCY_BUCKETS, registry=registry)
        lag = Gauge("korchma_event_loop_lag_seconds",
                    "The event loop's latest lag; while a sample is overdue, how overdue it is", registry=registry)
        lag.set_function(self._lag_now)
        Gauge("korchma_start_time_seconds", "When the server started (Unix time)",
              registry=registry).set(world.started)
        for door in DOORS:  # zeros rather than no series before the first login
            self.logins.labels(door)
        self.last_lag = 0.0
        self.due = math.inf  # when the sampler should wake next (none is due before start())
        self.seen_tables: set[tuple[str, str]] = set()
        self.httpd: Any = None
        self.host, self.port = "", 0
        self.sampler: asyncio.Task | None = None

    # -- the world's reports ------------------------------------------------------------

    def login(self, door: str) -> None:
        self.logins.labels(door).inc()

    def login_refused(self, door: str, reason: str) -> None:
        self.login_failures.labels(door, reason_label(reason)).inc()

    @contextlib.contextmanager
    def command(self, parsed: Any) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.commands.labels(command_label(parsed)).observe(time.perf_counter() - started)

    def action_applied(self, game: str, by: str) -> None:
        self.actions.labels(game, by).inc()

    def transaction_done(self, seconds: float, ok: bool) -> None:
        self.commits.labels("committed" if ok else "failed").observe(seconds)

    # -- what is counted on the loop ----------------------------------------------------

    def _lag_now(self) -> float:
        """Read by the HTTP thread: two floats, no lock needed."""
        return max(self.last_lag, time.monotonic() - self.due)

    def refresh(self) -> None:
        """Count sessions by door and tables by game and state into the gauges. A series once
        seen stays, at zero, when nothing is left in it (a graph drops to 0, not out)."""
        sessions = Tally(getattr(s, "kind", "other") for s in self.world.sessions)
        logged_in = Tally(getattr(s, "kind", "other") for s in self.world.sessions if s.account is not None)
        for door in {*DOORS, *sessions}:
            self.sessions.labels(door).set(sessions[door])
            self.logged_in.labels(door).set(logged_in[door])
        manager = self.world.tables
        tables = Tally((t.game_name, t.state_name) for t in manager.tables.values()) if manager else Tally()
        if not self.seen_tables:
            from games import registry

            self.seen_tables = {(game, state) for game in registry.all_games() for state in TABLE_STATES}
        self.seen_tables.update(tables)
        for game, state in self.seen_tables:
            self.tables.labels(game, state).set(tables[(game, state)])

    async def sample(self) -> None:
        """Every TICK: how late this task woke (the loop's lag), then the gauges."""
        while True:
            self.refresh()
            self.due = time.monotonic() + TICK
            await asyncio.sleep(TICK)
            self.last_lag = max(0.0, time.monotonic() - self.due)
            self.delays.observe(self.last_lag)

    # -- life ---------------------------------------------------------------------------

    def listen(self, host: str, port: int) -> None:
        from prometheus_client import start_http_server

        self.host = host
        try:
            self.httpd, _thread = start_http_server(port, addr=host, registry=self.registry)
        except OSError as err:
            raise port_problem("metrics", host, port, err) from err
        self.port = int(self.httpd.server_port)

    def start(self) -> None:
        """Report and sample from now on: at READY, so the start-up's own work (the restore of
        tables, a new host key) is not taken for the lag of a loop that serves players."""
        self.world.meters = self
        world_meters.transaction_timers.append(self.transaction_done)
        self.refresh()
        self.due = time.monotonic() + TICK
        self.sampler = asyncio.get_running_loop().create_task(self.sample(), name="metrics sampler")
        log.info("metrics at http://%s/metrics", address(self.host, self.port))

    async def close(self) -> None:
        if self.transaction_done in world_meters.transaction_timers:
            world_meters.transaction_timers.remove(self.transaction_done)
        if self.sampler is not None:
            self.sampler.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.sampler
        if self.httpd is not None:
            # shutdown() waits for the server thread's next poll (up to half a second): not on the loop.
            await asyncio.to_thread(self.httpd.shutdown)
            self.httpd.server_close()
            self.httpd = None


def open_metrics(world: World, config: Config) -> ServerMeters | None:
    """Listen for /metrics if ``[metrics] port`` is 0 or more (StartupError, one line, if it
    cannot), before the database opens, like the doors; the numbers start at READY
    (:meth:`ServerMeters.start`). None when metrics are off."""
    section = config.section("metrics")
    port = int(section["port"])
    if port < 0:
        return None
    meters = ServerMeters(world)
    meters.listen(section["host"], port)
    return meters


async def close_metrics(meters: ServerMeters | None) -> None:
    if meters is not None:
        await meters.close()


def address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
