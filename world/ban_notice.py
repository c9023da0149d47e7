"""What a banned person is told when the door closes: until when (with its time zone) and, when
the ban records one, why. The same words on telnet and SSH (server/session.py, server/ssh_auth.py)."""
from __future__ import annotations

from datetime import timezone
from typing import Any

from .messages import Msg, msg

#: How a ban's end is written everywhere (commands/admin.py writes the same): UTC, and says so.
UNTIL_FORMAT = "%Y-%m-%d %H:%M UTC"


def ban_notice(ban: Any) -> Msg:
    """The notice for a :class:`world.models.Ban` row. ``reason`` is read if the row has one (not
    every schema does)."""
    reason = str(getattr(ban, "reason", None) or "").strip()
    because = msg("login.ban_reason", reason=reason) if reason else ""
    if ban.until is None:
        return msg("login.banned_forever", reason=because)
    return msg("login.banned_until", until=ban.until.astimezone(timezone.utc).strftime(UNTIL_FORMAT), reason=because)
