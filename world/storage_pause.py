"""A table whose write failed: it stops, says so, and carries on by itself when writes work again.

The runner logs before it speaks (runner.py). When that write fails for storage trouble (a full
disk, a read-only database, a PostgreSQL server that went away: ``db.is_storage_failure``), the
runner puts the game back as the log has it and hands over to :class:`StoragePause`, which

1. stops the table: the clock stands with the time that was left, bots and timeouts wait, and a
   player's action gets one line saying the table is paused for storage (``storage.refused``);
2. tells everyone at the table, seated or watching (the observer Master too), once;
3. retries with the world's backoff (world/retry.py: 1 s, doubling to 30 s): each try is the
   write that resuming needs anyway, the table's clock (or the finish record of a game that
   ended meanwhile);
4. when a try works: says so, gives the clock back the seconds it had, and lets bots and
   timeouts move again. Nothing that was refused is applied later: a bot or a timeout simply
   moves again, a player types again.

Before resuming it reads the log once more: a commit whose answer was lost (the connection died
after the server had written it) is adopted, announced and carried on from, never written twice.

A try that fails for anything but storage trouble (a logged step the rules refuse, a write the
database rejects, a bug) would fail the same way at every try, and the table would stay paused
for ever: the table is marked broken instead, its players told (world/broken_tables.py).

What the pause asks of the runner is :class:`PausableTable`, and nothing else.

A pause from outside is the same stop with its own lines (:class:`PauseLines`): :meth:`hold`
stops the table (this node lost the cluster's Redis and may lose the table: world/cluster/
ownership.py), nothing retries, and :meth:`lift` resumes it through the same probe and
resumption as a storage pause (or the node drops the table instead).
"""
from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Protocol

from games.base import RuleError

from .db import is_storage_failure
from .messages import Msg, msg
from .retry import retry_with_backoff

log = logging.getLogger("korchma.runner")


class PausableTable(Protocol):
    """The table runner as the pause sees it (world/runner.py)."""

    lock: asyncio.Lock
    stopped: bool
    table: Any
    world: Any

    def stand_still(self) -> float | None:
        """Stop the clock and every move; the seconds the clock had left (None: no clock)."""

    async def catch_up(self, seconds_left: float | None) -> float | None:
        """Adopt the steps the log holds beyond the game's; the seconds to resume with."""

    async def store_resumption(self, seconds_left: float | None) -> dict[str, Any] | None:
        """The write resuming needs; the result to announce when the game is over."""

    async def carry_on(self, result: dict[str, Any] | None) -> None:
        """Announce the result, or start the clock and let bots move."""

    async def break_down(self, err: BaseException) -> None:
        """The table cannot go on: marked broken, its players told."""


@dataclass(frozen=True)
class PauseLines:
    """The catalog keys a pause speaks with (each takes the table's ``number``)."""

    paused: str
    refused: str  # an action while it stands
    resumed: str
    resumed_clock: str  # with the ``seconds`` left on the clock
    look: str  # `look` at the table while it stands
    over: str = "writes work again"  # why it is over, for the host's log


STORAGE_LINES = PauseLines("storage.paused", "storage.refused", "storage.resumed", "storage.resumed_clock",
                           "storage.look")


class StoragePause:
    def __init__(self, runner: PausableTable) -> None:
        self.runner = runner
        self.active = False
        self.seconds_left: float | None = None  # on the clock when it stopped (None: no clock)
        self.task: asyncio.Task | None = None
        self.held: PauseLines | None = None  # a pause from outside (hold), until lift
        self.standing: asyncio.Task | None = None  # a hold stopping the clock once the lock is free
        self.lines = STORAGE_LINES  # of the pause in force

    def refusal(self) -> Exception:
        return RuleError(self.lines.refused, number=self.runner.table.number)

    def hold(self, lines: PauseLines) -> None:
        """Stop the table from outside its lock: every action is refused from now on, and the
        clock and the moves stop as soon as the action in hand (if any) is done."""
        if self.held is not None or self.runner.stopped:
            return
        self.held = lines
        if self.active:  # paused for storage already: its retries wait for lift()
            return
        self.active, self.lines = True, lines
        log.warning("table %d: paused (%s)", self.runner.table.number, lines.paused)
        self.tell(msg(lines.paused, number=self.runner.table.number))
        self.standing = asyncio.get_running_loop().create_task(self._stand_still())

    async def _stand_still(self) -> None:
        async with self.runner.lock:
            if self.held is not None and not self.runner.stopped:
                self.seconds_left = self.runner.stand_still()

    async def lift(self) -> None:
        """End a :meth:`hold`: the table resumes as after a storage pause (its lines)."""
        if self.held is None:
            return
        self.held = None
        if self.standing is not None:
            await self.standing
            self.standing = None
        if self.task is not None or not self.active:  # a storage pause under it resumes by itself
            return
        if not await self._try_to_resume():
            self.lines = STORAGE_LINES
            self.tell(msg("storage.paused", number=self.runner.table.number))
            self.task = asyncio.get_running_loop().create_task(retry_with_backoff(self._try_to_resume))

    async def begin(self, error: BaseException) -> None:
        """Called with the table's lock held, after the failed write was undone in memory."""
        if self.active:
            return
        self.active, self.lines = True, STORAGE_LINES
        log.warning("table %d: a write failed (%s: %s); the table is paused and retries",
                    self.runner.table.number, type(error).__name__, error)
        self.seconds_left = self.runner.stand_still()
        self.tell(msg("storage.paused", number=self.runner.table.number))
        self.task = asyncio.get_running_loop().create_task(retry_with_backoff(self._try_to_resume))

    def tell(self, message: Msg) -> None:
        """Everyone at the table who is online: seated (wherever they are now) or watching."""
        table = self.runner.table
        for account_id in sorted(set(table.human_ids()) | table.watchers):
            self.runner.world.deliver(account_id, message)

    async def _try_to_resume(self) -> bool:
        """One try; True when the pause is over (resumed, broken, or the table stopped)."""
        runner = self.runner
        number = runner.table.number
        async with runner.lock:
            if runner.stopped or not self.active:
                return True
            if self.held is not None:  # stopped from outside meanwhile: lift() resumes it
                return False
            try:
                self.seconds_left = await runner.catch_up(self.seconds_left)
                result = await runner.store_resumption(self.seconds_left)
            except Exception as err:
                if is_storage_failure(err):
                    log.debug("table %d: storage still failing (%s)", number, err)
                    return False
                self._over()
                await runner.break_down(err)
                return True
            lines = self.lines
            self._over()
            log.info("table %d: %s; the game carries on", number, lines.over)
            if result is None and self.seconds_left is not None:
                self.tell(msg(lines.resumed_clock, number=number, seconds=max(1, round(self.seconds_left))))
            else:
                self.tell(msg(lines.resumed, number=number))
            try:
                await runner.carry_on(result)
            except Exception as err:  # a bug: the table would stand still without a word
                await runner.break_down(err)
            return True

    def _over(self) -> None:
        self.active = False
        self.task = None  # the task is this one, ending: nothing to cancel
        self.lines = STORAGE_LINES

    def cancel(self) -> None:
        """Stop retrying (the runner stops). Never the task calling this: it is the one ending."""
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()
        self.task = None
        if self.standing is not None and self.standing is not asyncio.current_task():
            self.standing.cancel()
        self.standing = None
