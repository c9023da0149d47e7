"""A table that cannot be rebuilt, or cannot go on, is marked broken; the rest of the server goes on.

Whatever goes wrong while one table is restored at start-up (its game is no longer on the server,
a deck file it names is missing or invalid, its options are refused, the engine fails on a logged
action) stays that table's trouble; so does a bug that stops a running table (the database
refuses its automatic move for a reason that retrying repeats, a logged move the rules refuse
when a storage pause catches up, an error while it resumes):

* the table is stored as ``broken``, with why, in its ``outcome`` (``{"broken": <plain reason>,
  "detail": <the cause>, "was": <state>}``); its seats and action log stay in the database
  untouched, for the host to look into, and a later start-up does not try it again;
* the error is logged once, with its traceback (the log is the host's);
* each player seated at it finds a line saying why (a plain reason in their language: the deck
  or game cannot be loaded, a logged move the rules refuse, the database refused a move, an
  error on the server; never the exception's text) live or in their inbox at the next login;
  each admin gets the same line with the cause. The players are free at once (they are not "at"
  the broken table), so they can open or join another one;
* `tables` lists broken tables to admins (with the cause); `join`, `watch` and `rematch` of one
  say why (the plain reason) it cannot go on; `look` from inside is not possible, as nobody is at it.

A storage failure is none of this: it pauses a running table (world/storage_pause.py) and stops
a start-up (world/tables.py ``TablesNotRestored``), and marks nothing broken.
"""
from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from games import registry
from games.base import RuleError
from tortoise.expressions import Q

from .accounts import name_key
from .audit import audit
from .history import store_end
from .i18n import nested
from .messages import msg
from .models import Account, GameTable
from .table_data import Table, table_of_row

if TYPE_CHECKING:
    from .ports import TableHost

log = logging.getLogger("korchma.tables")

DETAIL_LENGTH = 200  # an unexpected error's text for admins, as much as fits a line


class GameGone(Exception):
    """The table's game is no longer registered on this server."""

    def __init__(self, game: str) -> None:
        super().__init__(f"no game {game!r} on this server")
        self.game = game


class ReplayRefused(Exception):
    """A logged action that the engine refuses on replay (the rules or the log changed)."""

    def __init__(self, step: int, error: RuleError) -> None:
        super().__init__(f"step {step} refused on replay: {error.key} {error.params}")
        self.step, self.error = step, error


class WriteRefused(Exception):
    """The database refused a write of the table's for a reason that is not storage trouble (a
    key it rejects, a foreign key): the same write would be refused again."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(f"{type(cause).__name__}: {cause}")
        self.cause = cause
        self.__cause__ = cause  # the log shows where the write failed, with its traceback


class TableBroken(Exception):
    """Raised to the task whose move broke the table: already logged and told, nothing to add."""


def reason_of(err: BaseException) -> dict[str, Any]:
    """Why, for the players: a nested message in their own language, of the kinds they can tell
    apart; never the exception's text (paths, internals: see :func:`detail_of`)."""
    if isinstance(err, GameGone):
        return nested("broken.reason.no_game", game=err.game)
    if isinstance(err, ReplayRefused):
        return nested("broken.reason.replay", step=err.step)
    if isinstance(err, WriteRefused):
        return nested("broken.reason.write_refused")
    if isinstance(err, RuleError):  # the game refuses to be set up again: a deck, its options
        deck = err.params.get("deck")
        if isinstance(deck, str):
            return nested("broken.reason.deck", deck=deck)
        return nested("broken.reason.setup")
    return nested("broken.reason.error")


def detail_of(err: BaseException) -> Any:
    """The cause, for admins (and the log has the traceback): the engine's own message for a rule
    it refuses, else the exception's type and text."""
    if isinstance(err, GameGone):
        return reason_of(err)
    if isinstance(err, ReplayRefused):
        return nested("broken.detail.replay", step=err.step, why=detail_of(err.error))
    if isinstance(err, RuleError):
        try:
            json.dumps(err.params)
            return nested(err.key, **err.params)
        except (TypeError, ValueError):
            pass
    cause = err.cause if isinstance(err, WriteRefused) else err
    return f"{type(cause).__name__}: {cause}"[:DETAIL_LENGTH]


