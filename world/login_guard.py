"""What stands between a password guess and an account: the throttle, the check queue, argon2.

* :class:`LoginThrottle` counts failed logins per (name, address) and per address, never per
  name alone, so nobody can lock an owner out from somewhere else.
* :class:`PasswordChecks` runs every argon2 hash and check on a thread pool sized to the
  machine's cores, takes at most a few jobs per address at once, and serves the addresses in
  turn (round robin), so a flood from one address never delays anyone else's login by more
  than one turn.
* :class:`Hasher` holds the argon2id parameters and re-hashes a stored hash made with others.

An "address" is the world's unit (world/addresses.py ``address_key``): an IPv4 address, or the
/64 network of an IPv6 address.
"""
from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections import OrderedDict, deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Hashable, Iterable, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from .accounts import name_key
from .addresses import AddressSet, address_key, normalize_address

log = logging.getLogger("korchma.logins")

# Failures on one name from this many addresses make one warning in the log (per name, until its
# failures are forgotten): a guess spread over many addresses, for the admins to know about.
SPREAD_WARNING = 20
# Entries kept per book before the least recently failed go, whatever their age: a flood of
# names from many addresses costs at most this much memory (about 250 bytes an entry). The
# per-name book (only for telling owners and warning admins) keeps a tenth of that, each with
# at most SPREAD_WARNING addresses.
MAX_ENTRIES = 100_000
WARM_UP = "warm-up"  # what each hashing thread hashes first (PasswordChecks._warm)


# -- the throttle ------------------------------------------------------------------------------


@dataclass(slots=True)
class _Failures:
    count: int = 0
    blocked_until: float = 0.0
    last: float = 0.0
    addresses: set[str] | None = None  # only in the per-name book
    warned: bool = False


K = TypeVar("K", bound=Hashable)


class _Book(Generic[K]):
    """Failures by key, least recently failed first. An entry is forgotten ``forget`` seconds
    after its last failure (``forget`` is never shorter than the longest wait, so a forgotten
    entry never had a wait left), and the least recent go first beyond ``limit`` entries."""

    def __init__(self, forget: float, limit: int) -> None:
        self.forget, self.limit = forget, limit
        self.entries: OrderedDict[K, _Failures] = OrderedDict()

    def get(self, key: K, t: float) -> _Failures | None:
        entry = self.entries.get(key)
        if entry is not None and t - entry.last > self.forget:
            del self.entries[key]
            return None
        return entry

    def add(self, key: K, t: float) -> _Failures:
        """The entry for a new failure at ``t``, moved to the recent end."""
        entry = self.get(key, t) or _Failures()
        self.entries.pop(key, None)
        entry.last = t
        self.entries[key] = entry
        while self.entries:  # the oldest first: stop at the first one still to be kept
            oldest = next(iter(self.entries.values()))
            if len(self.entries) <= self.limit and t - oldest.last <= self.forget:
                break
            self.entries.popitem(last=False)
        return entry

    def pop(self, key: K, t: float) -> _Failures | None:
        entry = self.get(key, t)
        self.entries.pop(key, None)
        return entry

    def __len__(self) -> int:
        return len(self.entries)


