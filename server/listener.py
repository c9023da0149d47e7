"""Listening sockets that survive running out of file descriptors.

Why this exists: when the process hits its descriptor limit, ``accept()`` fails with EMFILE.
asyncio's accept loop (``BaseSelectorEventLoop._accept_connection``, Python 3.11) then logs a
traceback and arms a one-second retry timer *for every accept it tries in that tick* (it does not
stop at the first EMFILE: up to the backlog, 100), and each of those timers re-arms the reader
for another round: 8,568 tracebacks in 8 s from one door here, 195,941 in 41 s in the field.
Meanwhile the waiting connections stayed in the kernel's queue, so clients hung instead of
hearing "no".

The fix is at the socket asyncio accepts from: :class:`GuardedSocket` is the listening socket
both doors hand to ``create_server(sock=...)`` (telnet directly, SSH through asyncssh). Its
``accept()``

* sheds a connection whose descriptor falls into the last :data:`HEADROOM` descriptors below
  the limit (descriptors are handed out lowest first, so a number that high means the table is
  that full): the rest of the server (database, log, a player's login) keeps room to work;
* on EMFILE/ENFILE, frees one spare descriptor kept for this, accepts the waiting connections
  and closes them at once, and takes the spare again (the classic libuv/nginx trick), so clients
  are told "closed" at once and the listening socket stops being readable;
* tells asyncio "nothing to accept" (BlockingIOError) instead of raising, so asyncio neither logs
  nor multiplies its timers.

Every shed connection is counted by :class:`AcceptTrouble`, which logs at most once every
:data:`REPORT_EVERY` seconds with the count since its last line.
"""
from __future__ import annotations

import asyncio
import errno
import logging
import os
import resource
import socket
import time
from typing import Callable

from .startup import StartupError, port_problem

log = logging.getLogger("korchma.listen")

#: Errors of accept() that mean "out of descriptors or memory", not "this client went away".
OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
#: Descriptors kept free below the soft limit for everything that is not a new connection.
HEADROOM = 16
#: Seconds between two log lines about refused connections.
REPORT_EVERY = 5.0
#: Waiting connections shed per accept() call while the spare descriptor is free.
SHED_BATCH = 64
#: Seconds accept() answers "nothing" after handing asyncio an EMFILE (asyncio retries after 1 s).
PAUSE = 0.5


def descriptor_limit() -> int:
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


