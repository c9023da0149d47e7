"""`abandon N [REASON]` (`прервать`, `перервати`), for moderators: a running game nobody is coming
back to ends as abandoned, never rated (world/abandon.py). Its verbs answer to five letters or
more, so that no short start ends a game by mistake."""
from __future__ import annotations

from world import abandon as abandoning
from world.broken_tables import game_name

from .admin_info import reason_after
from .base import CommandError, Ctx, command
from .listing import number_of
from .table import run_table_op


@command("abandon", "прервать", "перервати", role="moderator", completes=("table",), min_prefix=5)
async def abandon(ctx: Ctx) -> None:
    if not ctx.args:
        raise CommandError("help.usage.abandon")
    number = number_of(ctx.args[0])
    if number is None:
        raise CommandError("abandon.not_number", word=ctx.args[0])
    reason = reason_after(ctx.rest, 1)
    table = await run_table_op(ctx, abandoning.abandon(ctx.world.tables, number, ctx.account.name, reason))
    ctx.reply("abandon.done", number=number, game=game_name(table.game_name))
