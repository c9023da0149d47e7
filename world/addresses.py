"""Network addresses as the world counts them (connections, new accounts, login failures, password
checks): one spelling per host, one unit per subscriber, and one way to exempt addresses.

* :func:`normalize_address`: one spelling per host.
* :func:`address_key`: the unit every per-address limit counts by: an IPv4 address, or the /64
  network of an IPv6 address (one subscriber gets a whole /64, so counting single IPv6
  addresses would give each of them the limit 2**64 times over).
* :class:`AddressSet`: a config ``*_exempt`` list (addresses or networks, ``10.0.0.0/8``), and
  whether it holds an address. An exempt address is neither limited nor counted, so it takes
  nothing from the other addresses of its /64.
"""
from __future__ import annotations

import ipaddress
from typing import Iterable

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
#: The prefix of an IPv6 subscriber's network (RFC 6177: a site gets at least a /64).
IPV6_UNIT = 64


def normalize_address(address: str) -> str:
    """One spelling per host: IPv4-mapped IPv6 (``::ffff:1.2.3.4``) is the IPv4 address, and an
    IPv6 zone or odd spelling is canonical. Anything not an IP address is kept as it is."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return str(ip)


def address_key(address: str) -> str:
    """The unit per-address limits count by (see the module's text)."""
    address = normalize_address(address)
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    return str(ipaddress.ip_network(f"{ip}/{IPV6_UNIT}", strict=False)) if ip.version == 6 else address


def parse_networks(entries: Iterable[str]) -> list[Network]:
    """Addresses or networks (``10.0.0.0/8``); ValueError names the first bad entry. An
    IPv4-mapped IPv6 network is its IPv4 network, as addresses are (:func:`normalize_address`)."""
    networks: list[Network] = []
    for entry in entries:
        try:
            network = ipaddress.ip_network(str(entry).strip(), strict=False)
        except ValueError:
            raise ValueError(f"{entry!r} is not an IP address or network") from None
        if isinstance(network, ipaddress.IPv6Network) and network.prefixlen >= 96 \
                and network.network_address.ipv4_mapped is not None:
            network = ipaddress.ip_network(f"{network.network_address.ipv4_mapped}/{network.prefixlen - 96}")
        networks.append(network)
    return networks


class AddressSet:
    """The addresses and networks of a config ``*_exempt`` list; ``address in exempt``."""

    __slots__ = ("networks",)

    def __init__(self, entries: Iterable[str] = ()) -> None:
        self.networks = parse_networks(entries)

    def __contains__(self, address: object) -> bool:
        if not self.networks or not isinstance(address, str):
            return False
        try:
            ip = ipaddress.ip_address(normalize_address(address))
        except ValueError:
            return False
        return any(ip.version == net.version and ip in net for net in self.networks)

    def __bool__(self) -> bool:
        return bool(self.networks)
