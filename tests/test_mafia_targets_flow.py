"""Forum Mafia over the wire (telnet and SSH): orders that name seats otherwise than by a target
(issue 15; docs/mafia-protocol.md, Decisions, "Orders that name seats"). Five people: the five
secret roles of a five-seat table are all dealt, each learns their own; Вера signs up as the
Социопат. Night 1: a Кровавая баня that names the Социопат, and a letter to him, are refused in one
line each, saying he is protected (the letter's said "already used"). Night 2: a
Кровавая баня that names the Босс (a wrong guess, so no harm) meets his Обрез под столом, which
answers it: the Маньяк goes to the Hospital, which the morning news tells everyone."""
from __future__ import annotations

import re

import pytest

from tests.test_acceptance_fixes_flow import MAFIA_CONFIG
from tests.wire import open_table, person


@pytest.mark.parametrize("door", ["telnet", "ssh"])
async def test_bloodbath_keeps_off_the_sociopath_and_the_sawnoff_answers_it_on_the_boss(server_factory, door):
    names = ("Анна", "Вера", "Гоша", "Дина", "Ефим")
    srv = server_factory(MAFIA_CONFIG)
    people = {name: await person(srv, door, name, "ru") for name in names}
    host = people["Анна"]
    number = await open_table(host, "открыть мафия seats=5 night=10m day=10m")
    for name in names[1:]:
        people[name].send_line(f"сесть {number}")
        await people[name].expect("Вы садитесь")
    people["Вера"].send_line("класс Социопат")
    await people["Вера"].expect("Ваша явная роль: «Социопат»")
    host.send_line("начать")
    role = re.compile(r"ваша тайная роль — (\w+)")
    roles = {}
    for name, client in people.items():
        roles[re.search(r"\w+$", await client.expect(role, timeout=15)).group(0)] = name
    assert {"Босс", "Маньяк"} <= set(roles), roles
    boss, maniac = people[roles["Босс"]], people[roles["Маньяк"]]

    if roles["Маньяк"] != "Вера":  # (one deal in five makes the Социопат the Маньяк himself)
        maniac.send_line("ночь кровавая баня Социопат Босс")
        await maniac.expect("Кровавая баня: цель Вера выбрать нельзя — её защищает явная роль.")
        assert "Заявка принята: Кровавая баня" not in maniac.text
    host.send_line("почта Вера привет")  # a letter is an ability like any other for Затворник
    await host.expect("Почта: цель Вера выбрать нельзя — её защищает явная роль.")
    assert "уже применяли" not in host.text
    for phase in ("Утро. Итоги ночи 1:", "Вечер. Итоги дня 1:"):  # nobody else orders, nobody votes
        for client in people.values():
            client.send_line("готов")
        for client in people.values():
            await client.expect(phase, timeout=15)

    boss_public = "Социопат" if roles["Босс"] == "Вера" else roles["Босс"]  # (no class: one's own name)
    maniac.send_line(f"ночь кровавая баня {boss_public} Офицер")
    await maniac.expect("Заявка принята: Кровавая баня")
    boss.send_line("ночь обрез")
    await boss.expect("Заявка принята: Обрез")
    for client in people.values():
        client.send_line("готов")
    for client in people.values():
        await client.expect(f"{roles['Маньяк']} попадает в Госпиталь.", timeout=15)
    for client in people.values():
        await client.close()
