"""The PROXY protocol header parser (server/proxy_protocol.py) and its per-connection reader
(server/proxy_gate.py), on bytes as HAProxy sends them."""
from __future__ import annotations

import ipaddress
import struct

import pytest

from server.proxy_gate import HeaderReader
from server.proxy_protocol import (MAX_HEADER, V1_MAX, V2_MAX_BODY, V2_SIGNATURE, ProxyHeader,
                                   ProxyHeaderError, parse)


def v2(command: int = 0x1, family: int = 0x11, body: bytes = b"", length: int | None = None) -> bytes:
    """A v2 header: version 2 and ``command``, ``family`` (family << 4 | transport), ``body``."""
    return V2_SIGNATURE + struct.pack("!BBH", 0x20 | command, family, len(body) if length is None else length) + body


def v2_tcp4(src: str, dst: str, sport: int, dport: int, tlvs: bytes = b"") -> bytes:
    body = ipaddress.IPv4Address(src).packed + ipaddress.IPv4Address(dst).packed + struct.pack("!HH", sport, dport)
    return v2(0x1, 0x11, body + tlvs)


def v2_tcp6(src: str, dst: str, sport: int, dport: int) -> bytes:
    body = ipaddress.IPv6Address(src).packed + ipaddress.IPv6Address(dst).packed + struct.pack("!HH", sport, dport)
    return v2(0x1, 0x21, body)


def test_v1_tcp4_tcp6_unknown():
    line = b"PROXY TCP4 203.0.113.7 192.0.2.1 51234 4000\r\n"
    assert parse(line + b"\xff\xfd\x18") == ProxyHeader(1, "proxy", "TCP4", "203.0.113.7", 51234, "192.0.2.1", 4000,
                                                        len(line))
    six = parse(b"PROXY TCP6 2001:DB8:0:0::7 2001:db8::1 65535 4000\r\nrest")
    assert (six.family, six.source, six.source_port, six.destination) == ("TCP6", "2001:db8::7", 65535, "2001:db8::1")
    unknown = b"PROXY UNKNOWN ffff:f...f:ffff ffff:f...f:ffff 65535 65535\r\n"
    assert parse(unknown) == ProxyHeader(1, "proxy", "UNKNOWN", None, None, None, None, len(unknown))
    assert parse(b"PROXY UNKNOWN\r\n").length == 15
    # The longest line the spec allows (107 bytes with CRLF) is accepted.
    longest = b"PROXY UNKNOWN " + b"f" * (V1_MAX - 16) + b"\r\n"
    assert len(longest) == V1_MAX and parse(longest).length == V1_MAX


def test_v1_incomplete_then_complete():
    line = b"PROXY TCP4 198.51.100.9 192.0.2.1 1 4000\r\n"
    for cut in range(len(line)):  # every prefix: wait for more (a header may come in pieces)
        assert parse(line[:cut]) is None, cut
    assert parse(line).source == "198.51.100.9"


@pytest.mark.parametrize("data, why", [
    (b"PROXY TCP4 203.0.113.7 192.0.2.1 51234\r\n", "two addresses and two ports"),
    (b"PROXY TCP4 203.0.113.7  192.0.2.1 1 2\r\n", "two addresses and two ports"),
    (b"PROXY TCP5 203.0.113.7 192.0.2.1 1 2\r\n", "TCP4/TCP6/UNKNOWN"),
    (b"PROXY TCP4 2001:db8::7 192.0.2.1 1 2\r\n", "bad TCP4 address"),
    (b"PROXY TCP6 203.0.113.7 2001:db8::1 1 2\r\n", "bad TCP6 address"),
    (b"PROXY TCP4 203.0.113.300 192.0.2.1 1 2\r\n", "bad TCP4 address"),
    (b"PROXY TCP4 203.0.113.7 192.0.2.1 65536 2\r\n", "bad port"),
    (b"PROXY TCP4 203.0.113.7 192.0.2.1 +1 2\r\n", "bad port"),
    (b"PROXY TCP4 203.0.113.7 192.0.2.1 01 2\r\n", "bad port"),
    (b"PROXY TCP4 203.0.113.7 192.0.2.1 1 2\n", "without CRLF"),  # LF alone ends no header
    (b"PROXY " + b"x" * V1_MAX, "without CRLF"),  # too long: refused without waiting for more
    (b"PROXY UNKNOWN " + b"f" * (V1_MAX - 15) + b"\r\n", "without CRLF"),  # one byte over 107
    (b"PROXZ", "not a PROXY header"),
    (b"hello\r\n", "not a PROXY header"),
    (b"\xff\xfb\x01", "not a PROXY header"),  # a telnet client talking first
    (b"GET / HTTP/1.1\r\n", "not a PROXY header"),
])
def test_v1_malformed(data, why):
    with pytest.raises(ProxyHeaderError, match=why):
        parse(data)


