"""The whole path: accounts, the hall, a table, and a demo game with hidden hands to the end."""
from __future__ import annotations

import asyncio
import re

import pytest

from tests.telnet_client import log_in

HAND_RU = re.compile(r"ваши карты — ([\d, ]+)\.")
HAND_EN = re.compile(r"your hand is ([\d, ]+)\.")


async def telnet(server, name, password="secret1", **kw):
    return await log_in(server.telnet_port, name, password, **kw)


def cards(text: str) -> list[int]:
    return [int(x) for x in text.replace(" ", "").split(",") if x]


async def test_tell_reaches_offline_player_later(server):
    anna = await telnet(server, "Анна")
    boris = await telnet(server, "Boris")
    boris.send_line("quit")
    await boris.expect("Счастливого пути")
    await boris.close()
    anna.send_line("tell Boris загляни к нам вечером")
    await anna.expect("сообщение ждёт")
    boris = await log_in(server.telnet_port, "Boris", create=False)
    await boris.expect("загляни к нам вечером")
    boris.send_line("inbox")
    await boris.expect("загляни к нам вечером")
    await anna.close()
    await boris.close()


async def test_tell_to_a_name_nobody_can_have_is_no_such_player(server):
    """A name longer than any account's (the database column holds 32) is "nobody is called
    that", not an internal error (the ORM refuses to even run such a query)."""
    anna = await telnet(server, "Анна")
    for name in ("Nobody", "x" * 33, "й" * 200):
        anna.send_line(f"tell {name} привет")
        await anna.expect("Никого не зовут")  # (the name itself wraps at 80 columns)
        await anna.expect(">")
    assert "сломалось" not in anna.text and anna.text.count("Никого не зовут") == 3
    await anna.close()


async def test_bots_are_named_in_the_hosts_language_and_reached_in_any_script(server):
    """Bots get names in the language of whoever seats them, and a player with another keyboard
    still names them: `glaf` finds «Бот-Глафира», «альф» finds Bot-Alfred."""
    hosts = {"en": await telnet(server, "Edith"), "uk": await telnet(server, "Олена"),
             "ru": await telnet(server, "Анна")}
    hosts["en"].send_line("lang en")
    await hosts["en"].expect("Language: English")
    hosts["uk"].send_line("мова uk")
    await hosts["uk"].expect("Мова: українська")
    expected = {"en": "Bot-Alfred, Bot-Beatrice", "uk": "Бот-Остап, Бот-Оксана", "ru": "Бот-Афанасий, Бот-Глафира"}
    for lang, host in hosts.items():
        host.send_line("open coup")
        await host.expect(re.compile(r"(table|стіл|стол) \d+"))
        host.send_line("bots 2")
        await host.expect(expected[lang])
    edith = hosts["en"]
    edith.send_line("leave")
    await edith.expect("You stand up")
    number = int(re.search(r"Вы открываете стол (\d+)", hosts["ru"].text).group(1))
    edith.send_line(f"join {number}")
    await edith.expect("You sit down")
    hosts["ru"].send_line("начать")
    await edith.expect("Coup begins")
    edith.mark_here()
    edith.send_line("steal glaf")  # her move or not, the name is understood first
    edith.send_line("steal zork")
    await edith.expect("Nobody called zork plays at this table.", timeout=10)  # answered in order
    assert "Nobody called glaf" not in edith.text
    for host in hosts.values():
        await host.close()


async def test_unknown_command_suggests(server):
    anna = await telnet(server, "Анна")
    anna.send_line("hlep")
    await anna.expect("Может быть, вы имели в виду: help")
    anna.send_line("кто")
    await anna.expect("В корчме 1 человек")
    anna.send_line("claim duke")
    await anna.expect("игровая команда")
    anna.send_line("помощь сказт")  # help on a typo: the near commands
    await anna.expect("Нет справки по «сказт». Может быть: сказ, сказать")
    anna.send_line("помощь 1")  # nothing near: the list, not "Может быть: -"
    await anna.expect("Нет справки по «1». Список команд: помощь.")
    await anna.close()


