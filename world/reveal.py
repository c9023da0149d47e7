"""The end reveals all: when a game is over, one block to everyone who played or watched it.

Readers: every seated player (online: now, wherever they are, also after standing up; away: in
the inbox), every watcher and observer Master online. Each gets the block once, in their own
language (world/presenters/reveal.py), and GMCP ``Korchma.Game.End`` with the same data. What
the block says comes from the engine's ``final_reveal`` (None before the end: nothing is
revealed early) and the game's length in time from the table's start as the database has it.
The runner calls :func:`announce_reveal` from ``_announce_finish``, after the result is stored.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from .clock import UTC, utcnow
from .db import is_storage_failure
from .models import GameTable
from .presenters.reveal import reveal_message, reveal_payload

if TYPE_CHECKING:
    from .runner import TableRunner

log = logging.getLogger("korchma.runner")


async def game_seconds(number: int) -> float | None:
    """How long the game at table ``number`` lasted, from its stored start to now (None when the
    start cannot be read: the block then gives only the rounds or turns)."""
    try:
        row = await GameTable.get_or_none(id=number)
    except Exception as err:
        if not is_storage_failure(err):
            raise
        log.warning("table %d: could not read when the game began (%s)", number, err)
        return None
    started = row.started_at if row is not None else None
    if started is None:
        return None
    if started.tzinfo is None:
        started = started.replace(tzinfo=UTC)
    return max(0.0, (utcnow() - started).total_seconds())


def readers(runner: "TableRunner") -> tuple[set[int], list[int]]:
    """(accounts online to tell now, seated accounts away to keep it for)."""
    table, world = runner.table, runner.world
    online, away = set(), []
    for seat in table.seats:
        if seat.account_id is None:
            continue
        if world.is_online(seat.account_id):
            online.add(seat.account_id)
        elif seat.account_id not in away:
            away.append(seat.account_id)
    online |= {a for a in table.watchers | table.masters if world.is_online(a)}
    return online, away


async def announce_reveal(runner: "TableRunner") -> None:
    """Send the end-of-game block of a finished game (its state still in ``table.game``). A bug
    here is logged and the table still finishes (its result is stored and said already)."""
    try:
        await _announce(runner)
    except Exception:
        log.exception("table %d: the end-of-game reveal failed", runner.table.number)


async def _announce(runner: "TableRunner") -> None:
    table, world = runner.table, runner.world
    final_reveal = getattr(runner.engine, "final_reveal", None)
    if final_reveal is None or table.game is None:
        return
    data: dict[str, Any] | None = final_reveal(table.game)
    if data is None:  # not over: a secret stays one
        return
    seconds = await game_seconds(table.number)
    message = reveal_message(table, data, seconds)
    payload = reveal_payload(table, data, seconds)
    online, away = readers(runner)
    for account_id in away:
        await world.keep(account_id, message, "game", table.number)
    seated = set(table.human_ids())
    for account_id in sorted(online):
        if runner.keep_all and account_id in seated:  # a forum-pace game keeps it for rereading
            await world.keep(account_id, message, "game", table.number, delivered=True)
    sessions = world.sessions_of(sorted(online))
    world.send_to_sessions(sessions, message)
    for session in sessions:
        session.gmcp("Korchma.Game.End", payload)
