"""`ssh host` without NAME@ sends the local user's name («root», a reserved one): the server says
how to connect (`ssh -p PORT NAME@host`) and hangs up, instead of asking for a password that can
never work; a good name is asked for its password as before."""
from __future__ import annotations

import asyncssh
import pytest

from tests.ssh_client import attempt
from tests.test_connections import BannerClient


@pytest.mark.parametrize("name", ["root", "admin", "x"])
async def test_ssh_with_a_name_no_account_can_have_says_how_to_connect(server, name):
    client = BannerClient()
    with pytest.raises(asyncssh.DisconnectError) as refused:
        conn = await asyncssh.connect("127.0.0.1", server.ssh_port, username=name, password="whatever-1",
                                      known_hosts=None, agent_path=None, config=None, connect_timeout=10,
                                      client_factory=lambda: client)
        conn.close()
    banners = "".join(client.banners)
    assert f"ssh -p {server.ssh_port} ИМЯ@localhost" in banners, banners
    assert f"ssh -p {server.ssh_port} NAME@localhost" in refused.value.reason
    good, said = await attempt(server.ssh_port, "Гость", "guest-pass-1")  # a real name: as before
    assert good is not None, said
    await good.close()