async def play_to_end(players: dict, hands: dict[str, list[int]], rounds: int,
                      watchers: list) -> None:
    for number in range(1, rounds + 1):
        for name, client in players.items():
            await client.expect(re.compile(rf"(Раунд|Round) {number} "), timeout=10)
        for name, client in players.items():
            card = hands[name].pop(0)
            client.send_line(f"bid {card}")
            await client.expect(re.compile(rf"(ставка {card} принята|bid of {card} is sealed)"))


async def test_demo_game_between_people_and_a_bot(server):
    anna = await telnet(server, "Анна", ttype="xterm-256color")
    boris = await telnet(server, "Boris")
    guest = await telnet(server, "Гость")
    boris.send_line("lang en")
    await boris.expect("Language: English")

    anna.send_line("открыть торги rounds=3 seats=3")
    await anna.expect("Вы открываете стол")
    number = int(re.search(r"стол (\d+)", anna.text).group(1))
    await boris.expect(f"join {number}")
    boris.send_line(f"join {number}")
    await boris.expect("You sit down")
    guest.send_line(f"watch {number}")
    await guest.expect("Вы смотрите")
    boris.send_line("start")
    await boris.expect("Only the host")
    anna.send_line("боты 1 лёгкий")
    await anna.expect("За стол садится 1 бот")
    anna.send_line("'удачи всем")  # table-only chat
    await boris.expect("удачи всем")
    await guest.expect("удачи всем")
    for c in (anna, boris, guest):
        c.mark_here()
    anna.send_line("начать")
    hand_a = cards(HAND_RU.search(await anna.expect(HAND_RU, 10)).group(1))
    hand_b = cards(HAND_EN.search(await boris.expect(HAND_EN, 10)).group(1))
    assert len(hand_a) == len(hand_b) == 3
    await play_to_end({"Анна": anna, "Boris": boris}, {"Анна": list(hand_a), "Boris": list(hand_b)}, 3, [guest])
    await anna.expect(re.compile(r"Игра за столом \d+ окончена"), timeout=15)
    await boris.expect(re.compile(r"Game over at table \d+"), timeout=15)
    await guest.expect(re.compile(r"Игра за столом \d+ окончена"), timeout=15)
    # Secrets: nobody heard another's hand or sealed bid; the watcher heard no whisper at all.
    assert "your hand is" not in anna.text and "is sealed" not in anna.text
    assert len(HAND_RU.findall(anna.text)) == 1
    assert "ваши карты" not in boris.text and "принята" not in boris.text
    assert "ваши карты" not in guest.text and "Мастер шепчет" not in guest.text
    for c in (anna, boris, guest):
        await c.close()
    # The audit trail: who opened and started it, and how it ended (once the result is out).
    finished = re.compile(rf"event=table_finished number={number} game=bids winners=\S")
    for _ in range(100):
        if finished.search(server.log()):
            break
        await asyncio.sleep(0.1)
    log = server.log()
    assert finished.search(log), log[-3000:]
    assert f"event=table_opened by=Анна number={number} game=bids" in log
    assert re.search(rf"event=table_started by=Анна number={number} game=bids seats=\S*Boris", log)


async def test_timeout_default_and_autopilot(server_factory):
    srv = server_factory("[games.bids]\nseconds = 1\n[tables]\nafk_timeouts = 2\nbot_delay = 0.05")
    anna = await telnet(srv, "Анна")
    anna.send_line("open bids rounds=4")
    anna.send_line("bots 1")
    await anna.expect("За стол садится 1 бот")
    anna.mark_here()
    anna.send_line("start")
    # Anna never bids: her lowest card is bid for her at each deadline, then a bot takes over.
    await anna.expect("ставка", timeout=10)
    await anna.expect(re.compile(r"пока вы снова не сделаете ход,\s+за\s+вас\s+играет\s+бот"), timeout=15)
    await anna.expect(re.compile(r"Игра за столом \d+ окончена"), timeout=20)
    await anna.close()


async def test_reserved_game_verbs_go_to_the_engine(server):
    anna = await telnet(server, "Анна")
    anna.send_line("vote Boris")
    await anna.expect("игровая команда")
    anna.send_line("open bids")
    anna.send_line("bots 1")
    await anna.expect("За стол садится 1 бот")
    anna.send_line("start")
    await anna.expect("ваши карты")
    anna.send_line("claim duke")  # not a move of Sealed Bids: the engine says so
    await anna.expect("Такого хода в этой игре нет")
    await anna.close()


