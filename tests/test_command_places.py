"""A command typed where it does not work says where it does (over telnet and SSH), instead of
«Нет такой команды»: a table's command in the hall, another game's verb at a table."""
from __future__ import annotations

import pytest

from tests.telnet_client import log_in
from tests.wire import open_table, person, set_lang


@pytest.mark.parametrize("door", ["telnet", "ssh"])
async def test_a_command_of_another_place_says_where_it_works(server, door):
    anna = await person(server, door, "Анна")
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


@pytest.mark.parametrize("door", ["telnet", "ssh"])
async def test_look_at_a_table_by_its_number_from_the_hall(server, door):
    """«смотреть 1» in the hall is about table 1 (its seats, and how to sit down or follow it),
    not the hall's description again; the game itself stays for those at the table."""
    anna = await log_in(server.telnet_port, "Анна")
    number = await open_table(anna, "открыть переворот")
    boris = await person(server, door, "Boris")
    boris.send_line(f"смотреть {number}")
    await boris.expect(f"Сесть за него: сесть {number}. Следить за игрой: наблюдать {number}.")
    assert f"Стол {number}" in boris.text and "Хозяин: Анна" in boris.text
    assert "Низкий зал" not in boris.text  # not the hall
    await set_lang(boris, "en")
    boris.send_line("look 99")
    await boris.expect("99")
    anna.send_line("боты 1")
    await anna.expect("бот")
    anna.send_line("начать")
    await anna.expect("Ваши карты", timeout=15)
    boris.send_line(f"look {number}")
    await boris.expect(f"A game is on. To follow it: watch {number}.")
    assert "Your cards" not in boris.text and "ваши карты" not in boris.text.lower()
    for client in (anna, boris):
        await client.close()
