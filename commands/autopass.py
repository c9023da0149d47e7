"""`autopass` (`автопас`): whether optional answer windows pass for the player by themselves.

The setting is the account's, kept in the database (Account.autopass), and applies at once at a
table the player sits at; what each mode does is world/autopass.py.
"""
from __future__ import annotations

import difflib

from world.autopass import GAME_DEFAULTS
from world.messages import msg

from .base import CommandError, Ctx, command

# Every word a player may type for each setting, in the three languages ("default": no choice
# of one's own, the game's usual one).
WORDS = {
    "off": ("off", "no", "never", "выкл", "выключить", "нет", "никогда", "вимк", "вимкнути", "ні"),
    "smart": ("smart", "auto", "умный", "умно", "авто", "розумний"),
    "on": ("on", "yes", "always", "вкл", "включить", "да", "всегда", "увімк", "увімкнути", "так", "завжди"),
    "default": ("default", "usual", "reset", "обычный", "обычно", "стандарт", "звичайний", "типово"),
}
_BY_WORD = {word: mode for mode, words in WORDS.items() for word in words}


def _game_defaults() -> dict[str, object]:
    return {game: msg(f"autopass.mode_{mode}") for game, mode in GAME_DEFAULTS.items()}


def _suggestion(word: str) -> str | None:
    close = difflib.get_close_matches(word, list(_BY_WORD), n=1, cutoff=0.6)
    return close[0] if close else None


@command("autopass", "автопас", "autopas")
async def autopass(ctx: Ctx) -> None:
    setting = getattr(ctx.account, "autopass", None)
    if not ctx.args:
        if setting is None:
            ctx.reply("autopass.current_default", **_game_defaults())
        else:
            ctx.reply("autopass.current", mode=msg(f"autopass.mode_{setting}"))
        return
    word = ctx.args[0].casefold()
    mode = _BY_WORD.get(word)
    if mode is None:
        suggestion = _suggestion(word)
        if suggestion is None:
            raise CommandError("autopass.unknown_plain", word=ctx.args[0])
        raise CommandError("autopass.unknown", word=ctx.args[0], suggestion=suggestion)
    value = None if mode == "default" else mode
    ctx.account.autopass = value
    await ctx.account.save(update_fields=["autopass"])
    for session in ctx.world.sessions_of([ctx.account.id]):  # the account's other sessions too
        account = getattr(session, "account", None)
        if account is not None and account is not ctx.account:
            account.autopass = value
    if value is None:
        ctx.reply("autopass.set_default", **_game_defaults())
    elif value == "smart":
        seconds = ctx.world.config.section("tables")["autopass_smart_seconds"]
        ctx.reply("autopass.set_smart", seconds=int(seconds) if float(seconds).is_integer() else seconds)
    else:
        ctx.reply(f"autopass.set_{value}")
    table = ctx.table
    runner = getattr(table, "runner", None) if table is not None else None
    if runner is not None and table.running and not runner.stopped:
        runner.autopass.schedule()  # the open window sees the new setting now
