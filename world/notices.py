"""What a login reads after the welcome: the message of the day (world/motd.py) and, when there
are any, how many pieces of news the account has not read (world/news.py) and how many replies
came to its notes on the board since its last visit (world/board.py)."""
from __future__ import annotations

from typing import Any

from . import board, news
from .messages import Msg, msg
from .models import Account


async def at_login(world: Any, account: Account, config_motd: str) -> list[Msg]:
    """The lines, in order; ``config_motd``: the config's `[server] motd` (the default)."""
    lines: list[Msg] = []
    current = await world.motd.current(config_motd)
    if current is not None:  # the admin's or the host's own text, in whatever language they wrote it
        lines.append(msg("login.motd", text=current.text))
    unread = await news.unread_count(account)
    if unread:
        lines.append(msg("news.unread_at_login", n=unread))
    # Called before this login is recorded anywhere: last_seen is still the end of the last visit.
    replies = await board.replies_since(account.id, account.last_seen, await world.social.ignoring(account.id))
    if replies:
        lines.append(msg("board.replies_at_login", n=replies))
    return lines


__all__ = ["at_login"]
