"""Players who type `join N` (or `bots`) at the same moment all get a seat, each its own, and no
one reads «something went wrong» (world/seating.py); over telnet and SSH."""
from __future__ import annotations

import asyncio
import re

import pytest

from tests.telnet_client import log_in
from tests.wire import open_table, person

WENT_WRONG = re.compile(r"пошло не так|went wrong|пішло не так", re.I)


@pytest.mark.parametrize("door", ["telnet", "ssh"])
async def test_joins_at_the_same_moment_each_get_a_seat(server, door):
    host = await log_in(server.telnet_port, "Анна", naws=(200, 50))
    number = await open_table(host, "открыть мафия seats=8 night=10m day=10m")
    names = ("Борис", "Вера", "Гоша", "Дина", "Ефим")
    people = []
    for name in names:
        people.append(await person(server, door, name))
    for client in people:  # all at once, and the host's bots with them
        client.send_line(f"сесть {number}")
    host.send_line("боты 2")
    await asyncio.gather(*(client.expect("Вы садитесь", timeout=15) for client in people))
    await host.expect("бот", timeout=15)
    host.send_line("смотреть")
    await host.expect(re.compile(r"Места 8/8"), timeout=10)
    seats = re.search(r"Места 8/8: ([^\n]+)", host.text).group(1)
    assert all(name in seats for name in names), seats
    for client in (host, *people):
        assert not WENT_WRONG.search(client.text), client.text[-1500:]
        await client.close()
