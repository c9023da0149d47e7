"""Issue 15 as players see it, over real telnet and SSH connections: a version-A table of five
people. Анна is the Политик (in A her vote weighs 1.5); Boris (over ``door``, English) and Вера
take the custom public roles «Ёлка» and «Жаба». On day 1 Анна and Гоша vote for Вера: the open
tally reads «1,5 голоса» in Russian and "1.5 votes" in English; `роли` lists the custom names
as the tie-break orders them, «Ёлка» before «Жаба»."""
from __future__ import annotations

import pytest

from tests.test_acceptance_fixes_flow import MAFIA_CONFIG, after
from tests.wire import open_table, person


@pytest.mark.parametrize("door", ["telnet", "ssh"])
async def test_a_fractional_tally_and_custom_names_in_a_readers_order(server_factory, door):
    srv = server_factory(MAFIA_CONFIG)
    anna = await person(srv, "telnet", "Анна", "ru")
    boris = await person(srv, door, "Boris", "en")
    others = {name: await person(srv, "telnet", name, "ru") for name in ("Вера", "Гоша", "Дина")}
    number = await open_table(anna, "открыть мафия seats=5 night=10m day=10m ruleset=A")
    boris.send_line(f"join {number}")
    await boris.expect("You sit down")
    for client in others.values():
        client.send_line(f"сесть {number}")
        await client.expect("Вы садитесь")
    anna.send_line("класс Политик")
    await anna.expect("Ваша явная роль: «Политик»")
    boris.send_line("class Ёлка")
    await boris.expect("Your public role: «Ёлка»")
    others["Вера"].send_line("класс Жаба")
    await others["Вера"].expect("Ваша явная роль: «Жаба»")
    anna.send_line("начать")
    ru = [anna, *others.values()]
    everyone = [*ru, boris]
    for client in ru:
        await client.expect("Начинается «Мафия»", timeout=15)
    for client in everyone:  # night 1: nobody orders
        client.send_line("готов" if client is not boris else "ready")
    for client in ru:
        await client.expect("Утро. Итоги ночи 1:", timeout=15)
    await boris.expect("Morning. What Night 1 brought:", timeout=15)

    start = len(anna.text)
    anna.send_line("роли")
    await anna.expect("«Жаба» (Вера)", timeout=15)
    listing = anna.text[start:]
    assert after(listing, "по приоритету при равенстве голосов", "«Ёлка» (Boris)"), listing
    assert after(listing, "«Ёлка» (Boris)", "«Жаба» (Вера)"), listing

    for voter in (anna, others["Гоша"]):
        voter.send_line("голос Вера")
        await voter.expect("Заявка принята")
    for client in everyone:
        client.send_line("готов" if client is not boris else "ready")
    await anna.expect("Анна → Вера (1,5 голоса)", timeout=15)
    await anna.expect("Вера — 2,5 голоса")
    await boris.expect("Анна → Вера (1.5 votes)", timeout=15)
    await boris.expect("Вера — 2.5 votes")
    assert "1.5 голос" not in anna.text and "1,5 votes" not in boris.text
    for client in everyone:
        await client.close()
