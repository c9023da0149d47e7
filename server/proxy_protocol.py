"""The PROXY protocol header (HAProxy's spec, versions 1 and 2): parsing only, no I/O.

A TCP proxy (HAProxy ``send-proxy`` / ``send-proxy-v2``) sends one header before the client's
first byte, naming the client's real address. :func:`parse` reads it from the start of what a
connection has sent so far:

* ``None``: not complete yet (and nothing wrong so far): wait for more bytes;
* a :class:`ProxyHeader`: its ``length`` bytes were the header, the rest is the client's;
* :class:`ProxyHeaderError`: not a PROXY header, malformed, or longer than we accept; the
  connection must be closed, never served under any address.

Version 1 is one text line of at most :data:`V1_MAX` bytes with its CRLF
(``PROXY TCP4 203.0.113.7 192.0.2.1 51234 4000\\r\\n``); version 2 is a 16-byte binary head
(12-byte signature, version/command, family/transport, body length) and a body of addresses and
optional TLVs, capped here at :data:`V2_MAX_BODY` bytes.

``source`` is None when the spec says the connection's own endpoints apply: a v2 LOCAL command
(the proxy's own health check), v1 ``UNKNOWN``, and v2 families we do not serve (UNSPEC, UNIX,
datagrams).

Why not the ``proxy-protocol`` package: the framing (where the header ends, how long it may
grow) is the part that protects the server, and the package leaves it to the caller; its v1
parser has no length cap and accepts ``int()`` spellings like ``+1``, and a short v2 address
block raises ``struct.error`` rather than its own error. What is left for it is a few struct
unpacks, so the dependency would not pay for itself.
"""
from __future__ import annotations

import ipaddress
import struct
from dataclasses import dataclass

V1_PREFIX = b"PROXY "
V2_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"
#: The longest v1 line, CRLF included (the spec: "PROXY UNKNOWN" with two IPv6 addresses and ports).
V1_MAX = 107
V2_HEAD = 16
#: The longest v2 body we accept: addresses (at most 216 bytes, UNIX) and room for the TLVs HAProxy
#: sends by default; a longer claim is refused before any of it is buffered.
V2_MAX_BODY = 1024
#: The most bytes :func:`parse` can need before it answers.
MAX_HEADER = V2_HEAD + V2_MAX_BODY

_V2_COMMANDS = {0x0: "local", 0x1: "proxy"}
_V2_INET, _V2_INET6, _V2_UNIX = 0x1, 0x2, 0x3
_V2_STREAM = 0x1
_V2_ADDRESS_LENGTH = {_V2_INET: 12, _V2_INET6: 36, _V2_UNIX: 216}


class ProxyHeaderError(ValueError):
    """The bytes are not a PROXY header we accept (the message says why, for the log)."""


@dataclass(frozen=True)
class ProxyHeader:
    version: int  # 1 or 2
    command: str  # "proxy", or "local" (v2: the proxy speaking for itself)
    family: str  # "TCP4", "TCP6" or "UNKNOWN"
    source: str | None  # the client's address; None: use the connection's own
    source_port: int | None
    destination: str | None
    destination_port: int | None
    length: int  # bytes of the header; what follows belongs to the client


def parse(data: bytes) -> ProxyHeader | None:
    """The header at the start of ``data``, None if it is not complete yet (module text)."""
    if data[:1] == V1_PREFIX[:1]:
        if not V1_PREFIX.startswith(data[:len(V1_PREFIX)]):
            raise ProxyHeaderError("not a PROXY header")
        return _parse_v1(data)
    if data[:1] == V2_SIGNATURE[:1]:
        if not V2_SIGNATURE.startswith(data[:len(V2_SIGNATURE)]):
            raise ProxyHeaderError("not a PROXY header")
        return _parse_v2(data)
    if not data:
        return None
    raise ProxyHeaderError("not a PROXY header")


def _parse_v1(data: bytes) -> ProxyHeader | None:
    end = data.find(b"\r\n", 0, V1_MAX)
    if end < 0:
        if len(data) >= V1_MAX or b"\n" in data[:V1_MAX]:
            raise ProxyHeaderError(f"PROXY v1 line without CRLF in its first {V1_MAX} bytes")
        return None
    line = data[len(V1_PREFIX):end]
    length = end + 2
    parts = line.split(b" ")
    if parts[0] == b"UNKNOWN":  # the spec: anything may follow; the connection's endpoints apply
        return ProxyHeader(1, "proxy", "UNKNOWN", None, None, None, None, length)
    if len(parts) != 5 or parts[0] not in (b"TCP4", b"TCP6"):
        raise ProxyHeaderError("PROXY v1 line is not TCP4/TCP6/UNKNOWN with two addresses and two ports")
    family = parts[0].decode("ascii")
    kind = ipaddress.IPv4Address if family == "TCP4" else ipaddress.IPv6Address
    try:
        source, destination = (str(kind(part.decode("ascii"))) for part in parts[1:3])
    except (ValueError, UnicodeDecodeError):
        raise ProxyHeaderError(f"PROXY v1 line has a bad {family} address") from None
    return ProxyHeader(1, "proxy", family, source, _v1_port(parts[3]), destination, _v1_port(parts[4]), length)


def _v1_port(text: bytes) -> int:
    if not (1 <= len(text) <= 5 and text.isdigit()) or int(text) > 65535 or (len(text) > 1 and text[:1] == b"0"):
        raise ProxyHeaderError("PROXY v1 line has a bad port")
    return int(text)


def _parse_v2(data: bytes) -> ProxyHeader | None:
    if len(data) < V2_HEAD:
        return None
    version_command, family_transport, body_length = struct.unpack_from("!BBH", data, 12)
    if version_command >> 4 != 2:
        raise ProxyHeaderError(f"PROXY v2 header has version {version_command >> 4}")
    command = _V2_COMMANDS.get(version_command & 0xF)
    if command is None:
        raise ProxyHeaderError(f"PROXY v2 header has an unknown command {version_command & 0xF}")
    family, transport = family_transport >> 4, family_transport & 0xF
    if family > _V2_UNIX or transport > 0x2:
        raise ProxyHeaderError(f"PROXY v2 header has an unknown family/transport 0x{family_transport:02x}")
    if body_length > V2_MAX_BODY:
        raise ProxyHeaderError(f"PROXY v2 header is too long ({body_length} bytes of addresses, at most {V2_MAX_BODY})")
    length = V2_HEAD + body_length
    if len(data) < length:
        return None
    if command == "local" or family not in (_V2_INET, _V2_INET6) or transport != _V2_STREAM:
        if command == "proxy" and body_length < _V2_ADDRESS_LENGTH.get(family, 0):
            raise ProxyHeaderError("PROXY v2 header is shorter than its addresses")
        return ProxyHeader(2, command, "UNKNOWN", None, None, None, None, length)
    if body_length < _V2_ADDRESS_LENGTH[family]:
        raise ProxyHeaderError("PROXY v2 header is shorter than its addresses")
    size = 4 if family == _V2_INET else 16
    body = data[V2_HEAD:length]
    kind = ipaddress.IPv4Address if family == _V2_INET else ipaddress.IPv6Address
    source, destination = str(kind(body[:size])), str(kind(body[size:2 * size]))
    source_port, destination_port = struct.unpack_from("!HH", body, 2 * size)
    return ProxyHeader(2, "proxy", "TCP4" if family == _V2_INET else "TCP6", source, source_port,
                       destination, destination_port, length)
