"""SSH keyboard-interactive login (what OpenSSH tries before the password method), one
:class:`KbdintLogin` per connection, driven by server/ssh_auth.py.

* An existing account is asked ``Password:``. The password logs in; a password reset code
  (world/password_reset.py) that holds is followed by the new password asked twice.
* A free name (a new account) is asked the new password twice, as telnet does.

Two new passwords that differ (or one too short) are asked again, up to :data:`TRIES` times; then
the connection ends with a line saying so. Every message goes out as an auth banner (OpenSSH prints
those as UTF-8; it escapes a challenge's non-ASCII instructions), the prompts in the server's
language. The answers are secrets: no log record made while they are handled shows them.
"""
from __future__ import annotations

from typing import Any

import asyncssh

from world import accounts, logins
from world.best_effort import best_effort
from world.i18n import strip_marks, t
from world.log_redact import secret_scope

#: New passwords asked at most this many times on one connection before it is ended.
TRIES = 3


class KbdintLogin:
    def __init__(self, server: Any) -> None:
        self.server = server  # server/ssh_auth.py KorchmaSSHServer (which makes this)
        self.stage = ""  # "password" | "new" (a new account) | "reset" (after a reset code)
        self.reset: logins.Outcome | None = None
        self.tries = 0

    def _prompt(self, key: str) -> tuple[str, bool]:
        return strip_marks(t(self.server.app.config.server["default_language"], key)), False

    def _twice(self) -> Any:
        return "", "", "", [self._prompt("login.ssh_new_password"), self._prompt("login.ssh_repeat_password")]

    def challenge(self, name: str) -> Any:
        """The first challenge for ``name`` (begin_auth has looked the name up), or False."""
        server = self.server
        self.reset, self.tries = None, 0
        if server.refused:
            return False
        if server.account is not None:
            self.stage = "password"
            return "", "", "", [self._prompt("login.ssh_password")]
        wait = server.app.creations.wait_left(server.address)
        if wait > 0:  # said before anyone types a new password twice (telnet does the same)
            server._banner("login.too_many_new", minutes=max(1, int(wait // 60) + 1))
            return False
        self.stage = "new"
        return self._twice()

    async def respond(self, name: str, responses: list[str]) -> Any:
        with secret_scope(*responses):
            try:
                with best_effort("the SSH login of %r", name) as attempt:
                    result = await self._respond(name, responses)
            except asyncssh.DisconnectError:
                raise
            except Exception:
                logins.log.exception("SSH keyboard-interactive login of %r failed", name)
                self.server._banner("error.internal")
                return False
        if attempt.failed:
            self.server._banner("error.storage")
            return False
        return result

    async def _respond(self, name: str, responses: list[str]) -> Any:
        server, app = self.server, self.server.app
        if self.stage == "password":
            if len(responses) != 1:
                return False
            outcome = await app.logins.log_in(name, server.address, responses[0])
            if outcome.reset_id is not None:
                self.stage, self.reset = "reset", outcome
                server._banner("login.reset_accepted")
                return self._twice()
            return server.logged(outcome)
        if self.stage not in ("new", "reset") or len(responses) != 2:
            return False
        first, second = responses
        problem = "login.mismatch_again" if first != second else accounts.password_problem(first)
        if problem:
            self.tries += 1
            server._banner(problem)
            if self.tries >= TRIES:
                server._banner("login.mismatch_end")
                raise asyncssh.DisconnectError(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                                               strip_marks(t("en", "login.mismatch_end")))
            return self._twice()
        if self.stage == "new":
            outcome = await app.logins.create(name, server.address, first,
                                              app.config.server["default_language"], None, door="ssh")
        else:
            assert self.reset is not None and self.reset.account is not None and self.reset.reset_id is not None
            outcome = await app.logins.finish_reset(self.reset.account, self.reset.reset_id, server.address,
                                                    first, door="ssh")
            if outcome.refusal is None:
                server._banner("login.reset_done")
        return server.logged(outcome)