def test_v2_tcp4_tcp6_with_tlvs_and_rest():
    head = v2_tcp4("203.0.113.7", "192.0.2.1", 51234, 4000, tlvs=b"\x05\x00\x02ab")  # PP2_TYPE_UNIQUE_ID
    assert parse(head + b"typed") == ProxyHeader(2, "proxy", "TCP4", "203.0.113.7", 51234, "192.0.2.1", 4000,
                                                 len(head))
    six = v2_tcp6("2001:db8::7", "2001:db8::1", 1, 4000)
    assert parse(six) == ProxyHeader(2, "proxy", "TCP6", "2001:db8::7", 1, "2001:db8::1", 4000, 16 + 36)


def test_v2_local_and_unknown_use_the_connection_itself():
    # LOCAL (the proxy's own health check): addresses, if any, are ignored.
    assert parse(v2(0x0, 0x00)) == ProxyHeader(2, "local", "UNKNOWN", None, None, None, None, 16)
    local = v2(0x0, 0x11, bytes(12))
    assert parse(local).source is None and parse(local).length == 28
    # PROXY over UNSPEC, UNIX or datagrams: no client address we serve by.
    assert parse(v2(0x1, 0x00)).source is None
    assert parse(v2(0x1, 0x31, bytes(216))).family == "UNKNOWN"
    assert parse(v2(0x1, 0x12, bytes(12))).source is None


def test_v2_incomplete_then_complete():
    head = v2_tcp6("2001:db8::7", "2001:db8::1", 1, 4000)
    for cut in range(len(head)):
        assert parse(head[:cut]) is None, cut
    assert parse(head).source == "2001:db8::7"


@pytest.mark.parametrize("data, why", [
    (V2_SIGNATURE[:5] + b"X", "not a PROXY header"),
    (V2_SIGNATURE + b"\x11\x11\x00\x0c" + bytes(12), "version 1"),
    (V2_SIGNATURE + b"\x32\x11\x00\x0c" + bytes(12), "version 3"),
    (v2(0x2, 0x11, bytes(12)), "unknown command"),
    (v2(0x1, 0x41, bytes(12)), "unknown family"),
    (v2(0x1, 0x13, bytes(12)), "unknown family"),
    (v2(0x1, 0x11, bytes(8)), "shorter than its addresses"),  # truncated addresses, length honest
    (v2(0x1, 0x21, bytes(12)), "shorter than its addresses"),
    (v2(0x1, 0x31, bytes(100)), "shorter than its addresses"),
    (v2(0x1, 0x11, length=V2_MAX_BODY + 1), "too long"),  # refused before its body arrives
    (v2(0x1, 0x11, length=0xFFFF), "too long"),
])
def test_v2_malformed(data, why):
    with pytest.raises(ProxyHeaderError, match=why):
        parse(data)


def test_reader_gathers_pieces_and_hands_back_the_rest():
    reader = HeaderReader("127.0.0.1")
    head = v2_tcp4("203.0.113.7", "192.0.2.1", 5, 4000)
    assert reader.feed(head[:3]) is None
    assert reader.feed(head[3:20]) is None
    header, address, rest = reader.feed(head[20:] + b"\xff\xfb\x18name\r\n")
    assert (header.version, address, rest) == (2, "203.0.113.7", b"\xff\xfb\x18name\r\n")
    # LOCAL / UNKNOWN: the connection's own address (the proxy's), as the spec says.
    assert HeaderReader("::1").feed(b"PROXY UNKNOWN\r\n")[1:] == ("::1", b"")
    # An IPv4-mapped source counts as the IPv4 address (one spelling per host).
    mapped = HeaderReader("127.0.0.1").feed(b"PROXY TCP6 ::ffff:203.0.113.7 ::1 1 2\r\n")
    assert mapped[1] == "203.0.113.7"


def test_reader_refuses_an_endless_header():
    """Ten bytes at a time of a v1 line that never ends: refused once it passes 107 bytes."""
    reader = HeaderReader("127.0.0.1")
    assert reader.feed(b"PROXY ") is None
    with pytest.raises(ProxyHeaderError, match="without CRLF"):
        for _ in range(MAX_HEADER):
            reader.feed(b"x" * 10)
    assert len(reader.buffer) < V1_MAX + 10
