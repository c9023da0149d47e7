"""Issue 15, Coup's several blockers as the players see them, over real telnet and SSH (coup.md #31).

Four people, challenge_order=seat (the default); Анна plays first and asks for foreign aid. Гоша
(seat 4) and Vera (seat 3) claim the Duke's block and are told they wait for priority; Boris
(seat 2) claims it too and his block goes public. Анна challenges, Boris concedes and turns a
card up: Vera's block goes public in its turn, with its own challenge window. Everyone lets it
pass: the block stands (the aid is not paid), and Гоша, whose block was never used, is told so;
nobody else is.
"""
from __future__ import annotations

import re

import pytest

from tests.test_acceptance_fixes_flow import after
from tests.wire import open_table, person

ROLES_EN = "Duke|Assassin|Captain|Ambassador|Contessa"


@pytest.mark.parametrize("door", ["telnet", "ssh"])
async def test_the_next_blocker_goes_public_and_the_unused_one_is_told(server, door):
    other = "ssh" if door == "telnet" else "telnet"
    anna = await person(server, "telnet", "Анна", "ru")
    number = await open_table(anna, "открыть переворот seats=4 first=1 turn=300 reaction=300")
    boris = await person(server, other, "Boris", "en")
    vera = await person(server, door, "Vera", "en")
    gosha = await person(server, door, "Гоша", "ru")
    for client, seated in ((boris, "You sit down"), (vera, "You sit down"), (gosha, "Вы садитесь")):
        client.send_line(f"join {number}")  # one at a time: seats go in the order of joining
        await client.expect(seated)
    anna.send_line("начать")
    found = await boris.expect(re.compile(rf"your cards are ({ROLES_EN}), ({ROLES_EN})"), timeout=10)
    boris_card = re.search(rf"your cards are ({ROLES_EN})", found).group(1).lower()
    await anna.expect("Ваш ход", timeout=10)

    anna.send_line("подмога")
    for client in (boris, vera):
        await client.expect("You may answer")
    await gosha.expect("Можно ответить")
    gosha.send_line("блок губернатор")
    await gosha.expect("Сработает, если никто с более высоким приоритетом не опередит вас.")
    vera.send_line("block duke")
    await vera.expect("It takes effect unless a player with priority acts first.")
    boris.send_line("block duke")
    await anna.expect("Блок! Boris называет себя Губернатором")

    anna.send_line("вызов")
    await boris.expect("Challenge! Анна does not believe Boris is the Duke.")
    boris.send_line("concede")
    await boris.expect("turns a card face up")
    boris.send_line(f"lose {boris_card}")
    await anna.expect("Блок! Vera называет себя Губернатором")
    await vera.expect("Block! Vera claims to be the Duke and blocks Анна.")
    await gosha.expect("Блок! Vera называет себя Губернатором")
    assert after(anna.text, "Блок! Boris", "Блок! Vera") and "получает иностранную помощь" not in anna.text

    anna.send_line("пропустить")
    boris.send_line("allow")
    gosha.send_line("пропустить")
    await anna.expect("Блок в силе")
    await gosha.expect("Мастер шепчет: ваш блок снят — первым по приоритету сработал блок игрока Vera.")
    await vera.expect("The block stands")
    await boris.expect("The block stands")
    for client in (anna, boris, vera):
        await client.settle(0.3)
        assert "block is dropped" not in client.text and "блок снят" not in client.text
    assert "получает иностранную помощь" not in anna.text
    for client in (anna, boris, vera, gosha):
        await client.close()
