"""Writes a player can do without: done now, or one warning in the log and carry on.

    with best_effort("the login of %s", account.name) as write:
        await account.save(update_fields=["last_login"])
    if write.failed:
        ...  # optional: tell the player, keep the old value in memory

A storage failure inside the block (world.db.is_storage_failure: a full disk, a read-only or
vanished database) is logged once as "storage failure: could not store <what> (<error>)" and
swallowed, and ``failed`` is set; any other error goes on up, as a bug must.
"""
from __future__ import annotations

import logging
from types import TracebackType
from typing import Any

from .db import is_storage_failure

log = logging.getLogger("korchma.storage")


class best_effort:  # noqa: N801 - a context manager, named like contextlib.suppress
    __slots__ = ("what", "args", "failed")

    def __init__(self, what: str, *args: Any) -> None:
        self.what, self.args, self.failed = what, args, False

    def __enter__(self) -> "best_effort":
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> bool:
        if not isinstance(exc, Exception) or not is_storage_failure(exc):
            return False
        self.failed = True
        log.warning("storage failure: could not store " + self.what + " (%s: %s)", *self.args,
                    type(exc).__name__, exc)
        return True
