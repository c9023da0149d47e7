"""Silence is not absence: which missed answers count toward a bot taking a seat over, the
warning before it does, and the player taking the seat back.

Only a missed decision of the seat's own counts (``tables.afk_timeouts`` in a row): its turn, a
card it must lose or choose, its phase orders. A window the seat may use but owes nothing in
(challenge, block, help, hinder, a trade offered to it: the engine marks its Awaiting
``optional``) that runs out is a plain pass: it counts nothing and clears nothing, since silence
there says nothing either way. Any answer the player gives clears the count.
"""
from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from games.base import Awaiting

from .messages import msg
from .presenters.absence import note_told
from .seat_autopilot import hand_back, store_autopilot

if TYPE_CHECKING:
    from .ports import RunnerSeats
    from .table_data import SeatInfo, Table


def counts(wait: Awaiting) -> bool:
    """A missed wait that counts toward a bot taking the seat: one the seat owed an answer to."""
    return not getattr(wait, "optional", False)


class Strike:
    """One timeout of a seat, before its default action applies: whether it counts and whether a
    bot takes the seat with it. ``undo`` puts the seat back (the action did not apply)."""

    def __init__(self, runner: "RunnerSeats", seat: "SeatInfo", wait: Awaiting) -> None:
        self.runner, self.seat = runner, seat
        self.before = (seat.timeouts, seat.autopilot)
        self.counted = counts(wait)
        self.replaceable = runner.autopilot and seat.account_id is not None and not seat.autopilot
        if self.counted:
            seat.timeouts += 1
        # Taken over before the default applies, so that the lines this step sends already say
        # that a bot plays the seat (not «Ваш ход»), and the bot is asked for the next wait.
        self.takeover = self.counted and self.replaceable and seat.timeouts >= runner.afk_timeouts
        if self.takeover:
            seat.autopilot = True
            note_told(runner.table, seat.number)  # tell() says it, with why

    def undo(self) -> None:
        self.seat.timeouts, self.seat.autopilot = self.before

    async def tell(self) -> None:
        """After the default applied: the player hears that a bot plays for them now, or how many
        more missed decisions until one does; the table hears of a takeover."""
        runner, seat = self.runner, self.seat
        table = runner.table
        if self.takeover:
            await store_autopilot(table, seat.number)  # (a table rebuilt elsewhere keeps the bot at it)
            key = "absence.bot_took_over" if seat.timeouts > 1 else "absence.bot_took_over_once"
            await runner.world.deliver_or_keep(seat.account_id, msg(key, n=seat.timeouts), "system", table.number)
            runner.world.broadcast(table.room, msg("table.autopilot_seat", name=seat.name),
                                   exclude=[seat.account_id])
        elif self.counted and self.replaceable:
            left = runner.afk_timeouts - seat.timeouts
            key = "absence.warn_last" if left == 1 else "absence.warn"
            await runner.world.deliver_or_keep(seat.account_id, msg(key, left=left), "system", table.number)


def take_seat_back(table: "Table", number: int) -> bool:
    """The seat's player typed a game command at the table: a bot that plays the seat for them
    stops now (its pending move is dropped) and the seat is theirs, before the command applies.
    True if a bot held the seat."""
    if not getattr(table.seats[number], "autopilot", False):  # (a table's stand-in in the verbs' tests has none)
        return False
    hand_back(table, number)
    runner = table.runner
    task: Any = runner.bot_tasks.get(number)
    # A bot still thinking (asleep, or waiting for the table) is dropped; one that holds the
    # table's lock is past its check and finishes its move (cancelling it mid-write would undo a
    # step being stored); the command is then read against the state after it.
    if task is not None and not runner.lock.locked() and task is not asyncio.current_task():
        task.cancel()
        runner.bot_tasks.pop(number, None)
    runner.poke()
    return True
