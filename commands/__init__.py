"""Text to intent: the parser and every command, for both front doors."""
from __future__ import annotations

from typing import Any

from world.autopass import player_typed
from world.messages import msg

from .base import CommandError, Ctx, split_args
from .parser import NOTHING, RESERVED_GAME_VERBS, Parsed, available, parse_line


def parse(session: Any, line: str) -> Parsed:
    """A line of a logged-in session (its controls already removed), read among the commands
    it has now: what :func:`dispatch` runs, and whether it holds secrets."""
    from . import load_all  # noqa: F401  (registers every command once)
    from .aliases import expand_typed

    if not line:
        return NOTHING
    commands = available(session)
    return expand_typed(session, line, commands) or parse_line(line, commands)


async def dispatch(session: Any, parsed: Parsed, wait: int | None = None) -> None:
    """Run the command of a line :func:`parse` read (in the same turn: the session's commands
    must not have changed in between). ``wait``: the question a game answer in it is for (a
    GMCP client names it: docs/gmcp.md), or None (as typed)."""
    if not parsed.verb:
        return
    player_typed(session.world, session.account.id)  # a smart autopass waits for whoever types
    verb, rest, cmd, suggestions = parsed.verb, parsed.rest, parsed.command, parsed.suggestions
    if (cmd is None or cmd.key != "afk") and session.world.social.come_back(session.account.id):
        session.send("social.afk.back")  # any command ends `afk` (world/social.py)
    if cmd is None and verb.casefold() not in RESERVED_GAME_VERBS:
        if _said_where_it_works(session, verb):
            return
        if suggestions:
            session.send("cmd.unknown_suggest", verb=verb, suggestions=", ".join(suggestions))
        else:
            session.send("cmd.unknown", verb=verb)
        return
    from .table import ANSWERING_WAIT

    with ANSWERING_WAIT.bound(wait):
        if cmd is None:
            await _reserved_verb(session, verb, rest)
            return
        ctx = Ctx(session=session, world=session.world, account=session.account, verb=verb,
                  rest=rest, args=split_args(rest), command=cmd)
        try:
            await cmd.handler(ctx)
        except CommandError as err:
            session.send_msg(err.message)


def _said_where_it_works(session: Any, verb: str) -> bool:
    """A verb that is a command somewhere else gets where it works, not «no such command»."""
    from .base import TABLE
    from .parser import elsewhere

    other = elsewhere(verb, session.account.role if session.account else "player")
    if other is None:
        return False
    table = session.world.tables.table_of(session.account.id) if session.world.tables and session.account else None
    if other.game is not None and table is not None and table.game_name == other.game:
        session.send("cmd.elsewhere.players", verb=verb)  # the Master or a watcher of that game
    elif other.game is not None:
        session.send_msg(msg("cmd.elsewhere.game", verb=verb, game=msg(f"game.{other.game}")))
    elif TABLE in other.contexts:
        session.send("cmd.elsewhere.table", verb=verb)
    else:
        return False
    return True


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
