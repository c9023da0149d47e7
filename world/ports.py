"""What the table layer's parts need of each other, as protocols.

The manager (world/tables.py) owns runners, a runner owns its output, and each of them also
needs a little of the one above it (a runner tells its manager the game is over; the output and the end-of-game reveal
reads the runner's deadline). Naming that little here, below them, keeps the imports one-way
(hub <- table_data <- ports <- table_output <- runner <- tables) instead of a circle of
``TYPE_CHECKING`` imports: a module knows the protocol, not the class that fills it. The hub's
own view of the manager is hub.TableDirectory.
"""
from __future__ import annotations

from datetime import datetime
import asyncio
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .hub import World
    from .table_data import Table


class TableHost(Protocol):
    """The table manager (world/tables.py TableManager) as its runners, restore and broken-table
    handling see it."""

    world: World
    tables: dict[int, Table]
    at_table: dict[int, int]

    @property
    def config(self) -> Any: ...

    def game_over(self, table: Table) -> None: ...

    def empty(self, table: Table) -> None: ...

    def drop(self, table: Table) -> None: ...

    def announce_tables(self) -> None: ...


class RunnerState(Protocol):
    """A table's runner (world/runner.py TableRunner) as its output (world/table_output.py) and
    the end-of-game reveal (world/reveal.py) read it."""

    world: World
    manager: TableHost
    table: Table
    deadline: datetime | None
    keep_all: bool

    @property
    def engine(self) -> Any: ...


class RunnerControl(RunnerState, Protocol):
    """A runner as its own parts that act for a seat (world/autopass.py) drive it: under the
    table's lock, through the same logged step as a typed answer."""

    lock: asyncio.Lock
    stopped: bool
    storage: Any  # world/storage_pause.py StoragePause
    autopass: Any  # world/autopass.py Autopass

    async def _act_locked(self, seat: int, action: dict[str, Any], by: str) -> None: ...


class RunnerSeats(RunnerState, Protocol):
    """A runner as world/absence.py sees it: who may be played by a bot, and the bots' moves in
    flight (a player's command drops one)."""

    afk_timeouts: int
    autopilot: bool
    bot_tasks: dict[int, asyncio.Task[Any]]
    lock: asyncio.Lock

    def poke(self) -> None: ...
