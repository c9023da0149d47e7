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

from commands import dispatch, parse
from commands.base import split_args
from commands.parser import Parsed
from world import accounts, db, login_guard, logins
from world.ban_notice import ban_notice
from world.i18n import normalize_lang, t
from world.log_redact import secret_scope
from world.messages import Msg, msg
from world.models import Account
from world.text import clean_controls

from . import login_reset
from .pager import Pager
from .render import layout

if TYPE_CHECKING:
    from .ports import AppServices

log = logging.getLogger("korchma.session")

# Login states whose line is a password: never logged (world/log_redact.py).
SECRET_STATES = frozenset({"password", "new_password", "confirm"}) | login_reset.STATES

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

    def __init__(self, app: "AppServices", address: str) -> None:
        self.app = app
        self.world = app.world
        self.address = address
        self.account: Account | None = None
        self.lang: str = app.config.server["default_language"]
        self.lang_chosen = False  # typed on the login screen: this session keeps it
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
        self.pending_reset: logins.Outcome | None = None  # a reset code that held (server/login_reset.py)
        # A dialogue (e.g. `password` asking with hidden input) takes the next lines instead of
        # the command parser: an async callable (session, line), or None.
        self.dialog: Any = None
        self.closed = False
        self.lock = asyncio.Lock()
        self.context: dict[str, Any] = {}  # per-session scratch for commands (e.g. last tell)
        self.pager = Pager(self)  # a typed command's output, a screenful at a time (server/pager.py)

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

    def last_words(self, message: Msg | None, gone: bool) -> None:
        """A door's ``close`` begins here: no page is held any longer, ``message`` goes out
        unless the connection is ``gone`` already, and the session takes no more lines."""
        self.pager.finish()
        if message is not None and not gone:
            self.write(self.render(message))
        self.closed = True

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
        self.reply(self.render(msg(key, **params)))

    def send_msg(self, message: Msg) -> None:
        self.reply(self.render(message))

    def reply(self, rendered: Any) -> None:
        """Written as this session's own answer: the pager may hold it (a line the world
        delivers, through ``write`` alone, goes out at once)."""
        pager = self.pager
        pager.replying = True
        try:
            self.write(rendered)
        finally:
            pager.replying = False

    def text(self, key: str, **params: Any) -> str:
        return t(self.lang, key, **params)

    # -- input ---------------------------------------------------------------------------

    async def handle_line(self, raw: str) -> None:
        """Everything a client types arrives here, one line at a time."""
        await self._take(raw, None, command=False)

    def queue_command(self, line: str, wait: int | None) -> None:
        """A command line the client sent beside its typing (GMCP ``Korchma.Game.Command``): a
        door with such a channel puts it in the queue of typed lines, to be run in its turn by
        :meth:`handle_command`."""
        raise NotImplementedError

    async def handle_command(self, raw: str, wait: int | None) -> None:
        """A command line from :meth:`queue_command`, in its turn: the same flood guard as a
        typed one, but always a command, whatever the session waits for: never a login step,
        nor the answer to an open dialogue (which keeps waiting for the next typed line). A game
        answer in it counts only for the question ``wait`` names (commands.dispatch)."""
        if self.account is not None:
            await self._take(raw, wait, command=True)

    async def _take(self, raw: str, wait: int | None, command: bool) -> None:
        if self.closed:
            return
        self.last_input = time.monotonic()
        if self.world.cluster is not None and self.account is not None:  # idle in other nodes' `who`
            self.world.cluster.typed(self.account.id)
        if len(raw) > self.max_line:
            self.send("input.too_long", limit=self.max_line)
            self.send_prompt()
            return
        line = clean_controls(raw).strip()  # the rest of the cleaning is the commands' (not passwords)
        async with self.lock:
            if command or not self.pager.answer(line):
                await self._take_line(raw, line, wait, command)
        if not self.closed:
            self.send_prompt()

    async def _take_line(self, raw: str, line: str, wait: int | None, command: bool) -> None:
        parsed = parse(self, line) if command else self.parse_command(line)
        whole, words = self.secrets_in(line, parsed)
        if whole:
            whole += (raw,)
        if parsed is not None and not command:  # a typed command: its output may be paged
            self.pager.begin()
        try:
            with secret_scope(*whole, words=words):
                await self._handle(line, parsed, wait, secret=bool(whole))
        finally:
            self.pager.release()

    def parse_command(self, line: str) -> Parsed | None:
        """``line`` read as a command (commands.parse), or None when it is no command: a login
        step, or an answer to a dialogue."""
        return parse(self, line) if self.account is not None and self.dialog is None else None

    def is_secret_command(self, text: str) -> bool:
        """Would ``text``, entered now, be a command line with secrets? The SSH line editor asks
        while it is typed (server/ssh_terminal.py), and gets the answer the session will act on.
        (A login step or a dialogue's answer is hidden whole: ``set_echo``.)"""
        parsed = self.parse_command(clean_controls(text).strip())
        return parsed is not None and parsed.secret

    def secrets_in(self, line: str, parsed: Parsed | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """What in ``line`` is secret: (whole secrets, words). A command line (``parsed``) whose
        verb is or may be a secret command's (``password OLD NEW``) has its arguments secret,
        each and together; a password typed at a login prompt, or into a dialogue that asks for
        one (``dialog.secret``), is secret whole."""
        if parsed is not None:
            if not parsed.secret:
                return (), ()
            rest = parsed.rest
            return (line, rest), tuple(rest.split()) + tuple(split_args(rest))
        if self.account is None:
            secret = self.login_state in SECRET_STATES
        else:
            secret = bool(getattr(self.dialog, "secret", False))
        return ((line,), ()) if secret and line else ((), ())

    async def _handle(self, line: str, parsed: Parsed | None, wait: int | None, secret: bool) -> None:
        try:
            if self.account is None:
                await self.login_step(line)
            elif parsed is None:
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
                if self.world.cluster is not None and await self.world.cluster.play.forward(self, parsed):
                    return  # for a table another node runs (world/cluster/play.py)
                with self.world.meters.command(parsed):
                    await dispatch(self, parsed, wait)
        except Exception as exc:  # a bug must not kill the session or show a traceback
            # Name the line only when it holds no secret (the traceback is redacted anyway).
            shown = "(a line with a secret, not shown)" if secret else repr(line)
            if db.is_storage_failure(exc):
                log.warning("storage failure (%s: %s) on a line of %s: %s", type(exc).__name__, exc,
                            self.who(), shown)
                self.send("error.storage")
            else:
                log.exception("command failed: %s", shown)
                self.send("error.internal")
            if self.account is None and not self.closed:  # the login starts again, from the name
                self.restart_login()
                self.send("login.ask_name")

    def restart_login(self) -> None:
        self.login_state = "name"
        self.pending_password = ""
        self.pending_reset = None
        self.set_echo(True)

    def who(self) -> str:
        return self.account.name if self.account is not None else f"{self.address}, not logged in"

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
        elif state in login_reset.STATES:
            await login_reset.step(self, line)
        elif state == "new_password":
            self.take_new_password(line, "confirm")
        elif state == "confirm":
            self.set_echo(True)
            if line != self.pending_password:
                self.pending_password = ""
                self.login_state = "name"
                self.send("login.mismatch")
                self.send("login.ask_name")
                return
            await self._create_account()

    def take_new_password(self, line: str, confirm_state: str) -> None:
        """A new password typed (a new account, or after a reset code): too short or too long is
        said and asked again; else it is kept and asked once more (``confirm_state``)."""
        problem = accounts.password_problem(line)
        if problem:
            self.send(problem)
            self.send("login.ask_new_password")
            return
        self.pending_password = line
        self.login_state = confirm_state
        self.send("login.ask_confirm")

    async def _login_name(self, line: str) -> None:
        name = line.strip()
        if not name:
            self.send("login.ask_name")
            return
        lang = normalize_lang(name)
        if lang:  # typing a language code on the name prompt switches the login language
            self.lang, self.lang_chosen = lang, True
            self.greet()
            return
        if name.lower() in ("quit", "выход", "вихід"):
            await self.close(msg("quit.bye"))
            return
        wait = self.app.throttle.wait_left(name, self.address)
        if wait > 0:
            self.app.logins.refused_login(self.kind, self.address, name, "login.wait")
            self.send("login.wait", seconds=int(wait) + 1)
            self.send("login.ask_name")
            return
        ban = await accounts.active_ban(name, self.address)
        if ban:
            self.app.logins.refused_login(self.kind, self.address, name, "login.banned")
            await self.close(ban_notice(ban))
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
        self.login_state = "name"  # whatever happens now, the next line is a name again
        outcome = await self.app.logins.log_in(self.pending_name, self.address, line, door=self.kind)
        if self._refused(outcome):
            return
        if outcome.reset_id is not None:  # a reset code, not the password
            login_reset.begin(self, outcome)
            return
        assert outcome.account is not None
        await self.app.logged_in(self, outcome.account)
        self.tell_failures(outcome.failures)

    def _refused(self, outcome: logins.Outcome) -> bool:
        """Say why the login or the new account was refused (and ask the name again)."""
        if outcome.refusal is None:
            return False
        self.send(outcome.refusal, **outcome.params)
        self.send("login.ask_name")
        return True

    def log_failure(self, door_log: logging.Logger, what: str, *args: object) -> None:
        """A line or a login of this session failed with a bug: its traceback in the door's log.
        While the server stops, what was still in flight (a login in the middle of a flood of them)
        may meet the closed database: that is no bug, and one quiet debug line."""
        if self.world.shutting_down:
            door_log.debug(what + " while the server stopped", *args, exc_info=True)
        else:
            door_log.exception(what, *args)

    def tell_failures(self, failures: tuple[int, int]) -> None:
        """Tell the owner, just logged in, of the failed logins on the account since the last
        one (counted in memory, so since the server started at the most)."""
        count, addresses = failures
        if count and self.account is not None and not self.closed:
            many = addresses >= login_guard.SPREAD_WARNING  # no more are told apart
            self.send("login.failures_many" if many else "login.failures", count=count, addresses=addresses)

    def _too_many_new_accounts(self) -> bool:
        """Said at the name prompt, before anyone types a new password twice to hear it (the
        limit holds again when the account is made: world/logins.py)."""
        wait = self.app.creations.wait_left(self.address)
        if wait <= 0:
            return False
        self.send("login.too_many_new", minutes=max(1, int(wait // 60) + 1))
        self.send("login.ask_name")
        return True

    async def _create_account(self) -> None:
        name, password = self.pending_name, self.pending_password
        self.pending_password = ""
        self.login_state = "name"
        outcome = await self.app.logins.create(name, self.address, password, self.lang,
                                               self.encoding if self.encoding_known else None, door=self.kind)
        if self._refused(outcome):
            return
        assert outcome.account is not None
        self.send("login.created", name=outcome.account.name)
        await self.app.logged_in(self, outcome.account, method="new")

    def set_encoding(self, encoding: str) -> None:
        self.encoding = encoding

    def apply_account_settings(self, account: Account) -> None:
        if not self.lang_chosen:  # a language chosen on the login screen holds for this session
            self.lang = account.lang or self.lang
        self.color_override = account.color
        if account.encoding and not self.encoding_known:
            self.set_encoding(account.encoding)
            self.encoding_known = True
