"""The telnet front door: telnetlib3 for option negotiation (server/telnet_protocol.py), our own
line handling (:class:`TelnetSession`) and the listening door (:class:`TelnetDoor`).

What a client gets:

* **Line mode** (RFC 1184 is not used): the server never sends WILL SGA or WILL ECHO at
  connect, so MUD clients and Debian's ``telnet`` edit and echo the line themselves and send
  it whole. Passwords: ``set_echo(False)`` sends WILL ECHO (the client stops echoing),
  ``set_echo(True)`` WONT ECHO.
* **NAWS**: ``width`` follows the client's columns, live on resize; 80 when unknown.
* **TTYPE / MTTS**: ``term_color`` only for terminals that do ANSI colour.
* **CHARSET** (RFC 2066): UTF-8, WINDOWS-1251, KOI8-R and KOI8-U offered. A client that accepts one
  skips the encoding menu; everybody else is asked (``Session.ask_encoding``).
  Input is decoded and output encoded with the session's encoding, errors replaced.
* **EOR / GA** after every prompt (EOR if agreed, else GA unless SGA was agreed). The prompt is
  sent again after output the player did not ask for (a say, a game event).
* **GMCP** (``Korchma.*``, see docs/gmcp.md), **MSSP** for MUD crawlers (also the plain-text
  ``MSSP-REQUEST``), **MCCP2** output compression. MCCP3 (compressed input) is not offered:
  unbounded decompression of client input would be a memory bomb.

Robustness: subnegotiations and unterminated lines are capped at ``limits.input_buffer``
bytes; a client that stops reading is dropped once its output backlog passes
:data:`MAX_BACKLOG`; a protocol error in one connection is logged at debug level and never
reaches the client or any other connection.

Cost: no per-session task while idle (a short-lived task runs only while typed lines are
being handled), no NEW-ENVIRON round trip, one shared sweeper for the login timeout.
"""
from __future__ import annotations

import asyncio
import codecs
import logging
import time
from collections import deque
from typing import TYPE_CHECKING, Any, NamedTuple

from telnetlib3 import stream_writer as _sw
from telnetlib3.telopt import CMD_EOR, ECHO, EOR, GA, GMCP, IAC, SGA, WILL, WONT

from world.i18n import strip_marks, t
from world.messages import Msg, msg

from .listener import GuardedSocket
from .proxy_gate import ProxyGate
from .session import Session
from .telnet_protocol import (MAX_BACKLOG, PAUSE_LINES, PAUSE_QUEUE, RESUME_LINES, KorchmaTelnetProtocol,
                              KorchmaWriter, NoReader, Wire, escape_iac, gmcp_frame, normalize_encoding,
                              term_has_color)

if TYPE_CHECKING:
    from .ports import AppServices

log = logging.getLogger("korchma.telnet")
LANGUAGE_NAMES = {"ru": "Russian", "en": "English", "uk": "Ukrainian"}
#: Seconds the prompt waits after unasked-for output, for the rest of the same burst.
REPROMPT_DELAY = 0.05


class _Reprompts:
    """The sessions owed a prompt after unasked-for output, prompted together
    :data:`REPROMPT_DELAY` after the first of a burst: one timer for the whole server, not one
    per listener per line (a `say` to 300 people would otherwise arm 300)."""

    def __init__(self) -> None:
        self.due: set[TelnetSession] = set()
        self.handle: asyncio.TimerHandle | None = None

    def add(self, session: "TelnetSession") -> None:
        self.due.add(session)
        if self.handle is None:
            self.handle = asyncio.get_running_loop().call_later(REPROMPT_DELAY, self.flush)

    def flush(self) -> None:
        self.handle = None
        due, self.due = self.due, set()
        for session in due:
            session._prompt_again()


REPROMPTS = _Reprompts()

#: What to send for characters an 8-bit encoding lacks (KOI8-R has no « », for instance).
FALLBACKS = {"«": '"', "»": '"', "„": '"', "“": '"', "”": '"', "‘": "'", "’": "'", "‚": "'",
             "—": "-", "–": "-", "‑": "-", "−": "-", "…": "...", "№": "N", "\u00a0": " ",
             "•": "*", "·": "*", "✓": "+", "✗": "x", "→": "->", "←": "<-", "♠": "S", "♥": "H",
             "♦": "D", "♣": "C", "€": "EUR", "ё": "е", "Ё": "Е", "і": "i", "І": "I", "ї": "i",
             "Ї": "I", "є": "е", "Є": "Е", "ґ": "г", "Ґ": "Г", "ў": "у", "Ў": "У"}


