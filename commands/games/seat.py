"""The seat a game verb acts for: the player's seat at a running table, with its view and legal
actions as they are now. Each game's verbs subclass it with their own lookups."""
from __future__ import annotations

from typing import Any

from ..base import CommandError, Ctx


class GameSeat:
    def __init__(self, ctx: Ctx) -> None:
        table = ctx.world.tables.table_of(ctx.account.id)
        if table is None or table.runner is None or table.game is None or not table.running:
            raise CommandError("table.no_game")
        seat = table.seat_of(ctx.account.id)
        if seat is None:
            raise CommandError("table.not_seated")
        self.table = table
        self.number = seat
        self.view: dict[str, Any] = table.engine.view(table.game, seat)
        self.legal: list[dict[str, Any]] = table.engine.legal(table.game, seat)

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [a for a in self.legal if a.get("type") == kind]
