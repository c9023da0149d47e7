"""SSH authentication: one :class:`KorchmaSSHServer` per connection. The user name is the account
name; a password for a name nobody has yet creates the account; public keys come from the
account's ``SshKey`` rows (``keys add``). Keyboard-interactive (server/ssh_kbdint.py) asks a new
account's password twice and takes a password reset code; the password method takes a code with
SSH's password change request. The connection cap, the login throttle and the check queue apply
exactly as on telnet, a ban hangs up at once, and every refusal is told in an auth banner (OpenSSH
prints them)."""
from __future__ import annotations

import asyncio
import base64
import logging
from typing import TYPE_CHECKING, Any, Callable

import asyncssh

from world import accounts, logins, password_reset
from world.addresses import normalize_address
from world.ban_notice import ban_notice
from world.best_effort import best_effort
from world.i18n import strip_marks, t
from world.log_redact import secret_scope
from world.models import Account

from .connections import Ticket
from .ssh_kbdint import KbdintLogin

if TYPE_CHECKING:
    from .ports import AppServices

log = logging.getLogger("korchma.ssh")
#: Seconds a connection over limits.connections_per_address may take to ask for auth (and hear
#: why it is refused) before it is cut off without a word.
REFUSE_WITHIN = 5.0


class KorchmaSSHServer(asyncssh.SSHServer):
    """One per connection: authentication. The user name is the account name."""

    def __init__(self, app: "AppServices", session_factory: Callable[..., Any]) -> None:
        self.app = app
        self.session_factory = session_factory  # server/ssh.py SSHSession
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = ""
        self.account: Account | None = None
        self.key_blobs: set[tuple[str, bytes]] = set()
        self.refused = False  # throttled: every method fails (a ban hangs up at once)
        self.created = False
        self.ticket: Ticket | None = None
        self.refuse_timer: asyncio.TimerHandle | None = None
        self.failures = (0, 0)  # failed logins on the account since its last one (to tell it)
        self.by_password = False
        self.kbdint = KbdintLogin(self)
        self.reset: logins.Outcome | None = None  # a reset code given to the password method
        self.reset_code = ""  # ... which the client sends again with the new password

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = normalize_address(str(peer[0])) if peer else ""
        self.ticket = self.app.connections.admit(self.address)
        if self.ticket is None:
            # Over limits.connections_per_address. The line goes out as an auth banner at the
            # client's first auth request (OpenSSH prints banners as UTF-8 text, but escapes a
            # DISCONNECT reason's non-ASCII bytes to octal, and a disconnect sent before the
            # handshake can be lost to a TCP reset); a client that never asks is cut off soon.
            self.refuse_timer = asyncio.get_running_loop().call_later(REFUSE_WITHIN, self._refuse_now)

    def _too_many(self) -> asyncssh.DisconnectError:
        limit = self.app.connections.per_address
        self._banner("connections.too_many", limit=limit)
        # The reason is English (ASCII), so OpenSSH's "Received disconnect" line stays readable.
        return asyncssh.DisconnectError(asyncssh.DISC_TOO_MANY_CONNECTIONS,
                                        strip_marks(t("en", "connections.too_many", limit=limit)))

    def _no_such_name(self, problem: str) -> asyncssh.DisconnectError:
        assert self.conn is not None
        local = self.conn.get_extra_info("sockname") or ("localhost", 0)
        host = "localhost" if str(local[0]) in ("127.0.0.1", "::1") else str(local[0])
        self._banner(problem)
        self._banner("login.ssh_as_name", port=local[1], host=host)
        return asyncssh.DisconnectError(asyncssh.DISC_ILLEGAL_USER_NAME,
                                        strip_marks(t("en", "login.ssh_as_name", port=local[1], host=host)))

    def _refuse_now(self) -> None:
        self.refuse_timer = None
        if self.conn is not None:
            err = self._too_many()
            self.conn.disconnect(err.code, err.reason)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.refuse_timer is not None:
            self.refuse_timer.cancel()
            self.refuse_timer = None
        if self.ticket is not None:
            self.ticket.release()

    def _banner(self, key: str, **params: Any) -> None:
        """Tell the client why (OpenSSH prints auth banners), in the server's language."""
        text = strip_marks(t(self.app.config.server["default_language"], key, **params))
        try:
            assert self.conn is not None
            self.conn.send_auth_banner(text.replace("\n", "\r\n") + "\r\n")
        except (OSError, AssertionError):
            pass

    def _throttled(self, name: str) -> bool:
        wait = self.app.throttle.wait_left(name, self.address)
        if wait > 0:
            self._banner("login.wait", seconds=int(wait) + 1)
            return True
        return False

    async def begin_auth(self, username: str) -> bool:
        # Always True: prompt_toolkit's own SSH server returns False here, i.e. no auth at all.
        if self.ticket is None:
            if self.refuse_timer is not None:
                self.refuse_timer.cancel()
                self.refuse_timer = None
            raise self._too_many()  # asyncssh sends the DISCONNECT and closes
        name = username.strip()
        self.account, self.key_blobs, self.refused = None, set(), False
        if self._throttled(name):
            self.app.logins.refused_login("ssh", self.address, name, "login.wait")
            self.refused = True
            return True
        ban = await accounts.active_ban(name, self.address)
        if ban:
            self.app.logins.refused_login("ssh", self.address, name, "login.banned")
            # Say until when (and why) and hang up: more Password prompts could never work.
            notice = ban_notice(ban)
            self._banner(notice.key, **notice.params)
            raise asyncssh.DisconnectError(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                                           strip_marks(t("en", notice.key, **notice.params)))
        account = await accounts.find(name)
        if account is None:
            problem = accounts.name_problem(name)
            if problem:
                # Most often `ssh host` without NAME@: the client sent the local user's name
                # («root»). Say how to connect and hang up, instead of asking for passwords that
                # can never work.
                raise self._no_such_name(problem)
            else:
                self._banner("login.new_account", name=name)
            return True
        self.account = account
        self.key_blobs = {(k.algorithm, base64.b64decode(k.key_data))
                          for k in await accounts.account_keys(account)}
        return True

    def password_auth_supported(self) -> bool:
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    async def validate_password(self, username: str, password: str) -> bool:
        # The password stays out of every log record made while it is checked (world/log_redact.py).
        with secret_scope(password):
            name = username.strip()
            if self.refused:
                return False
            try:
                with best_effort("the SSH login of %r", name) as attempt:
                    outcome = await self.app.logins.log_in(name, self.address, password, door="ssh",
                                                           create_lang=self.app.config.server["default_language"])
            except Exception:
                log.exception("SSH password login of %r failed", name)
                self._banner("error.internal")
                return False
            if attempt.failed:
                self._banner("error.storage")
                return False
        if outcome.reset_id is not None:
            # A reset code: the client asks for the new password twice and sends it with the code
            # (SSH's password change request; change_password).
            self.reset, self.reset_code = outcome, password_reset.normalize(password) or ""
            raise asyncssh.PasswordChangeRequired(strip_marks(t(self.app.config.server["default_language"],
                                                                "login.reset_accepted")))
        return self.logged(outcome)

    def logged(self, outcome: logins.Outcome) -> bool:
        """A password login's outcome (either method): the refusal told, or the account taken."""
        if outcome.refusal is not None:
            self._banner(outcome.refusal, **outcome.params)
            return False
        self.account, self.created, self.failures = outcome.account, outcome.created, outcome.failures
        self.by_password = True
        return True

    async def change_password(self, username: str, old_password: str, new_password: str) -> bool:
        """The new password after a reset code (validate_password), with the code again."""
        with secret_scope(old_password, new_password):
            reset, self.reset = self.reset, None
            if self.refused or reset is None or password_reset.normalize(old_password) != self.reset_code:
                return False
            self.reset_code = ""
            problem = accounts.password_problem(new_password)
            if problem:
                self._banner(problem)
                return False
            assert reset.account is not None and reset.reset_id is not None
            outcome = await self.app.logins.finish_reset(reset.account, reset.reset_id, self.address,
                                                         new_password, door="ssh")
        if outcome.refusal is None:
            self._banner("login.reset_done")
        return self.logged(outcome)

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> Any:
        return self.kbdint.challenge(username.strip())

    async def validate_kbdint_response(self, username: str, responses: Any) -> Any:
        return await self.kbdint.respond(username.strip(), list(responses))

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # A key that does not match is no guess at a secret: clients offer all they have, so it
        # does not count as a failed login. The throttle and bans still close this door.
        if self.refused or self.account is None or self.app.throttle.wait_left(username.strip(), self.address) > 0:
            return False
        return (key.algorithm.decode("ascii", "replace"), bytes(key.public_data)) in self.key_blobs

    def auth_completed(self) -> None:
        if self.account is not None:
            if not self.by_password:  # a key login (a password login has cleared them already)
                self.failures = self.app.throttle.succeeded(self.account.name, self.address)

    def session_requested(self) -> Any:
        assert self.account is not None
        created, self.created = self.created, False
        session = self.session_factory(self.app, self.address, self.account, created, self.failures)
        if not created and not self.by_password:
            session.login_method = "key"
        return session
