"""The observer Master of a table (Mafia's «Мастер» seat, for a human who watches it all).

`master N` (admins, or the account named at `open mafia master=NAME`) watches table N seeing every
role, order and whisper. At the table: `master pause`, `master resume`, `master extend 30m`. The
Master holds the clock, never a result: there is no command here that acts in the game.
"""
from __future__ import annotations

from games.base import RuleError
from world.accounts import parse_duration
from world.audit import audit

from .base import HALL, TABLE, CommandError, Ctx, command
from .table import run_table_op, show_table

PAUSE = {"pause", "пауза", "стоп"}
RESUME = {"resume", "продолжить", "продолжение", "продовжити", "дальше"}
EXTEND = {"extend", "продлить", "подовжити", "добавить", "додати"}


@command("master", "мастер", "майстер", contexts={HALL, TABLE}, completes=("table",))
async def master(ctx: Ctx) -> None:
    word = ctx.args[0].casefold() if ctx.args else ""
    if word.lstrip("#№").isdigit():
        table = await run_table_op(ctx, ctx.world.tables.watch_as_master(ctx.account, int(word.lstrip("#№"))))
        ctx.reply("master.you_watch", number=table.number)
        show_table(ctx, table)
        return
    table = ctx.world.tables.table_of(ctx.account.id)
    if table is None or ctx.account.id not in table.masters:
        raise CommandError("master.usage")
    runner = table.runner
    if runner is None or not table.running:
        raise CommandError("table.error.not_running")
    try:
        if word in PAUSE:
            await runner.pause()
            audit("table_paused", by=ctx.account.name, number=table.number, game=table.game_name)
        elif word in RESUME:
            await runner.resume()
            audit("table_resumed", by=ctx.account.name, number=table.number, game=table.game_name)
        elif word in EXTEND and len(ctx.args) > 1 and parse_duration(ctx.args[1]) is not None:
            seconds = int(parse_duration(ctx.args[1]).total_seconds())
            if seconds <= 0:
                raise CommandError("master.usage")
            await runner.extend(seconds)
        else:
            raise CommandError("master.usage")
    except RuleError as err:
        raise CommandError(err.key, **err.params) from err
