"""Every line once: each event reaches each reader once, whatever roles the reader has at the
table (issue 14, "Every line once, short, and right").

1. The observer Master of a Mafia table (telnet, and a second Master over SSH) reads each public
   event once, not once as a watcher and once as the Master: the same public events as a plain
   watcher, in the same order.
2. A Coup income is one line, over telnet and SSH: the declaration is taken at once and its
   result says it («Анна получает доход…»), so the declaration prints nothing (client scripts
   still get its GMCP event).
"""
from __future__ import annotations

import asyncio
import re

from tests.ssh_client import connect
from tests.telnet_client import log_in
from tests.wire import open_table

ADMIN = '[accounts]\nadmins = ["Смотритель"]'
START_RU = "Начинается «Мафия»"


def public_events(client) -> list[tuple[str, str]]:
    return [(d["key"], repr(sorted(d["params"].items()))) for n, d in client.gmcp_messages
            if n == "Korchma.Game.Event" and not d["whisper"] and "to_seats" not in d]


def flat(text: str) -> str:
    """Text as one line: each reader's lines wrap at their own width."""
    return re.sub(r"\s+", " ", text).strip()


async def poll(predicate, timeout: float, what: str) -> None:
    loop = asyncio.get_running_loop()
    until = loop.time() + timeout
    while not predicate():
        assert loop.time() < until, f"timed out waiting for {what}"
        await asyncio.sleep(0.1)


async def test_mafia_observer_master_reads_each_public_event_once(server_factory):
    srv = server_factory(ADMIN)
    anna = await log_in(srv.telnet_port, "Анна", gmcp=True)
    number = await open_table(anna, "открыть мафия night=10m day=10m master=Вика")
    anna.send_line("боты 4")
    await anna.expect("За стол садятся 4 бота")
    vika = await log_in(srv.telnet_port, "Вика", gmcp=True)
    vika.send_line(f"мастер {number}")
    await vika.expect(f"Вы — Мастер стола {number}")
    warden = await connect(srv.ssh_port, "Смотритель", password="secret1", width=200)
    await warden.expect("Смотритель")
    warden.send_line(f"мастер {number}")
    await warden.expect(f"Мастер стола {number}")
    guest = await log_in(srv.telnet_port, "Гость", gmcp=True)
    guest.send_line(f"watch {number}")
    await guest.expect(f"{number}")
    anna.send_line("начать")
    await anna.expect(START_RU, timeout=15)
    # Night 1 ends when Анна is ready too (the bots are at once): the day's news are public.
    await poll(lambda: any(n == "Korchma.Game.Awaiting" and d.get("kind") for n, d in anna.gmcp_messages),
               15, "Анна's first wait")
    anna.send_line("готов")
    await poll(lambda: any(key == "mafia.news" for key, _ in public_events(guest)), 20, "the news of the first night")
    await guest.settle(1.0)
    await vika.settle(0.5)
    await warden.settle(0.5)
    watched = public_events(guest)
    # The same public events as the watcher, each once (the Master also gets the order log).
    assert len(watched) >= 5 and [e for e in public_events(vika) if e[0] != "mafia.order_log"] == watched
    # Every public line the watcher read since the start, each Master read as often (not twice).
    started = guest.text.index("Мастер начинает игру")
    lines = [flat(line) for line in guest.text[started:].replace("\r", "").split("\n")]
    news = [line for line in lines if len(line) > 20]
    assert len(news) >= 5, news
    for reader in (vika, warden):
        text = flat(reader.text)
        for line in news:
            assert text.count(line) == 1, (line, text[-3000:])
    for client in (anna, vika, guest):
        await client.close()
    await warden.close()


async def test_coup_income_is_one_line_for_every_reader(server):
    anna = await log_in(server.telnet_port, "Анна", gmcp=True, naws=(200, 50))
    number = await open_table(anna, "открыть переворот seats=3 first=1 turn=300 reaction=300")
    boris = await connect(server.ssh_port, "Boris", password="secret1", width=200)
    await boris.expect("Boris")
    boris.send_line("lang en")
    await boris.expect("Language: English")
    boris.send_line(f"join {number}")
    await boris.expect("You sit down")
    anna.send_line("боты 1")
    await anna.expect("За стол садится 1 бот")
    guest = await log_in(server.telnet_port, "Гость", gmcp=True, naws=(200, 50))
    guest.send_line(f"watch {number}")
    await guest.expect(f"{number}")
    anna.send_line("начать")
    await anna.expect("Ваш ход", timeout=10)
    anna.send_line("доход")
    result = {anna: "Анна получает доход: 1 монету (всего 3 монеты).",
              boris: "Анна takes 1 coin of income (3 coins in all).",
              guest: "Анна получает доход: 1 монету (всего 3 монеты)."}
    for reader, line in result.items():
        await reader.expect(line, timeout=10)
    await boris.expect("Boris's turn")
    for reader in (anna, guest):
        await reader.settle(0.5)
    for reader, line in result.items():
        text = flat(reader.text)
        assert text.count(line) == 1, text[-2000:]
        for declared in ("берёт доход", "takes income"):  # the declaration's words
            assert declared not in text, text[-2000:]
    # The scripts' contract is unchanged: the declaration's GMCP event still comes, once.
    declares = [d for n, d in guest.gmcp_messages if n == "Korchma.Game.Event" and d["key"] == "coup.declare"]
    assert [d["params"] for d in declares] == [{"actor_seat": 0, "action": "income"}]
    for client in (anna, guest):
        await client.close()
    await boris.close()
