"""`replay N [from STEP]` (`повтор`): a finished game told again, step by step, in the reader's
language (world/replay.py builds it from the stored log; world/replay_load.py says which games
may be told). The whole transcript is this command's answer, so the pager pages it
(server/pager.py)."""
from __future__ import annotations

from games.base import RuleError
from world import replay, replay_load
from world.i18n import nested
from world.broken_tables import GameGone, game_name

from .base import NEW_PREFIX, CommandError, Ctx, command
from .listing import number_of

# The word before the first step to show: `replay 12 from 30`, `повтор 12 с 30` (the number alone
# after the table's works too).
FROM_WORDS = frozenset({"from", "с", "со", "от", "з", "із", "від"})


def _asked(ctx: Ctx) -> tuple[int, int]:
    """(the table's number, the first step to show)."""
    args = list(ctx.args)
    number = number_of(args[0]) if args else None
    if number is None:
        raise CommandError("replay.usage")
    rest = args[1:]
    if rest and rest[0].casefold() in FROM_WORDS:
        rest = rest[1:]
        if not rest:
            raise CommandError("replay.usage")
    if not rest:
        return number, 0
    start = number_of(rest[0])
    if start is None or len(rest) > 1:
        raise CommandError("replay.usage")
    return number, start


@command("replay", "повтор", "реплей", min_prefix=NEW_PREFIX + 1)
async def replay_game(ctx: Ctx) -> None:
    number, start = _asked(ctx)
    tables = getattr(ctx.world, "tables", None)
    live = tables.tables.get(number) if tables is not None else None
    try:
        record = await replay_load.load(number, live.state_name if live is not None else None)
        transcript = replay.build(record)
    except replay_load.NotReplayable as err:
        raise CommandError(err.key, **err.params) from err
    except GameGone as err:
        raise CommandError("replay.game_gone", number=number, game=game_name(err.game)) from err
    except RuleError as err:  # the options today's engine refuses
        raise CommandError("replay.cannot", number=number, why=nested(err.key, **err.params)) from err
    last = replay.last_step(transcript)
    if start > last:
        raise CommandError("replay.no_step", number=number, step=start, last=last)
    for message in replay.messages(transcript, start):
        ctx.reply_msg(message)
