"""An inbox item's time carries its zone («01.12 14:05 UTC»), like a ban's expiry; over telnet and SSH."""
from __future__ import annotations

import re

import pytest

from tests.telnet_client import log_in

STAMP = re.compile(r"\d\d\.\d\d \d\d:\d\d UTC")


@pytest.mark.parametrize("door", ["telnet", "ssh"])
async def test_inbox_times_say_their_zone(server, door):
    from tests.ssh_client import connect

    anna = await log_in(server.telnet_port, "Анна")
    boris = await log_in(server.telnet_port, "Boris")
    boris.send_line("quit")
    await boris.expect("Счастливого пути")
    await boris.close()
    anna.send_line("tell Boris до вечера")
    await anna.expect("сообщение ждёт")
    if door == "telnet":
        boris = await log_in(server.telnet_port, "Boris", create=False)
    else:
        boris = await connect(server.ssh_port, "Boris", password="secret1")
    await boris.expect("до вечера")
    boris.mark_here()
    boris.send_line("inbox")
    await boris.expect(re.compile(STAMP.pattern + r"[^\n]*до вечера"))  # the item, with its zone
    for client in (anna, boris):
        await client.close()


def test_a_naive_database_time_reads_as_utc():
    from datetime import datetime, timedelta, timezone

    from world.inbox import stamp as inbox_time

    assert inbox_time(datetime(2026, 12, 1, 14, 5)) == "01.12 14:05 UTC"
    kyiv = timezone(timedelta(hours=2))
    assert inbox_time(datetime(2026, 12, 1, 16, 5, tzinfo=kyiv)) == "01.12 14:05 UTC"
