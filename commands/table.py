"""Tables: list, open, join, leave, watch, start, bots, hand."""
from __future__ import annotations

import json
import re
from typing import Any

from games.base import RuleError
from world.absence import take_seat_back
from world.accounts import parse_duration
from world.db import is_storage_failure
from world.inbox import waiting
from world.messages import msg
from world.presenters import present_view
from world import table_options
from world.broken_tables import game_name
from world.tables import Table, TableError
from world.task_local import TaskLocal
from world.waits import Answer

from . import elsewhere
from .base import GAME, HALL, TABLE, CommandError, Ctx, command
from .names import account_name
from .recall import show_hall_entry

# `roles` at a table of a game other than Mafia: what that game's module shows (game name ->
# function of ctx and table); a game without one shows its rules.
ROLE_LISTS: dict[str, Any] = {}
# What a game checks before its table may start (game name -> function of the table that raises
# CommandError): Mafia's sign-up choices against the players who sat down after them.
START_CHECKS: dict[str, Any] = {}

GAME_ALIASES = {"торги": "bids", "bid": "bids", "аукцион": "bids",
                "переворот": "coup", "coup": "coup",
                "шептуны": "whispers", "шептуни": "whispers", "jabberjay": "whispers",
                "мафия": "mafia", "мафія": "mafia", "mafia": "mafia",
                "революция": "revolution", "революція": "revolution", "revolution": "revolution"}
BOT_LEVELS = {"easy": "easy", "легкий": "easy", "лёгкий": "easy", "легкі": "easy", "простой": "easy",
              "normal": "normal", "обычный": "normal", "нормальный": "normal", "звичайний": "normal"}


def _table_number(ctx: Ctx) -> int:
    if not ctx.args or not ctx.args[0].lstrip("#№").isdigit():
        raise CommandError(f"help.usage.{ctx.command.key}")
    return int(ctx.args[0].lstrip("#№"))


def state_msg(table: Table):
    return msg(f"table.state.{table.state_name}")


def show_table_header(ctx: Ctx, table: Table) -> None:
    """The table as anyone in the tavern may see it: game, state, seats, host, options, watchers."""
    seats = ", ".join(s.name + (" (" + ctx.session.text("table.bot_mark") + ")" if s.is_bot else "")
                      for s in table.seats) or "-"
    ctx.reply("table.header", number=table.number, game=msg(f"game.{table.game_name}"),
              state=state_msg(table), taken=len(table.seats), total=table.seats_total, seats=seats,
              host=table.host, options=table.options_text() or "-")
    if table.watchers:
        names = [ctx.world.accounts[w].name for w in table.watchers if w in ctx.world.accounts]
        ctx.reply("table.watchers", names=", ".join(names), n=len(names))


def show_table_from_afar(ctx: Ctx, number: int) -> None:
    """`look N` from elsewhere: the table's header and how to sit down or follow it (the game
    itself is shown to those at the table and its watchers)."""
    try:
        table = ctx.world.tables.get(number)
    except TableError as err:
        raise CommandError(err.key, **err.params) from err
    show_table_header(ctx, table)
    if table.state_name == "open":
        ctx.reply("table.afar.open", number=number)
    elif table.running:
        ctx.reply("table.afar.running", number=number)


def show_table(ctx: Ctx, table: Table) -> None:
    show_table_header(ctx, table)
    if table.runner is not None and table.game is not None:
        table.runner.show_view(ctx.account.id)
        if table.runner.storage.active:
            ctx.reply(table.runner.storage.lines.look)
    elif table.state_name == "finished" and table.outcome:  # the game's state is let go at the end
        winners = table.outcome.get("winners") or []
        ctx.reply("table.finished", number=table.number, winners=", ".join(winners), n=len(winners))
        if table.reveal is not None:  # and everything the game hid
            ctx.reply_msg(table.reveal)


async def run_table_op(ctx: Ctx, coro: Any) -> Any:
    try:
        return await coro
    except TableError as err:
        raise CommandError(err.key, **err.params) from err
    except Exception as err:
        if not is_storage_failure(err):
            raise  # a bug: logged with its traceback, the player gets the internal-error line
        raise CommandError("storage.failed") from err  # nothing was changed: the write comes first