def _fallback(err: UnicodeError) -> tuple[str, int]:
    if not isinstance(err, UnicodeEncodeError):
        raise err
    return "".join(FALLBACKS.get(ch, "?") for ch in err.object[err.start:err.end]), err.end


codecs.register_error("korchma-fallback", _fallback)


class CommandLine(NamedTuple):
    """A line sent over GMCP (``Korchma.Game.Command``), queued among the typed ones."""

    line: str
    wait: int | None


class TelnetSession(Session):
    kind = "telnet"
    # Slots keep the instance dict to the base class's attributes (a small shared-key dict).
    __slots__ = ("protocol", "writer", "door", "_buf", "_cr", "_discard", "_lines", "_worker",
                 "_started", "_gone", "_echo_off", "_at_prompt", "_paused", "_reprompt")

    def __init__(self, app: "AppServices", protocol: KorchmaTelnetProtocol, address: str) -> None:
        super().__init__(app, address)
        self.protocol = protocol
        self.writer = protocol.writer
        self.door = protocol.door
        self._buf = b""  # bytes of the line being typed
        self._cr = False  # the last chunk ended in CR: a following LF/NUL belongs to it
        self._discard = False  # dropping an over-long line until its end
        self._lines: deque | None = None  # typed lines (and GMCP command lines) waiting their turn
        self._worker: asyncio.Task | None = None
        self._started = False  # negotiation over, greeting shown
        self._gone = False  # the connection ended (logged_out is under way or done)
        self._echo_off = False
        self._at_prompt = False  # the cursor sits after a prompt
        self._paused = False
        self._reprompt = False  # a prompt is due after unasked-for output (REPROMPTS has us)

    # -- output -------------------------------------------------------------------------

    def apply_account_settings(self, account: Any) -> None:
        super().apply_account_settings(account)
        self.protocol.maybe_compress()  # logged in now: everything from the welcome on is compressed

    def render(self, message: Msg) -> bytes:
        """Rendered, encoded and IAC-escaped once; the world hands the same bytes to every
        session with the same (language, width, colour, encoding)."""
        return Wire(escape_iac(super().render(message).encode(self.encoding, "korchma-fallback")))

    def write(self, rendered: Any) -> None:
        if self._gone or self.pager.hold(rendered):
            return
        if isinstance(rendered, Wire):
            data = bytes(rendered)
        elif isinstance(rendered, (bytes, bytearray)):
            data = escape_iac(bytes(rendered))
        else:  # doubles 0xFF (IAC): "я" in CP1251, "Ъ" in KOI8-R
            data = escape_iac(str(rendered).encode(self.encoding, "korchma-fallback"))
        if self._at_prompt:  # something arrived while the player sits at the prompt
            data = b"\r\n" + data
            self._at_prompt = False
        if self._worker is None:  # not an answer to a typed line: the prompt follows it again
            self._prompt_soon()
        w = self.writer
        w._write(data, escape_iac=False)
        transport = w.transport
        if transport is not None and transport.get_write_buffer_size() > MAX_BACKLOG:
            log.info("telnet %s stopped reading; dropped", self.address)
            self._drop()

    def send_prompt(self) -> None:
        if self._gone:
            return
        if self.account is not None:
            if self._at_prompt:
                return
            self._at_prompt = True
            prompt = b"> "
            if self.pager.open:  # a page waits: its own prompt, until Enter, q or a command
                prompt = escape_iac(self.pager.prompt().encode(self.encoding, "korchma-fallback")) + b" "
            # The prompt and its GA/EOR in one write: one send for each prompt, not two.
            self.writer._write(prompt + self._prompt_mark(), escape_iac=False)
            return
        self._mark_prompt()

    def _prompt_soon(self) -> None:
        """After output the player did not just ask for (a say, a game event): the prompt again,
        with its GA/EOR, so a MUD client shows ``>`` and the half-typed line goes on below it.
        Once per burst: a step's lines may come over several loop turns (the inbox is written
        between them), so the prompt waits :data:`REPROMPT_DELAY` for the rest."""
        if not self._reprompt and self.account is not None:
            self._reprompt = True
            REPROMPTS.add(self)

    def _prompt_again(self) -> None:
        self._reprompt = False
        # A typed line being handled prompts when it is done; an open dialogue (a hidden
        # password) asks with its own words.
        if self._worker is None and self.dialog is None:
            self.send_prompt()

    def _prompt_mark(self) -> bytes:
        """IAC EOR if the client asked for it, else IAC GA unless it suppressed go-ahead."""
        w = self.writer
        if w.local_option.enabled(EOR):
            return IAC + CMD_EOR
        if not w.local_option.enabled(SGA):
            return IAC + GA
        return b""

    def _mark_prompt(self) -> None:
        mark = self._prompt_mark()
        if mark:
            self.writer.send_iac(mark)

    def gmcp(self, package: str, data: Any) -> None:
        w = self.writer
        if self._gone or not w.local_option.enabled(GMCP):
            return
        frame = gmcp_frame(package, data)
        if frame:
            w.send_iac(frame)

    def set_echo(self, on: bool) -> None:
        if self._gone:
            return
        w = self.writer
        if on:
            if self._echo_off:
                self._echo_off = False
                w.pending_option[WILL + ECHO] = False
                w.iac(WONT, ECHO)
        elif not self._echo_off:
            self._echo_off = True
            w.iac(WILL, ECHO)

    async def close(self, message: Msg | None = None) -> None:
        self.last_words(message, self._gone)
        self._drop()

    def _drop(self) -> None:
        """Close the connection (pending output is flushed first by the transport)."""
        self.closed = True
        if self._gone:
            return
        transport = self.writer.transport
        self._gone_now()
        if transport is not None:
            transport.close()

    # -- settings -----------------------------------------------------------------------

    def set_encoding(self, encoding: str) -> None:
        codec = normalize_encoding(encoding)
        if codec is not None:
            self.encoding = codec

    def set_width(self, cols: int) -> None:
        self.width = 80 if cols <= 0 else max(20, min(int(cols), 500))

    def charset_accepted(self, name: str) -> None:
        codec = normalize_encoding(name)
        if codec is None:
            return
        self.set_encoding(codec)
        self.encoding_known = True
        if self._started and self.login_state == "encoding":  # CHARSET came after the menu
            self.login_state = "name"
            self.write("\r\n")
            self.greet()
            self.send_prompt()

    def on_gmcp(self, package: str, data: Any) -> None:
        """GMCP from the client: Core.Hello, Core.Supports.*, Core.Ping, Korchma.Game.Command (a
        line to run, answering the wait it names); the rest is ignored."""
        name = package.lower()
        if name == "core.ping":
            self.gmcp("Core.Ping", None)
        elif name in ("core.supports.set", "core.supports.add", "core.supports.remove") and isinstance(data, list):
            # Which packages the client handles ("Korchma 1"): one that reads Korchma's is a
            # script, told each question with its id (commands/table.py reads_korchma_gmcp).
            named = {str(item).split()[0].lower() for item in data if str(item).strip()}
            supports = set() if name == "core.supports.set" else set(self.context.get("gmcp_supports") or ())
            self.context["gmcp_supports"] = supports - named if name == "core.supports.remove" else supports | named
        elif name == "korchma.game.command":
            from commands.table import gmcp_command

            gmcp_command(self, data)
        elif name == "core.hello" and isinstance(data, dict):
            client = str(data.get("client", ""))
            if client and term_has_color([client]) and self.color_override is None:
                self.term_color = True

    # -- lifecycle ----------------------------------------------------------------------

    def start(self) -> None:
        """Negotiation is over (or timed out): ask the encoding or greet, then read lines."""
        if self._gone or self._started:
            return
        self._started = True
        if self.encoding_known:
            self.greet()
        else:
            self.ask_encoding()
        self.send_prompt()
        if self._lines:
            self._spawn()

    def _gone_now(self) -> None:
        """The connection is over: forget it, and log out once handling of lines stops."""
        if self._gone:
            return
        self._gone = True
        self.closed = True
        self.door.sessions.discard(self)
        self._lines = None
        asyncio.get_running_loop().create_task(self._logout())

    async def _logout(self) -> None:
        worker = self._worker
        if worker is not None and worker is not asyncio.current_task():
            try:
                await asyncio.shield(worker)
            except BaseException:
                pass
        try:
            await self.app.logged_out(self)
        except Exception:
            log.exception("logging out %s", self.address)

    # telnetlib3 reader interface: in-band bytes, EOF, errors -------------------------------

    def exception(self) -> None:
        return None

    def feed_eof(self) -> None:
        self._gone_now()

    def set_exception(self, exc: BaseException) -> None:
        self._gone_now()

    def feed_data(self, data: bytes) -> None:
        """Bytes typed by the client (telnet commands already removed): cut into lines."""
        if self._gone or not data:
            return
        if self._cr:
            self._cr = False
            if data[0] in (10, 0):  # CR LF or CR NUL: the CR ended the line already
                data = data[1:]
                if not data:
                    return
        if 13 in data:
            self._cr = data[-1] == 13
            data = data.replace(b"\r\n", b"\n").replace(b"\r\x00", b"\n").replace(b"\r", b"\n")
        if 10 not in data:
            if self._discard:
                return
            self._buf += data
            if len(self._buf) > self.door.input_buffer:
                self._buf = b""
                self._discard = True
                self.send("input.buffer_cut")
            return
        parts = data.split(b"\n")
        rest = parts.pop()
        first = True
        for part in parts:
            if first:
                first = False
                if self._discard:
                    self._discard = False
                    continue
                part = self._buf + part
                self._buf = b""
            if len(part) > self.door.input_buffer:
                self.send("input.buffer_cut")
                continue
            self._line(part)
        self._buf = rest
        if len(rest) > self.door.input_buffer:
            self._buf = b""
            self._discard = True
            self.send("input.buffer_cut")

    def _line(self, raw: bytes) -> None:
        text = raw.decode(self.encoding, "replace")
        if "\x08" in text or "\x7f" in text:  # a raw client sent its backspaces
            out: list[str] = []
            for ch in text:
                if ch in "\x08\x7f":
                    if out:
                        out.pop()
                else:
                    out.append(ch)
            text = "".join(out)
        self._at_prompt = False
        if self.account is None and text.strip() == "MSSP-REQUEST":
            self.write(self.door.mssp_text())
            return
        self._queue(text)

    def queue_command(self, line: str, wait: int | None) -> None:
        """A GMCP ``Korchma.Game.Command`` line, after the lines typed before it: the same queue,
        order and back-pressure (Session.handle_command runs it)."""
        if not self._gone:
            self._queue(CommandLine(line, wait))

    def _queue(self, item: "str | CommandLine") -> None:
        if self._lines is None:
            self._lines = deque()
        self._lines.append(item)
        if len(self._lines) >= PAUSE_LINES and not self._paused:
            self._paused = True
            self.protocol.pause(PAUSE_QUEUE)
        if self._started and self._worker is None:
            self._spawn()

    def _spawn(self) -> None:
        self._worker = asyncio.get_running_loop().create_task(self._work())

    async def _work(self) -> None:
        try:
            while self._lines and not self._gone:
                item = self._lines.popleft()
                if self._paused and len(self._lines) <= RESUME_LINES:
                    self._paused = False
                    self.protocol.resume(PAUSE_QUEUE)
                try:
                    if isinstance(item, CommandLine):
                        await self.handle_command(item.line, item.wait)
                    else:
                        await self.handle_line(item)
                except Exception:
                    self.log_failure(log, "telnet line from %s", self.address)
        finally:
            self._worker = None
            if not self._lines:
                self._lines = None


