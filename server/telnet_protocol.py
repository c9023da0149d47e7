"""Telnet option negotiation and the byte stream of one connection (telnetlib3, hardened).

:class:`KorchmaTelnetProtocol` is one connection: telnetlib3's negotiation (TTYPE/MTTS, NAWS,
CHARSET, BINARY, EOR/GA, GMCP, MSSP, MCCP2), with the session (server/telnet.py ``TelnetSession``,
made by the door) as the sink of in-band bytes. :class:`KorchmaWriter` is telnetlib3's IAC
interpreter with unknown subnegotiations, bad JSON, LINEMODE and MCCP3 refused. Input has a byte
budget and back-pressure; subnegotiations are capped at ``limits.input_buffer`` bytes; a protocol
error is logged at debug level and never reaches the client.
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
from telnetlib3._session_context import TelnetSessionContext
from telnetlib3.mud import mssp_encode
from telnetlib3.server import TelnetServer
from telnetlib3.stream_writer import TelnetWriter
from telnetlib3.telopt import (BINARY, CHARSET, DO, EOR, GMCP, IAC, LINEMODE, MCCP2_COMPRESS, MSSP,
                               NAWS, SB, SE, TTYPE, WILL)

from world.addresses import normalize_address

from .connections import Ticket
from .proxy_gate import HeaderReader
from .proxy_protocol import ProxyHeaderError

if TYPE_CHECKING:
    from .ports import TelnetDoorLike

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
_ONE_BYTE = [bytes([i]) for i in range(256)]
_FF_RUN = re.compile(b"\xff+")



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


class NoReader:
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


def gmcp_frame(package: str, data: Any) -> bytes:
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


class Wire(bytes):
    """Bytes ready for the wire: encoded, with 0xFF already doubled."""


def escape_iac(data: bytes) -> bytes:
    return data.replace(b"\xff", b"\xff\xff") if b"\xff" in data else data


class KorchmaTelnetProtocol(TelnetServer):
    """One connection: telnetlib3's negotiation, with the session as the data sink."""

    def __init__(self, door: "TelnetDoorLike", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.door = door
        self.session: Any = None  # the TelnetSession (server/telnet.py), made by the door
        self._drain_waiters = _SHARED_DRAIN  # nobody awaits drain(): we never block on writes
        self.ticket: Ticket | None = None

    # -- connection --------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername") or ("?", 0)
        address = normalize_address(str(peer[0]))
        gate = self.door.proxy_gate
        if gate.enabled:  # the real address comes first, in a PROXY header (server/proxy_gate.py)
            if not gate.trusts(address):
                log.warning("telnet connection from %s closed: proxy_protocol is on and %s is not in "
                            "server.proxy_trusted", address, address)
                transport.close()
                return
            self._early_transport = transport
            self._header = HeaderReader(address)
            self._header_timer = asyncio.get_running_loop().call_later(gate.wait, self._header_late)
            return
        self._admit(transport, address)

    def _admit(self, transport: asyncio.BaseTransport, address: str) -> None:
        """Count the connection against its address's limit, then start telnet."""
        self.ticket = self.door.app.connections.admit(address)
        if self.ticket is None:  # over limits.connections_per_address: one line, no negotiation
            self._closing = True
            transport.write(self.door.too_many_line())
            transport.close()
            return
        super().connection_made(transport)
        session = self.door.new_session(self, address)
        self.session = session
        self.reader = session  # type: ignore[assignment]  # in-band bytes and EOF go to the session
        self.writer._reader = session  # type: ignore[assignment]
        self.door.sessions.add(session)
        self.door.app.world.connected(session)

    # -- PROXY header (only with server.proxy_protocol on) --------------------------------

    _header: HeaderReader | None = None
    _header_timer: asyncio.TimerHandle | None = None
    _early_transport: asyncio.BaseTransport | None = None

    def _read_header(self, data: bytes) -> None:
        reader, transport = self._header, self._early_transport
        assert reader is not None and transport is not None
        try:
            done = reader.feed(data)
        except ProxyHeaderError as err:
            log.warning("telnet connection from proxy %s closed: %s", reader.peer, err)
            self._header_over()
            transport.close()
            return
        if done is None:
            return
        header, address, rest = done
        self._header_over()
        log.debug("telnet connection from %s through proxy %s (PROXY v%d %s %s)", address, reader.peer,
                  header.version, header.command, header.family)
        self._admit(transport, address)
        if rest and self.ticket is not None:
            self.data_received(rest)

    def _header_over(self) -> None:
        self._header = None
        self._early_transport = None
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _header_late(self) -> None:
        self._header_timer = None
        reader, transport = self._header, self._early_transport
        if reader is None or transport is None:
            return
        log.warning("telnet connection from proxy %s closed: no PROXY header within %.0f s",
                    reader.peer, self.door.proxy_gate.wait)
        self._header_over()
        transport.close()

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
        if self._header is not None:
            self._read_header(data)
            return
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
            if self._header is not None:
                log.debug("telnet connection from proxy %s closed before its PROXY header", self._header.peer)
                self._header_over()
            return  # refused before telnet started (limits, or a PROXY header not accepted)
        self.ticket.release()
        if self._mccp2_compressor is not None:
            self._mccp2_compressor = None
        super().connection_lost(exc)

    # -- negotiated facts -------------------------------------------------------------

    def on_naws(self, rows: int, cols: int) -> None:
        super().on_naws(rows, cols)
        if self.session is not None:
            self.session.set_width(cols)
            self.session.pager.rows = max(0, int(rows))

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
