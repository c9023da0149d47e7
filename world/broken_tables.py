"""A table that cannot be rebuilt at start-up is marked broken; the rest of the server starts.

Whatever goes wrong while one table is restored (its game is no longer on the server, a deck
file it names is missing or invalid, its options are refused, the engine fails on a logged
action) stays that table's trouble:

* the table is stored as ``broken``, with why, in its ``outcome`` (``{"broken": <nested
  message>, "was": <state>}``); its seats and action log stay in the database untouched, for
  the host to look into, and a later start-up does not try it again;
* the error is logged once, with its traceback (the log is the host's);
* each player seated at it, and each admin, finds a line saying why in their inbox at the next
  login; the players are free at once (they are not "at" the broken table), so they can open or
  join another one;
* `tables` lists broken tables to admins; `join`, `watch` and `rematch` of one say why it cannot
  go on; `look` from inside is not possible, as nobody is at it.
"""
from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from games import registry
from games.base import RuleError
from tortoise.expressions import Q

from .accounts import name_key
from .db import STORAGE_ERRORS
from .i18n import nested
from .messages import msg
from .models import Account, GameTable
from .table_data import Table, table_of_row

if TYPE_CHECKING:
    from .tables import TableManager

log = logging.getLogger("korchma.tables")

REASON_LENGTH = 200  # an unexpected error's text, as much as fits a line


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


def reason_of(err: BaseException) -> dict[str, Any]:
    """Why, as a nested message the reader sees in their own language."""
    if isinstance(err, GameGone):
        return nested("broken.reason.no_game", game=err.game)
    if isinstance(err, ReplayRefused):
        return nested("broken.reason.replay", step=err.step, why=reason_of(err.error))
    if isinstance(err, RuleError):  # a deck the engine refuses, options it refuses
        try:
            json.dumps(err.params)
            return nested(err.key, **err.params)
        except (TypeError, ValueError):
            pass
    text = f"{type(err).__name__}: {err}"
    return nested("broken.reason.error", error=text[:REASON_LENGTH])


def game_name(game: str) -> Any:
    return nested(f"game.{game}") if registry.get(game) is not None else game


async def mark_broken(manager: "TableManager", row: GameTable, err: BaseException) -> Table:
    """Store the table as broken and tell its players and the admins; return it (in memory,
    without a runner, nobody at it)."""
    log.error("table %d (%s, %s) cannot be rebuilt and is marked broken; the server starts without it",
              row.id, row.game, row.state, exc_info=err)
    reason = reason_of(err)
    row.outcome = {"broken": reason, "was": row.state}
    row.state = "broken"
    try:
        await GameTable.filter(id=row.id).update(state="broken", outcome=row.outcome, deadline_at=None)
    except STORAGE_ERRORS:
        log.exception("table %d: could not store that it is broken; it will be tried again at the next start",
                      row.id)
    table = await table_of_row(row)
    game = game_name(row.game)
    for account_id in sorted({s.account_id for s in table.seats if s.account_id is not None}):
        await manager.world.keep(account_id, msg("broken.told_player", number=row.id, game=game, reason=reason),
                                 "system", row.id)
    for account_id in await admin_ids(manager):
        await manager.world.keep(account_id, msg("broken.told_admin", number=row.id, game=game, reason=reason),
                                 "system", row.id)
    return table


async def admin_ids(manager: "TableManager") -> list[int]:
    """Accounts that are admins: by role, or named in config (their role follows at login)."""
    keys = [name_key(name) for name in manager.config.section("accounts")["admins"]]
    query = Q(role="admin") | Q(name_key__in=keys) if keys else Q(role="admin")
    return sorted(await Account.filter(query).values_list("id", flat=True))