@command("tables", "столы", "столи")
async def tables(ctx: Ctx) -> None:
    manager = ctx.world.tables
    listing = manager.listing()
    others = await elsewhere.others_tables(ctx, {t.number for t in listing})  # other nodes' (world/cluster/)
    lines = [{"number": table.number, "game": msg(f"game.{table.game_name}"), "options": table.options_text() or "-",
              "taken": len(table.seats), "total": table.seats_total, "state": state_msg(table)} for table in listing]
    lines += [elsewhere.table_line(summary) for summary in others or ()]
    if not lines:
        ctx.reply("tables.none")
    else:
        ctx.reply("tables.header", n=len(lines))
    for line in sorted(lines, key=lambda line: line["number"]):
        ctx.reply("tables.line", **line)
    if others is None:
        ctx.reply("cluster.others_unreachable")
    if ctx.account.role == "admin":
        broken = manager.broken()
        if broken:
            ctx.reply("broken.list_header")
        for table in broken:
            ctx.reply("broken.list_line", number=table.number, game=game_name(table.game_name),
                      reason=table.broken_detail)
        counts = manager.in_memory()
        ctx.reply("tables.memory", tables=len(manager.tables), open=counts.get("open", 0),
                  running=counts.get("running", 0), finished=counts.get("finished", 0),
                  broken=counts.get("broken", 0), runners=counts["runners"])


def parse_options(words: list[str]) -> dict[str, str]:
    """`key=value` words. A value with a time unit (`10m`, `24h`, `2d`, `30с`) becomes seconds,
    the unit every game's timer options take: `open mafia night=10m day=24h`."""
    options: dict[str, str] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key or not value:
            raise CommandError("open.bad_option_syntax", word=word)
        if DURATION.fullmatch(value.strip().lower()):
            duration = parse_duration(value)
            if duration is not None:
                value = str(int(duration.total_seconds()))
        options[key.lower()] = value
    return options


DURATION = re.compile(r"\d+\s*[^\d\s,]+")


def option_keys_of(engine: Any, options: dict[str, str]) -> dict[str, str]:
    """`ход=30` as `turn=30`: option names typed in any of the three languages, as the game's
    keys; a name the game does not have is refused here, with the nearest names when it looks
    like a typo (world/table_options.py)."""
    out: dict[str, str] = {}
    game = msg(f"game.{engine.name}")
    for typed, value in options.items():
        key, close = table_options.resolve(engine, typed)
        if key is None:
            if close:
                raise CommandError("option.unknown_suggest", game=game, name=typed,
                                   suggestions=table_options.name_list(close))
            raise CommandError("option.unknown", game=game, name=typed,
                               names=table_options.name_list(table_options.option_keys(engine)))
        out[key] = value
    return out


@command("open", "открыть", "відкрити", contexts={HALL, TABLE})
async def open_(ctx: Ctx) -> None:
    from games import registry

    if not ctx.args:
        raise CommandError("open.usage", games=table_options.game_list(registry.all_games()))
    game = GAME_ALIASES.get(ctx.args[0].lower(), ctx.args[0].lower())
    options = parse_options(ctx.args[1:])
    engine = registry.get(game)
    if engine is not None:
        options = option_keys_of(engine, options)
    if options.get("master"):  # the chair goes to the account named by the one rule (or one to come)
        options["master"] = await account_name(ctx, options["master"], unknown_ok=True)
    try:
        table = await run_table_op(ctx, ctx.world.tables.open(ctx.account, game, options))
    except CommandError as err:  # a bad value: the option by its name in the reader's language
        params = err.message.params
        if err.message.key.endswith(".bad_option") and isinstance(params.get("name"), str):
            raise CommandError(err.message.key, **{**params, "name": table_options.name_list([params["name"]])}) from err
        raise
    ctx.reply("table.opened", number=table.number, game=msg(f"game.{table.game_name}"))
    ctx.world.broadcast(HALL, msg("table.opened_hall", name=ctx.account.name, number=table.number,
                                  game=msg(f"game.{table.game_name}")), exclude=[ctx.account.id])


@command("join", "сесть", "сісти", "присоединиться", "sit", contexts={HALL, TABLE}, completes=("table",))
async def join(ctx: Ctx) -> None:
    number = _table_number(ctx)
    table = await run_table_op(ctx, ctx.world.tables.join(ctx.account, number))
    ctx.reply("table.you_joined", number=table.number, game=msg(f"game.{table.game_name}"))
    # Back at one's seat: what the table said meanwhile (or how much, when it is long).
    for message in await waiting(ctx.world, ctx.account.id, table.number) if table.running else []:
        ctx.reply_msg(message)
    show_table(ctx, table)


@command("watch", "наблюдать", "спостерігати", contexts={HALL, TABLE}, completes=("table",))
async def watch(ctx: Ctx) -> None:
    number = _table_number(ctx)
    table = await run_table_op(ctx, ctx.world.tables.watch(ctx.account, number))
    ctx.reply("table.you_watch", number=table.number)
    show_table(ctx, table)


@command("leave", "встать", "уйти", "піти", "stand", contexts={TABLE})
async def leave(ctx: Ctx) -> None:
    table = await run_table_op(ctx, ctx.world.tables.leave(ctx.account))
    if not table.running:
        key = "table.you_left"
    elif getattr(table.engine, "autopilot", True):
        key = "table.you_left_game"
    else:  # a forum-pace game (Mafia) keeps the seat waiting: no bot plays it
        key = "table.you_left_seat_kept"
    ctx.reply(key, number=table.number)
    await show_hall_entry(ctx.world, ctx.session, ctx.account.id)