def game_name(game: str) -> Any:
    return nested(f"game.{game}") if registry.get(game) is not None else game


async def _store_broken(table_id: int, epoch: int, outcome: dict[str, Any]) -> None:
    # With its end time: `history` lists it among the games that ended (world/history.py); only
    # by the table's owner (the fence: world/cluster/fence.py).
    await store_end(table_id, epoch=epoch, state="broken", outcome=outcome, deadline_at=None)


async def mark_broken(manager: "TableHost", row: GameTable, err: BaseException) -> Table:
    """At start-up: store the table as broken and tell its players and the admins; return it (in
    memory, without a runner, nobody at it). A storage failure while storing it is raised: the
    start-up stops (world/tables.py), it does not go on without a word."""
    log.error("table %d (%s, %s) cannot be rebuilt and is marked broken; the server starts without it",
              row.id, row.game, row.state, exc_info=err)
    reason, detail = reason_of(err), detail_of(err)
    audit("table_broken", by="server", number=row.id, game=row.game, was=row.state, cause=type(err).__name__)
    row.outcome = {"broken": reason, "detail": detail, "was": row.state}
    row.state = "broken"
    await _store_broken(row.id, row.lease_epoch, row.outcome)
    table = await table_of_row(row)
    game = game_name(row.game)
    for account_id in sorted({s.account_id for s in table.seats if s.account_id is not None}):
        await manager.world.keep(account_id, msg("broken.told_player", number=row.id, game=game, reason=reason),
                                 "system", row.id)
    for account_id in await admin_ids(manager):
        await manager.world.keep(account_id, msg("broken.told_admin", number=row.id, game=game, reason=detail),
                                 "system", row.id)
    return table


async def break_running(manager: "TableHost", table: Table, err: BaseException) -> None:
    """A running table that cannot go on (its runner has stopped): broken from now on, in memory
    and in the database; everyone at it is told and goes to the hall, seated players who are away
    find the line in their inbox, admins get it with the cause."""
    log.error("table %d (%s) cannot go on and is marked broken", table.number, table.game_name, exc_info=err)
    reason, detail = reason_of(err), detail_of(err)
    audit("table_broken", by="server", number=table.number, game=table.game_name, was=table.state_name,
          cause=type(err).__name__)
    table.outcome = {"broken": reason, "detail": detail, "was": table.state_name}
    table.state_name = "broken"
    table.runner = table.game = None
    try:
        await _store_broken(table.number, table.lease_epoch, table.outcome)
    except Exception:  # noqa: BLE001 - the table stops all the same; the log says what is stored
        log.exception("table %d: could not store that it is broken; a restart rebuilds it from its log",
                      table.number)
    game = game_name(table.game_name)
    told = msg("broken.stopped_player", number=table.number, game=game, reason=reason)
    players = set(table.human_ids())
    for account_id in sorted(players):
        await manager.world.deliver_or_keep(account_id, told, "system", table.number)
    for account_id in sorted(table.watchers - players):
        manager.world.deliver(account_id, told)
    for account_id in await _admins_or_none(manager):
        await manager.world.deliver_or_keep(
            account_id, msg("broken.stopped_admin", number=table.number, game=game, reason=detail),
            "system", table.number)
    manager.empty(table)


async def _admins_or_none(manager: "TableHost") -> list[int]:
    try:
        return await admin_ids(manager)
    except Exception:  # noqa: BLE001 - the players are told all the same; the log has it for admins
        log.exception("the admins could not be looked up to tell them of a broken table")
        return []


async def admin_ids(manager: "TableHost") -> list[int]:
    """Accounts that are admins: by role, or named in config (their role follows at login)."""
    keys = [name_key(name) for name in manager.config.section("accounts")["admins"]]
    query = Q(role="admin") | Q(name_key__in=keys) if keys else Q(role="admin")
    return sorted(await Account.filter(query).values_list("id", flat=True))
