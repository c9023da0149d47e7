"""Network addresses as the world counts them (connections, login failures, password checks)."""
from __future__ import annotations

import ipaddress


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