class TelnetDoor:
    """The listening socket, its live sessions and the login-timeout sweeper."""

    def __init__(self, app: "AppServices") -> None:
        self.app = app
        cfg = app.config
        self.input_buffer = max(256, int(cfg.section("limits").get("input_buffer", 8192)))
        self.login_timeout = float(cfg.section("accounts").get("login_timeout", 60))
        self.negotiation_wait = float(cfg.server.get("negotiation_wait", 1.0))
        self.proxy_gate = ProxyGate.from_config(cfg)
        self.sessions: set[TelnetSession] = set()
        self.server: asyncio.AbstractServer | None = None
        self.servers: list[asyncio.AbstractServer] = []
        self._too_many: bytes | None = None
        self.port = 0
        self.sweeper: asyncio.Task | None = None

    def new_session(self, protocol: KorchmaTelnetProtocol, address: str) -> "TelnetSession":
        """The session of a connection the protocol has admitted."""
        return TelnetSession(self.app, protocol, address)

    def protocol_factory(self) -> KorchmaTelnetProtocol:
        return KorchmaTelnetProtocol(
            self, encoding=False, force_binary=True, line_mode=True, never_send_ga=False,
            connect_maxwait=self.negotiation_wait, compression=True, timeout=0,
            reader_factory=NoReader, writer_factory=KorchmaWriter)

    async def start(self, sockets: list[GuardedSocket]) -> None:
        """Serve on the bound listening sockets (server/listener.py)."""
        # telnetlib3 reads this cap for subnegotiations it parses byte by byte.
        _sw._MAX_SUBNEGOTIATION = self.input_buffer  # type: ignore[attr-defined]
        tl = logging.getLogger("telnetlib3")
        if tl.level == logging.NOTSET and not log.isEnabledFor(logging.DEBUG):
            tl.setLevel(logging.ERROR)  # junk from clients must not flood the log
        loop = asyncio.get_running_loop()
        full = self.line("connections.server_full")
        for sock in sockets:
            sock.refusal = full  # said to a connection shed for lack of file descriptors
            self.servers.append(await loop.create_server(self.protocol_factory, sock=sock))
        self.server = self.servers[0]
        self.port = sockets[0].getsockname()[1]
        if self.login_timeout > 0:
            self.sweeper = loop.create_task(self._sweep())

    def line(self, key: str, **params: Any) -> bytes:
        """One line in the server's language, for a connection refused before negotiation (so
        before its encoding is known: UTF-8, which nearly every client speaks today)."""
        text = strip_marks(t(str(self.app.config.server["default_language"]), key, **params))
        return escape_iac(" ".join(text.split()).encode("utf-8")) + b"\r\n"

    def too_many_line(self) -> bytes:
        if self._too_many is None:
            self._too_many = self.line("connections.too_many", limit=self.app.connections.per_address)
        return self._too_many

    async def _sweep(self) -> None:
        """Close connections that have not logged in within accounts.login_timeout."""
        tick = max(0.2, min(1.0, self.login_timeout / 4))
        while True:
            await asyncio.sleep(tick)
            limit = time.monotonic() - self.login_timeout
            late = [s for s in self.sessions if s.account is None and s.connected_at < limit]
            for session in late:
                try:
                    await session.close(msg("login.timeout"))
                except Exception:
                    log.exception("closing %s after the login timeout", session.address)

    def stop_listening(self) -> None:
        for server in self.servers:
            server.close()  # (the connections it accepted stay open)

    def close(self) -> None:
        if self.sweeper is not None:
            self.sweeper.cancel()
            self.sweeper = None
        for server in self.servers:
            server.close()
        for session in list(self.sessions):
            session._drop()

    # -- MSSP -----------------------------------------------------------------------------

    def mssp_variables(self) -> dict[str, Any]:
        app = self.app
        server = app.config.server
        return {
            "NAME": str(server.get("name", "Korchma")),
            "PLAYERS": str(len(app.world.accounts)),
            "UPTIME": str(int(app.world.started)),
            "CODEBASE": "Korchma",
            "LANGUAGE": LANGUAGE_NAMES.get(str(server.get("default_language", "ru")), "Russian"),
            "CHARSET": "UTF-8, CP1251, KOI8-R, KOI8-U",
            "PORT": str(self.port),
            "FAMILY": "Custom",
            "GENRE": "None",
            "GAMEPLAY": ["Social", "Player versus Player"],
            "STATUS": "Alpha",
            "CRAWL DELAY": "-1",
            "ANSI": "1",
            "UTF-8": "1",
            "GMCP": "1",
            "MCCP": "1",
            "MSDP": "0",
            "MSP": "0",
            "MXP": "0",
            "PUEBLO": "0",
            "VT100": "0",
            "XTERM 256 COLORS": "0",
            "SSL": "0",
        }

    def mssp_text(self) -> str:
        """The plain-text MSSP reply for crawlers that type MSSP-REQUEST."""
        lines = ["", "MSSP-REPLY-START"]
        for key, value in self.mssp_variables().items():
            values = value if isinstance(value, list) else [value]
            lines.append("\t".join([key, *values]))
        lines.append("MSSP-REPLY-END")
        return "\r\n".join(lines) + "\r\n"


async def start_telnet(app: "AppServices", sockets: list[GuardedSocket]) -> tuple[TelnetDoor, int]:
    door = TelnetDoor(app)
    await door.start(sockets)
    return door, door.port
