"""``[server] proxy_protocol``: the telnet door behind a TCP proxy (HAProxy ``send-proxy``).

With the option on, every telnet connection must come from an address in ``proxy_trusted`` and
start with a PROXY header (server/proxy_protocol.py); the address the header names is then the
connection's address for everything that counts addresses (bans, connection limits, login
throttles, new-account limits, ``who``, the log). A connection from any other address, or one
whose first bytes are not a header we accept, or that sends none within :data:`HEADER_WAIT`
seconds, is closed with one log line and never served: nobody can claim an address by sending a
header of their own. With the option off nothing is read before telnet negotiation, and a
header a client sends is just typed text.

:class:`HeaderReader` is one connection's bytes until the header is complete.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from world.addresses import AddressSet, normalize_address

from .proxy_protocol import MAX_HEADER, ProxyHeader, ProxyHeaderError, parse

if TYPE_CHECKING:
    from .config import Config

#: Seconds a trusted proxy has to send the header (HAProxy sends it with the connection).
HEADER_WAIT = 5.0


class ProxyGate:
    """Whether the door expects PROXY headers, and from which addresses."""

    __slots__ = ("enabled", "trusted", "wait")

    def __init__(self, enabled: bool = False, trusted: AddressSet | None = None, wait: float = HEADER_WAIT) -> None:
        self.enabled = enabled
        self.trusted = trusted if trusted is not None else AddressSet()
        self.wait = wait

    @classmethod
    def from_config(cls, cfg: "Config") -> "ProxyGate":
        server = cfg.server
        return cls(bool(server.get("proxy_protocol", False)), AddressSet(server.get("proxy_trusted", ())))

    def trusts(self, address: str) -> bool:
        return address in self.trusted


class HeaderReader:
    """The bytes of one connection from a trusted proxy until its PROXY header is complete."""

    __slots__ = ("peer", "buffer")

    def __init__(self, peer: str) -> None:
        self.peer = peer  # the proxy's own address
        self.buffer = b""

    def feed(self, data: bytes) -> tuple[ProxyHeader, str, bytes] | None:
        """None while the header is incomplete; then the header, the client's address (the
        proxy's own when the header names none: LOCAL, UNKNOWN) and the bytes after it.
        ProxyHeaderError when the bytes are not a header we accept."""
        self.buffer += data
        header = parse(self.buffer[:MAX_HEADER])
        if header is None:
            if len(self.buffer) >= MAX_HEADER:  # parse() always answers by then; a guard all the same
                raise ProxyHeaderError("PROXY header too long")
            return None
        rest = self.buffer[header.length:]
        self.buffer = b""
        return header, normalize_address(header.source or self.peer), rest
