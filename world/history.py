"""The games that ended (`history`, `game N`): what the tables and seats already keep, read back.

A game that ended is a ``game_table`` row with an end time (``finished_at``): ``finished`` (its
result in ``outcome``), ``broken`` (it could not go on, why in ``outcome``; its end is when it
broke: world/broken_tables.py) or ``closed`` with an end (abandoned). Open tables closed before
anyone started have none and are no games. No record table of its own: every fact is in
``game_table`` and ``seat`` already, but for one copy: each seat keeps its table's end time
(``seat.ended_at``, written with it by :func:`store_end`), so that an account's games are one
index range without reading the tables' rows. Three indexes (world/models.py:
``game_table(finished_at, id)``, ``game_table(game, finished_at, id)``, ``seat(account_id,
ended_at, table_id)``) make each page a walk down one index (bench/history_scale.py measures it
at 100,000 games). The last to end comes first.

A finished game's hidden cards or roles are not stored: they are rebuilt, like every table at a
restart, by replaying its log from its seed (the engine's ``final_reveal`` of the last state),
and only for a finished game: a running table's secrets never leave it here, whoever asks.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games import registry

from .clock import as_utc, utcnow
from .cluster.fence import fenced_update
from .db import transaction
from .models import ActionLogEntry, GameTable, Seat
from .paging import Page
from .table_data import Table, table_of_row
from .upgrades import apply_logged, restored_options

log = logging.getLogger("korchma.history")

ENDED_STATES = ("finished", "broken", "closed")
NEWEST = ("-finished_at", "-id")  # the last to end first (ids: never a tie)


def ended() -> Any:
    """The games that ended, as a query (any order)."""
    return GameTable.filter(finished_at__not_isnull=True)


@dataclass(frozen=True)
class Entry:
    """One line of `history`: a table that ended, with its seats."""

    row: GameTable
    seats: list[Seat]

    @property
    def winners(self) -> list[str]:
        return list((self.row.outcome or {}).get("winners") or []) if self.row.state == "finished" else []


async def store_end(table_id: int, epoch: int | None = None, **fields: Any) -> None:
    """Store that the game at ``table_id`` ended now (its ``fields``: the state, the outcome...),
    its seats' copy of the end time with it, in one transaction. ``epoch``: the writer's lease
    epoch, which the row must still hold (world/cluster/fence.py; LeaseLost if not)."""
    when = utcnow()
    async with transaction():
        if epoch is None:
            await GameTable.filter(id=table_id).update(finished_at=when, **fields)
        else:
            await fenced_update(table_id, epoch, finished_at=when, **fields)
        await Seat.filter(table_id=table_id).update(ended_at=when)


async def _page(query: Any, order: tuple[str, ...], id_field: str, number: int, size: int) -> Page[Entry]:
    """Page ``number`` of the ended games ``query`` selects in ``order``, with their seats
    (``id_field``: where the query's rows keep the table's number). The page's ids are found
    first and its rows read after: the walk past the earlier pages stays in the index."""
    total = await query.count()
    ids = list(await query.order_by(*order).offset((number - 1) * size).limit(size)
               .values_list(id_field, flat=True))
    rows = {row.id: row for row in await GameTable.filter(id__in=ids)} if ids else {}
    seats: dict[int, list[Seat]] = {i: [] for i in ids}
    if ids:
        for seat in await Seat.filter(table_id__in=ids).order_by("table_id", "number"):
            seats[seat.table_id].append(seat)
    return Page([Entry(rows[i], seats[i]) for i in ids if i in rows], number, max(1, -(-total // size)), total)


async def page_all(number: int, size: int) -> Page[Entry]:
    return await _page(ended(), NEWEST, "id", number, size)


async def page_of_game(game: str, number: int, size: int) -> Page[Entry]:
    return await _page(ended().filter(game=game), NEWEST, "id", number, size)


async def page_of_account(account_id: int, number: int, size: int) -> Page[Entry]:
    """An account's games: its seats' copy of the end time (Seat.ended_at) and one index."""
    seats = Seat.filter(account_id=account_id, ended_at__not_isnull=True)
    return await _page(seats, ("-ended_at", "-table_id"), "table_id", number, size)


def aware(when: datetime | None) -> datetime | None:
    return None if when is None else as_utc(when)


def seconds_of(row: GameTable) -> float | None:
    """How long the game lasted, start to end (None without an end)."""
    start, end = aware(row.started_at), aware(row.finished_at)
    return None if start is None or end is None else max(0.0, (end - start).total_seconds())


@dataclass(frozen=True)
class Summary:
    """`game N` of a game that ended: its row, its table (seats), and for a finished game the
    engine's ``final_reveal`` data (None when the engine has none or the log cannot replay)."""

    row: GameTable
    table: Table
    reveal: dict[str, Any] | None


class NotEnded(Exception):
    """The table exists but its game has not ended (open or running): nothing of it is told."""


async def summary(number: int) -> Summary | None:
    """The game at table ``number`` (None: no such table); NotEnded while it has not ended."""
    row = await GameTable.get_or_none(id=number)
    if row is None:
        return None
    if row.state not in ENDED_STATES or row.finished_at is None:
        raise NotEnded()
    table = await table_of_row(row)
    reveal = await final_reveal(row, table) if row.state == "finished" else None
    return Summary(row, table, reveal)


async def final_reveal(row: GameTable, table: Table) -> dict[str, Any] | None:
    """The finished game's last state, replayed from its seed and log (as a restart does), and
    what the engine reveals of it; None when the game is gone or its log no longer replays."""
    engine = registry.get(row.game)
    if engine is None or getattr(engine, "final_reveal", None) is None:
        return None
    try:
        state = engine.new(len(table.seats), restored_options(engine, dict(row.options or {})), row.seed)
        for entry in await ActionLogEntry.filter(table_id=row.id).order_by("step"):
            apply_logged(engine, state, entry.seat, entry.action)
        return engine.final_reveal(state)
    except Exception:  # noqa: BLE001 - an old log the rules now refuse: the summary goes without it
        log.warning("table %d: its log does not replay; `game %d` shows no hidden cards", row.id, row.id,
                    exc_info=True)
        return None


__all__ = ["ENDED_STATES", "Entry", "NotEnded", "Summary", "ended", "final_reveal", "page_all",
           "page_of_account", "page_of_game", "seconds_of", "summary"]
