"""A running game a moderator gives up (`abandon N [REASON]`): stored and shown as abandoned.

A table whose players all left is played on by bots, a forum-pace table keeps its seats waiting,
a Master may hold the clock for ever: when nobody is coming back, a moderator ends the game.
The table is then

* stopped for good under its lock, like a broken one (runner.halt: no bot move, no deadline, no
  autopass fires afterwards, nothing more is logged; a move in hand finishes first, and a game
  that this move ended is finished, not abandoned);
* stored ``closed`` with its end (world/history.py ``store_end``, so its seats get ``ended_at``)
  and an outcome ``{"abandoned": True, "by", "reason", "was": running|paused, "step"}``: `history`
  lists it as abandoned, `game N` says who and why, `replay N` tells it up to where it stopped,
  ratings and stats never count it (they read ``finished`` tables only), and a restart does not
  rebuild it (world/table_restore.py reads open, running and broken tables);
* told, one line with who and why, to everyone at it (players, watchers, Masters), who go to the
  hall; seated players who are away find the line in their inbox;
* audited (``table_abandoned``).

A table paused for storage trouble is refused: storing the end is a write like the one that
failed, and the pause retries on its own; the moderator tries again once it has resumed.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from .audit import audit
from .broken_tables import game_name
from .cluster.fence import LeaseLost, let_go
from .history import store_end
from .i18n import nested
from .messages import msg
from .models import GameTable
from .table_data import Table, TableError

if TYPE_CHECKING:
    from .ports import TableHost

log = logging.getLogger("korchma.tables")


def is_abandoned(state: str, outcome: dict[str, Any] | None) -> bool:
    """A closed table with an abandonment in its outcome (a table closed before its start has none)."""
    return state == "closed" and bool((outcome or {}).get("abandoned"))


def reason_param(outcome: dict[str, Any] | None) -> Any:
    """The moderator's reason as a line reads it: their words, or «no reason given»."""
    reason = (outcome or {}).get("reason")
    return reason if reason else nested("abandon.no_reason")


def who_param(outcome: dict[str, Any] | None) -> str:
    return str((outcome or {}).get("by") or "-")


def closed_refusal(row: GameTable) -> TableError | None:
    """Why a closed table cannot be joined, watched or played again: abandoned (by whom, why),
    or closed before its game began. None for a table that is not closed."""
    if row.state != "closed":
        return None
    if is_abandoned(row.state, row.outcome):
        return TableError("abandon.unavailable", number=row.id, by=who_param(row.outcome),
                          reason=reason_param(row.outcome))
    return TableError("abandon.closed_unplayed", number=row.id)


async def _not_in_memory(number: int) -> TableError:
    """The refusal for a table the server does not hold: ended (and let go), or none at all."""
    row = await GameTable.get_or_none(id=number)
    if row is None:
        return TableError("table.no_such", number=number)
    if is_abandoned(row.state, row.outcome):
        return TableError("abandon.already", number=number, by=who_param(row.outcome))
    if row.state == "finished":
        return TableError("abandon.finished", number=number)
    if row.state == "broken":
        return TableError("abandon.broken", number=number)
    if row.state == "closed":
        return TableError("abandon.closed_unplayed", number=number)
    return TableError("table.no_such", number=number)  # (open or running but not held: no table here)


def _refusal(table: Table) -> TableError | None:
    if table.state_name == "open":
        return TableError("abandon.open", number=table.number)
    if table.state_name == "finished":
        return TableError("abandon.finished", number=table.number)
    if table.state_name == "broken":
        return TableError("abandon.broken", number=table.number)
    if table.runner is None or table.runner.stopped or not table.running:
        return TableError("abandon.finished", number=table.number)
    if table.runner.storage.active:
        return TableError("abandon.storage_paused", number=table.number)
    return None


async def abandon(manager: "TableHost", number: int, by: str, reason: str | None) -> Table:
    """End the running table ``number`` as abandoned by ``by`` (why: ``reason``, or None).
    TableError: no such table, not running (open, finished, broken, already abandoned) or paused
    for storage. A storage failure while storing the end is raised and nothing changes."""
    table = manager.tables.get(number)
    if table is None or table.state_name == "closed":
        raise await _not_in_memory(number)
    problem = _refusal(table)
    if problem is not None:
        raise problem
    runner = table.runner
    async with runner.lock:  # a move in hand is logged (and said) first; none comes after
        problem = _refusal(table)
        if problem is not None:  # that move ended the game, broke the table or paused it
            raise problem
        outcome = {"abandoned": True, "by": by, "reason": reason,
                   "was": "paused" if runner.paused is not None else "running", "step": table.step}
        try:  # only by the table's owner (the fence: world/cluster/fence.py)
            await store_end(number, epoch=table.lease_epoch, state="closed", outcome=outcome, deadline_at=None)
        except LeaseLost as err:
            let_go(runner)
            raise TableError("cluster.not_taken") from err
        runner.halt()
    audit("table_abandoned", by=by, number=number, game=table.game_name, was=outcome["was"], step=table.step,
          reason=reason)
    log.info("table %d (%s) abandoned by %s at step %d", number, table.game_name, by, table.step)
    keep = runner.keep_all  # a forum-pace game keeps every line in the inbox, this one too
    table.state_name, table.outcome = "closed", outcome
    table.runner = table.game = None
    told = msg("abandon.told", number=number, game=game_name(table.game_name), by=by, reason=reason_param(outcome))
    players = set(table.human_ids())
    for account_id in sorted(players):
        await manager.world.deliver_or_keep(account_id, told, "system", number, keep=keep)
    for account_id in sorted(table.watchers - players):  # watchers and Masters
        manager.world.deliver(account_id, told)
    manager.empty(table)
    if manager.tables.get(number) is table:  # a closed table lives only in the database
        del manager.tables[number]
    return table


__all__ = ["abandon", "closed_refusal", "is_abandoned", "reason_param", "who_param"]
