"""The message of the day: what `motd` shows, and every login reads after the welcome.

Two sources, layered as the admins are (config list, then the database):

* the host's ``[server] motd`` in config.toml (reloaded with SIGHUP) is the default;
* an admin's ``motd set TEXT`` is stored in the database (ServerSetting ``motd``), so it survives
  a restart, and wins over the config's while it is set; ``motd clear`` removes it, and the
  config's text (if any) shows again.

The stored text is read once and then kept in memory: only this process changes it.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .models import ServerSetting

MOTD_KEY = "motd"
# The longest message of the day, in characters: a notice read at every login, not a page.
MOTD_LIMIT = 500


@dataclass(frozen=True)
class Current:
    text: str
    by: str | None  # the admin who set it; None: the config's text
    at: datetime | None


class Motd:
    def __init__(self) -> None:
        self._row: ServerSetting | None = None
        self._loaded = False

    async def _stored(self) -> ServerSetting | None:
        if not self._loaded:
            self._row = await ServerSetting.get_or_none(key=MOTD_KEY)
            self._loaded = True
        return self._row

    async def current(self, default: str) -> Current | None:
        """The message shown now: the admin's, else ``default`` (the config's), else None."""
        row = await self._stored()
        if row is not None and row.value:
            return Current(row.value, row.by, row.updated_at)
        default = default.strip()
        return Current(default, None, None) if default else None

    async def set(self, text: str, by: str) -> None:
        row, _ = await ServerSetting.update_or_create(key=MOTD_KEY, defaults={"value": text, "by": by})
        self._row, self._loaded = row, True

    async def clear(self) -> bool:
        """Remove the admin's message; False if none was set."""
        row = await self._stored()
        if row is None:
            return False
        await ServerSetting.filter(key=MOTD_KEY).delete()
        self._row = None
        return True


__all__ = ["MOTD_KEY", "MOTD_LIMIT", "Current", "Motd"]
