"""Live connections per address, across both front doors, with a cap (``limits.connections_*``).

A connection counts from the moment it is accepted (logged in or not) until it closes. The door
asks :meth:`ConnectionLimit.admit` in its ``connection_made``: a ticket when there is room, None
when the address already has ``connections_per_address`` live connections; the door then says
one line and closes. The ticket's :meth:`Ticket.release` is called when the connection is lost
(idempotent, so a door may call it from more than one path).

"An address" is the world's unit (world/addresses.py ``address_key``: an IPv4 address or an
IPv6 /64), as for new accounts, login failures and password checks; an address in
``connections_exempt`` (addresses or networks) is neither capped nor counted.
"""
from __future__ import annotations

from typing import Iterable

from world.addresses import AddressSet, address_key, normalize_address

__all__ = ["Ticket", "ConnectionLimit"]


class Ticket:
    __slots__ = ("limit", "key", "live")

    def __init__(self, limit: "ConnectionLimit", key: str | None) -> None:
        self.limit, self.key, self.live = limit, key, key is not None

    def release(self) -> None:
        if self.live:
            self.live = False
            self.limit._release(self.key)


class ConnectionLimit:
    def __init__(self, per_address: int, exempt: Iterable[str] = ()) -> None:
        self.per_address = max(0, int(per_address))  # 0: no cap
        self.exempt = AddressSet(exempt)
        self.live: dict[str, int] = {}  # by address_key

    def admit(self, address: str) -> Ticket | None:
        address = normalize_address(address)
        if address in self.exempt:
            return Ticket(self, None)
        key = address_key(address)
        count = self.live.get(key, 0)
        if self.per_address and count >= self.per_address:
            return None
        self.live[key] = count + 1
        return Ticket(self, key)

    def _release(self, key: str | None) -> None:
        if key is None:
            return
        left = self.live.get(key, 0) - 1
        if left > 0:
            self.live[key] = left
        else:
            self.live.pop(key, None)

    def count(self, address: str) -> int:
        """Live connections of ``address``'s unit (exempt ones are not counted)."""
        return self.live.get(address_key(address), 0)
