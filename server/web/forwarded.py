"""``[web] proxy_trusted``: which address a web connection is from, behind a reverse proxy.

A browser's WebSocket comes either straight from the player (the peer address is theirs) or
through a reverse proxy (nginx, Caddy, HAProxy in HTTP mode) that names the player in
``X-Forwarded-For``. Anybody can send that header, so it is read only when the peer is one of
the configured proxies; and then from its right end: each proxy appends the address it got the
request from, so the right-most address that is not itself a trusted proxy is the first one no
trusted party vouches against (whatever a client wrote to the left of it is its own claim and is
ignored). With the list empty (the default) the header is never read.
"""
from __future__ import annotations

import ipaddress
from typing import Iterable

from world.addresses import AddressSet, normalize_address

HEADER = "X-Forwarded-For"


class ForwardedFor:
    __slots__ = ("trusted",)

    def __init__(self, trusted: Iterable[str] = ()) -> None:
        self.trusted = AddressSet(trusted)

    def client(self, peer: str, headers: Iterable[str]) -> str:
        """The connection's address: ``peer``, or the one a trusted proxy names. ``headers``:
        every X-Forwarded-For value of the request, in order."""
        address = normalize_address(peer)
        if address not in self.trusted:
            return address
        hops = [normalize_address(part.strip()) for value in headers for part in value.split(",") if part.strip()]
        for hop in reversed(hops):
            if not _is_ip(hop):  # junk in the header: nobody is named past the last good hop
                return address
            if hop not in self.trusted:
                return hop
            address = hop
        return address


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True