@dataclass
class LoginThrottle:
    """After ``attempts`` failures of one name from one address, that name waits there; after
    ``attempts`` failures from one address (any names), that address waits. Each further failure
    doubles the wait (``backoff`` up to ``backoff_max`` seconds). A success clears only the
    (name, address) entry: the address keeps its count, so an attacker's own account does not
    buy more guesses. Failures are forgotten ``forget`` seconds after the last one.

    Per name alone nothing is blocked (that would lock the owner out); the name's failures are
    counted only to tell its owner at the next login and to warn the admins in the log."""

    attempts: int = 5
    backoff: float = 5.0
    backoff_max: float = 300.0
    forget: float = 3600.0
    limit: int = MAX_ENTRIES
    by_pair: _Book[tuple[str, str]] = field(init=False)
    by_address: _Book[str] = field(init=False)
    by_name: _Book[str] = field(init=False)

    def __post_init__(self) -> None:
        forget = max(self.forget, self.backoff_max)
        self.by_pair, self.by_address = _Book(forget, self.limit), _Book(forget, self.limit)
        self.by_name = _Book(forget, max(1, self.limit // 10))

    @staticmethod
    def _now(clock: float | None) -> float:
        return time.monotonic() if clock is None else clock

    def wait_left(self, name: str | None, address: str, clock: float | None = None) -> float:
        t = self._now(clock)
        addr = address_key(address)
        entries = [self.by_address.get(addr, t)]
        if name:
            entries.append(self.by_pair.get((name_key(name), addr), t))
        return max([0.0] + [e.blocked_until - t for e in entries if e is not None])

    def failed(self, name: str | None, address: str, clock: float | None = None) -> None:
        t = self._now(clock)
        addr = address_key(address)
        entries = [self.by_address.add(addr, t)]
        if name:
            key = name_key(name)
            entries.append(self.by_pair.add((key, addr), t))
            self._spread(key, name, addr, t)
        for entry in entries:
            entry.count += 1
            if entry.count >= self.attempts:
                extra = entry.count - self.attempts
                entry.blocked_until = t + min(self.backoff * (2 ** min(extra, 32)), self.backoff_max)

    def _spread(self, key: str, name: str, addr: str, t: float) -> None:
        entry = self.by_name.add(key, t)
        entry.count += 1
        if entry.addresses is None:
            entry.addresses = set()
        if len(entry.addresses) < SPREAD_WARNING:
            entry.addresses.add(addr)
        if len(entry.addresses) >= SPREAD_WARNING and not entry.warned:
            entry.warned = True
            log.warning("failed logins as %s from %d or more addresses (%d failures): "
                        "a guess spread over many addresses?", name, len(entry.addresses), entry.count)

    def succeeded(self, name: str, address: str, clock: float | None = None) -> tuple[int, int]:
        """Forget this name's failures from this address. Returns the name's failures from
        anywhere since its last success (failures, addresses; at most SPREAD_WARNING of
        those are told apart), to tell the owner."""
        t = self._now(clock)
        key = name_key(name)
        self.by_pair.pop((key, address_key(address)), t)
        spread = self.by_name.pop(key, t)
        return (spread.count, len(spread.addresses or ())) if spread is not None else (0, 0)


# -- argon2 ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Checked:
    ok: bool
    new_hash: str | None = None  # set when the stored hash had other parameters: store this one


class Hasher:
    """argon2id with this server's parameters (config accounts.argon2_*)."""

    def __init__(self, memory_kib: int = 19456, time_cost: int = 2, lanes: int = 1) -> None:
        self.ph = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=lanes)
        self.memory_kib = memory_kib

    def hash(self, password: str) -> str:
        return self.ph.hash(password)

    def check(self, stored: str | None, password: str) -> Checked:
        """Is ``password`` the one ``stored`` was made from; if so and ``stored`` has other
        parameters than ours, a new hash made with ours (RFC 9106 / OWASP advice moves on)."""
        if not stored:
            return Checked(False)
        try:
            self.ph.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return Checked(False)
        return Checked(True, self.ph.hash(password) if self.ph.check_needs_rehash(stored) else None)


# -- the check queue -------------------------------------------------------------------------


class ChecksBusy(Exception):
    """Too many password checks waiting for this address (or in all): try again in a moment."""


@dataclass(eq=False)
class _Job:
    lane: str
    fn: Callable[..., Any]
    args: tuple
    future: asyncio.Future
    started: bool = False


def cores() -> int:
    """The CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class PasswordChecks:
    """Every argon2 hash and check, on ``workers`` threads (argon2 runs in C without the GIL, so
    they use that many cores; memory for hashing is at most workers x argon2 memory).

    Fair: each address has its own lane, and the lanes take turns, one job each. Bounded: an
    address (not in ``exempt``) may have ``per_address`` jobs waiting or running; more, or more
    than ``queue_max`` in all, and :class:`ChecksBusy` is raised at once, without checking
    anything (so no guess is answered, and none counts as a failure)."""

    def __init__(self, hasher: Hasher, workers: int = 0, per_address: int = 2,
                 exempt: Iterable[str] = (), queue_max: int = 1000) -> None:
        self.hasher = hasher
        self.workers = workers if workers > 0 else cores()
        self.per_address = per_address
        self.exempt = AddressSet(exempt)
        self.queue_max = queue_max
        self._pool: ThreadPoolExecutor | None = None
        self._lanes: OrderedDict[str, deque[_Job]] = OrderedDict()
        self._load: dict[str, int] = {}  # jobs waiting or running, by lane
        self._waiting = 0
        self._running = 0

    async def hash(self, address: str, password: str) -> str:
        return await self._run(address, self.hasher.hash, password)

    async def check(self, address: str, stored: str | None, password: str) -> Checked:
        return await self._run(address, self.hasher.check, stored, password)

    def _lane(self, address: str) -> tuple[str, bool]:
        """The lane of ``address`` (its unit; an exempt address has its own, so that it takes
        nothing from its /64's limit), and whether it is exempt."""
        address = normalize_address(address)
        exempt = address in self.exempt
        return (address if exempt else address_key(address)), exempt

    def load(self, address: str) -> int:
        return self._load.get(self._lane(address)[0], 0)

    def full(self, address: str) -> bool:
        """Would a job from ``address`` be refused now? (Asked first, to refuse a guess before
        any other work, such as reading its account.)"""
        lane, exempt = self._lane(address)
        return (not exempt and self._load.get(lane, 0) >= self.per_address) or self._waiting >= self.queue_max

    async def _run(self, address: str, fn: Callable[..., Any], *args: Any) -> Any:
        if self.full(address):
            raise ChecksBusy()
        lane = self._lane(address)[0]
        job = _Job(lane, fn, args, asyncio.get_running_loop().create_future())
        self._lanes.setdefault(lane, deque()).append(job)  # a new lane goes to the end of the turn
        self._load[lane] = self._load.get(lane, 0) + 1
        self._waiting += 1
        self._pump()
        try:
            return await job.future
        except asyncio.CancelledError:
            if not job.started:  # gone before its turn (the client left): drop it now
                jobs = self._lanes[lane]  # a job not started is still in its lane
                jobs.remove(job)
                if not jobs:
                    del self._lanes[lane]
                self._waiting -= 1
                self._release(lane)
            raise

    def _release(self, lane: str) -> None:
        left = self._load.get(lane, 0) - 1
        if left > 0:
            self._load[lane] = left
        else:
            self._load.pop(lane, None)

    def _start_pool(self) -> ThreadPoolExecutor:
        """The threads, each with its argon2 memory made at once (see _warm)."""
        pool = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="argon2")
        together = threading.Barrier(self.workers, timeout=5)
        for _ in range(self.workers):  # FIFO: these run before any real job
            pool.submit(self._warm, together)
        return pool

    def _warm(self, together: threading.Barrier) -> None:
        """Hash twice in each thread, all threads in step. glibc serves argon2's memory (19 MiB)
        with mmap the first time, then, having raised its threshold, from the thread's arena,
        where it is kept for that thread's next hash. Done here for every thread, the hashing
        memory (workers x argon2 memory) is taken once at the first login, not a little more
        with each new burst of logins, and never again."""
        for _ in range(2):
            try:
                together.wait()
            except threading.BrokenBarrierError:
                return
            self.hasher.hash(WARM_UP)

    def _pump(self) -> None:
        loop = asyncio.get_running_loop()
        if self._pool is None:
            self._pool = self._start_pool()
        while self._running < self.workers and self._lanes:
            lane, jobs = next(iter(self._lanes.items()))
            job = jobs.popleft()
            if jobs:
                self._lanes.move_to_end(lane)  # its next job waits for every other lane's turn
            else:
                del self._lanes[lane]
            self._waiting -= 1
            job.started = True
            self._running += 1
            done = loop.run_in_executor(self._pool, job.fn, *job.args)
            done.add_done_callback(lambda f, job=job: self._finished(job, f))

    def _finished(self, job: _Job, done: asyncio.Future) -> None:
        self._running -= 1
        self._release(job.lane)
        if not job.future.done():
            if done.cancelled():
                job.future.cancel()
            elif done.exception() is not None:
                job.future.set_exception(done.exception())  # type: ignore[arg-type]
            else:
                job.future.set_result(done.result())
        self._pump()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def from_config(acc: dict[str, Any]) -> tuple[LoginThrottle, PasswordChecks]:
    """The throttle and the check queue of config section ``accounts``."""
    throttle = LoginThrottle(int(acc["login_attempts"]), float(acc["login_backoff"]),
                             float(acc["login_backoff_max"]), float(acc["login_forget"]))
    hasher = Hasher(int(acc["argon2_memory"]), int(acc["argon2_time"]), int(acc["argon2_lanes"]))
    checks = PasswordChecks(hasher, int(acc["hash_workers"]), int(acc["checks_per_address"]),
                            acc["checks_exempt"], int(acc["checks_queued_max"]))
    return throttle, checks
