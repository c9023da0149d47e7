"""A minimal raw-socket telnet client for load tests: one asyncio.Protocol per connection.

Negotiation: it refuses every option the server offers or asks for (DONT / WONT), except
NAWS, which it accepts and answers with 80x24, and, if asked to (``mccp=True``), MCCP2: output
compression, inflated here like a MUD client does. Other subnegotiations are skipped. What is left is
plain text, kept in a buffer that `expect` scans for byte patterns. After login the buffer is
switched off (`discard`), or a `sink` callback takes every chunk (the say test's listeners).
"""
from __future__ import annotations

import asyncio
import re
import zlib
from typing import Callable

IAC, DONT, DO, WONT, WILL, SB, SE = 255, 254, 253, 252, 251, 250, 240
NAWS = 31
MCCP2 = 86

_DATA, _IAC, _OPT, _SB, _SB_IAC = range(5)


class TelnetClient(asyncio.Protocol):
    def __init__(self, naws: bool = True, width: int = 80, height: int = 24, mccp: bool = False) -> None:
        self.loop = asyncio.get_running_loop()
        self.transport: asyncio.Transport | None = None
        self.naws = naws
        self.size = bytes([IAC, SB, NAWS, width >> 8, width & 255, height >> 8, height & 255, IAC, SE])
        self.buf = bytearray()
        self.state = _DATA
        self.verb = 0
        self.waiter: tuple[list[bytes], asyncio.Future] | None = None
        self.sink: Callable[[bytes], None] | None = None
        self.discard = False
        self.closed = self.loop.create_future()
        self.negotiations = 0  # how many option requests the server made
        self.mccp = mccp
        self.sb_opt = -1
        self.inflater = None  # zlib decompressor once the server starts MCCP2
        self.match: re.Match[bytes] | None = None  # what the last regex pattern of `expect` matched

    # -- asyncio.Protocol --------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(exc)
        if self.waiter and not self.waiter[1].done():
            self.waiter[1].set_exception(ConnectionError("connection closed"))

    def data_received(self, data: bytes) -> None:
        if self.inflater is not None:
            data = self.inflater.decompress(data)
        if self.state == _DATA and IAC not in data:
            text = data
        else:
            text = self._telnet(data)
        if not text:
            return
        if self.sink is not None:
            self.sink(text)
            return
        if self.discard:
            return
        self.buf += text
        if self.waiter:
            self._check()

    # -- telnet ------------------------------------------------------------------------------

    def _telnet(self, data: bytes) -> bytes:
        out = bytearray()
        reply = bytearray()
        for i, b in enumerate(data):
            st = self.state
            if st == _DATA:
                if b == IAC:
                    self.state = _IAC
                else:
                    out.append(b)
            elif st == _IAC:
                if b == IAC:
                    out.append(IAC)
                    self.state = _DATA
                elif b in (DO, DONT, WILL, WONT):
                    self.verb = b
                    self.state = _OPT
                elif b == SB:
                    self.state = _SB
                    self.sb_opt = -1
                else:  # GA, EOR, NOP, ...
                    self.state = _DATA
            elif st == _OPT:
                self.state = _DATA
                self.negotiations += 1
                if self.verb == DO:
                    if b == NAWS and self.naws:
                        reply += bytes([IAC, WILL, NAWS]) + self.size
                    else:
                        reply += bytes([IAC, WONT, b])
                elif self.verb == WILL:
                    if b == MCCP2 and self.mccp:
                        reply += bytes([IAC, DO, b])
                    else:
                        reply += bytes([IAC, DONT, b])
                elif self.verb == DONT and b == NAWS and self.naws:
                    self.naws = False
                    reply += bytes([IAC, WONT, NAWS])
                # WONT: nothing to answer, we never asked for anything
            elif st == _SB:
                if self.sb_opt < 0:
                    self.sb_opt = b
                if b == IAC:
                    self.state = _SB_IAC
            elif st == _SB_IAC:
                if b == SE:
                    self.state = _DATA
                    opt, self.sb_opt = self.sb_opt, -1
                    if opt == MCCP2 and self.mccp and self.inflater is None:
                        # everything after this SE is a zlib stream
                        self.inflater = zlib.decompressobj()
                        if reply and self.transport is not None:
                            self.transport.write(bytes(reply))
                        return bytes(out) + self._telnet(self.inflater.decompress(data[i + 1:]))
                else:
                    self.state = _SB
        if reply and self.transport is not None:
            self.transport.write(bytes(reply))
        return bytes(out)

    # -- use ---------------------------------------------------------------------------------

    def _check(self) -> None:
        assert self.waiter is not None
        patterns, fut = self.waiter
        best = None
        for i, pat in enumerate(patterns):
            if isinstance(pat, re.Pattern):
                m = pat.search(bytes(self.buf))  # a copy: the buffer is cut below
                pos, size = (m.start(), m.end() - m.start()) if m else (-1, 0)
            else:
                m, pos, size = None, self.buf.find(pat), len(pat)
            if pos >= 0 and (best is None or pos < best[1]):
                best = (i, pos, size)
                self.match = m
        if best is not None:
            i, pos, n = best
            del self.buf[:pos + n]
            self.waiter = None
            if not fut.done():
                fut.set_result(i)

    async def expect(self, *patterns: bytes | re.Pattern[bytes], timeout: float = 30.0) -> int:
        """Wait until one of the patterns (bytes, or compiled byte regexes: the match is then in
        ``self.match``) arrives; returns its index and drops text up to it."""
        if self.closed.done():
            raise ConnectionError("connection closed")
        fut = self.loop.create_future()
        self.waiter = (list(patterns), fut)
        self._check()
        try:
            return await asyncio.wait_for(fut, timeout)
        finally:
            self.waiter = None

    def send_line(self, line: str, encoding: str = "utf-8") -> None:
        assert self.transport is not None
        self.transport.write(line.encode(encoding) + b"\r\n")

    def tail(self, n: int = 300) -> str:
        return bytes(self.buf[-n:]).decode("utf-8", "replace")

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


async def connect(host: str, port: int, local_addr: str | None = None, **kw) -> TelnetClient:
    """``local_addr``: connect from this address (127.x.y.z on Linux: another visitor)."""
    loop = asyncio.get_running_loop()
    _, proto = await loop.create_connection(lambda: TelnetClient(**kw), host, port,
                                            local_addr=(local_addr, 0) if local_addr else None)
    return proto
