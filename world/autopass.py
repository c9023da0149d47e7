"""Autopass: optional reaction windows answered "pass" for a person, by their standing choice.

Each account chooses (`autopass`, commands/autopass.py; stored in Account.autopass):
- ``off``: every window waits for the player (or its clock);
- ``smart``: a window that is not about the player (the engine says: not their own fight, not an
  action aimed at them) passes for them after ``tables.autopass_smart_seconds``, unless they type
  anything at the table while it is open;
- ``on``: every optional window passes for them at once.
No choice (None) means the game's default (GAME_DEFAULTS; docs/decisions.md).

A game offers this through ``engine.window_pass(state, seat) -> (pass action, concerns) | None``;
games without optional windows (Mafia, «Шептуны», the bids) have none, and autopass never acts
there. The pass is an action of the seat like any other: it goes through the runner, is logged
(``by = "autopass"``) before anyone hears of it, and what others hear is the game's ordinary pass
line. It depends only on the player's setting and the window, never on their cards, so it tells
nobody anything about their hand.
"""
from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from games.base import RuleError

from .broken_tables import TableBroken
from .messages import msg

if TYPE_CHECKING:
    from .ports import RunnerControl

log = logging.getLogger("korchma.autopass")

MODES = ("off", "smart", "on")
# What players of each game expect when they have not chosen: in Coup calling a bluff is the
# game, so nothing passes by itself; in «Революция» most fights are other people's business.
GAME_DEFAULTS = {"coup": "off", "revolution": "smart"}


def mode_for(setting: str | None, game: str) -> str:
    """The mode that applies at a table of ``game`` for an account's stored ``setting``."""
    return setting if setting in MODES else GAME_DEFAULTS.get(game, "off")


class Autopass:
    """One per table runner: the pending automatic passes of its seats."""

    def __init__(self, runner: "RunnerControl") -> None:
        self.runner = runner
        self.smart_seconds = float(runner.world.config.section("tables")["autopass_smart_seconds"])
        self.tasks: dict[int, tuple[str, asyncio.Task]] = {}  # seat -> (window, its pending pass)
        self.typed: dict[int, str] = {}  # seat -> the window its player typed in (smart: no pass)
        self.told: set[int] = set()  # seats told once how to turn it off

    def _setting(self, account_id: int) -> str | None:
        for session in self.runner.world.sessions_of([account_id]):
            account = getattr(session, "account", None)
            if account is not None:
                return getattr(account, "autopass", None)
        return None  # away: the game's default

    def mode_of(self, seat: int) -> str:
        info = self.runner.table.seats[seat]
        if info.account_id is None or info.played_by_bot:
            return "off"  # bots and autopilots answer for themselves
        return mode_for(self._setting(info.account_id), self.runner.table.game_name)

    def schedule(self) -> None:
        """After every step: arm a pass for each seat whose open window its mode passes."""
        runner = self.runner
        hook = getattr(runner.engine, "window_pass", None)
        if hook is None or runner.table.game is None:
            return
        open_now: dict[int, str] = {}
        for wait in runner.engine.awaiting(runner.table.game):
            offer = hook(runner.table.game, wait.seat)
            if offer is None:
                continue
            open_now[wait.seat] = wait.window
            mode = self.mode_of(wait.seat)
            if mode == "off" or (mode == "smart" and (offer[1] or self.typed.get(wait.seat) == wait.window)):
                self.cancel(wait.seat)
                continue
            pending = self.tasks.get(wait.seat)
            if pending is not None and pending[0] == wait.window:
                continue
            self.cancel(wait.seat)
            delay = 0.0 if mode == "on" else self.smart_seconds
            task = asyncio.get_running_loop().create_task(self._pass_after(wait.seat, wait.window, delay))
            self.tasks[wait.seat] = (wait.window, task)
        for seat in list(self.tasks):
            if open_now.get(seat) != self.tasks[seat][0]:
                self.cancel(seat)

    def player_typed(self, seat: int) -> None:
        """The seat's player typed something at the table: a smart pass of the open window waits
        for them (their own answer, or the clock) from now on."""
        runner = self.runner
        if runner.table.game is None:
            return
        wait = next((a for a in runner.engine.awaiting(runner.table.game) if a.seat == seat), None)
        if wait is None:
            return
        self.typed[seat] = wait.window
        if self.mode_of(seat) == "smart":
            self.cancel(seat)

    def cancel(self, seat: int) -> None:
        pending = self.tasks.pop(seat, None)
        if pending is not None and pending[1] is not asyncio.current_task():
            pending[1].cancel()

    def halt(self) -> None:
        for seat in list(self.tasks):
            self.cancel(seat)

    async def _pass_after(self, seat: int, window: str, delay: float) -> None:
        runner = self.runner
        try:
            await asyncio.sleep(delay)
            async with runner.lock:
                pending = self.tasks.get(seat)
                if pending is None or pending[1] is not asyncio.current_task():
                    return
                self.tasks.pop(seat, None)
                table = runner.table
                if runner.stopped or not table.running or runner.storage.active or table.game is None:
                    return
                wait = next((a for a in runner.engine.awaiting(table.game) if a.seat == seat), None)
                offer = runner.engine.window_pass(table.game, seat) if wait is not None else None
                if wait is None or wait.window != window or offer is None:
                    return  # answered, or another window meanwhile
                account_id = table.seats[seat].account_id
                if account_id is not None and seat not in self.told:
                    # Once per table, why it passed (before the lines the pass brings: the prompt
                    # that follows stays last on the screen).
                    self.told.add(seat)
                    runner.world.deliver(account_id, msg("autopass.passed_for_you"))
                await runner._act_locked(seat, offer[0], "autopass")
        except (asyncio.CancelledError, TableBroken):
            pass
        except RuleError:
            if not runner.storage.active:  # else: paused for storage; the window is asked again after
                log.exception("table %d: autopass failed", runner.table.number)
        except Exception:
            log.exception("table %d: autopass failed", runner.table.number)


def player_typed(world: Any, account_id: int) -> None:
    """A line from ``account_id`` (any command): if they sit at a running table, their smart
    autopass of the open window stands down (commands/__init__.py calls this)."""
    tables = getattr(world, "tables", None)
    table = tables.table_of(account_id) if tables is not None else None
    runner = getattr(table, "runner", None) if table is not None else None
    seat = table.seat_of(account_id) if table is not None else None
    if runner is None or seat is None or not table.running:
        return
    runner.autopass.player_typed(seat)