class AcceptTrouble:
    """Counts connections refused for lack of descriptors and logs a summary now and then."""

    def __init__(self, every: float = REPORT_EVERY, clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self.clock = clock
        self.counts: dict[str, int] = {}
        self.reasons: set[str] = set()
        self.last_report = -float("inf")
        self.timer: asyncio.TimerHandle | None = None

    def refused(self, door: str, reason: str) -> None:
        self.counts[door] = self.counts.get(door, 0) + 1
        self.reasons.add(reason)
        if self.clock() - self.last_report >= self.every:
            self.report()
        elif self.timer is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return
            delay = max(0.0, self.last_report + self.every - self.clock())
            self.timer = loop.call_later(delay, self.report)

    def report(self) -> None:
        self.timer = None
        if not self.counts:
            return
        since = self.clock() - self.last_report
        window = f" in the last {since:.0f} s" if since < 3600 else ""
        refused = ", ".join(f"{n} {door}" for door, n in sorted(self.counts.items()))
        log.warning("out of file descriptors (%s; the limit is %d): refused %s connection(s)%s; "
                    "logged-in players are still served; raise the limit (ulimit -n, systemd "
                    "LimitNOFILE=)", ", ".join(sorted(self.reasons)), descriptor_limit(), refused, window)
        self.counts.clear()
        self.reasons.clear()
        self.last_report = self.clock()

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.report()


class GuardedSocket(socket.socket):
    """A listening socket whose accept() sheds connections instead of failing (module text)."""

    door = ""
    trouble: AcceptTrouble
    refusal = b""  # sent to a shed connection before it is closed (telnet: one line)
    spare: int | None = None
    limit = 0
    paused_until = 0.0

    def guard(self, door: str, trouble: AcceptTrouble) -> None:
        self.door, self.trouble = door, trouble
        self.limit = descriptor_limit()
        self._take_spare()

    def _take_spare(self) -> None:
        if self.spare is None:
            try:
                self.spare = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
            except OSError:
                self.spare = None

    def _drop_spare(self) -> None:
        if self.spare is not None:
            os.close(self.spare)
            self.spare = None

    def _shed(self, conn: socket.socket, reason: str) -> None:
        try:
            if self.refusal:
                conn.setblocking(False)
                conn.send(self.refusal)
        except OSError:
            pass
        finally:
            conn.close()
        self.trouble.refused(self.door, reason)

    def accept(self) -> tuple[socket.socket, object]:  # type: ignore[override]
        if self.paused_until:
            if time.monotonic() < self.paused_until:
                raise BlockingIOError(errno.EAGAIN, "accepting paused: out of file descriptors")
            self.paused_until = 0.0
        try:
            conn, addr = super().accept()
        except OSError as err:
            if err.errno not in OUT_OF_RESOURCES:
                raise
            if self._shed_waiting(err):
                raise BlockingIOError(errno.EAGAIN, "connections shed: out of file descriptors") from None
            # Not even the spare descriptor: let asyncio stop reading this socket and retry in a
            # second (its exception handler is told to stay quiet, see quiet_accept_errors); the
            # pause makes the rest of its accept loop in this tick end at once.
            self.paused_until = time.monotonic() + PAUSE
            raise
        if conn.fileno() >= self.limit - HEADROOM:
            self._shed(conn, f"the last {HEADROOM} are kept for the server")
            raise BlockingIOError(errno.EAGAIN, "connection shed: out of file descriptors")
        return conn, addr

    def _shed_waiting(self, err: OSError) -> bool:
        """Out of descriptors: free the spare one to accept and close what waits; False when
        there is no spare to free (or even that is not enough)."""
        reason = os.strerror(err.errno) if err.errno else str(err)
        if self.spare is None:
            self.trouble.refused(self.door, reason)
            return False
        self._drop_spare()
        try:
            for _ in range(SHED_BATCH):
                try:
                    conn, _addr = super().accept()
                except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                    return True
                except OSError as again:
                    if again.errno not in OUT_OF_RESOURCES:
                        raise
                    self.trouble.refused(self.door, reason)
                    return False
                self._shed(conn, reason)
            return True
        finally:
            self._take_spare()

    def close(self) -> None:
        self._drop_spare()
        super().close()


def bind(host: str, port: int, door: str, trouble: AcceptTrouble, backlog: int = 100) -> list[GuardedSocket]:
    """Listening sockets for every address ``host`` names (all of them on one port, also when
    ``port`` is 0); a failure is a StartupError naming the door's flag and key."""
    try:
        infos = socket.getaddrinfo(host or None, port, family=socket.AF_UNSPEC, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as err:
        raise StartupError(f"cannot listen for {door} on {host!r}: {err.strerror}; change server.host or --host") from err
    sockets: list[GuardedSocket] = []
    seen: set[tuple] = set()
    try:
        for family, kind, proto, _name, addr in infos:
            if (family, addr[:2]) in seen:
                continue
            seen.add((family, addr[:2]))
            sock = GuardedSocket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and hasattr(socket, "IPPROTO_IPV6"):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            chosen = sockets[0].getsockname()[1] if len(sockets) > 1 else port
            try:
                sock.bind((addr[0], chosen, *addr[2:]))
            except OSError as err:
                raise port_problem(door, host, chosen, err) from err
            sock.listen(backlog)
            sock.setblocking(False)
            sock.guard(door, trouble)
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    return sockets


def quiet_accept_errors(loop: asyncio.AbstractEventLoop, context: dict) -> None:
    """The loop's exception handler: an accept that ran out of descriptors was counted by the
    guarded socket already; everything else goes to asyncio's default handler."""
    if context.get("message") == "socket.accept() out of system resource":
        return
    loop.default_exception_handler(context)
