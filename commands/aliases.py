"""`alias NAME TEXT` (`сокращение`, `скорочення`), `alias` to list, `unalias NAME` to remove; and
the expansion of a typed line before it is parsed (:func:`expand_typed`, called by
commands.parse). What expansion does is world/aliases.py; here: which words are built-ins, and
what a player may define.

Built-in verbs always win: an alias may not be named as one (the player is told which command
has that name), and one a later built-in came to hide is listed as hidden and never runs. An
alias whose name only starts a built-in verb (``wh`` for ``who``) is allowed and takes that
abbreviation; the player is told so when defining it.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.collation import name_key
from world.aliases import MAX_DEPTH, NAME_LENGTH, expand, fold, valid_name

from .base import REGISTRY, Command, CommandError, Ctx, command
from .parser import (NOTHING, RESERVED_GAME_VERBS, SHORTCUTS, Parsed, available, fold_verb, parse_line,
                     resolve)


@lru_cache(maxsize=8)
def _builtin_verbs(_registry_size: int) -> frozenset[str]:
    """Every verb of every command, in any place, for any role, and the games' reserved verbs."""
    verbs = {fold_verb(v) for cmd in REGISTRY for v in cmd.verbs}
    return frozenset(verbs | {fold_verb(v) for v in RESERVED_GAME_VERBS})


def is_builtin(word: str, rest: str = "") -> bool:
    """Is the line ``word rest`` a built-in's: its verb, or the first of a verb of two words?"""
    verbs = _builtin_verbs(len(REGISTRY))
    if word[:1] in SHORTCUTS or fold_verb(word) in verbs:
        return True
    second = rest.partition(" ")[0]
    return bool(second) and fold_verb(f"{word} {second}") in verbs


def expand_typed(session: Any, line: str, commands: list[Command]) -> Parsed | None:
    """The parse of ``line`` after its account's aliases, or None when no alias is in it."""
    account = session.account
    book = session.world.aliases.texts(account.id) if account is not None else {}
    if not book:
        return None
    expansion = expand(line, book, is_builtin)
    if not expansion.names:
        return None
    problem = expansion.problem
    if problem is None and len(expansion.line) > session.max_line:  # $* repeated, say
        problem = "too_long"
    if problem is not None:
        name = session.world.aliases.of(account.id)[expansion.names[0]][0]  # as it was defined
        return Parsed(name, problem, _REFUSED, [], False)
    parsed = parse_line(expansion.line, commands)
    return parsed if parsed.verb else NOTHING


async def _refused(ctx: Ctx) -> None:
    """An alias line that cannot run (a loop or too deep: only rows stored around the checks)."""
    limit = getattr(ctx.session, "max_line", 0)
    ctx.reply(f"alias.run_{ctx.rest}", name=ctx.verb, depth=MAX_DEPTH, limit=limit)


_REFUSED = Command("alias", (), _refused)


def _unquoted(text: str) -> str:
    for left, right in (('"', '"'), ("«", "»")):
        if len(text) >= 2 and text.startswith(left) and text.endswith(right):
            return text[1:-1].strip()
    return text


def _list(ctx: Ctx) -> None:
    book = ctx.world.aliases.of(ctx.account.id)
    limit = int(ctx.world.config.section("limits")["aliases_per_account"])
    if not book:
        ctx.reply("alias.none")
        return
    ctx.reply("alias.list_header", n=len(book), limit=limit)
    for name, text in sorted(book.values(), key=lambda e: name_key(e[0])):
        ctx.reply("alias.list_hidden" if is_builtin(name) else "alias.list_line", name=name, text=text)


def _check(ctx: Ctx, name: str, text: str) -> None:
    """Refuse, with the reason, an alias that must not be defined."""
    limits = ctx.world.config.section("limits")
    if not valid_name(name):
        raise CommandError("alias.bad_name", name=name, length=NAME_LENGTH)
    if is_builtin(name):
        raise CommandError("alias.builtin", name=name)
    if len(text) > int(limits["alias_length"]):
        raise CommandError("alias.too_long", length=int(limits["alias_length"]))
    book = ctx.world.aliases.texts(ctx.account.id)
    limit = int(limits["aliases_per_account"])
    if fold(name) not in book and len(book) >= limit:
        raise CommandError("alias.too_many", limit=limit)
    trial = {**book, fold(name): text}
    expansion = expand(name, trial, is_builtin)
    if expansion.problem == "loop":
        raise CommandError("alias.loop", name=name)
    if expansion.problem == "too_deep":
        raise CommandError("alias.too_deep", name=name, depth=MAX_DEPTH)
    if parse_line(expansion.line, list(REGISTRY)).secret:  # a password would be stored in clear
        raise CommandError("alias.secret", name=name)


# The first Russian and Ukrainian verbs are the ones `help` lists (commands.hall.main_verbs).
@command("alias", "сокращение", "сокращения", "алиас", "алиасы", "аліас", "скорочення", "aliases")
async def alias(ctx: Ctx) -> None:
    name, _, text = ctx.rest.partition(" ")
    text = _unquoted(text.strip())
    if not name:
        _list(ctx)
        return
    if not text:
        entry = ctx.world.aliases.of(ctx.account.id).get(fold(name))
        if entry is None:
            raise CommandError("alias.unknown", name=name)
        ctx.reply("alias.list_line", name=entry[0], text=entry[1])
        return
    _check(ctx, name, text)
    replaced = await ctx.world.aliases.define(ctx.account.id, name, text)
    ctx.reply("alias.replaced" if replaced else "alias.defined", name=name, text=text)
    cmd, _ = resolve(name, available(ctx.session))
    if cmd is not None:  # it was an abbreviation of a command here: the alias takes it now
        verb = next(v for v in cmd.verbs if fold_verb(v).startswith(fold_verb(name)))
        ctx.reply("alias.takes_abbreviation", name=name, verb=verb)


@command("unalias", "удалить сокращение", "удалить алиас", "видалити аліас", "видалити скорочення")
async def unalias(ctx: Ctx) -> None:
    if not ctx.args:
        raise CommandError("alias.unalias_usage")
    removed = await ctx.world.aliases.remove(ctx.account.id, ctx.args[0])
    if removed is None:
        raise CommandError("alias.unknown", name=ctx.args[0])
    ctx.reply("alias.removed", name=removed)

