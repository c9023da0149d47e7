"""Stats, ratings and seasons over the wire (issue 18): two whole Coup games for three, one of
people only (all three stand up at once: the autopilot plays their seats, which stay theirs)
and one with a bot, then over telnet and SSH: `stats` counts both (one with bots), `top coup`
lists the three ratings best first with the bot, `game N` (telnet ru, SSH en) shows each
seat's final cards and coins exactly as the end-of-game block did, `top coup humans` leaves the bot game out,
`finger` shows the rating, `season new` is refused to a player and started by an admin, and
the new season's `top` is empty while `top coup season 1` still reads."""
from __future__ import annotations

import re
from typing import Any

from tests.wire import open_table, person

HEADER = re.compile(r"Карты на стол|Cards on the table|Карти на стіл")
CONFIG = ('[tables]\nafk_timeouts = 1\nbot_delay = 0.05\n[accounts]\nadmins = ["Админ"]\n'
          '[limits]\ncommands_per_second = 20\ncommand_burst = 40\n[ratings]\ntop_page = 3\n')
GAME = "открыть переворот reaction=5 turn=10 seats=3"
LEAVE = {"Анна": "Вы выходите из-за стола", "Boris": "You leave table", "Гость": "Ви виходите"}


async def whole_game(host: Any, others: list[Any], bots: int) -> int:
    """``host`` opens Coup for three, ``others`` join, ``bots`` bots fill the rest; everyone
    stands up at once (the autopilot plays on) and each sees the end-of-game block; the
    table's number."""
    number = await open_table(host, GAME)
    for client in others:
        client.send_line(f"join {number}")
        await client.expect(re.compile("You sit down|Вы садитесь|Ви сідаєте"))
    if bots:
        host.send_line(f"боты {bots}")
        await host.expect(re.compile(rf"За стол сад\w+ {bots} бот"))
    for client in [host, *others]:
        client.mark_here()
    host.send_line("начать")
    await host.expect(re.compile("Начинается|Переворот"), timeout=10)
    for client in [host, *others]:
        client.send_line("leave")
    for client in [host, *others]:
        await client.expect(HEADER, timeout=120)
    return number


# One seat's line of Coup's end-of-game block: its hidden and face-up cards and its coins.
SEAT_CARDS = re.compile(r"^\s+\S+: (закрытые карты|face down|закриті карти) — .*$", re.M)


def seat_lines(text: str) -> list[str]:
    return [m.group(0).strip() for m in SEAT_CARDS.finditer(text)]


def lines_of(text: str, pattern: str) -> list[str]:
    return [line for line in text.splitlines() if re.search(pattern, line)]


async def reply(client: Any, command: str, until: str | re.Pattern[str], timeout: float = 5) -> str:
    """What ``command`` answered, up to and including ``until``."""
    client.mark_here()
    start = client.mark
    client.send_line(command)
    await client.expect(until, timeout=timeout)
    return client.text[start:client.mark]


async def test_stats_top_finger_and_seasons_after_real_games(server_factory):
    srv = server_factory(CONFIG)
    anna = await person(srv, "telnet", "Анна", "ru")
    boris = await person(srv, "ssh", "Boris", "en")
    guest = await person(srv, "telnet", "Гость", "uk")
    await whole_game(anna, [boris, guest], bots=0)  # people only
    anna.mark_here()
    boris.mark_here()
    number = await whole_game(anna, [boris], bots=1)  # with a bot
    await anna.settle(0.5)
    await boris.settle(0.1)
    # `game N` shows every seat's final cards and coins as the end-of-game block showed them.
    live = {"ru": seat_lines(anna.text_since_mark()), "en": seat_lines(boris.text_since_mark())}
    assert len(live["ru"]) == 3 and len(live["en"]) == 3, live
    anna.mark_here()
    anna.send_line(f"партия {number}")
    await anna.expect(re.compile(rf"Партия №{number}, «Переворот»: побед"))
    await anna.expect(HEADER)
    await anna.settle(0.5)
    assert seat_lines(anna.text_since_mark()) == live["ru"]
    boris.mark_here()
    boris.send_line(f"game {number}")
    await boris.expect(re.compile(rf"Game #{number}, «Coup»: won by"))
    await boris.expect(re.compile(r"3\. Бот-\w+ \(bot\)"))
    await boris.expect(HEADER)
    await boris.settle(0.5)
    assert seat_lines(boris.text_since_mark()) == live["en"]

    # stats: both games, one with bots, an average length; per the reader's language.
    text = await reply(anna, "статистика", re.compile(r"с ботами — \d+; в среднем партия длится [^.]+\."))
    assert "за все сезоны" in text
    assert re.search(r"Переворот: 2 партии, \d+ побед\w*; с ботами — 1", text), text
    text = await reply(boris, "stats Гость coup", re.compile(r"with bots: 0[;.]"))
    assert re.search(r"Coup: 1 game, [01] wins?; with bots: 0", text), text

    # top coup: four ratings (Анна, Boris, Гость, the bot), best first, each provisional, three
    # a page (top_page = 3).
    text = await reply(anna, "лучшие переворот", "Своя статистика")
    assert "4 игрока, страница 1 из 2" in text and "Дальше: лучшие ИГРА 2." in text, text
    rows = lines_of(text, r"^\s*\d+\. ")
    text = await reply(anna, "лучшие переворот 2", "Своя статистика")
    rows += lines_of(text, r"^\s*\d+\. ")
    assert [int(row.split(".")[0]) for row in rows] == [1, 2, 3, 4], rows
    shown = [int(re.search(r"— (\d+)", row).group(1)) for row in rows]
    assert shown == sorted(shown, reverse=True), rows
    assert any("Бот (обычный)" in row for row in rows) and all("предварительный" in row for row in rows)
    # top coup humans: the game with a bot left out; every person has played one game in it.
    text = await reply(boris, "top coup humans", "Your statistics")
    rows = lines_of(text, r"^\s*\d+\. ")
    assert len(rows) == 3 and not any("Bot" in row for row in rows), text
    assert all("(1 game," in row for row in rows), rows

    # finger shows the rating of this season.
    text = await reply(guest, "профіль Boris", re.compile(r"Переворот: \d+, попередній \(2 партії\)"))
    assert "Рейтинг у сезоні 1" in text

    # A new season: refused to a player, started by an admin (audited), its top empty, the old read.
    text = await reply(boris, "season new", "Only an admin")
    admin = await person(srv, "ssh", "Админ", "ru")
    await reply(admin, "сезон новый", "Начат сезон 2")
    text = await reply(anna, "сезон", re.compile(r"Идёт сезон 2, начат [^.]+\."))
    await reply(anna, "лучшие переворот", "В этом сезоне рейтинга по игре ещё нет")
    text = await reply(boris, "top coup season 1", "Your statistics")
    assert "4 players, page 1 of 2" in text and len(lines_of(text, r"^\s*\d+\. ")) == 3, text
    text = await reply(boris, "stats Анна season 2", "No finished games")
    text = await reply(boris, "top coup season 7", "There has been no season 7 yet")
    assert srv.log().count("event=season_new by=Админ season=2") == 1
    for client in (anna, boris, guest, admin):
        await client.close()
