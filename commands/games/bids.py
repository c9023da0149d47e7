"""Sealed Bids verbs: `bid N` / `ставка N`, `fold` / `пас`."""
from __future__ import annotations

from ..base import CommandError, Ctx, command
from ..table import game_action


@command("bid", "ставка", "ставить", "поставить", "ставлю", game="bids")
async def bid(ctx: Ctx) -> None:
    if not ctx.args or not ctx.args[0].isdigit():
        raise CommandError("help.usage.bid")
    await game_action(ctx, {"type": "bid", "card": int(ctx.args[0])})


@command("fold", "пас", "пропуск", game="bids")
async def fold(ctx: Ctx) -> None:
    await game_action(ctx, {"type": "fold"})
