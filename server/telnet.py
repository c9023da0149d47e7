"""The telnet front door: telnetlib3 for option negotiation, our own line handling.

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
* **EOR / GA** after every prompt (EOR if agreed, else GA unless SGA was agreed).
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
import json
import logging
import re
import time
import zlib
from collections import deque
from typing import TYPE_CHECKING, Any

from telnetlib3 import slc as _slc
from telnetlib3 import stream_writer as _sw
from telnetlib3._session_context import TelnetSessionContext
from telnetlib3.mud import mssp_encode
from telnetlib3.server import TelnetServer
from telnetlib3.stream_writer import TelnetWriter
from telnetlib3.telopt import (BINARY, CHARSET, CMD_EOR, DO, ECHO, EOR, GA, GMCP, IAC, LINEMODE,
                               MCCP2_COMPRESS, MSSP, NAWS, SB, SE, SGA, TTYPE, WILL, WONT)

from world.i18n import strip_marks, t
from world.messages import Msg, msg

from .connections import Ticket, normalize_address
from .listener import GuardedSocket
from .session import Session

if TYPE_CHECKING:
    from .app import App

log = logging.getLogger("korchma.telnet")

#: Encodings offered by CHARSET, in order of preference (IANA names).
CHARSET_OFFER = ["UTF-8", "WINDOWS-1251", "CP1251", "KOI8-R", "KOI8-U"]
#: Python codec name -> accepted; anything else a client "accepts" is ignored.
ALLOWED_ENCODINGS = {"utf-8", "cp1251", "koi8-r", "koi8-u"}
#: A client that reads nothing while we keep writing is dropped past this many queued bytes.
MAX_BACKLOG = 512 * 1024
#: Pending typed lines before we stop reading the socket (TCP back-pressure) / start again.
PAUSE_LINES, RESUME_LINES = 32, 8
#: Input budget per connection: bytes per second, and the burst allowed on top. Far above
#: any typist or paste; a flood is slowed by TCP back-pressure instead of eating the CPU.
INPUT_RATE, INPUT_BURST = 256 * 1024, 1024 * 1024
PAUSE_RATE, PAUSE_QUEUE = 1, 2  # why reading is paused (bits)
#: Subnegotiations we act on; every other SB is dropped silently.
SB_HANDLED = frozenset({NAWS, TTYPE, CHARSET, GMCP})
#: Terminal-type prefixes that speak ANSI colour (compared lower-case).
COLOR_PREFIXES = ("xterm", "screen", "tmux", "rxvt", "ansi", "linux", "putty", "konsole", "gnome",
                  "eterm", "cygwin", "alacritty", "kitty", "foot", "wezterm", "st-", "iterm",
                  "vscode", "mintty", "contour", "ghostty", "mudlet", "tintin", "tt++",
                  "mushclient", "cmud", "zmud", "mudrammer", "blowtorch", "atlantis", "potato",
                  "kbtin", "beip", "axmud", "mudmaster", "kildclient", "savitar", "portal",
                  "nexus", "mudportal", "fado", "proxiani", "gmud", "lyntin", "powwow")
NO_COLOR_TERMS = {"", "dumb", "unknown", "network", "vt52", "vt100", "vt101", "vt102", "vt220",
                  "vt320", "vt420", "dec-vt100", "dec-vt220"}
LANGUAGE_NAMES = {"ru": "Russian", "en": "English", "uk": "Ukrainian"}
_ONE_BYTE = [bytes([i]) for i in range(256)]
_FF_RUN = re.compile(b"\xff+")

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


def normalize_encoding(name: str) -> str | None:
    """A CHARSET/encoding name as our codec name, or None if we do not speak it."""
    try:
        codec = codecs.lookup(name.strip()).name
    except (LookupError, ValueError):
        return None
    return codec if codec in ALLOWED_ENCODINGS else None


def term_has_color(names: list[str]) -> bool:
    """Whether the TTYPE answers (in the order received) describe an ANSI-colour terminal.

    An MTTS bit field ("MTTS 137") decides when present (bit 1 = ANSI); otherwise any
    answer naming a colour terminal or a MUD client counts."""
    named = False
    for raw in names:
        name = (raw or "").strip().lower()
        if name.startswith("mtts "):
            bits = name[5:].strip()
            if bits.isdigit():
                return bool(int(bits) & 1)
            continue
        if name in NO_COLOR_TERMS:
            continue
        if "color" in name or "colour" in name or name == "st" or name.startswith(COLOR_PREFIXES):
            named = True
    return named


class _Ignored(frozenset):
    """An always-empty set whose ``add`` does nothing (telnetlib3's diagnostic sets)."""

    def add(self, item: Any) -> None:
        pass


_NO_OPTIONS: frozenset = frozenset()
_NEVER_LINEMODE = frozenset({LINEMODE})
_IGNORED = _Ignored()
# Shared, never used: LINEMODE is refused and its subnegotiations dropped, so the SLC tables,
# the SLC buffer and callbacks, and the client-side MUD context stay untouched.
_SHARED_SLCTAB = _slc.generate_slctab(_slc.BSD_SLC_TAB)
_SHARED_SLC_BUFFER: deque = deque()
_SHARED_SLC_CALLBACKS: dict = {}
_SHARED_CTX = TelnetSessionContext()
_SHARED_DRAIN: deque = deque()


class KorchmaWriter(TelnetWriter):
    """telnetlib3's IAC interpreter, hardened: unknown subnegotiations and bad JSON are
    dropped, LINEMODE and MCCP3 are refused, MSSP is answered the moment the client says
    DO MSSP. Per-connection state that line mode never uses is shared (about 5 KiB less
    per connection)."""

    slc_simulated = False  # line mode: control characters are data, not SLC functions

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.slctab = _SHARED_SLCTAB
        self._slc_buffer = _SHARED_SLC_BUFFER
        self._slc_callback = _SHARED_SLC_CALLBACKS
        self.ctx = _SHARED_CTX
        self.always_will = self.always_do = self.always_wont = self.passive_do = _NO_OPTIONS
        self.always_dont = _NEVER_LINEMODE
        self.rejected_will = self.rejected_do = self.directional_refusals = _IGNORED

    def handle_do(self, opt: bytes) -> bool:
        first = opt == MSSP and not self.local_option.enabled(MSSP)
        ok = super().handle_do(opt)
        if ok and first and self._protocol is not None:
            self._protocol.send_mssp()
        return ok

    def handle_subnegotiation(self, buf: deque) -> None:
        if not buf or buf[0] not in SB_HANDLED or len(buf) < 2:
            return
        super().handle_subnegotiation(buf)

    def handle_send_client_charset(self, offers: list[str]) -> str | None:  # type: ignore[override]
        """The client sent its own CHARSET REQUEST: take the first offer we speak (or reject)."""
        for offer in offers:
            if normalize_encoding(offer):
                protocol = self._protocol
                if protocol is not None and protocol.session is not None:
                    protocol.session.charset_accepted(offer)
                return offer
        return None

    def _handle_sb_gmcp(self, buf: deque) -> None:
        try:
            super()._handle_sb_gmcp(buf)
        except ValueError:
            log.debug("bad GMCP from client ignored")

    def handle_gmcp(self, package: str, data: Any) -> None:
        protocol = self._protocol
        if protocol is not None and protocol.session is not None:
            protocol.session.on_gmcp(package, data)

    def _handle_sb_mccp3(self, buf: deque) -> None:  # never decompress client input
        return


class _NoReader:
    """Placeholder for telnetlib3's reader until the session takes its place."""

    __slots__ = ()

    def __init__(self, **_: Any) -> None:
        pass

    def exception(self) -> None:
        return None

    def feed_data(self, data: bytes) -> None:
        pass

    def feed_eof(self) -> None:
        pass

    def set_exception(self, exc: BaseException) -> None:
        pass


_last_gmcp: list[Any] = [None, None, b""]  # (data, package, frame) of the last frame built


def _gmcp_frame(package: str, data: Any) -> bytes:
    """IAC SB GMCP "Package json" IAC SE. A broadcast hands the same object to every session in a
    row, so the last frame is kept (with a reference to its data, so the object cannot change
    identity) and a room of N players costs one json.dumps, not N."""
    if _last_gmcp[0] is data and _last_gmcp[1] == package and data is not None:
        return _last_gmcp[2]
    try:
        body = package.encode("utf-8")
        if data is not None:
            body += b" " + json.dumps(data, ensure_ascii=False, separators=(",", ":"),
                                      default=str).encode("utf-8")
    except (TypeError, ValueError):
        log.exception("GMCP %s not serializable", package)
        return b""
    frame = IAC + SB + GMCP + body.replace(IAC, IAC + IAC) + IAC + SE
    _last_gmcp[:] = [data, package, frame]
    return frame


class _Wire(bytes):
    """Bytes ready for the wire: encoded, with 0xFF already doubled."""


def _escape_iac(data: bytes) -> bytes:
    return data.replace(b"\xff", b"\xff\xff") if b"\xff" in data else data


class KorchmaTelnetProtocol(TelnetServer):
    """One connection: telnetlib3's negotiation, with the session as the data sink."""

    def __init__(self, door: "TelnetDoor", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.door = door
        self.session: TelnetSession | None = None
        self._drain_waiters = _SHARED_DRAIN  # nobody awaits drain(): we never block on writes
        self.ticket: Ticket | None = None

    # -- connection --------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername") or ("?", 0)
        address = normalize_address(str(peer[0]))
        self.ticket = self.door.app.connections.admit(address)
        if self.ticket is None:  # over limits.connections_per_address: one line, no negotiation
            self._closing = True
            transport.write(self.door.too_many_line())
            transport.close()
            return
        super().connection_made(transport)
        session = TelnetSession(self.door.app, self, address)
        self.session = session
        self.reader = session  # type: ignore[assignment]  # in-band bytes and EOF go to the session
        self.writer._reader = session  # type: ignore[assignment]
        self.door.sessions.add(session)
        self.door.app.world.connected(session)

    def begin_negotiation(self) -> None:
        """Offer everything in the first packet: one round trip, and MSSP crawlers that never
        answer TTYPE still see WILL MSSP."""
        super().begin_negotiation()  # DO TTYPE
        w = self.writer
        w.iac(DO, NAWS)
        # DO BINARY only: Debian's telnet then sends 8-bit input unstripped. WILL BINARY would
        # also turn off its terminal's output processing (OPOST), so its local echo of Enter
        # would stop returning the carriage and replies would start mid-line.
        w.iac(DO, BINARY)
        w.iac(DO, CHARSET)
        w.iac(WILL, EOR)
        w.iac(WILL, GMCP)
        w.iac(WILL, MSSP)
        if self._mccp2_enabled:
            w.iac(WILL, MCCP2_COMPRESS)

    def begin_advanced_negotiation(self) -> None:
        """Everything was offered already in :meth:`begin_negotiation`."""

    def maybe_compress(self) -> None:
        """Start MCCP2 if the client agreed, but only once the player is logged in: a crawler or
        an idle login prompt costs no zlib state. Called on input and at login."""
        w = self.writer
        if (self._mccp2_enabled and not self._mccp2_pending and self._mccp2_compressor is None
                and w is not None and w.local_option.enabled(MCCP2_COMPRESS) and not self._closing
                and self.session is not None and self.session.account is not None):
            self._mccp2_start()

    def _mccp2_start(self) -> None:
        """telnetlib3 compresses at level 9 with a 4 KiB window (~30 KiB a connection). Chat lines
        are short and flushed one by one, so a 512-byte window at level 1 loses little and costs
        ~9 KiB and a third less CPU (bench/run_all.py --mccp). The compressor is swapped before
        its first byte, so the stream stays one valid zlib stream."""
        super()._mccp2_start()
        self._mccp2_compressor = zlib.compressobj(1, zlib.DEFLATED, 9, 1, zlib.Z_DEFAULT_STRATEGY)

    def _negotiate_environ(self) -> None:
        self._environ_requested = True  # no NEW-ENVIRON: nothing we need, one round trip less

    def begin_shell(self, future: asyncio.Future) -> None:
        if future.cancelled() or future.exception() is not None or self.session is None:
            return
        # Negotiation is over: drop the finished futures and timer handles it kept.
        self._tasks.clear()
        self._check_later = None
        self.session.start()

    def data_received(self, data: bytes) -> None:
        """telnetlib3's chunk loop, with bulk paths for in-band runs, subnegotiation payloads
        and runs of escaped 0xFF, so junk costs C-speed work, not a Python call per byte;
        and a byte budget per connection (:data:`INPUT_RATE`), so one client cannot keep the
        process busy for everybody else."""
        session = self.session
        w = self.writer
        if session is None or w is None or self._closing:
            return
        n = len(data)
        self._rx_bytes += n
        self._budget(n)
        i = 0
        cmd_seen = False
        try:
            while i < n:
                in_sb = w.cmd_received == SB and not w.iac_received
                if in_sb or (not w.iac_received and not w.cmd_received):
                    j = data.find(255, i)
                    end = n if j < 0 else j
                    if end > i:
                        if in_sb:
                            self._sb_bulk(data, i, end)
                        else:
                            session.feed_data(data if (i == 0 and end == n) else data[i:end])
                    if j < 0:
                        break
                    i = j
                    pairs = (_FF_RUN.match(data, j).end() - j) // 2  # type: ignore[union-attr]
                    if pairs:  # IAC IAC ...: escaped 0xFF data bytes
                        if in_sb:
                            self._sb_bulk(b"\xff" * pairs, 0, pairs)
                        else:
                            session.feed_data(b"\xff" * pairs)
                        i = j + 2 * pairs
                        continue
                try:  # one byte through telnetlib3's state machine
                    inband = w.feed_byte(_ONE_BYTE[data[i]])
                except Exception as exc:  # a malformed sequence: log, carry on
                    log.debug("telnet protocol error from %s: %r", session.address, exc)
                    w.iac_received = False
                    inband = False
                if inband:
                    session.feed_data(_ONE_BYTE[data[i]])
                else:
                    cmd_seen = True
                i += 1
        except Exception:
            log.exception("telnet input from %s", session.address)
        self.maybe_compress()
        if cmd_seen and not self._waiter_connected.done():
            self._check_negotiation_timer()

    # -- input budget and back-pressure -------------------------------------------------------

    _tokens = float(INPUT_BURST)
    _stamp = 0.0
    _pause_bits = 0  # PAUSE_RATE | PAUSE_QUEUE: why reading is paused

    def _budget(self, n: int) -> None:
        now = time.monotonic()
        tokens = min(float(INPUT_BURST), self._tokens + (now - self._stamp) * INPUT_RATE) - n
        self._tokens, self._stamp = tokens, now
        if tokens < 0 and not self._pause_bits & PAUSE_RATE:
            self.pause(PAUSE_RATE)
            asyncio.get_running_loop().call_later(-tokens / INPUT_RATE, self.resume, PAUSE_RATE)

    def pause(self, reason: int) -> None:
        if not self._pause_bits and self._transport is not None and not self._closing:
            self._transport.pause_reading()
        self._pause_bits |= reason

    def resume(self, reason: int) -> None:
        if not self._pause_bits & reason:
            return
        self._pause_bits &= ~reason
        if not self._pause_bits and self._transport is not None and not self._closing:
            self._transport.resume_reading()

    def _sb_bulk(self, data: bytes, start: int, end: int) -> None:
        """Append data[start:end] to the subnegotiation buffer, or drop it past the cap."""
        w = self.writer
        if start >= end or w._sb_overflow:
            return
        buf = w._sb_buffer
        if end - start > self.door.input_buffer - len(buf):
            buf.clear()
            w._sb_overflow = True
            log.debug("subnegotiation from %s over %d bytes dropped", self.session and self.session.address,
                      self.door.input_buffer)
            return
        buf.extend(map(_ONE_BYTE.__getitem__, data[start:end]))

    def connection_lost(self, exc: Exception | None) -> None:
        if self.ticket is None:
            return  # refused in connection_made: telnetlib3 never started
        self.ticket.release()
        if self._mccp2_compressor is not None:
            self._mccp2_compressor = None
        super().connection_lost(exc)

    # -- negotiated facts -------------------------------------------------------------

    def on_naws(self, rows: int, cols: int) -> None:
        super().on_naws(rows, cols)
        if self.session is not None:
            self.session.set_width(cols)

    def on_ttype(self, ttype: str) -> None:
        super().on_ttype(ttype)
        if self.session is not None:
            names = [v for k, v in self._extra.items() if k.startswith("ttype") and isinstance(v, str)]
            self.session.term_color = term_has_color(names)

    def on_request_charset(self) -> list[str]:
        return list(CHARSET_OFFER)

    def on_charset(self, charset: str) -> None:
        super().on_charset(charset)
        if self.session is not None:
            self.session.charset_accepted(charset)

    def on_timeout(self) -> None:  # telnetlib3's idle timer is off (timeout=0); login timeout is ours
        pass

    # -- MSSP ---------------------------------------------------------------------------

    def send_mssp(self) -> None:
        payload = mssp_encode(self.door.mssp_variables()).replace(IAC, IAC + IAC)
        self.writer.send_iac(IAC + SB + MSSP + payload + IAC + SE)


class TelnetSession(Session):
    kind = "telnet"
    # Slots keep the instance dict to the base class's attributes (a small shared-key dict).
    __slots__ = ("protocol", "writer", "door", "_buf", "_cr", "_discard", "_lines", "_worker",
                 "_started", "_gone", "_echo_off", "_at_prompt", "_paused")

    def __init__(self, app: "App", protocol: KorchmaTelnetProtocol, address: str) -> None:
        super().__init__(app, address)
        self.protocol = protocol
        self.writer = protocol.writer
        self.door = protocol.door
        self._buf = b""  # bytes of the line being typed
        self._cr = False  # the last chunk ended in CR: a following LF/NUL belongs to it
        self._discard = False  # dropping an over-long line until its end
        self._lines: deque | None = None  # typed lines waiting for handle_line
        self._worker: asyncio.Task | None = None
        self._started = False  # negotiation over, greeting shown
        self._gone = False  # the connection ended (logged_out is under way or done)
        self._echo_off = False
        self._at_prompt = False  # the cursor sits after a prompt
        self._paused = False

    # -- output -------------------------------------------------------------------------

    def apply_account_settings(self, account: Any) -> None:
        super().apply_account_settings(account)
        self.protocol.maybe_compress()  # logged in now: everything from the welcome on is compressed

    def render(self, message: Msg) -> bytes:
        """Rendered, encoded and IAC-escaped once; the world hands the same bytes to every
        session with the same (language, width, colour, encoding)."""
        return _Wire(_escape_iac(super().render(message).encode(self.encoding, "korchma-fallback")))

    def write(self, rendered: Any) -> None:
        if self._gone:
            return
        if isinstance(rendered, _Wire):
            data = bytes(rendered)
        elif isinstance(rendered, (bytes, bytearray)):
            data = _escape_iac(bytes(rendered))
        else:  # doubles 0xFF (IAC): "я" in CP1251, "Ъ" in KOI8-R
            data = _escape_iac(str(rendered).encode(self.encoding, "korchma-fallback"))
        if self._at_prompt:  # something arrived while the player sits at the prompt
            data = b"\r\n" + data
            self._at_prompt = False
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
            self.writer.write(b"> ")
            self._at_prompt = True
        self._mark_prompt()

    def _mark_prompt(self) -> None:
        w = self.writer
        if w.local_option.enabled(EOR):
            w.send_iac(IAC + CMD_EOR)
        elif not w.local_option.enabled(SGA):
            w.send_iac(IAC + GA)

    def gmcp(self, package: str, data: Any) -> None:
        w = self.writer
        if self._gone or not w.local_option.enabled(GMCP):
            return
        frame = _gmcp_frame(package, data)
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
        if message is not None and not self._gone:
            self.write(self.render(message))
        self.closed = True
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
        if self._lines is None:
            self._lines = deque()
        self._lines.append(text)
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
                line = self._lines.popleft()
                if self._paused and len(self._lines) <= RESUME_LINES:
                    self._paused = False
                    self.protocol.resume(PAUSE_QUEUE)
                try:
                    await self.handle_line(line)
                except Exception:
                    log.exception("telnet line from %s", self.address)
        finally:
            self._worker = None
            if not self._lines:
                self._lines = None


class TelnetDoor:
    """The listening socket, its live sessions and the login-timeout sweeper."""

    def __init__(self, app: "App") -> None:
        self.app = app
        cfg = app.config
        self.input_buffer = max(256, int(cfg.section("limits").get("input_buffer", 8192)))
        self.login_timeout = float(cfg.section("accounts").get("login_timeout", 60))
        self.negotiation_wait = float(cfg.server.get("negotiation_wait", 1.0))
        self.sessions: set[TelnetSession] = set()
        self.server: asyncio.AbstractServer | None = None
        self.servers: list[asyncio.AbstractServer] = []
        self._too_many: bytes | None = None
        self.port = 0
        self.sweeper: asyncio.Task | None = None

    def protocol_factory(self) -> KorchmaTelnetProtocol:
        return KorchmaTelnetProtocol(
            self, encoding=False, force_binary=True, line_mode=True, never_send_ga=False,
            connect_maxwait=self.negotiation_wait, compression=True, timeout=0,
            reader_factory=_NoReader, writer_factory=KorchmaWriter)

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
        return _escape_iac(" ".join(text.split()).encode("utf-8")) + b"\r\n"

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


async def start_telnet(app: "App", sockets: list[GuardedSocket]) -> tuple[TelnetDoor, int]:
    door = TelnetDoor(app)
    await door.start(sockets)
    return door, door.port
