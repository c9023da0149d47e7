"""A command typed where it does not work says where it does (over telnet and SSH), instead of
«Нет такой команды»: a table's command in the hall, another game's verb at a table."""
from __future__ import annotations

import pytest

from tests.telnet_client import log_in
from tests.wire import open_table, set_lang


async def _person(server, door: str, name: str):
    from tests.ssh_client import connect

    if door == "telnet":
        return await log_in(server.telnet_port, name)
    client = await connect(server.ssh_port, name, password="secret1")
    await client.expect(name)
    return client


@pytest.mark.parametrize("door", ["telnet", "ssh"])
async def test_a_command_of_another_place_says_where_it_works(server, door):
    anna = await _person(server, door, "Анна")
    anna.send_line("встать")  # the hall: `leave` is a table's
    await anna.expect("«встать» работает за столом: сначала сядьте за него (сесть N)")
    anna.send_line("тянуть")  # a «Революция» verb
    await anna.expect("«тянуть» — команда игры «Революция»: она работает за её столом, пока идёт игра.")
    anna.send_line("встатъ")  # a typo is still a typo: «did you mean»
    await anna.expect("Нет такой команды: встатъ")
    await open_table(anna, "открыть переворот")
    anna.send_line("тянуть")  # at a Coup table, still another game's
    await anna.expect("«тянуть» — команда игры «Революция»")
    anna.send_line("встать")
    await anna.expect("Вы встаёте")
    await set_lang(anna, "en")
    anna.send_line("start")
    await anna.expect("“start” works at a table: sit down at one first (join N)")
    assert "No such command: start" not in anna.text and "Нет такой команды: встать" not in anna.text
    await anna.close()
