"""One connection, telnet or SSH: input cleaning, flood control, login flow, output rendering.

The front doors (server/telnet.py, server/ssh.py) subclass :class:`Session` and provide
``write``, ``send_prompt``, ``gmcp`` and ``close``. Everything a player sees passes through
``render``: localized (world.i18n), wrapped to the width, coloured only if the terminal can.
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from commands import dispatch
from world import accounts
from world.i18n import normalize_lang, t
from world.messages import Msg, msg
from world.models import Account
from world.text import clean_controls

from .render import layout

if TYPE_CHECKING:
    from .app import App

log = logging.getLogger("korchma.session")

ENCODINGS = {"1": "utf-8", "2": "cp1251", "3": "koi8-r", "utf-8": "utf-8", "utf8": "utf-8",
             "cp1251": "cp1251", "windows-1251": "cp1251", "koi8-r": "koi8-r", "koi8r": "koi8-r",
             "koi8": "koi8-r", "4": "koi8-u", "koi8-u": "koi8-u", "koi8u": "koi8-u", "": "utf-8"}


class FloodGuard:
    """A token bucket: a warning when it runs dry, then a short mute if the flood goes on."""

    def __init__(self, rate: float, burst: int, mute_seconds: float) -> None:
        self.rate, self.burst, self.mute_seconds = rate, burst, mute_seconds
        self.tokens = float(burst)
        self.stamp = time.monotonic()
        self.warned = False
        self.muted_until = 0.0

    def check(self) -> str:
        """'ok', 'warn' (first time over), 'muted' (drop the line)."""
        now = time.monotonic()
        if now < self.muted_until:
            return "muted"
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            if self.tokens > self.burst / 2:
                self.warned = False
            return "ok"
        if not self.warned:
            self.warned = True
            return "warn"
        self.muted_until = now + self.mute_seconds
        self.warned = False
        self.tokens = float(self.burst)
        return "mute"


class Session:
    kind = "base"
    newline = "\r\n"

    def __init__(self, app: "App", address: str) -> None:
        self.app = app
        self.world = app.world
        self.address = address
        self.account: Account | None = None
        self.lang: str = app.config.server["default_language"]
        self.width = 80
        self.term_color = False  # what the terminal says it can do
        self.color_override: bool | None = None  # `color on|off`
        self.encoding = "utf-8"
        self.encoding_known = False  # negotiated (CHARSET) or chosen
        self.last_input = time.monotonic()
        self.connected_at = time.monotonic()
        limits = app.config.section("limits")
        self.max_line = int(limits["max_line"])
        self.flood = FloodGuard(float(limits["commands_per_second"]), int(limits["command_burst"]),
                                float(limits["flood_mute"]))
        self.login_state = "name"
        self.pending_name = ""
        self.pending_password = ""
        # A dialogue (e.g. `password` asking with hidden input) takes the next lines instead of
        # the command parser: an async callable (session, line), or None.
        self.dialog: Any = None
        self.closed = False
        self.lock = asyncio.Lock()
        self.context: dict[str, Any] = {}  # per-session scratch for commands (e.g. last tell)

    # -- what front doors implement ------------------------------------------------------

    def write(self, rendered: Any) -> None:
        raise NotImplementedError

    def send_prompt(self) -> None:
        """Show the prompt (and mark it with GA/EOR on telnet)."""

    def gmcp(self, package: str, data: Any) -> None:
        """Send a GMCP message if the client negotiated GMCP."""

    def set_echo(self, on: bool) -> None:
        """Hide typed input (passwords) where the transport can."""

    async def close(self, message: Msg | None = None) -> None:
        raise NotImplementedError

    # -- output --------------------------------------------------------------------------

    @property
    def color(self) -> bool:
        return self.term_color if self.color_override is None else self.color_override

    def render_key(self) -> tuple:
        return (self.lang, self.width, self.color, self.encoding, self.newline)

    def render(self, message: Msg) -> str:
        text = t(self.lang, message.key, **message.params)
        return layout(text, self.width, self.color, self.newline) + self.newline

    def send(self, key: str, **params: Any) -> None:
        self.write(self.render(msg(key, **params)))

    def send_msg(self, message: Msg) -> None:
        self.write(self.render(message))

    def text(self, key: str, **params: Any) -> str:
        return t(self.lang, key, **params)

    # -- input ---------------------------------------------------------------------------

    async def handle_line(self, raw: str) -> None:
        """Everything a client types arrives here, one line at a time."""
        if self.closed:
            return
        self.last_input = time.monotonic()
        if len(raw) > self.max_line:
            self.send("input.too_long", limit=self.max_line)
            self.send_prompt()
            return
        line = clean_controls(raw).strip()  # the rest of the cleaning is the commands' (not passwords)
        async with self.lock:
            try:
                if self.account is None:
                    await self.login_step(line)
                elif self.dialog is not None:
                    await self.dialog(self, line)
                else:
                    verdict = self.flood.check()
                    if verdict == "muted":
                        return
                    if verdict == "mute":
                        self.send("input.flood_muted", seconds=int(self.flood.mute_seconds))
                        return
                    if verdict == "warn":
                        self.send("input.flood_warning")
                    if line:
                        await dispatch(self, line)
            except Exception:  # a bug must not kill the session or show a traceback
                log.exception("command failed: %r", line)
                self.send("error.internal")
        if not self.closed:
            self.send_prompt()

    # -- login (telnet asks in the session; SSH authenticates before) --------------------

    def greet(self) -> None:
        self.send("login.banner", server=self.app.config.server["name"])
        self.send("login.ask_name")

    def ask_encoding(self) -> None:
        self.login_state = "encoding"
        # The catalog keeps this line in plain ASCII: it must read right before we know the encoding.
        self.write(self.text("login.encoding_menu"))

    async def login_step(self, line: str) -> None:
        state = self.login_state
        if state == "encoding":
            choice = ENCODINGS.get(line.strip().lower())
            if choice is None:
                self.ask_encoding()
                return
            self.set_encoding(choice)
            self.encoding_known = True
            self.login_state = "name"
            self.greet()
        elif state == "name":
            await self._login_name(line)
        elif state == "password":
            await self._login_password(line)
        elif state == "new_password":
            problem = accounts.password_problem(line)
            if problem:
                self.send(problem)
                self.send("login.ask_new_password")
                return
            self.pending_password = line
            self.login_state = "confirm"
            self.send("login.ask_confirm")
        elif state == "confirm":
            self.set_echo(True)
            if line != self.pending_password:
                self.pending_password = ""
                self.login_state = "name"
                self.send("login.mismatch")
                self.send("login.ask_name")
                return
            await self._create_account()

    async def _login_name(self, line: str) -> None:
        name = line.strip()
        if not name:
            self.send("login.ask_name")
            return
        lang = normalize_lang(name)
        if lang:  # typing a language code on the name prompt switches the login language
            self.lang = lang
            self.greet()
            return
        if name.lower() in ("quit", "выход", "вихід"):
            await self.close(msg("quit.bye"))
            return
        wait = self.app.throttle.wait_left(name, self.address)
        if wait > 0:
            self.send("login.wait", seconds=int(wait) + 1)
            self.send("login.ask_name")
            return
        ban = await accounts.active_ban(name, self.address)
        if ban:
            await self.close(msg("login.banned"))
            return
        self.pending_name = name
        existing = await accounts.find(name)
        if existing is not None:
            self.pending_name = existing.name
            self.login_state = "password"
            self.send("login.ask_password", name=existing.name)
            self.set_echo(False)
            return
        problem = accounts.name_problem(name)
        if problem:
            self.send(problem)
            self.send("login.ask_name")
            return
        if self._too_many_new_accounts():
            return
        self.login_state = "new_password"
        self.send("login.new_account", name=name)
        self.send("login.ask_new_password")
        self.set_echo(False)

    async def _login_password(self, line: str) -> None:
        self.set_echo(True)
        name = self.pending_name
        wait = self.app.throttle.wait_left(name, self.address)
        if wait > 0:
            self.login_state = "name"
            self.send("login.wait", seconds=int(wait) + 1)
            self.send("login.ask_name")
            return
        account = await accounts.find(name)
        if account is None or not await accounts.check_password(account.password_hash, line):
            self.app.throttle.failed(name, self.address)
            self.login_state = "name"
            self.send("login.bad_password")
            self.send("login.ask_name")
            return
        self.app.throttle.succeeded(name, self.address)
        await self.app.logged_in(self, account)

    def _too_many_new_accounts(self) -> bool:
        wait = self.app.creations.wait_left(self.address)
        if wait <= 0:
            return False
        self.login_state = "name"
        self.send("login.too_many_new", minutes=max(1, int(wait // 60) + 1))
        self.send("login.ask_name")
        return True

    async def _create_account(self) -> None:
        name, password = self.pending_name, self.pending_password
        self.pending_password = ""
        if self._too_many_new_accounts():
            return
        if await accounts.find(name) is not None:  # somebody took it meanwhile
            self.login_state = "name"
            self.send("account.name_taken")
            self.send("login.ask_name")
            return
        account = await accounts.create(name, password, self.lang,
                                        self.app.config.section("accounts")["admins"])
        self.app.creations.record(self.address)
        if self.encoding_known:
            account.encoding = self.encoding
            await account.save(update_fields=["encoding"])
        self.send("login.created", name=account.name)
        await self.app.logged_in(self, account)

    def set_encoding(self, encoding: str) -> None:
        self.encoding = encoding

    def apply_account_settings(self, account: Account) -> None:
        self.lang = account.lang or self.lang
        self.color_override = account.color
        if account.encoding and not self.encoding_known:
            self.set_encoding(account.encoding)
            self.encoding_known = True
