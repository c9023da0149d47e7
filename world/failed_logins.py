"""Failed logins in the audit trail (world/audit.py ``login_failed``), without letting a flood
of them flood the log.

A failure that was checked (a wrong password, a bad name or password for a new account) is
always a line: the throttle (world/login_guard.py) soon makes an address wait, so they are few.
A refusal that costs the sender nothing (``wait``: throttled, ``busy``: the check queue is
full, ``banned``, ``too_many_new``) could come hundreds of times a second: per address and
reason, the first is a line, the next ones within :data:`WINDOW` seconds are only counted, and
the first after it says how many were left out (``repeated=N``).
"""
from __future__ import annotations

import time
from collections import OrderedDict

from .addresses import address_key
from .audit import audit

# Refusals that are not a checked guess: repeated ones are counted, not each written.
UNCHECKED = frozenset({"wait", "busy", "banned", "too_many_new"})
WINDOW = 60.0
KEPT = 10_000  # (address, reason) pairs remembered; the oldest go first


class FailedLogins:
    def __init__(self, window: float = WINDOW) -> None:
        self.window = window
        self.quiet: OrderedDict[tuple[str, str], tuple[float, int]] = OrderedDict()  # since, left out

    def record(self, door: str, address: str, name: str, reason: str, clock: float | None = None) -> None:
        """One failed login: ``name`` as typed (never the password), ``reason`` a word."""
        if reason not in UNCHECKED:
            audit("login_failed", door=door or None, address=address, name=name, reason=reason)
            return
        now = time.monotonic() if clock is None else clock
        key = (address_key(address), reason)
        since, left_out = self.quiet.get(key, (None, 0))
        if since is not None and now - since < self.window:
            self.quiet[key] = (since, left_out + 1)
            return
        audit("login_failed", door=door or None, address=address, name=name, reason=reason,
              repeated=left_out or None)
        self.quiet[key] = (now, 0)
        self.quiet.move_to_end(key)
        while len(self.quiet) > KEPT:
            self.quiet.popitem(last=False)
