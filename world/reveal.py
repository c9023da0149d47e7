"""The end reveals all: when a game is over, one block to everyone who played or watched it.

Readers: every seated player (online: now, wherever they are, also after standing up; away: in
the inbox), every watcher and observer Master online. Each gets the block once, in their own
language (world/presenters/reveal.py), and GMCP ``Korchma.Game.End`` with the same data. What
the block says comes from the engine's ``final_reveal`` (None before the end: nothing is
revealed early) and the game's length in time from the table's start as the database has it.
The runner's ``_announce_finish`` calls :func:`prepare_reveal` first and :func:`deliver_reveal`
after the «game over» line.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, NamedTuple

from .clock import as_utc, utcnow
from .db import is_storage_failure
from .messages import Msg
from .models import GameTable
from .presenters.reveal import reveal_message, reveal_payload

if TYPE_CHECKING:
    from .ports import RunnerState

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
    return max(0.0, (utcnow() - as_utc(started)).total_seconds())


def readers(runner: "RunnerState") -> tuple[set[int], list[int]]:
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


class Reveal(NamedTuple):
    message: Msg
    payload: dict[str, Any]


async def prepare_reveal(runner: "RunnerState") -> Reveal | None:
    """The end-of-game block of a finished game (its state still in ``table.game``), made before
    the table shows as finished: the one read it needs (the start) happens here, so that between
    «game over» and the table letting go of its game nothing waits. None: no block (a game
    without ``final_reveal``, or not over). A bug here is logged and the table still finishes."""
    table = runner.table
    final_reveal = getattr(runner.engine, "final_reveal", None)
    if final_reveal is None or table.game is None:
        return None
    try:
        data: dict[str, Any] | None = final_reveal(table.game)
        if data is None:  # not over: a secret stays one
            return None
        seconds = await game_seconds(table.number)
        return Reveal(reveal_message(table, data, seconds), reveal_payload(table, data, seconds))
    except Exception:
        log.exception("table %d: the end-of-game reveal failed", table.number)
        return None


async def deliver_reveal(runner: "RunnerState", reveal: Reveal | None) -> None:
    """Send the block: at once to every reader online (text and GMCP), then into the inboxes."""
    if reveal is None:
        return
    table, world = runner.table, runner.world
    table.reveal = reveal.message  # `look` at the finished table shows it again
    online, away = readers(runner)
    sessions = world.sessions_of(sorted(online))
    world.send_to_sessions(sessions, reveal.message)
    for session in sessions:
        session.gmcp("Korchma.Game.End", reveal.payload)
    for account_id in away:
        await world.keep(account_id, reveal.message, "game", table.number)
    if runner.keep_all:  # a forum-pace game keeps it for rereading, as its news
        for account_id in sorted(online & set(table.human_ids())):
            await world.keep(account_id, reveal.message, "game", table.number, delivered=True)
