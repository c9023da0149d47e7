"""`history [NAME|GAME] [PAGE]` (`история`) lists the games that ended, newest first; `game N`
(`партия N`) shows one: its options, seats, result, times and, once it is finished, what every
seat hid (world/history.py). `история` followed by a place of the chat (`история зал`,
`история болтать`, `історія стіл`) is still the chat's recall (commands/recall.py), as is
`история чата`."""
from __future__ import annotations

from typing import Any

from games import registry
from world import abandon as abandoning
from world import history
from world.channels import channel_named
from world.i18n import nested
from world.messages import Msg, msg
from world.presenters.reveal import reveal_message
from world.table_options import shown

from .base import NEW_PREFIX, CommandError, Ctx, command
from .listing import number_of, show_page
from .names import find_account
from .recall import HALL_WORDS, TABLE_WORDS, line_time, recall
from .table import GAME_ALIASES


def _game_of(word: str) -> str | None:
    name = GAME_ALIASES.get(word.casefold(), word.casefold())
    return name if registry.get(name) is not None else None


def _is_chat_place(word: str) -> bool:
    folded = word.casefold()
    return folded in HALL_WORDS or folded in TABLE_WORDS or channel_named(word) is not None


def _seat_names(seats: list[Any]) -> str:
    return ", ".join(seat.name for seat in seats)


def result_of(row: Any) -> Msg:
    """How the game ended, for a line of the list and the summary: its winners, or broken, or
    abandoned (never a win)."""
    if row.state == "broken":
        return nested("history.result.broken")
    if row.state == "closed":
        return nested("history.result.abandoned")
    winners = list((row.outcome or {}).get("winners") or [])
    return nested("history.result.won", n=len(winners), winners=", ".join(winners))


def _length(row: Any) -> Any:
    seconds = history.seconds_of(row)
    return nested("history.length", seconds=int(seconds)) if seconds is not None else nested("history.no_length")


def _line(entry: history.Entry) -> Msg:
    row = entry.row
    when = row.finished_at or row.started_at
    return msg("history.line", number=row.id, when=line_time(history.aware(when)), game=nested(f"game.{row.game}"),
               length=_length(row), seats=_seat_names(entry.seats), result=result_of(row))


@command("history", "история", "історія", min_prefix=NEW_PREFIX)
async def history_(ctx: Ctx) -> None:
    words = list(ctx.args)
    if words and _is_chat_place(words[0]):
        await recall(ctx)  # `история зал 20`: the chat's recall, as before
        return
    page = 1
    if words and number_of(words[-1]) is not None:
        page = number_of(words.pop()) or 1
    if len(words) > 1:
        raise CommandError("help.usage.history")
    size = int(ctx.world.config.section("history")["page_size"])
    if not words:
        found, header = await history.page_all(page, size), msg("history.of_all")
    elif (game := _game_of(words[0])) is not None:
        found, header = await history.page_of_game(game, page, size), msg("history.of_game", game=nested(f"game.{game}"))
    else:
        try:
            account = await find_account(ctx, words[0])
        except CommandError as err:
            if err.message.key == "name.unknown":
                raise CommandError("history.unknown", word=words[0]) from err
            raise
        found, header = await history.page_of_account(account.id, page, size), msg("history.of_player", name=account.name)
    ctx.reply_msg(header)
    show_page(ctx, "history", found, (_line(entry) for entry in found.items))


def _seat_line(seat: Any, winners: list[int]) -> Msg:
    key = "history.seat_bot" if seat.bot_level is not None else "history.seat"
    won = nested("history.won_mark") if seat.number in winners else ""
    return msg(key, number=seat.number + 1, name=seat.name, won=won)


@command("game", "партия", "партія", min_prefix=NEW_PREFIX)
async def game(ctx: Ctx) -> None:
    number = number_of(ctx.args[0]) if len(ctx.args) == 1 else None
    if number is None:
        raise CommandError("help.usage.game")
    try:
        found = await history.summary(number)
    except history.NotEnded:
        raise CommandError("history.not_ended", number=number) from None
    if found is None:
        raise CommandError("history.no_such", number=number)
    row, table = found.row, found.table
    ctx.reply("history.game_header", number=row.id, game=nested(f"game.{row.game}"), result=result_of(row))
    options = shown(row.options or {}, getattr(table.engine, "internal_options", ()) if table.engine else ())
    ctx.reply("history.options", options=options if options is not None else nested("history.no_options"))
    if abandoning.is_abandoned(row.state, row.outcome):  # who gave it up, when, and why
        ctx.reply("history.abandoned_by", by=abandoning.who_param(row.outcome), step=row.outcome.get("step", "-"),
                  reason=abandoning.reason_param(row.outcome))
    start, end = history.aware(row.started_at), history.aware(row.finished_at)
    if start is None:  # broken before it began
        ctx.reply("history.ended_at", end=line_time(end))
    elif end is not None:
        ctx.reply("history.times", start=line_time(start), end=line_time(end),
                  seconds=int(history.seconds_of(row) or 0))
    else:
        ctx.reply("history.started", start=line_time(start))
    winners = list((row.outcome or {}).get("winner_seats") or []) if row.state == "finished" else []
    ctx.reply("history.seats_header", n=len(table.seats))
    for seat in table.seats:
        ctx.reply_msg(_seat_line(seat, winners))
    if found.reveal is not None:
        ctx.reply_msg(reveal_message(table, found.reveal, history.seconds_of(row)))
    elif row.state == "finished":
        ctx.reply("history.no_reveal")


__all__ = ["result_of"]
