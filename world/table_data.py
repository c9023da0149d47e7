"""What a table is: its game, options, seats and the people at it, as data (world/tables.py
runs them); and a table as the database row has it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games import registry
from games.base import GameEngine

from . import table_options
from .rooms import table_room
from .models import GameTable, Seat


class TableError(Exception):
    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key, self.params = key, params


@dataclass
class SeatInfo:
    number: int
    name: str
    account_id: int | None = None
    bot_level: str | None = None
    autopilot: bool = False  # a bot plays this human's seat until they come back
    timeouts: int = 0  # consecutive timeouts

    @property
    def is_bot(self) -> bool:
        return self.bot_level is not None

    @property
    def played_by_bot(self) -> bool:
        return self.is_bot or self.autopilot


@dataclass
class Table:
    number: int
    game_name: str
    engine: GameEngine
    options: dict[str, Any]
    host: str
    seats_total: int
    seed: int = 0
    state_name: str = "open"  # open | running | finished | closed | broken (cannot go on)
    starting: bool = False  # `start` is dealing and storing the game: the seats and options hold still
    seats: list[SeatInfo] = field(default_factory=list)
    watchers: set[int] = field(default_factory=set)
    masters: set[int] = field(default_factory=set)  # watchers who are the observer Master
    master_name: str = ""  # who may take the Master's chair besides admins (`master=NAME` at open)
    previous: int | None = None  # a rematch: the finished table it plays again
    # A finished table: its winners (see TableRunner._finish); a broken one: {"broken": why, ...}.
    outcome: dict[str, Any] | None = None
    reveal: Any = None  # a finished game's end-of-game block (world/reveal.py), for `look` after it
    game: Any = None  # the engine's state
    step: int = 0  # how many actions are in the log
    lease_epoch: int = 0  # the owner's fencing token (world/cluster/fence.py); 0 on a single node
    runner: Any = None

    @property
    def running(self) -> bool:
        return self.state_name == "running"

    @property
    def room(self) -> str:
        return table_room(self.number)

    def seat_of(self, account_id: int) -> int | None:
        for seat in self.seats:
            if seat.account_id == account_id:
                return seat.number
        return None

    def seat_names(self) -> list[str]:
        return [s.name for s in self.seats]

    def human_ids(self) -> list[int]:
        return [s.account_id for s in self.seats if s.account_id is not None]

    def everyone(self) -> set[int]:
        return set(self.human_ids()) | self.watchers

    @property
    def broken_reason(self) -> dict[str, Any] | None:
        """Why a broken table cannot go on, for its players: a nested message (see
        world/broken_tables.py)."""
        return (self.outcome or {}).get("broken") if self.state_name == "broken" else None

    @property
    def broken_detail(self) -> Any:
        """The cause, for admins (a table broken before causes were kept has its reason only)."""
        return (self.outcome or {}).get("detail", self.broken_reason) if self.state_name == "broken" else None

    def options_text(self) -> Any:
        """The options as a player reads them, in the reader's language (world/table_options.py):
        a nested message list, or None when there is nothing to show."""
        return table_options.shown(self.options, getattr(self.engine, "internal_options", ()))


async def table_of_row(row: GameTable) -> Table:
    """A table as the database has it, seats included (no game state: that is the log's)."""
    table = Table(number=row.id, game_name=row.game, engine=registry.get(row.game), options=row.options,
                  host=row.host, seats_total=row.seats_total, seed=row.seed, state_name=row.state,
                  master_name=row.master or "", previous=row.previous, outcome=row.outcome,
                  lease_epoch=row.lease_epoch)
    for seat in await Seat.filter(table_id=row.id).order_by("number"):
        table.seats.append(SeatInfo(number=seat.number, name=seat.name, account_id=seat.account_id,
                                    bot_level=seat.bot_level, autopilot=seat.autopilot))
    return table
