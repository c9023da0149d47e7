"""Live connections per address, across both front doors, with a cap (``limits.connections_*``).

A connection counts from the moment it is accepted (logged in or not) until it closes. The door
asks :meth:`ConnectionLimit.admit` in its ``connection_made``: a ticket when there is room, None
when the address already has ``connections_per_address`` live connections; the door then says
one line and closes. The ticket's :meth:`Ticket.release` is called when the connection is lost
(idempotent, so a door may call it from more than one path).
"""
from __future__ import annotations

import ipaddress
from typing import Iterable

from world.addresses import normalize_address

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
__all__ = ["normalize_address", "parse_networks", "Ticket", "ConnectionLimit"]


def parse_networks(entries: Iterable[str]) -> list[Network]:
    """Addresses or networks (``10.0.0.0/8``); ValueError names the first bad entry."""
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(str(entry).strip(), strict=False))
        except ValueError:
            raise ValueError(f"{entry!r} is not an IP address or network") from None
    return networks


class Ticket:
    __slots__ = ("limit", "address", "live")

    def __init__(self, limit: "ConnectionLimit", address: str) -> None:
        self.limit, self.address, self.live = limit, address, True

    def release(self) -> None:
        if self.live:
            self.live = False
            self.limit._release(self.address)


class ConnectionLimit:
    def __init__(self, per_address: int, exempt: Iterable[str] = ()) -> None:
        self.per_address = max(0, int(per_address))  # 0: no cap
        self.exempt = parse_networks(exempt)
        self.live: dict[str, int] = {}

    def exempted(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip.version == net.version and ip in net for net in self.exempt)

    def admit(self, address: str) -> Ticket | None:
        address = normalize_address(address)
        count = self.live.get(address, 0)
        if self.per_address and count >= self.per_address and not self.exempted(address):
            return None
        self.live[address] = count + 1
        return Ticket(self, address)

    def _release(self, address: str) -> None:
        left = self.live.get(address, 0) - 1
        if left > 0:
            self.live[address] = left
        else:
            self.live.pop(address, None)

    def count(self, address: str) -> int:
        return self.live.get(normalize_address(address), 0)