@command("start", "начать", "старт", "почати", contexts={TABLE})
async def start(ctx: Ctx) -> None:
    table = ctx.table
    check = START_CHECKS.get(table.game_name) if table is not None and table.state_name == "open" else None
    if check is not None:
        check(table)
    await run_table_op(ctx, ctx.world.tables.start(ctx.account))


@command("rematch", "again", "реванш", "заново", "ещё", "знову", contexts={HALL, TABLE}, completes=("table",))
async def rematch(ctx: Ctx) -> None:
    """The same game again, with the same players, bots and options, at a new table: the first
    to ask hosts it, the others' `rematch` seats them there (coup.md #4: in Coup the previous
    winner starts)."""
    number = _table_number(ctx) if ctx.args else None
    table, new = await run_table_op(ctx, ctx.world.tables.rematch(ctx.account, number))
    if new:
        ctx.reply("table.rematch_opened", number=table.number, game=msg(f"game.{table.game_name}"),
                  old=table.previous)
    else:
        ctx.reply("table.you_joined", number=table.number, game=msg(f"game.{table.game_name}"))
    show_table(ctx, table)


@command("bots", "боты", "боти", contexts={TABLE})
async def bots(ctx: Ctx) -> None:
    if not ctx.args or not ctx.args[0].isdigit():
        raise CommandError("help.usage.bots")
    level = ctx.world.config.section("tables")["bot_level"]
    if len(ctx.args) > 1:
        level = BOT_LEVELS.get(ctx.args[1].lower())
        if level is None:
            raise CommandError("bots.bad_level")
    await run_table_op(ctx, ctx.world.tables.add_bots(ctx.account, int(ctx.args[0]), level))


@command("hand", "рука", "карты", "карти", contexts={TABLE, GAME})
async def hand(ctx: Ctx) -> None:
    table = ctx.world.tables.table_of(ctx.account.id)
    if table is None or table.runner is None or table.game is None:
        raise CommandError("table.no_game")
    table.runner.show_view(ctx.account.id)


# The wait a GMCP client's Korchma.Game.Command names (docs/gmcp.md): bound by commands.dispatch
# while the line's command runs, for its task alone (a bot task the answer starts gets none).
ANSWERING_WAIT: TaskLocal[int | None] = TaskLocal("answering_wait", None)


async def game_action(ctx: Ctx, action: dict[str, Any]) -> None:
    """Send an action from this player's seat to the table runner; rule errors become replies.

    It is taken only for the question it was typed for (world/waits.py): one that names a wait
    (GMCP) only for that wait; a typed one that repeats the seat's last answer right after a new
    question opened is refused with a line saying which question is open now."""
    table = ctx.world.tables.table_of(ctx.account.id)
    if table is None or table.runner is None or not table.running:
        raise CommandError("table.no_game")
    seat = table.seat_of(ctx.account.id)
    if seat is None:
        raise CommandError("table.not_seated")
    runner = table.runner
    if take_seat_back(table, seat):  # the player is back: the bot hands the seat over
        ctx.reply("table.autopilot_off")
    answer = Answer(action=json.dumps(action, sort_keys=True, default=str), verb=ctx.verb.casefold(),
                    wait=ANSWERING_WAIT.get(),
                    scripted=any(reads_korchma_gmcp(s) for s in ctx.world.sessions_of([ctx.account.id])))
    try:
        await runner.act(seat, action, check=lambda: runner.output.check_answer(seat, answer))
    except RuleError as err:
        raise CommandError(err.key, **err.params) from err
    runner.output.answer_taken(seat, answer)


def reads_korchma_gmcp(session: Any) -> bool:
    """The session's client said it reads Korchma's GMCP (Core.Supports "Korchma" or
    "Korchma.Game": a client script), so it is told every question with its id."""
    supports = getattr(session, "context", {}).get("gmcp_supports") or ()
    return "korchma" in supports or "korchma.game" in supports


def gmcp_command(session: Any, data: Any) -> None:
    """GMCP ``Korchma.Game.Command {"wait": ID, "line": "allow"}``: the line goes to the session,
    which runs it in turn with the typed lines (the same queue, order and flood guard), always as
    a command (never as a login name, a password or a dialogue's answer); a game answer in it
    counts only for the seat's question ID (without ``wait``, as typed). Anything else is
    ignored, like any malformed GMCP."""
    if not isinstance(data, dict) or session.account is None:
        return
    line, wait = data.get("line"), data.get("wait")
    if not isinstance(line, str) or not line.strip():
        return
    if wait is not None and (not isinstance(wait, int) or isinstance(wait, bool)):
        return
    session.queue_command(line, wait)


__all__ = ["show_table", "game_action", "present_view", "GAME"]
