"""The order of `help`: what a newcomer needs first (the hall, the tables, the game at hand),
then their own account's settings, then the staff's tools."""
from __future__ import annotations

from collections.abc import Iterable

from .base import Command

HALL = ("look", "who", "say", "emote", "tell", "chat", "channels", "recall", "inbox", "board", "news", "motd",
        "rules", "help")
TABLES = ("tables", "open", "join", "watch", "leave", "start", "bots", "rematch", "history", "game", "replay",
          "stats", "top", "season")
ACCOUNT = ("lang", "encoding", "color", "pagelength", "keys", "password", "quit")
# The groups in the order `help` shows them (help.group.<name> heads each).
GROUPS = ("hall", "tables", "game", "account", "staff")


def group_of(cmd: Command) -> str:
    if cmd.role != "player":
        return "staff"
    for name, keys in (("hall", HALL), ("tables", TABLES), ("account", ACCOUNT)):
        if cmd.key in keys:
            return name
    return "game"  # a game's verbs, and the rest a player may type at a table


def grouped(commands: Iterable[Command]) -> list[tuple[str, list[Command]]]:
    """The non-empty groups in :data:`GROUPS` order; inside a group, the order listed above
    (a game's own verbs in the order the game registers them)."""
    groups: dict[str, list[Command]] = {name: [] for name in GROUPS}
    for cmd in commands:
        groups[group_of(cmd)].append(cmd)
    rank = {key: i for keys in (HALL, TABLES, ACCOUNT) for i, key in enumerate(keys)}
    for name in ("hall", "tables", "account"):
        groups[name].sort(key=lambda c: rank[c.key])
    return [(name, cmds) for name, cmds in groups.items() if cmds]


__all__ = ["GROUPS", "group_of", "grouped"]
