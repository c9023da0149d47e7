"""Connections at the door: a cap per address over both doors (limits.connections_per_address,
limits.connections_exempt), and a process out of file descriptors that logs a summary now and
then instead of a traceback per accept, and keeps serving the players it has.

Real server processes, real telnet and SSH connections on 127.0.0.1; the descriptor limit is a
real RLIMIT_NOFILE set on the server process.
"""
from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
from typing import Any

import asyncssh
import pytest

from tests.conftest import ROOT, TEST_CONFIG, ServerProcess
from tests.ssh_client import connect as ssh_connect
from tests.telnet_client import TelnetClient, log_in
from world.i18n import strip_marks, t

PW = "secret1"
WIDE = 200
CAP_TWO = "[limits]\nconnections_per_address = 2\nconnections_exempt = []\n"


def ru(key: str, **params) -> str:
    return strip_marks(t("ru", key, **params))


def en(key: str, **params) -> str:
    return strip_marks(t("en", key, **params))


async def telnet_refusal(port: int) -> bytes:
    """Everything a new telnet connection receives until the server closes it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        return await asyncio.wait_for(reader.read(), 5)
    finally:
        writer.close()


class BannerClient(asyncssh.SSHClient):
    def __init__(self) -> None:
        self.banners: list[str] = []

    def auth_banner_received(self, msg: str, lang: str) -> None:
        self.banners.append(msg)


async def ssh_refusal(port: int) -> tuple[asyncssh.DisconnectError, str]:
    """The DISCONNECT a new SSH connection gets, and the auth banners shown before it."""
    client = BannerClient()
    with pytest.raises(asyncssh.DisconnectError) as refused:
        conn = await asyncssh.connect("127.0.0.1", port, username="Гость", password="guest-pass-1",
                                      known_hosts=None, agent_path=None, config=None, connect_timeout=10,
                                      client_factory=lambda: client)
        conn.close()
    return refused.value, "".join(client.banners)


async def one_per_door(srv: ServerProcess, telnet_name: str, ssh_name: str) -> tuple[Any, Any]:
    """A player logged in over telnet and one over SSH (new accounts)."""
    by_telnet = await log_in(srv.telnet_port, telnet_name)
    by_ssh = await ssh_connect(srv.ssh_port, ssh_name, password=PW, width=WIDE)
    await by_ssh.expect(ru("login.welcome", name=ssh_name))
    return by_telnet, by_ssh


async def heard(speaker: Any, words: str, *listeners: Any) -> None:
    speaker.send_line(f"say {words}")
    for listener in listeners:
        await listener.expect(words)


async def test_third_connection_from_one_address_is_refused_on_both_doors(server_factory):
    srv = server_factory(CAP_TWO)
    line = ru("connections.too_many", limit=2)
    anna, boris = await one_per_door(srv, "Анна", "Борис")

    # Two live connections from 127.0.0.1: a third one is refused at either door, with one line.
    said = await telnet_refusal(srv.telnet_port)
    assert said == line.encode("utf-8") + b"\r\n"  # before any negotiation: no IAC at all
    err, banner = await ssh_refusal(srv.ssh_port)
    assert err.code == asyncssh.DISC_TOO_MANY_CONNECTIONS
    assert banner.strip() == line
    assert en("connections.too_many", limit=2) in err.reason

    # The players already in are unaffected.
    await heard(anna, "привет, Борис", boris)
    await heard(boris, "здравствуй, Анна", anna)

    # One closes: a new connection is accepted (SSH), and the cap holds again with it.
    await anna.close()
    await boris.expect(ru("hall.leaves", name="Анна"))
    vera = await ssh_connect(srv.ssh_port, "Вера", password=PW, width=WIDE)
    await vera.expect(ru("login.welcome", name="Вера"))
    assert await telnet_refusal(srv.telnet_port) == line.encode("utf-8") + b"\r\n"
    vera.send_line("quit")
    await vera.wait_closed()
    await vera.close()
    await boris.expect(ru("hall.leaves", name="Вера"))
    again = await log_in(srv.telnet_port, "Анна", create=False)  # and over telnet
    await heard(again, "снова тут", boris)
    await again.close()
    await boris.close()
    assert "Traceback" not in srv.log()


async def test_the_machine_itself_is_exempt_by_default(server_factory):
    srv = server_factory("[limits]\nconnections_per_address = 1\n")
    boris = await log_in(srv.telnet_port, "Борис")
    anna, vera = await one_per_door(srv, "Анна", "Вера")
    await heard(anna, "все здесь", boris, vera)
    for client in (anna, boris, vera):
        await client.close()


def test_addresses_are_counted_in_one_spelling_and_networks_exempt():
    from server.connections import ConnectionLimit

    limit = ConnectionLimit(2, ["10.1.0.0/16", "::1"])
    first, second = limit.admit("192.0.2.7"), limit.admit("::ffff:192.0.2.7")  # the same host
    assert first and second and limit.count("192.0.2.7") == 2
    assert limit.admit("192.0.2.7") is None
    first.release()
    first.release()  # a second release changes nothing
    assert limit.count("192.0.2.7") == 1
    assert limit.admit("192.0.2.7") is not None
    assert all(limit.admit("10.1.2.3") for _ in range(5))  # inside an exempt network
    assert all(limit.admit("::1") for _ in range(5))
    assert ConnectionLimit(0).admit("192.0.2.7") is not None  # 0: no cap


def test_one_ipv6_subscriber_is_one_address_everywhere():
    """An IPv6 /64 is one subscriber: the connection cap, new accounts, login failures and password
    checks all count it as one address (world/addresses.py address_key), not 2**64 of them."""
    from server.connections import ConnectionLimit
    from world.accounts import CreationLimit
    from world.login_guard import Hasher, LoginThrottle, PasswordChecks

    net = [f"2001:db8:1:2::{i:x}" for i in range(1, 10)]  # nine addresses of one /64
    limit = ConnectionLimit(2)
    assert limit.admit(net[0]) and limit.admit(net[1])
    assert limit.admit(net[2]) is None and limit.count(net[3]) == 2
    assert limit.admit("2001:db8:1:3::1") is not None  # the next /64 is somebody else
    made = CreationLimit(per_address=2, window=100.0)
    for address in net[:2]:
        made.record(address, clock=0.0)
    assert made.wait_left(net[2], clock=1.0) == 99.0
    throttle = LoginThrottle(attempts=2, backoff=5)
    for address in net[:2]:
        throttle.failed("Guest", address, clock=0.0)
    assert throttle.wait_left("Other", net[2], clock=1.0) == 4.0
    checks = PasswordChecks(Hasher(), workers=1, per_address=2)
    checks._load[checks._lane(net[0])[0]] = 2
    assert checks.full(net[5]) and not checks.full("2001:db8:1:3::1")


def test_every_exempt_list_takes_addresses_and_networks():
    """accounts.new_accounts_exempt, accounts.checks_exempt and limits.connections_exempt are one
    kind of list (world/addresses.py AddressSet): addresses or networks, in any spelling. An
    exempt address is neither limited nor counted, so it takes nothing from its /64."""
    from server.connections import ConnectionLimit
    from world.accounts import CreationLimit
    from world.addresses import AddressSet
    from world.login_guard import Hasher, PasswordChecks

    exempt = AddressSet(["10.0.0.0/8", "2001:db8::/32", "::1", "::ffff:192.0.2.0/120"])
    for inside in ("10.1.2.3", "::ffff:10.1.2.3", "2001:db8:7::1", "::1", "192.0.2.200", "::ffff:192.0.2.9",
                   "2001:db8::5%eth0"):
        assert inside in exempt, inside
    for outside in ("11.0.0.1", "2001:db9::1", "::2", "192.0.3.1", "not an address", ""):
        assert outside not in exempt, outside
    assert not AddressSet([]) and "10.0.0.1" not in AddressSet([])
    with pytest.raises(ValueError, match="my laptop"):
        AddressSet(["10.0.0.0/8", "my laptop"])

    limit = ConnectionLimit(1, ["2001:db8:1:2::1"])
    assert all(limit.admit("2001:db8:1:2::1") for _ in range(5))  # exempt, and not counted
    assert limit.admit("2001:db8:1:2::2") is not None and limit.admit("2001:db8:1:2::3") is None
    made = CreationLimit(per_address=1, window=100.0, exempt=["10.0.0.0/8"])
    for _ in range(3):
        made.record("10.9.9.9", clock=0.0)
    assert made.wait_left("10.9.9.9", clock=1.0) == 0 and not made.made
    checks = PasswordChecks(Hasher(), workers=1, per_address=1, exempt=["10.0.0.0/8"])
    checks._load[checks._lane("10.1.1.1")[0]] = 5
    assert not checks.full("10.1.1.1")
    checks._load[checks._lane("11.1.1.1")[0]] = 1
    assert checks.full("11.1.1.1")


async def telnet_from(port: int, name: str, address: str) -> TelnetClient:
    client = TelnetClient()
    await client.connect("127.0.0.1", port, local_address=address)
    await client.login(name, PW)
    return client


async def test_new_accounts_exempt_takes_a_network(server_factory):
    """A host that lists its own network in accounts.new_accounts_exempt (a school's lab) gets
    as many new accounts from it as it wants, on both doors; an address outside still has the
    limit."""
    srv = server_factory('[accounts]\nnew_accounts_per_address = 1\nnew_accounts_exempt = ["127.0.30.0/24"]\n')
    lab, home = "127.0.30.7", "127.0.0.5"
    for name in ("Ученик", "Ученица"):
        await (await telnet_from(srv.telnet_port, name, lab)).close()
    for name in ("Отличник", "Отличница"):
        client = await ssh_connect(srv.ssh_port, name, password=PW, local_address=lab, width=WIDE)
        await client.expect(ru("login.created", name=name))
        await client.close()
    await (await telnet_from(srv.telnet_port, "Домосед", home)).close()
    with pytest.raises(asyncssh.PermissionDenied):  # the second from home: the limit holds
        await ssh_connect(srv.ssh_port, "Домоседка", password=PW, local_address=home)


# -- running out of file descriptors -----------------------------------------------------

#: The server's descriptor limit: about 15 are in use when idle, so this runs out after ~60
#: connections (listener.HEADROOM more are kept back for the server itself).
NOFILE = 96
FLOOD_SECONDS = 10.0
#: Open at most this many flood connections at once (the test process's own descriptors).
FLOOD_OPEN = 200


class Knock(asyncio.Protocol):
    """A flood connection: reads and drops whatever comes, notes when the server closes it."""

    def __init__(self) -> None:
        self.transport: asyncio.BaseTransport | None = None
        self.lost = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        pass

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True


async def flood(ports: list[int], until: float, stats: dict[str, int]) -> None:
    """Keep connecting to the doors in turn, holding what the server keeps open."""
    loop = asyncio.get_running_loop()
    held: list[Knock] = []
    turn = 0
    try:
        while time.monotonic() < until:
            held = [k for k in held if not k.lost]
            for _ in range(20):
                if len(held) >= FLOOD_OPEN:
                    break
                turn += 1
                try:
                    _, knock = await asyncio.wait_for(
                        loop.create_connection(Knock, "127.0.0.1", ports[turn % len(ports)]), 2)
                except (OSError, asyncio.TimeoutError):
                    stats["failed"] += 1
                    continue
                held.append(knock)
                stats["connects"] += 1
            await asyncio.sleep(0.01)
    finally:
        for knock in held:
            if knock.transport is not None:
                knock.transport.close()


def descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


async def test_out_of_descriptors_is_logged_rarely_and_players_are_served(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    cfg = tmp_path / "config.toml"
    cfg.write_text(TEST_CONFIG)
    srv = ServerProcess(data_dir=data, config=cfg, nofile=NOFILE).start()
    try:
        assert srv.proc is not None
        anna, boris = await one_per_door(srv, "Анна", "Борис")
        before = len(srv.log().splitlines())

        stats = {"connects": 0, "failed": 0}
        until = time.monotonic() + FLOOD_SECONDS
        flooding = asyncio.get_running_loop().create_task(flood([srv.telnet_port, srv.ssh_port], until, stats))
        rounds = 0
        while time.monotonic() < until - 1:
            rounds += 1
            await heard(anna, f"раз {rounds}", boris)
            await heard(boris, f"два {rounds}", anna)
            await asyncio.sleep(0.3)
        await flooding
        assert rounds >= 5
        assert stats["connects"] >= FLOOD_OPEN, stats  # the flood reached its own cap at least

        # The flood is over: once the server has let its held connections go, newcomers get in.
        deadline = time.monotonic() + 30
        while descriptors(srv.proc.pid) > NOFILE // 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        vera, gleb = await one_per_door(srv, "Вера", "Глеб")
        await heard(vera, "снова пускают", gleb, boris)
        for client in (anna, boris, vera, gleb):
            await client.close()
        # The summary for the end of the flood comes at most REPORT_EVERY seconds after it.
        deadline = time.monotonic() + 10
        while "refused" not in srv.log() and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
    finally:
        srv.terminate()

    log = srv.log()
    lines = log.splitlines()[before:]
    summaries = [line for line in lines if "out of file descriptors" in line]
    assert "Traceback" not in log
    assert summaries, "the refusals were never reported:\n" + "\n".join(lines[-20:])
    assert all(re.search(r"refused \d+ (ssh|telnet)", line) for line in summaries)
    # At most one line every 5 s (listener.REPORT_EVERY) while it lasted, and few lines in all.
    assert len(summaries) <= FLOOD_SECONDS / 5 + 3, "\n".join(summaries)
    assert len(lines) < 40, f"{len(lines)} log lines during the flood:\n" + "\n".join(lines[:40])
    refused = sum(int(n) for line in summaries for n in re.findall(r"(\d+) (?:ssh|telnet)", line))
    assert refused > 100


# The spare-descriptor path: accept() itself fails with EMFILE (something else used the last
# descriptors). Run in a child process that really exhausts its descriptors.
EMFILE_SCRIPT = r"""
import asyncio, json, logging, os, resource, socket, subprocess, sys
from server import listener

lines = []
class Keep(logging.Handler):
    def emit(self, record):
        lines.append(self.format(record))
logging.basicConfig(level=logging.INFO, handlers=[Keep()])
resource.setrlimit(resource.RLIMIT_NOFILE, (64, 1024))  # soft 64: the child's clients get 1024
trouble = listener.AcceptTrouble(every=1.0)
made = []

class Count(asyncio.Protocol):
    def connection_made(self, transport):
        made.append(1)

async def main():
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(listener.quiet_accept_errors)
    sock = listener.bind("127.0.0.1", 0, "telnet", trouble)[0]
    sock.limit = 1 << 20  # no headroom check: only accept() failing can stop a connection
    port = sock.getsockname()[1]
    clients = subprocess.Popen([sys.executable, "-c",
        "import socket, time\n"
        "s = [socket.create_connection(('127.0.0.1', %d)) for _ in range(300)]\n"
        "time.sleep(1)" % port], preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024)))
    hog = []
    try:
        while True:
            hog.append(os.open(os.devnull, os.O_RDONLY))
    except OSError:
        pass
    server = await loop.create_server(Count, sock=sock)
    await asyncio.sleep(3)
    server.close()
    trouble.close()
    for fd in hog:
        os.close(fd)
    clients.wait()
    print(json.dumps({"made": len(made), "lines": lines}))

asyncio.run(main())
"""


def test_accept_out_of_descriptors_sheds_with_the_spare_and_logs_a_summary():
    done = subprocess.run([sys.executable, "-c", EMFILE_SCRIPT], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    summaries = [line for line in result["lines"] if "out of file descriptors" in line]
    assert result["made"] == 0  # no descriptor for a connection: every one was shed
    assert "Traceback" not in done.stderr and "Traceback" not in "\n".join(result["lines"])
    assert 1 <= len(summaries) <= 5, result["lines"]  # ~3 s at one line a second, not one per accept
    assert sum(int(n) for s in summaries for n in re.findall(r"refused (\d+)", s)) >= 250
