"""The audit trail: one log record per event a host must be able to account for later.

Every login, failed login, account created, moderation act (kick, ban, unban, mute, role change,
password reset, rename, delete), shutdown and table life event (opened, started, finished, paused,
broken, abandoned) calls `audit(event, **fields)`. Fields name who did it (`by=`), to whom (`name=`),
from where (`door=`, `address=`) and how (`method=key|password`). The records go to the "korchma.audit" logger at
INFO with the event and fields attached (`record.event`, `record.fields`), so the log formatter
(server side) writes them as one machine-readable line, and a test can read them back.

Never pass a password, a reset code or any typed secret as a field: world/log_redact.py masks what it
recognises, but the audit trail must not depend on that.
"""
from __future__ import annotations

import logging
from typing import Any

AUDIT_LOGGER = "korchma.audit"
log = logging.getLogger(AUDIT_LOGGER)


def audit(event: str, **fields: Any) -> None:
    """Record one audit event, e.g. ``audit("ban", by="Анна", name="Борис", until="…")``."""
    clean = {key: value for key, value in fields.items() if value is not None}
    log.info("%s", event, extra={"event": event, "fields": clean})
