"""Text to intent: the parser and every command, for both front doors."""
from __future__ import annotations

from typing import Any

from world.text import clean, clean_line

from .base import CommandError, Ctx, split_args
from .parser import RESERVED_GAME_VERBS, available, phrase_verb, resolve, split_verb


async def dispatch(session: Any, line: str) -> None:
    """Parse one line from a logged-in session (its controls already removed) and run its command."""
    from . import load_all  # noqa: F401  (registers every command once)

    commands = available(session)
    line = player_text(line, commands)
    if not line:
        return
    verb, rest = split_verb(line)
    verb, rest = phrase_verb(verb, rest, commands)
    cmd, suggestions = resolve(verb, commands)
    if cmd is None:
        if verb.casefold() in RESERVED_GAME_VERBS:
            await _reserved_verb(session, verb, rest)
        elif suggestions:
            session.send("cmd.unknown_suggest", verb=verb, suggestions=", ".join(suggestions))
        else:
            session.send("cmd.unknown", verb=verb)
        return
    ctx = Ctx(session=session, world=session.world, account=session.account, verb=verb,
              rest=rest, args=split_args(rest), command=cmd)
    try:
        await cmd.handler(ctx)
    except CommandError as err:
        session.send_msg(err.message)


def player_text(line: str, commands: list[Any]) -> str:
    """The line as other players may read it (world.text.clean: no invisible characters, no
    Zalgo, single spaces), unless its command takes secrets (``password OLD NEW``): a password
    is compared as typed, so nothing more is taken out of it."""
    verb, _ = split_verb(line)
    cmd, _ = resolve(clean(verb), commands)
    return line if cmd is not None and cmd.secret else clean_line(line)


async def _reserved_verb(session: Any, verb: str, rest: str) -> None:
    """claim, challenge, block, vote, night...: the table's engine decides what they mean."""
    from .base import Command
    from .parser import RESERVED_CANONICAL
    from .table import game_action

    tables = session.world.tables
    table = tables.table_of(session.account.id) if tables else None
    if table is None or not table.running or table.seat_of(session.account.id) is None:
        session.send("cmd.game_only", verb=verb)
        return
    args = split_args(rest)
    ctx = Ctx(session=session, world=session.world, account=session.account, verb=verb, rest=rest,
              args=args, command=Command(verb, (), _noop))
    action = {"type": RESERVED_CANONICAL.get(verb.casefold(), verb.casefold()), "args": args}
    try:
        await game_action(ctx, action)
    except CommandError as err:
        session.send_msg(err.message)


async def _noop(ctx: Ctx) -> None:
    return None
