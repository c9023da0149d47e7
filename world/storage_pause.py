"""A table whose write failed: it stops, says so, and carries on by itself when writes work again.

Part of the table runner (world/runner.py), kept apart because it is a concern of its own; it
uses the runner's own methods.

The runner logs before it speaks (runner.py). When that write fails (a full disk, a read-only
database, a PostgreSQL server that went away), the runner puts the game back as the log has it
and hands over to :class:`StoragePause`, which

1. stops the table: the clock stands with the time that was left, bots and timeouts wait, and a
   player's action gets one line saying the table is paused for storage (``storage.refused``);
2. tells everyone at the table, seated or watching (the observer Master too), once;
3. retries with a backoff (1 s, doubling to 30 s): each try is the write that resuming needs
   anyway, the table's clock (or the finish record of a game that ended meanwhile);
4. when a try works: says so, gives the clock back the seconds it had, and lets bots and
   timeouts move again. Nothing that was refused is applied later: a bot or a timeout simply
   moves again, a player types again.

Before resuming it reads the log once more: a commit whose answer was lost (the connection died
after the server had written it) is adopted, announced and carried on from, never written twice.
"""
from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import TYPE_CHECKING

from .db import STORAGE_ERRORS
from .messages import Msg, msg

if TYPE_CHECKING:
    from .runner import TableRunner

log = logging.getLogger("korchma.runner")

FIRST_RETRY = 1.0
LONGEST_RETRY = 30.0


class StoragePause:
    def __init__(self, runner: "TableRunner") -> None:
        self.runner = runner
        self.active = False
        self.seconds_left: float | None = None  # on the clock when it stopped (None: no clock)
        self.task: asyncio.Task | None = None

    def refusal(self) -> Exception:
        from games.base import RuleError

        return RuleError("storage.refused", number=self.runner.table.number)

    async def begin(self, error: BaseException) -> None:
        """Called with the table's lock held, after the failed write was undone in memory."""
        runner = self.runner
        if self.active:
            return
        self.active = True
        log.warning("table %d: a write failed (%s: %s); the table is paused and retries",
                    runner.table.number, type(error).__name__, error)
        deadline = runner.deadline
        self.seconds_left = None
        if deadline is not None:
            from .runner import utcnow

            self.seconds_left = max(0.0, (deadline - utcnow()).total_seconds())
            runner.deadline = None
        runner._halt_moves()
        self.tell(msg("storage.paused", number=runner.table.number))
        runner._send_awaiting()  # GMCP: the deadline is null while the clock stands
        self.task = asyncio.get_running_loop().create_task(self._retry_loop())

    def tell(self, message: Msg) -> None:
        """Everyone at the table who is online: seated (wherever they are now) or watching."""
        table = self.runner.table
        world = self.runner.world
        for account_id in sorted(set(table.human_ids()) | table.watchers):
            world.deliver(account_id, message)

    async def _retry_loop(self) -> None:
        runner = self.runner
        delay = FIRST_RETRY
        try:
            while True:
                await asyncio.sleep(delay)
                async with runner.lock:
                    if runner.stopped or not self.active:
                        return
                    if await self._try_to_resume():
                        return
                delay = min(delay * 2, LONGEST_RETRY)
        except asyncio.CancelledError:
            pass
        except Exception:  # a bug here must not leave the table paused for ever unseen
            log.exception("table %d: resuming after a storage failure failed", runner.table.number)

    async def _try_to_resume(self) -> bool:
        from .runner import utcnow

        runner = self.runner
        try:
            if await runner._adopt_logged_steps():
                # The log moved on: the new wait's clock starts at full length when we resume.
                runner._arm_window(force=True)
                self.seconds_left = (None if runner.deadline is None
                                     else (runner.deadline - utcnow()).total_seconds())
            runner.deadline = (None if self.seconds_left is None
                               else utcnow() + timedelta(seconds=self.seconds_left))
            over = runner._game_over()
            if over:
                record = runner._outcome_record()
                await runner._store_finish(record)
            else:
                await runner._store_clock()  # the clock as it will run: the probe is a real write
        except STORAGE_ERRORS as err:
            runner.deadline = None
            log.debug("table %d: storage still failing (%s)", runner.table.number, err)
            return False
        self.active = False
        self.task = None
        log.info("table %d: writes work again; the game carries on", runner.table.number)
        number = runner.table.number
        if over:
            self.tell(msg("storage.resumed", number=number))
            await runner._announce_finish(record)
        elif runner.deadline is not None:
            self.tell(msg("storage.resumed_clock", number=number, seconds=max(1, round(self.seconds_left or 0))))
            runner._after_step()
        else:
            self.tell(msg("storage.resumed", number=number))
            runner._after_step()
        return True

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None
