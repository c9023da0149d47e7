"""The table runner: one command at a time, log before you speak, timers from awaiting().

For each accepted action the runner
1. applies it to the engine (a RuleError leaves the state untouched),
2. appends it to the table's action log and commits (with the new deadline, in one transaction),
3. only then sends the events to their audiences (live sessions now, the inbox for those away;
   what the table says is world/table_output.py),
4. re-arms the deadline from ``awaiting()``, asks bots whose turn it is, and on timeout applies
   the default action; a seat that misses ``afk_timeouts`` decisions of its own in a row is
   played by a bot until its player returns (world/absence.py).
A restart rebuilds the game by replaying the log from the seed; the stored deadline carries on.
Every write of the game's state updates its row only where the table's lease epoch is still
this node's (world/cluster/fence.py; always so on a single node): a node that lost the table to
another rolls the write back and lets go of it (``let_go``; docs/cluster.md).
A write that fails for storage trouble pauses the table until writes work again
(storage_pause.py). A write the database refuses for any other reason is a bug that the same
write repeats: a person's action is refused with the internal-error line and the table carries
on (the person may do something else; the clock and the bots go on); an automatic move (a bot,
an autopilot, a timeout), which would be chosen again the same, or a result that cannot be
stored, marks the table broken and tells its players (broken_tables.py), so that it never loops
or stands still without a word. When the game is over the runner lets go of the game's state
(TableManager.game_over).
"""
from __future__ import annotations

import asyncio
import logging
import random
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Callable

from games.base import Awaiting, Event, RuleError

from .absence import Strike
from .autopass import Autopass
from .broken_tables import ReplayRefused, TableBroken, WriteRefused, break_running
from .clock import as_utc, utcnow
from .cluster.fence import LeaseLost, fenced_update, let_go
from .db import is_storage_failure, transaction
from .history import store_end
from .messages import msg
from .models import ActionLogEntry
from .presenters.absence import timeout_events
from .ratings import rate_finished
from .replay import outcome_record
from .reveal import deliver_reveal, prepare_reveal
from .storage_pause import StoragePause
from .table_output import TableOutput
from .upgrades import apply_logged, restored_options, start_options

if TYPE_CHECKING:
    from .ports import TableHost
    from .table_data import Table

log = logging.getLogger("korchma.runner")


