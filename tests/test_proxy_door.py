"""The telnet door behind a TCP proxy (server.proxy_protocol, server/proxy_gate.py), over real
sockets: the address a PROXY header names is the one bans and connection limits see, a header
from an untrusted address or a connection without one is closed and logged, and with the option
off a header counts for nothing."""
from __future__ import annotations

import asyncio

import pytest

from server import config
from server.config_check import ConfigError

from tests.ssh_client import connect as ssh_connect
from tests.telnet_client import TelnetClient, log_in
from tests.test_proxy_protocol import v2, v2_tcp4, v2_tcp6

BANNED = "Вход в корчму для вас закрыт"
TOO_MANY = "слишком много соединений"
# One live connection per address and no exempt addresses: the proxy's own 127.0.0.1 would be
# limited too, so only the header's address can let the second and third visitor in.
LIMITED = '[limits]\nconnections_per_address = 1\nconnections_exempt = []\n[accounts]\nadmins = ["Админ"]\nnew_accounts_exempt = []'


def v1(source: str, family: str = "TCP4", destination: str = "192.0.2.1") -> bytes:
    return f"PROXY {family} {source} {destination} 51234 4000\r\n".encode()


async def refused(port: int, preamble: bytes, local_address: str | None = None) -> TelnetClient:
    """A connection the server must close without serving: nothing readable comes back."""
    client = TelnetClient()
    await client.connect("127.0.0.1", port, local_address=local_address, preamble=preamble)
    await asyncio.wait_for(client.closed.wait(), 5)
    assert "Имя" not in client.text and client.raw == b"", client.raw
    return client


async def wait_log(srv, text: str, timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while text not in srv.log():
        assert loop.time() < deadline, f"{text!r} not in the server log:\n{srv.log()}"
        await asyncio.sleep(0.05)


async def test_proxied_addresses_are_banned_and_limited(server_factory):
    srv = server_factory("[server]\nproxy_protocol = true\n" + LIMITED)
    port = srv.telnet_port
    admin = await log_in(port, "Админ", preamble=v2_tcp4("192.0.2.10", "192.0.2.1", 40000, 4000))
    # The admin's address (from the v2 header) holds its one connection: a v1 header naming it
    # again is refused by the limit, though the socket is 127.0.0.1 like every other here.
    again = TelnetClient()
    await again.connect("127.0.0.1", port, preamble=v1("192.0.2.10"))
    await again.expect(TOO_MANY)
    await asyncio.wait_for(again.closed.wait(), 5)
    admin.send_line("ban 203.0.113.7 1h")
    await admin.expect("Вход с адреса 203.0.113.7 закрыт до")
    await asyncio.sleep(0.3)  # (keep clear of the flood guard)
    admin.send_line("ban 2001:db8::7 1h")
    await admin.expect("Вход с адреса 2001:db8::7 закрыт до")
    # One audit line per ban (an address ban was once audited twice, in two formats).
    await wait_log(srv, "address=2001:db8::7")
    assert srv.log().count("event=ban by=Админ address=203.0.113.7 ") == 1, srv.log()
    # The banned addresses over v1 (TCP4) and v2 (TCP6): told at the name and closed.
    for preamble in (v1("203.0.113.7"), v2_tcp6("2001:db8::7", "2001:db8::1", 40001, 4000)):
        banned = TelnetClient()
        await banned.connect("127.0.0.1", port, preamble=preamble)
        await banned.reach_name_prompt()
        banned.send_line("Гость")
        await banned.expect(BANNED)
        await asyncio.wait_for(banned.closed.wait(), 5)
    # Another address over v1 TCP6 logs in; bytes in the header's own packet are the client's.
    guest = TelnetClient()
    await guest.connect("127.0.0.1", port, preamble=v1("2001:db8::9", "TCP6", "2001:db8::1") + b"MSSP-REQUEST\r\n")
    await guest.expect("MSSP-REPLY-START")
    await guest.login("Гость", "secret1")
    # Nobody else may claim an address: a socket from 127.0.0.2 (not in proxy_trusted) with a
    # header naming a fresh address, and a loopback socket without a header, are both closed.
    await refused(port, v1("198.51.100.20"), local_address="127.0.0.2")
    await wait_log(srv, "telnet connection from 127.0.0.2 closed: proxy_protocol is on and 127.0.0.2 is not in server.proxy_trusted")
    await refused(port, "Вася\r\n".encode())
    await wait_log(srv, "telnet connection from proxy 127.0.0.1 closed: not a PROXY header")
    # A v2 header whose length claims 2020 bytes is refused at once, not waited for.
    await refused(port, v2(0x1, 0x11, length=2020) + bytes(100))
    await wait_log(srv, "PROXY v2 header is too long")
    # SSH does not read PROXY headers: it is served as before.
    ssh = await ssh_connect(srv.ssh_port, "Админ", password="secret1")
    await ssh.expect("Добро пожаловать")
    for c in (admin, again, guest, ssh):
        await c.close()


async def test_without_proxy_protocol_the_socket_address_counts(server_factory):
    srv = server_factory("[server]\nproxy_protocol = false\n" + LIMITED)
    plain = await log_in(srv.telnet_port, "Вася")
    # The header names another address, but with the option off the socket's address counts:
    # 127.0.0.1 holds its one connection already.
    spoof = TelnetClient()
    await spoof.connect("127.0.0.1", srv.telnet_port, preamble=v1("198.51.100.9"))
    await spoof.expect(TOO_MANY)
    for c in (plain, spoof):
        await c.close()


def test_proxy_keys_are_checked(tmp_path):
    """No server needed: the keys are known, typed, and an empty trust list with the option on
    is refused at start (it would close every telnet connection)."""
    path = tmp_path / "proxy.toml"
    path.write_text('[server]\nproxy_protocol = true\nproxy_trusted = ["10.0.0.0/8", "::1"]\n')
    assert config.load(path).server["proxy_trusted"] == ["10.0.0.0/8", "::1"]
    for text, why in (('proxy_protocol = true\nproxy_trusted = []', "server.proxy_trusted is empty"),
                      ('proxy_protocol = "yes"', "server.proxy_protocol"),
                      ('proxy_trusted = ["haproxy.local"]', "must list IP addresses")):
        path.write_text("[server]\n" + text + "\n")
        with pytest.raises(ConfigError, match=why):
            config.load(path)
