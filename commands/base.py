"""A command is a small unit: a key, aliases in Russian and English, a help text, a parse step."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from world.messages import Msg, msg

if TYPE_CHECKING:
    from world.hub import World
    from world.models import Account

# Contexts: where a command is offered. "hall" means not at a table; "table" at a table
# (seated or watching); "game" seated in a running game. A command may list several.
HALL, TABLE, GAME = "hall", "table", "game"
EVERYWHERE = frozenset({HALL, TABLE, GAME})
ROLE_RANK = {"player": 0, "moderator": 1, "admin": 2}
# `min_prefix` of commands added late (the channel, recall): typed shorter than this, a start
# finds only the commands that had it before, so nobody's habits change.
NEW_PREFIX = 4


class CommandError(Exception):
    """Stop a command and tell the player why (a catalog key with parameters)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.message = msg(key, **params)


@dataclass
class Ctx:
    session: Any  # server.session.Session (a SessionLike for the world)
    world: "World"
    account: "Account"
    verb: str
    rest: str  # the argument text as typed (cleaned), quotes kept
    args: list[str]
    command: "Command"

    def reply(self, key: str, **params: Any) -> None:
        self.session.send(key, **params)

    def reply_msg(self, message: Msg) -> None:
        self.session.send_msg(message)

    @property
    def lang(self) -> str:
        return self.session.lang

    @property
    def table(self) -> Any:
        """The table this account is at (seated or watching), or None (or no tables at all)."""
        tables = getattr(self.world, "tables", None)
        return tables.table_of(self.account.id) if tables is not None else None


Handler = Callable[[Ctx], Awaitable[None]]


@dataclass
class Command:
    key: str  # canonical English verb; help text is help.cmd.<key>
    aliases: tuple[str, ...]  # other verbs, Russian and English
    handler: Handler
    contexts: frozenset[str] = EVERYWHERE
    role: str = "player"
    usage: bool = True  # has a help.usage.<key> line
    completes: tuple[str, ...] = ()  # what the arguments complete to: "player", "table", "command"
    game: str | None = None  # set for verbs that belong to one game
    secret: bool = False  # its arguments are secrets (passwords): kept as typed, never logged, masked on SSH
    # The shortest start of a verb that finds it: a command added after players learnt the short
    # starts of others (`ch` challenge, `бо` боты) takes none of them.
    min_prefix: int = 1

    @property
    def verbs(self) -> tuple[str, ...]:
        return (self.key, *self.aliases)

    def allowed(self, role: str) -> bool:
        return ROLE_RANK.get(role, 0) >= ROLE_RANK[self.role]


REGISTRY: list[Command] = []


def command(key: str, *aliases: str, contexts: frozenset[str] | set[str] = EVERYWHERE,
            role: str = "player", completes: tuple[str, ...] = (), game: str | None = None,
            secret: bool = False, min_prefix: int = 1) -> Callable[[Handler], Handler]:
    def wrap(fn: Handler) -> Handler:
        REGISTRY.append(Command(key, tuple(aliases), fn, frozenset(contexts), role,
                                completes=completes, game=game, secret=secret, min_prefix=min_prefix))
        return fn

    return wrap


_TOKEN = re.compile(r'"([^"]*)"|«([^»]*)»|(\S+)')


def split_args(text: str) -> list[str]:
    """Words, with "quoted text" or «текст в ёлочках» kept as one argument."""
    return [a or b or c for a, b, c in _TOKEN.findall(text)]