class TableRunner:
    def __init__(self, manager: "TableHost", table: "Table") -> None:
        self.manager = manager
        self.world = manager.world
        self.table = table
        self.lock = asyncio.Lock()
        self.deadline: datetime | None = None
        self.window: tuple[str, frozenset[int]] | None = None  # what the deadline was armed for
        self.timer: asyncio.Task | None = None
        self.paused: float | None = None  # seconds left on the clock while a Master holds it
        self.bot_tasks: dict[int, asyncio.Task] = {}
        self.stopped = False
        self.stopping: asyncio.Task | None = None  # fence.lose(): the stop that waits for the lock
        # What the log holds, (seat, action) per step: a failed commit rebuilds from it without
        # reading the database (which may be the part that is down).
        self.actions: list[tuple[int, Any]] = []
        self.storage = StoragePause(self)
        tables_cfg = self.world.config.section("tables")
        self.afk_timeouts = int(tables_cfg["afk_timeouts"])
        self.bot_delay = float(tables_cfg["bot_delay"])
        self.reaction_seconds = float(tables_cfg["reaction_seconds"])
        # Game traits: a forum-pace game keeps every message in the inbox, and a player who lets
        # phases run out is not replaced by a bot (their orders still count).
        self.keep_all = bool(getattr(self.engine, "keep_messages", False))
        self.autopilot = bool(getattr(self.engine, "autopilot", True))
        # What the table says (events, status lines, GMCP) lives in its own module.
        self.output = TableOutput(self)
        self.autopass = Autopass(self)  # optional windows a player lets pass (world/autopass.py)

    @property
    def engine(self) -> Any:
        return self.table.engine

    # -- starting and rebuilding ------------------------------------------------------------

    async def begin(self) -> None:
        """Deal the game (a RuleError: options the game refuses) and store the start. The table
        is running, with this runner, only once that is stored: until then `join` and `look`
        see it open, and nobody sees the game dealt (a start that fails is dealt anew)."""
        table = self.table
        async with self.lock:
            table.options = start_options(self.engine, table.options)  # the data revisions it plays
            table.game = self.engine.new(len(table.seats), table.options, table.seed)
            table.step = 0
            self._arm_window()
            try:
                await fenced_update(
                    table.number, table.lease_epoch, state="running", seed=table.seed, started_at=utcnow(), seats_total=len(table.seats),
                    deadline_at=self.deadline, deadline_step=0, options=table.options)
            except BaseException as err:  # not started: the table stays open, the host may retry
                table.game = None
                self.deadline = self.window = None
                if isinstance(err, LeaseLost):  # this node lost the open table: it is someone else's
                    self.manager.drop(table)
                    raise RuleError("cluster.not_taken") from err
                if not isinstance(err, Exception) or not is_storage_failure(err):
                    raise
                log.warning("table %d: could not store the start (%s)", table.number, err)
                raise RuleError("storage.failed") from err
            table.state_name = "running"
            table.runner = self
            table.seats_total = len(table.seats)
            self.world.broadcast(table.room, msg("table.started", number=table.number, game=msg(f"game.{table.game_name}"),
                                                 names=", ".join(table.seat_names())))
            start_events = getattr(self.engine, "start_events", None)
            if start_events is not None:
                await self._send_events(start_events(table.game))
            self._send_status()
            self._after_step()

    async def replay(self, entries: list[ActionLogEntry], deadline_at: datetime | None,
                     deadline_step: int | None, paused: float | None = None) -> None:
        table = self.table
        self.paused = paused
        self.actions = []
        table.options = restored_options(self.engine, table.options)
        table.game = self.engine.new(len(table.seats), table.options, table.seed)
        for entry in entries:
            try:
                if apply_logged(self.engine, table.game, entry.seat, entry.action) is None:
                    log.warning("table %d: step %d (seat %d) is no longer asked for; skipped",
                                table.number, entry.step, entry.seat)
            except RuleError as err:  # the table cannot be rebuilt: TableManager marks it broken
                raise ReplayRefused(entry.step, err) from err
            self.actions.append((entry.seat, entry.action))
        table.step = len(entries)
        awaiting = self.engine.awaiting(table.game)
        self.window = self._window_of(awaiting)
        if paused is not None and awaiting:
            self.deadline = None
        elif deadline_at is not None and deadline_step is not None and awaiting:
            self.deadline = as_utc(deadline_at)
        else:
            self._arm_window(force=True)
        if self.engine.outcome(table.game) is not None:
            await self._finish()
            return
        log.info("table %d rebuilt from %d actions", table.number, table.step)
        self._after_step()

    # -- the one way in: an action from a seat ----------------------------------------------

    async def act(self, seat: int, action: dict[str, Any], by: str = "player",
                  check: Callable[[], None] | None = None) -> None:
        """Apply, log and commit, then speak. Raises RuleError for an illegal action. ``check``
        runs first, under the lock, and may refuse with a RuleError (a person's answer: is it
        for the question open now? See TableOutput.check_answer)."""
        if self.storage.active:  # at once: a retry may hold the lock while a database answers slowly
            raise self.storage.refusal()
        async with self.lock:
            if self.stopped or not self.table.running:
                raise RuleError("table.error.not_running")
            if check is not None:
                check()
            await self._act_locked(seat, action, by)

    async def _act_locked(self, seat: int, action: dict[str, Any], by: str) -> None:
        table = self.table
        if self.storage.active:
            raise self.storage.refusal()
        clock = (self.deadline, self.window, self.paused)
        events = self.engine.apply(table.game, seat, action)
        step = table.step + 1
        if by == "player":
            table.seats[seat].timeouts = 0
        self._arm_window()
        try:
            async with transaction():  # the fence first: a node that lost the table writes nothing
                await fenced_update(table.number, table.lease_epoch, deadline_at=self.deadline,
                                    deadline_step=step, paused_seconds=self.paused)
                await ActionLogEntry.create(table_id=table.number, step=step, seat=seat, action=action, by=by)
        except BaseException as err:
            # The state moved but the log did not: back to what the log holds, clock included.
            self.deadline, self.window, self.paused = clock
            self._rebuild()
            if not isinstance(err, Exception):
                raise
            if isinstance(err, LeaseLost):
                log.warning("table %d: PostgreSQL refused step %d: %s", table.number, step, err)
                let_go(self)
                if by == "player":
                    raise RuleError("cluster.not_taken") from err
                raise TableBroken() from err
            if is_storage_failure(err):
                await self.storage.begin(err)
                raise self.storage.refusal() from err
            if by == "player":
                raise  # logged with its traceback and answered with the internal-error line
            await self.break_down(WriteRefused(err))
            raise TableBroken() from err
        self.actions.append((seat, action))
        table.step = step
        self.world.meters.action_applied(table.game_name, by)
        self.output.acted(seat, step)
        await self._send_events(timeout_events(table, seat, events) if by == "timeout" else events)
        self._send_status()
        if self.engine.outcome(table.game) is not None:
            await self._finish()
            return
        self._after_step()

    def _rebuild(self) -> None:
        """The game as the log has it: replayed from the seed."""
        game = self.engine.new(len(self.table.seats), self.table.options, self.table.seed)
        for seat, action in self.actions:
            apply_logged(self.engine, game, seat, action)
        self.table.game, self.table.step = game, len(self.actions)

    async def _adopt_logged_steps(self) -> bool:
        """Steps the log holds beyond ours: a commit that reported a failure although the database
        had written it (the connection died before its answer came). They count, as logged:
        applied and announced now. True if there were any. ReplayRefused: the rules refuse one."""
        table = self.table
        entries = await ActionLogEntry.filter(table_id=table.number, step__gt=table.step).order_by("step")
        for entry in entries:
            log.warning("table %d: step %d was stored although its write reported a failure; adopted",
                        table.number, entry.step)
            try:
                events = apply_logged(self.engine, table.game, entry.seat, entry.action)
            except RuleError as err:
                raise ReplayRefused(entry.step, err) from err
            self.actions.append((entry.seat, entry.action))
            table.step = entry.step
            if events is None:
                log.warning("table %d: step %d (seat %d) is no longer asked for; skipped",
                            table.number, entry.step, entry.seat)
                continue
            self.output.acted(entry.seat, entry.step)
            await self._send_events(events)
        if entries:
            self._send_status()
        return bool(entries)

    # -- deadlines ----------------------------------------------------------------------------

    @staticmethod
    def _window_of(awaiting: list[Awaiting]) -> tuple[str, frozenset[int]] | None:
        if not awaiting:
            return None
        names = {a.window for a in awaiting}
        return (names.pop() if len(names) == 1 else "", frozenset(a.seat for a in awaiting))

    def _seconds_for(self, awaiting: list[Awaiting]) -> float | None:
        """The engine suggests the length of a wait from the table's options (whose defaults
        come from config [games.<name>]); a game that suggests none gets tables.reaction_seconds."""
        seconds = [a.seconds for a in awaiting if a.default is not None]
        if not seconds:
            return None
        return float(max(s or self.reaction_seconds for s in seconds))

    def _arm_window(self, force: bool = False) -> None:
        """Keep the deadline while the same wait goes on; set a new one for a new wait."""
        awaiting = self.engine.awaiting(self.table.game)
        window = self._window_of(awaiting)
        if window is None:
            self.deadline, self.window = None, None
            return
        clock = self.deadline is not None or self.paused is not None
        same = (not force and self.window is not None and clock
                and (window[0] == self.window[0] if window[0] or self.window[0]
                     else window[1] <= self.window[1]))
        if same:
            self.window = (window[0], self.window[1] if not window[0] else window[1])
            return
        self.window = window
        seconds = self._seconds_for(awaiting)
        if self.paused is not None:  # clocks stay stopped: a new wait starts paused, at full length
            self.paused, self.deadline = float(seconds or 0), None
            return
        self.deadline = utcnow() + timedelta(seconds=seconds) if seconds else None

    def _after_step(self) -> None:
        """Start the clock for the current wait, and let bots (and autopilots) move."""
        if self.stopped or not self.table.running or self.storage.active:
            return
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.deadline is not None:
            delay = max(0.0, (self.deadline - utcnow()).total_seconds())
            self.timer = asyncio.get_running_loop().create_task(self._timeout_after(delay, self.deadline))
        self._schedule_bots()
        self.autopass.schedule()
        self._send_awaiting()

    # -- the observer Master's clock: pause, resume, extend (never a result) ---------------------

    async def pause(self) -> None:
        async with self.lock:
            if self.storage.active:
                raise self.storage.refusal()
            if self.paused is not None:
                raise RuleError("master.already_paused")
            if self.deadline is None:
                raise RuleError("master.no_clock")
            before = (self.deadline, self.paused)
            self.paused = max(0.0, (self.deadline - utcnow()).total_seconds())
            self.deadline = None
            await self._store_clock_or_pause(before)
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
            self.world.broadcast(self.table.room, msg("master.paused", number=self.table.number))
            self._send_awaiting()

    async def resume(self) -> None:
        async with self.lock:
            if self.storage.active:
                raise self.storage.refusal()
            if self.paused is None:
                raise RuleError("master.not_paused")
            before = (self.deadline, self.paused)
            self.deadline = utcnow() + timedelta(seconds=self.paused)
            self.paused = None
            await self._store_clock_or_pause(before)
            self.world.broadcast(self.table.room, msg("master.resumed", number=self.table.number,
                                                      seconds=int((self.deadline - utcnow()).total_seconds())))
            self._after_step()

    async def extend(self, seconds: int) -> None:
        async with self.lock:
            if self.storage.active:
                raise self.storage.refusal()
            before = (self.deadline, self.paused)
            if self.paused is not None:
                self.paused += seconds
            elif self.deadline is not None:
                self.deadline += timedelta(seconds=seconds)
            else:
                raise RuleError("master.no_clock")
            await self._store_clock_or_pause(before)
            left = self.paused if self.paused is not None else (self.deadline - utcnow()).total_seconds()
            self.world.broadcast(self.table.room, msg("master.extended", number=self.table.number,
                                                      added=int(seconds), seconds=int(left)))
            if self.paused is None:
                self._after_step()

    async def _store_clock(self) -> None:
        await fenced_update(self.table.number, self.table.lease_epoch, deadline_at=self.deadline,
                            deadline_step=self.table.step, paused_seconds=self.paused)

    async def _store_clock_or_pause(self, before: tuple[datetime | None, float | None]) -> None:
        """Store a clock the Master changed; if that fails, the clock is as it was (``before``)
        and the table pauses for storage like after any failed write (anything else: the Master's
        command is refused, like a player's action)."""
        try:
            await self._store_clock()
        except Exception as err:
            self.deadline, self.paused = before
            if isinstance(err, LeaseLost):
                let_go(self)
                raise RuleError("cluster.not_taken") from err
            if not is_storage_failure(err):
                raise
            await self.storage.begin(err)
            raise self.storage.refusal() from err

    def poke(self) -> None:
        """Something changed outside the game (a seat left, a player came back): look again."""
        if self.table.running and not self.stopped:
            self._schedule_bots()
            self.autopass.schedule()
            self._send_awaiting()

    def _halt_moves(self) -> None:
        """Stop the clock's task and the bots' (not the task calling this: it is finishing)."""
        if self.timer is not None and self.timer is not asyncio.current_task():
            self.timer.cancel()
        self.timer = None
        for number, task in list(self.bot_tasks.items()):
            if task is not asyncio.current_task():
                task.cancel()
            self.bot_tasks.pop(number, None)
        self.autopass.halt()

    async def _timeout_after(self, delay: float, deadline: datetime) -> None:
        try:
            await asyncio.sleep(delay)
            async with self.lock:
                # Only the clock of the current wait may close it: a new wait has its own.
                if self.stopped or not self.table.running or self.deadline != deadline:
                    return
                self.timer = None
                await self._apply_defaults()
        except (asyncio.CancelledError, TableBroken):
            pass
        except RuleError:
            if not self.storage.active:  # else: paused for storage; the clock runs again after
                log.exception("table %d: timeout handling failed", self.table.number)
        except Exception:
            log.exception("table %d: timeout handling failed", self.table.number)

    async def _apply_defaults(self) -> None:
        table = self.table
        for wait in self.engine.awaiting(table.game):
            if wait.default is None or not table.running:
                continue
            if wait not in self.engine.awaiting(table.game):
                continue
            # Only a missed decision of the seat's own counts; a bot may take the seat with it
            # (world/absence.py).
            strike = Strike(self, table.seats[wait.seat], wait)
            try:
                await self._act_locked(wait.seat, wait.default, "timeout")
            except RuleError:
                strike.undo()  # not applied (storage): this timeout comes again
                raise
            await strike.tell()

    # -- bots -----------------------------------------------------------------------------------

    def _schedule_bots(self) -> None:
        table = self.table
        if not table.running or self.storage.active:
            return
        for wait in self.engine.awaiting(table.game):
            seat = table.seats[wait.seat]
            if not seat.played_by_bot or wait.seat in self.bot_tasks:
                continue
            self.bot_tasks[wait.seat] = asyncio.get_running_loop().create_task(self._bot_move(wait.seat))

    async def _bot_move(self, number: int) -> None:
        try:
            await asyncio.sleep(self.bot_delay)
            async with self.lock:
                if self.bot_tasks.get(number) is asyncio.current_task():
                    self.bot_tasks.pop(number, None)
                table = self.table
                if (self.stopped or not table.running or self.storage.active
                        or not table.seats[number].played_by_bot):
                    return
                legal = self.engine.legal(table.game, number)
                if not legal:
                    return
                # Seeded by table, step and seat: bots are reproducible, and their choices are
                # logged like anyone's, so a replay never needs to ask them again.
                rng = random.Random(f"{table.seed}:{table.step}:{number}")
                view = self.engine.view(table.game, number)
                level = table.seats[number].bot_level or self.world.config.section("tables")["bot_level"]
                action = self.engine.bot_action(view, legal, rng, level)
                await self._act_locked(number, action, "bot" if table.seats[number].is_bot else "autopilot")
        except (asyncio.CancelledError, TableBroken):
            pass
        except RuleError:
            if not self.storage.active:  # else: paused for storage; the bot moves again after
                log.exception("table %d: bot move failed", self.table.number)
        except Exception:
            log.exception("table %d: bot move failed", self.table.number)
        finally:
            if self.bot_tasks.get(number) is asyncio.current_task():
                self.bot_tasks.pop(number, None)

    # -- a storage pause (storage_pause.py: PausableTable) -------------------------------------

    def stand_still(self) -> float | None:
        """The clock stops (returned: the seconds it had left; None: no clock) and nobody moves."""
        left = None if self.deadline is None else max(0.0, (self.deadline - utcnow()).total_seconds())
        self.deadline = None
        self._halt_moves()
        self._send_awaiting()  # GMCP: the deadline is null while the clock stands
        return left

    async def catch_up(self, seconds_left: float | None) -> float | None:
        """Steps the log holds beyond ours are adopted (_adopt_logged_steps); then the new wait's
        clock starts at full length when the game resumes. The seconds to resume with."""
        if not await self._adopt_logged_steps():
            return seconds_left
        self._arm_window(force=True)
        left = None if self.deadline is None else (self.deadline - utcnow()).total_seconds()
        self.deadline = None  # it stands until the resumption is stored
        return left

    async def store_resumption(self, seconds_left: float | None) -> dict[str, Any] | None:
        """The write resuming needs, so a working probe means the next write works too: the clock
        as it will run, or the result of a game that ended meanwhile (returned, to be said). On
        failure the clock still stands, and the error is raised."""
        self.deadline = None if seconds_left is None else utcnow() + timedelta(seconds=seconds_left)
        try:
            if self._game_over():
                record = self._outcome_record()
                await self._store_finish(record)
                return record
            await self._store_clock()
            return None
        except BaseException:
            self.deadline = None
            raise

    async def carry_on(self, result: dict[str, Any] | None) -> None:
        if result is not None:
            await self._announce_finish(result)
        else:
            self._after_step()

    # -- speaking: world/table_output.py ------------------------------------------------------

    def render_params(self, params: dict[str, Any]) -> dict[str, Any]:
        return self.output.render_params(params)

    async def _send_events(self, events: list[Event]) -> None:
        await self.output.send_events(events)

    def _send_status(self) -> None:
        self.output.send_status()

    def _send_awaiting(self) -> None:
        self.output.send_awaiting()

    def view_for(self, account_id: int) -> dict[str, Any]:
        return self.output.view_for(account_id)

    def show_view(self, account_id: int) -> None:
        self.output.show_view(account_id)

    # -- the end ----------------------------------------------------------------------------------

    def _game_over(self) -> bool:
        return self.table.game is not None and self.engine.outcome(self.table.game) is not None

    def _outcome_record(self) -> dict[str, Any]:
        return outcome_record(self.table, self.table.game)  # (a replay compares with it: one shape)

    async def _store_finish(self, record: dict[str, Any]) -> None:
        await store_end(self.table.number, epoch=self.table.lease_epoch, state="finished", outcome=record,
                        deadline_at=None)

    async def _finish(self) -> None:
        """Store the result, then say it. If the write fails the table pauses for storage, and
        the result is stored and said when writes work again (or replayed after a restart). A
        result the database refuses otherwise would be refused at every try: the table breaks."""
        record = self._outcome_record()
        try:
            await self._store_finish(record)
        except Exception as err:
            if is_storage_failure(err):
                await self.storage.begin(err)
            elif isinstance(err, LeaseLost):
                let_go(self)
            else:
                await self.break_down(WriteRefused(err))
            return
        await self._announce_finish(record)

    async def _announce_finish(self, record: dict[str, Any]) -> None:
        table = self.table
        reveal = await prepare_reveal(self)  # everything the game hid, made while it still runs
        table.state_name = "finished"
        table.outcome = record
        self._halt_moves()
        winners = record["winners"]
        message = msg("table.finished", number=table.number, winners=", ".join(winners), n=len(winners))
        self.world.broadcast(table.room, message)
        for seat in table.seats:
            if seat.account_id is not None and not self.world.is_online(seat.account_id):
                await self.world.keep(seat.account_id, message, "game", table.number)
        await rate_finished(table.number, table.game)  # stats and ratings, before anyone reads the end
        await deliver_reveal(self, reveal)  # to all who played or watched
        self.world.broadcast(table.room, msg("table.rematch_hint"))
        self.manager.game_over(table)

    async def stop(self) -> None:
        """Finish the action in hand (the lock), then stop timers and bots."""
        async with self.lock:
            self.stopped = True
            self.storage.cancel()
            self._halt_moves()

    def halt(self) -> None:
        """With the lock held: nothing moves at this table any more, for good (no clock, bot,
        autopass or storage retry); a table broken (break_down) or abandoned (world/abandon.py)."""
        self.stopped = True
        self.storage.cancel()
        self._halt_moves()

    async def break_down(self, err: BaseException) -> None:
        """With the lock held: a bug (not storage trouble) means this table cannot go on. It stops
        here, and is marked broken with its players told (world/broken_tables.py); or, refused by
        the fence, it is another node's now and this node lets go of it."""
        if isinstance(err, LeaseLost):
            let_go(self)
            return
        self.halt()
        await break_running(self.manager, self.table, err)
