"""What the world reports to the server's metrics, as calls that cost nothing when metrics are off.

The world and the doors call these at their hook points (a login, a refused login, a command, an
action the runner applied, a database transaction); server/metrics.py fills them in with
prometheus-client counters and histograms when ``[metrics] port`` is set. This base reports
nothing, so a server without metrics never imports prometheus-client. The world must not import
the server, hence the base class here and its filling-in above.

Database transactions (world/db.py ``transaction``) have no world at hand: tortoise's connection
is the process's, so their timing goes to the process's :data:`transaction_timers` (a running
server's metrics add theirs at start and take it away at stop).
"""
from __future__ import annotations

import contextlib
from typing import Any, Callable, ContextManager

#: Called with (seconds, ok) after every world/db.py transaction, committed (ok) or not.
transaction_timers: list[Callable[[float, bool], None]] = []


class Meters:
    """No metrics: every report is dropped."""

    def login(self, door: str) -> None:
        """A person logged in over ``door`` ("telnet", "ssh")."""

    def login_refused(self, door: str, reason: str) -> None:
        """A login over ``door`` was refused; ``reason`` is the refusal's catalog key
        (``login.bad_password``, ``login.wait``, ``login.banned``...)."""

    def command(self, parsed: Any) -> ContextManager[None]:
        """Times one command line (commands.parser Parsed) while it runs."""
        return contextlib.nullcontext()

    def action_applied(self, game: str, by: str) -> None:
        """The runner applied and logged an action at a table of ``game``; ``by``: player, bot,
        timeout, autopass..."""


def time_transaction(seconds: float, ok: bool) -> None:
    for timer in transaction_timers:
        timer(seconds, ok)