async def test_missed_whispers_wait_for_return(server_factory):
    srv = server_factory("[games.bids]\nseconds = 30\n[tables]\nbot_delay = 0.05")
    anna = await telnet(srv, "Анна")
    boris = await telnet(srv, "Борис")
    anna.send_line("open bids rounds=3")
    number = int(re.search(r"стол (\d+)", await anna.expect(re.compile(r"открываете стол \d+"))).group(1))
    boris.send_line(f"join {number}")
    await boris.expect("Вы садитесь")
    anna.send_line("start")
    hand = cards(HAND_RU.search(await boris.expect(HAND_RU, 10)).group(1))
    boris.send_line("quit")
    await boris.close()
    hand_a = cards(HAND_RU.search(await anna.expect(HAND_RU, 10)).group(1))
    anna.send_line(f"bid {hand_a[0]}")
    await anna.expect("принята")
    boris = await log_in(srv.telnet_port, "Борис", create=False)
    await boris.expect("Пока вас не было")
    await boris.expect("Анна делает тайную ставку")
    await boris.expect(f"Вы снова за столом {number}")
    await boris.expect(f"Ваши карты: {', '.join(map(str, hand))}")
    boris.send_line(f"bid {hand[0]}")
    await boris.expect("принята")
    await anna.expect("Раунд 2 из 3")
    for c in (anna, boris):
        await c.close()


async def test_demo_game_telnet_ssh_and_bot_with_gmcp(server):
    from tests.ssh_client import connect

    anna = await telnet(server, "Анна", gmcp=True)
    boris = await connect(server.ssh_port, "Boris", password="secret1", width=100)
    await boris.expect("Boris")
    boris.send_line("lang en")
    await boris.expect("Language: English")
    before_open = len(anna.gmcp_messages)
    anna.send_line("open bids rounds=3 seats=3")
    number = int(re.search(r"стол (\d+)", await anna.expect(re.compile(r"открываете стол \d+"))).group(1))
    table_info = await anna.gmcp("Korchma.Table", after=before_open)
    assert any(t["number"] == number for t in table_info["tables"])
    boris.send_line(f"join {number}")
    await boris.expect("You sit down")
    anna.send_line("bots 1")
    await boris.expect("sits down: 1 bot")
    boris.send_line("say hello from ssh")
    await anna.expect("Boris говорит: «hello from ssh»")
    anna.send_line("'и тебе привет")
    await boris.expect("и тебе привет")
    seen = len(anna.gmcp_messages)
    anna.send_line("start")
    hand_a = cards(HAND_RU.search(await anna.expect(HAND_RU, 10)).group(1))
    hand_b = cards(HAND_EN.search(await boris.expect(HAND_EN, 10)).group(1))
    view = await anna.gmcp("Korchma.Game.View", after=seen)
    assert view["view"]["hand"] == hand_a and "hands" not in view["view"]
    awaiting = await anna.gmcp("Korchma.Game.Awaiting", after=seen)
    assert {"type": "bid", "card": hand_a[0]} in awaiting["legal"] and awaiting["deadline"]
    for round_no in (1, 2, 3):
        await anna.expect(f"Раунд {round_no} из 3", timeout=10)
        await boris.expect(f"Round {round_no} of 3", timeout=10)
        anna.send_line(f"ставка {hand_a[round_no - 1]}")
        boris.send_line(f"bid {hand_b[round_no - 1]}")
        await boris.expect(f"bid of {hand_b[round_no - 1]} is sealed")
    await anna.expect(re.compile(r"Игра за столом \d+ окончена"), timeout=15)
    await boris.expect(re.compile(r"Game over at table \d+"), timeout=15)
    events = [d for name, d in anna.gmcp_messages[seen:] if name == "Korchma.Game.Event"]
    keys = {e["key"] for e in events}
    assert {"bids.start", "bids.hand", "bids.round", "bids.reveal_bid", "bids.game_over"} <= keys
    # Anna's GMCP never carried Boris's hand or his sealed bid before the reveal.
    for e in events:
        if e["whisper"]:
            assert e["params"].get("seat") == 0
    assert "your hand is" not in anna.text
    assert "ваши карты" not in boris.text
    await anna.close()
    await boris.close()
