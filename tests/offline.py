"""Typing a game's verbs without a server: a stand-in table around an engine state, the verbs a
seated player has there, and one line typed as a seat. What the verb then sends to the table is
the test's to capture (it patches ``game_action`` in the game's commands module)."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any


class OfflineTable:
    """What the verbs read of a running table: the engine and its state, options, seats. The
    account id is the seat number."""

    def __init__(self, game: str, state: Any, names: list[str], options: dict[str, Any]) -> None:
        from games import registry

        self.engine, self.game, self.options = registry.get(game), state, options
        self.number, self.game_name, self.running, self.runner = 1, game, True, object()
        self.seats = [SimpleNamespace(number=i, name=name, played_by_bot=False) for i, name in enumerate(names)]

    def seat_of(self, account_id: int) -> int:
        return account_id


def game_commands(game: str | None) -> list[Any]:
    """The commands a seated player of ``game`` has at a running table (``None``: the hall's)."""
    import commands.load_all  # noqa: F401
    from commands.base import GAME, REGISTRY, TABLE
    from commands.parser import _available

    return _available(frozenset({TABLE, GAME}), "player", game, len(REGISTRY))


async def typed(table: OfflineTable, seat: int, text: str) -> None:
    """``text`` typed by ``seat`` at ``table``: parsed and handled by the game's verb."""
    from commands.base import Ctx, split_args
    from commands.parser import phrase_verb, resolve, split_verb

    world = SimpleNamespace(tables=SimpleNamespace(table_of=lambda _id, t=table: t))
    commands = game_commands(table.game_name)
    verb, rest = phrase_verb(*split_verb(text), commands)
    cmd, _ = resolve(verb, commands)
    assert cmd is not None and cmd.game == table.game_name, text
    ctx = Ctx(session=None, world=world, account=SimpleNamespace(id=seat), verb=verb,
              rest=rest, args=split_args(rest), command=cmd)
    await cmd.handler(ctx)
